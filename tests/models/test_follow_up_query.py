"""A chat follow-up is searched with the subject of the questions before it."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from citeline.models.embedded.ranking import follow_up_query as _follow_up_query
from citeline.models.embedded.tuning import Tuning
from citeline.text.answer_terms import content_terms, subject_terms

TUNING = Tuning()
HISTORY_QUESTIONS = TUNING.history_questions


def follow_up_query(question: str, earlier: list[str], *, for_search: bool = True) -> str:
    return _follow_up_query(question, earlier, TUNING, for_search=for_search)


def test_which_one_is_faster_after_list_or_tuple_searches_for_list_and_tuple_speed() -> None:
    query = follow_up_query(
        "Which one is faster?", ["What is the difference between a list and a tuple?"]
    )
    assert {"faster", "list", "tupl"} <= content_terms(query)
    assert "difference" not in query  # a framing word says nothing of the subject


def test_a_first_question_is_searched_as_asked() -> None:
    assert follow_up_query("How do I sort a list?", []) == "How do I sort a list?"


def test_words_the_follow_up_already_names_are_not_repeated() -> None:
    query = follow_up_query("How do I sort a list in reverse?", ["How do I sort a list?"])
    assert query == "How do I sort a list in reverse?"


def test_a_follow_up_asking_for_its_own_action_does_not_search_for_the_earlier_one() -> None:
    query = follow_up_query(
        "And how do I write lines to it?", ["How do I read a file line by line?"]
    )
    assert "file" in query.split()
    assert "read" not in query.split()
    # Read for meaning, the conversation's words are kept whole.
    read = follow_up_query(
        "And how do I write lines to it?", ["How do I read a file line by line?"], for_search=False
    )
    assert {"read", "file"} <= set(read.split())


def test_only_the_recent_questions_of_a_long_chat_are_carried() -> None:
    earlier = ["What is a decorator?", "What is a generator?", "What is a coroutine?"]
    query = follow_up_query("Give me an example", earlier)
    assert {"generat", "coroutin"} <= content_terms(query)
    assert "decor" not in content_terms(query)


_WORDS = """list tuple dictionary sort key generator file open write lambda thread lock enum
regex match venv package logging level faster slower which one it that them and the of how do
I what is difference between how can I"""
_word = st.sampled_from(_WORDS.split())
_question = st.tuples(
    st.sampled_from(["", "How do I ", "how can I "]), st.lists(_word, min_size=1, max_size=8)
).map(lambda q: q[0] + " ".join(q[1]) + "?")


@settings(max_examples=200, deadline=None)
@given(earlier=st.lists(_question, min_size=1, max_size=4), question=_question)
def test_a_follow_ups_query_holds_the_key_terms_of_the_recent_questions(
    earlier: list[str], question: str
) -> None:
    query = follow_up_query(question, earlier)
    assert query.startswith(question)
    held = content_terms(query)
    own_action = re.search(r"\bhow (?:do|can) i (\w+)", question, re.IGNORECASE)
    for before in earlier[-HISTORY_QUESTIONS:]:
        kept = subject_terms(before)
        if own_action:
            # The action an earlier "how do I ..." asked for gives way to the follow-up's own.
            for action in re.findall(r"\bhow (?:do|can) i (\w+)", before, re.IGNORECASE):
                kept -= subject_terms(action)
        assert kept <= held
