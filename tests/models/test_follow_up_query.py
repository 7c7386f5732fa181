"""A chat follow-up is searched with the subject of the questions before it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from citeline.models.embedded_ranking import HISTORY_QUESTIONS, follow_up_query
from citeline.models.embedded_terms import content_terms, subject_terms


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


def test_only_the_recent_questions_of_a_long_chat_are_carried() -> None:
    earlier = ["What is a decorator?", "What is a generator?", "What is a coroutine?"]
    query = follow_up_query("Give me an example", earlier)
    assert {"generat", "coroutin"} <= content_terms(query)
    assert "decor" not in content_terms(query)


_WORDS = """list tuple dictionary sort key generator file open write lambda thread lock enum
regex match venv package logging level faster slower which one it that them and the of how do
I what is difference between"""
_word = st.sampled_from(_WORDS.split())
_question = st.lists(_word, min_size=1, max_size=8).map(lambda w: " ".join(w) + "?")


@settings(max_examples=200, deadline=None)
@given(earlier=st.lists(_question, min_size=1, max_size=4), question=_question)
def test_a_follow_ups_query_holds_the_key_terms_of_the_recent_questions(
    earlier: list[str], question: str
) -> None:
    query = follow_up_query(question, earlier)
    assert query.startswith(question)
    held = content_terms(query)
    for before in earlier[-HISTORY_QUESTIONS:]:
        assert subject_terms(before) <= held
