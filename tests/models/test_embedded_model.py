"""The embedded model: search, rank the sections, read the best, answer with one passage."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from citeline.models.embedded import model as embedded
from citeline.models.embedded.model import (
    FRAGMENT_CHARS,
    NOTHING_FOUND,
    TOOLS_FAILED,
    ToolOutcome,
    ToolRequest,
    TurnView,
    next_step,
)
from citeline.models.embedded.passages import Unit, is_dangling, units_of
from citeline.models.embedded.tuning import (
    Fitted,
    LinearModel,
    TextRules,
    Tuning,
    shipped_tuning,
    use_tuning,
)
from citeline.models.tool_loop import MAX_CALLS_PER_RESPONSE, MAX_MODEL_REQUESTS
from citeline.models.turn import Similarity
from citeline.stream import Pipeline
from citeline.stream.anchors import Anchor

TUNING = shipped_tuning()
SEARCH_K = TUNING.search_k
NARROW_SEARCH_K = TUNING.narrow_search_k
MEANING_BLOCKS = TUNING.meaning_blocks

QUESTION = "Does vitamin D supplementation reduce fracture risk in older adults?"
DOCS = {
    "101": (
        "Vitamin D and fractures",
        "Falls are common in older adults. Vitamin D supplementation reduced the risk of hip "
        "fracture by a fifth in adults over 65. The effect depended on the dose given daily. "
        "Calcium alone showed no benefit.",
    ),
    "202": (
        "Bone density in the elderly",
        "Bone density declines with age in both sexes. Older adults given vitamin D had fewer "
        "non-vertebral fractures than those given placebo.",
    ),
    "303": ("Unrelated [bracketed] title", "Photosynthesis converts light into chemical energy."),
}


def _search(
    ids: list[str], docs: dict[str, tuple[str, str]] = DOCS, unheld: tuple[str, ...] = ()
) -> ToolOutcome:
    """A search's result as the tool loop hands it over; ``unheld`` the query's words the
    collection holds nowhere, which the search tool names (``not_in_collection``)."""
    results = [
        {"id": i, "href": f"cite:{i}", "title": docs[i][0], "passage": docs[i][1][:80]} for i in ids
    ]
    value: dict[str, object] = {"query": QUESTION, "results": results}
    if unheld:
        value["not_in_collection"] = list(unheld)
    return ToolOutcome("search", [value, "REMINDER"])


def _read(doc_id: str, docs: dict[str, tuple[str, str]] = DOCS) -> ToolOutcome:
    title, text = docs[doc_id]
    return ToolOutcome(
        "read", {"id": doc_id, "href": f"cite:{doc_id}", "title": title, "text": text}
    )


def _searched_and_read(
    ids: list[str], docs: dict[str, tuple[str, str]] = DOCS, unheld: tuple[str, ...] = ()
) -> tuple[ToolOutcome, ...]:
    """The turn's tool results after searching found ``ids`` and each was read, in order."""
    return (_search(ids, docs, unheld), *(_read(i, docs) for i in ids))


def _answer(view: TurnView) -> str:
    step = next_step(view)
    assert not isinstance(step, tuple)
    return "".join(step)


def _stressed(model: str, feature: str, weight: float) -> Tuning:
    """The shipped tuning with one feature's weight in one model (``section``, ``passage``,
    ``read`` or ``confidence``) set to ``weight`` in both fitted sets: a feature's effect
    shown apart from what a refit makes of it."""

    def stress(fitted: Fitted) -> Fitted:
        linear: LinearModel = getattr(fitted, model)
        changed = LinearModel({**linear.weights, feature: weight}, linear.bias)
        return dataclasses.replace(fitted, **{model: changed})

    return dataclasses.replace(
        TUNING, with_meaning=stress(TUNING.with_meaning), words_only=stress(TUNING.words_only)
    )


def _answered(question: str, ids: list[str], docs: dict[str, tuple[str, str]]) -> str:
    """The prose a reader sees of the answer to ``question`` once ``ids`` were searched and
    read, in that order."""
    prose, _ = _prose(_answer(TurnView(question, outcomes=_searched_and_read(ids, docs))))
    return prose


def _prose(answer: str) -> tuple[str, list[Anchor]]:
    """The prose a reader sees and the anchors in it, through the real pipeline."""
    pipeline = Pipeline()
    chunks = [pipeline.feed(answer), pipeline.flush()]
    text = "".join(c.text for c in chunks)
    return text, [a for c in chunks for a in c.anchors if a.start is not None]


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_it_searches_first_with_the_question() -> None:
    assert next_step(TurnView(QUESTION)) == (
        ToolRequest("search", {"query": QUESTION, "k": NARROW_SEARCH_K}),
    )


def test_a_follow_up_is_searched_with_the_earlier_questions_subject() -> None:
    step = next_step(
        TurnView(
            "Which one is faster?",
            earlier_questions=("What is the difference between a list and a tuple?",),
        )
    )
    assert isinstance(step, tuple)
    query = step[0].args["query"]
    assert query.startswith("Which one is faster?")
    assert {"list", "tuple"} <= set(query.lower().split())


def test_a_short_question_asks_for_more_results_than_a_follow_up_or_a_long_claim() -> None:
    def k(view: TurnView) -> object:
        step = next_step(view)
        assert isinstance(step, tuple)
        return step[0].args["k"]

    long_claim = (
        "Daily vitamin D supplementation lowers hip fracture incidence among elderly women "
        "living in nursing homes"
    )
    assert k(TurnView("How do I undo my last commit?")) == SEARCH_K == 20
    assert k(TurnView("And in children?", earlier_questions=(QUESTION,))) == NARROW_SEARCH_K
    assert k(TurnView(long_claim)) == NARROW_SEARCH_K < SEARCH_K


def test_after_searching_it_reads_the_sections_its_section_model_ranks_best() -> None:
    def reads(weights: dict[str, float]) -> set[str]:
        fitted = dataclasses.replace(TUNING.words_only, section=LinearModel(weights))
        tuning = dataclasses.replace(TUNING, words_only=fitted, documents_to_read=2)
        with use_tuning(tuning):
            step = next_step(TurnView(QUESTION, outcomes=(_search(["303", "202", "101"]),)))
        assert isinstance(step, tuple) and all(r.tool == "read" for r in step)
        return {r.args["id"] for r in step}

    assert reads({"own_coverage": 1.0}) == {"101", "202"}  # the two holding the question
    assert reads({"rank": 1.0}) == {"303", "202"}  # the search's first two


def test_of_the_sections_read_the_one_whose_best_passage_holds_the_question_answers() -> None:
    # The section model reads in the search's order; the read model weighs only what each
    # read section's best passage holds, wherever it is in the section.
    fitted = dataclasses.replace(
        TUNING.words_only,
        section=LinearModel({"rank": 1.0}),
        read=LinearModel({"read_run_coverage": 1.0}),
    )
    tuning = dataclasses.replace(TUNING, words_only=fitted, documents_to_read=3)
    ids = ["303", "202", "101"]
    with use_tuning(tuning):
        step = next_step(TurnView(QUESTION, outcomes=(_search(ids),)))
        assert isinstance(step, tuple) and {r.args["id"] for r in step} == set(ids)
        answer = _answer(TurnView(QUESTION, outcomes=_searched_and_read(ids)))
    assert "cite:101" in answer.split("## Sources")[0]


def test_the_answer_is_one_verbatim_passage_whose_opening_words_carry_the_link() -> None:
    view = TurnView(QUESTION, outcomes=_searched_and_read(["101", "202"]))
    text = _answer(view)
    listing = text.partition("\n\n## Sources\n\n")[2]
    assert listing, "the answer ends with a ## Sources list"
    prose, anchors = _prose(text)
    assert "hip fracture" in prose
    assert anchors and anchors[0].href == "cite:101"
    assert anchors[0].start == 0 and prose.startswith(anchors[0].text)
    assert "(Vitamin D and fractures)" not in prose
    assert _flat(prose) in _flat(DOCS["101"][1])


def test_a_title_never_appears_in_the_prose() -> None:
    view = TurnView(QUESTION, outcomes=_searched_and_read(["101", "202"]))
    prose, _ = _prose(_answer(view))
    assert "Bone density in the elderly" not in prose
    assert "Vitamin D and fractures" not in prose


def test_the_same_question_gives_the_same_fragments() -> None:
    view = TurnView(QUESTION, outcomes=_searched_and_read(["101", "202"]))
    first, second = next_step(view), next_step(view)
    assert not isinstance(first, tuple) and not isinstance(second, tuple)
    assert list(first) == list(second)


def test_fragments_are_small_and_uneven() -> None:
    view = TurnView(QUESTION, outcomes=_searched_and_read(["101", "202"]))
    step = next_step(view)
    assert not isinstance(step, tuple)
    sizes = [len(fragment) for fragment in step]
    low, high = FRAGMENT_CHARS
    assert all(low <= size <= high for size in sizes[:-1])
    assert len(set(sizes)) > 3


def test_some_answers_cite_with_an_html_anchor_and_others_with_markdown_only() -> None:
    forms = set()
    for n in range(12):
        question = f"{QUESTION} variant {n}"
        view = TurnView(question, outcomes=_searched_and_read(["101", "202"]))
        forms.add("<a href=" in _answer(view))
    assert forms == {True, False}


def test_a_search_that_found_nothing_is_said_plainly() -> None:
    empty = ToolOutcome("search", {"query": QUESTION, "results": []})
    assert _answer(TurnView(QUESTION, outcomes=(empty,))) == NOTHING_FOUND


def test_a_failed_search_is_said_plainly() -> None:
    failed = ToolOutcome("search", '{"error":"search failed: disk"}', failed=True)
    assert _answer(TurnView(QUESTION, outcomes=(failed,))) == TOOLS_FAILED


def test_a_failed_read_falls_back_to_the_search_passages() -> None:
    failed = ToolOutcome("read", '{"error":"read failed"}', failed=True)
    text = _answer(TurnView(QUESTION, outcomes=(_search(["101"]), failed)))
    assert "cite:101" in text


def test_brackets_in_a_title_never_break_the_sources_list() -> None:
    text = _answer(TurnView("photosynthesis light energy", outcomes=_searched_and_read(["303"])))
    assert "[Unrelated (bracketed) title](cite:303)" in text


def test_results_about_something_else_give_a_one_line_pointer_and_no_link() -> None:
    # The words the search tool says these documents never write.
    unheld = ("bake", "sourdough", "bread", "home")
    text = _answer(
        TurnView(
            "How do I bake sourdough bread at home?",
            outcomes=_searched_and_read(["101", "202"], unheld=unheld),
        )
    )
    assert text.startswith(NOTHING_FOUND)
    assert "\n" not in text
    assert "](" not in text and "<a" not in text
    assert "“Vitamin D and fractures”" in text


TIMING = {
    "t": (
        "Brief Tour of the Standard Library: Performance Measurement",
        "Some Python users develop a deep interest in knowing the relative performance of "
        "different approaches to the same problem. Python provides a measurement tool that "
        "answers those questions immediately: the timeit module.",
    ),
    "s": (
        "Logging HOWTO: Next Steps",
        "If you run into problems with a piece of code, or it takes long to run, post a "
        "question on the mailing list and someone will help.",
    ),
}


def _alike(score_of: dict[str, float]) -> Similarity:
    def similarity(question: str, texts: Sequence[str], *, exact: bool = True) -> list[float]:
        return [next((v for k, v in score_of.items() if k in text), 0.1) for text in texts]

    return similarity


def test_a_question_no_section_means_is_still_answered_nothing_found() -> None:
    view = TurnView(
        "How do I bake sourdough bread at home?",
        outcomes=_searched_and_read(["101", "202"]),
        similarity=_alike({"Vitamin": 0.1}),
    )
    assert _answer(view).startswith(NOTHING_FOUND)


def test_a_section_holding_the_question_words_but_far_from_it_in_meaning_is_not_quoted() -> None:
    docs = {
        "i": (
            "Functional Programming HOWTO: Creating new iterators",
            "To create a new branch of values, itertools.count(start, step) returns an "
            "infinite stream of evenly spaced values; create a new one for each branch.",
        )
    }
    question = "How do I create a new branch in git?"
    # By words alone, where the collection writes "git" elsewhere, it is quoted.
    by_words = _answer(TurnView(question, outcomes=_searched_and_read(["i"], docs)))
    assert not by_words.startswith(NOTHING_FOUND)
    # Over this one document the search tool names "git" a word the collection never
    # writes; far in meaning too, the section is not quoted.
    outcomes = _searched_and_read(["i"], docs, unheld=("git",))
    far = _answer(TurnView(question, outcomes=outcomes, similarity=_alike({"iterators": 0.1})))
    assert far.startswith(NOTHING_FOUND)


def test_a_one_sentence_passage_goes_on_with_the_example_that_follows_it() -> None:
    docs = {
        "n": (
            "Data Structures: Nested List Comprehensions",
            "The initial expression in a list comprehension can be any arbitrary expression, "
            "including another list comprehension.\n\n"
            "Consider the following example of a 3x4 matrix implemented as a list of 3 lists "
            "of length 4:\n\n"
            ">>> matrix = [\n...     [1, 2, 3, 4],\n...     [5, 6, 7, 8],\n... ]\n\n"
            "The following list comprehension will transpose rows and columns:\n\n"
            ">>> [[row[i] for row in matrix] for i in range(4)]",
        )
    }
    prose = _answered("Can a list comprehension be nested?", ["n"], docs)
    assert prose.startswith("The initial expression in a list comprehension")
    assert "```\n>>> matrix = [" in prose
    # It stops before a sentence that would introduce what it leaves out.
    assert "will transpose rows and columns" not in prose


def test_a_word_only_the_code_holds_is_not_an_answer() -> None:
    docs = {
        "9": (
            "Data types that support iterators",
            "The dict constructor accepts an iterator of pairs:\n\n```python\n"
            "L = [('Italy', 'Rome'), ('France', 'Paris')]\ndict(iter(L))\n```\n",
        )
    }
    view = TurnView("What is the capital of France?", outcomes=_searched_and_read(["9"], docs))
    assert _answer(view).startswith(NOTHING_FOUND)


DOCS_PAGE = {
    "sort": (
        "Sorting: Key Functions",
        "Both `list.sort()` and `sorted()` have a *key* parameter to specify a function to "
        "be called on each list element prior to making comparisons.\n\n"
        "For example, here is how to sort records by one of their fields:\n\n"
        "```python\n>>> sorted(rows, key=lambda row: row['age'])\n```\n\n"
        "The value of the *key* parameter should be a function that takes a single "
        "argument and returns a key to use for sorting purposes.",
    ),
    "convert": (
        "Conversions",
        "Strings hold text. To convert one to a number, call `int()` on it.\n\n"
        "This converts a string such as `'12'` into the integer 12, and raises "
        "`ValueError` for text that is not a number.",
    ),
}


def test_a_how_question_gets_the_code_block_that_shows_how() -> None:
    view = TurnView(
        "How do I sort records by a key?",
        outcomes=_searched_and_read(["sort"], DOCS_PAGE),
    )
    prose, _ = _prose(_answer(view))
    assert "```python\n>>> sorted(rows, key=lambda row: row['age'])\n```" in prose
    # The code comes with the sentence that introduces it, never that sentence alone.
    assert "For example, here is how to sort records by one of their fields:" in prose


def test_code_stored_as_bare_lines_is_quoted_as_a_code_block() -> None:
    # How the Markdown and HTML readers store code: its lines kept, its fences not.
    docs = {
        "z": (
            "Looping Techniques",
            "To loop over two or more sequences at the same time, the entries can be paired\n"
            "with the zip() function.\n\n"
            ">>> questions = ['name', 'quest']\n>>> answers = ['lancelot', 'the grail']\n"
            ">>> for q, a in zip(questions, answers):\n...     print(q, a)\n...\n"
            "name lancelot\nquest the grail\n\n"
            "To loop over a sequence in reverse, call the reversed() function.",
        )
    }
    prose = _answered("How do I loop over two lists at the same time?", ["z"], docs)
    assert (
        "paired with the zip() function.\n\n```\n>>> questions = ['name', 'quest']\n"
        ">>> answers = ['lancelot', 'the grail']\n>>> for q, a in zip(questions, answers):\n"
        "...     print(q, a)\n...\nname lancelot\nquest the grail\n```"
    ) in prose


def test_a_sentence_with_inline_code_stored_bare_is_quoted_as_prose() -> None:
    # Stored without backticks (as the readers store inline code), this lead holds as many
    # symbols as code does; it is still the sentence that answers, and reads as one.
    docs = {
        "n": (
            "How do I convert a string to a number?",
            "For integers, use the built-in int() type constructor, e.g. int('144') == 144.\n"
            "Similarly, float() converts to floating-point, e.g. float('144') == 144.0.\n\n"
            "Do not use the built-in function eval() if all you need is to convert strings to\n"
            "numbers: it is slower and a security risk.",
        )
    }
    view = TurnView(
        "How do I convert a string to an integer?",
        outcomes=_searched_and_read(["n"], docs),
    )
    prose, anchors = _prose(_answer(view))
    assert prose.startswith("For integers, use the built-in int() type constructor")
    assert "```" not in prose
    assert anchors and anchors[0].href == "cite:n"


def test_a_section_titled_as_the_question_is_cited_before_one_holding_its_words() -> None:
    docs = {
        "g": (
            "Glossary: parameter",
            "A named entity in a function definition that specifies an argument the function "
            "can accept. Parameters and arguments differ: a parameter is named in the "
            "definition, an argument is the value passed. Arguments, parameters, arguments.",
        ),
        "f": (
            "What is the difference between arguments and parameters?",
            "Parameters are defined by the names that appear in a function definition, whereas "
            "arguments are the values actually passed to a function when calling it.",
        ),
    }
    question = "What is the difference between arguments and parameters?"
    outcomes = _searched_and_read(["g", "f"], docs)
    _, by_words = _prose(_answer(TurnView(question, outcomes=outcomes)))
    assert "cite:f" in {anchor.href for anchor in by_words}
    meant = TurnView(question, outcomes=outcomes, similarity=_sentence_model())
    _, by_meaning = _prose(_answer(meant))
    assert by_meaning[0].href == "cite:f"


def test_a_section_alike_in_meaning_is_cited_before_one_sharing_more_of_the_words() -> None:
    docs = {
        "d": (
            "Data Structures: Dictionaries",
            "A dictionary maps keys to values. Performing list(d) on a dictionary returns a "
            "list of its keys; to have them sorted, use sorted(d).",
        ),
        "k": (
            "Sorting HOW TO: Key Functions",
            "Both list.sort() and sorted() have a key parameter to specify a function to be "
            "called on each list element prior to making comparisons.",
        ),
    }

    def similarity(question: str, texts: Sequence[str], *, exact: bool = True) -> list[float]:
        # As the sentence model measures it: the key functions are the question's point.
        return [0.6 if text.startswith("Sorting") else 0.2 for text in texts]

    question = "How do I sort a list of dictionaries by a key?"
    outcomes = _searched_and_read(["d", "k"], docs)
    _, by_words = _prose(_answer(TurnView(question, outcomes=outcomes)))
    assert by_words[0].href == "cite:d"
    _, by_meaning = _prose(_answer(TurnView(question, outcomes=outcomes, similarity=similarity)))
    assert by_meaning[0].href == "cite:k"


def test_a_follow_up_is_read_for_meaning_with_its_conversations_subject() -> None:
    asked: list[str] = []

    def similarity(question: str, texts: Sequence[str], *, exact: bool = True) -> list[float]:
        asked.append(question)
        return [0.0 for _ in texts]

    view = TurnView(
        "How do I install packages into it?",
        earlier_questions=("How do I create a virtual environment?",),
        outcomes=_searched_and_read(["101", "202"]),
        similarity=similarity,
    )
    _answer(view)
    assert asked
    assert all({"virtual", "environment"} <= set(q.lower().split()) for q in asked)


def test_code_of_keywords_without_symbols_and_a_bare_heading_are_not_quoted_as_sentences() -> None:
    # As a built site's reader stores them: the heading a bare line, the example's lines
    # kept without fences, and an import block holding almost no symbols.
    docs = {
        "c": (
            "Command Line Interface: Custom Commands",
            "Custom Commands With Click Groups\n\n"
            "You can add your own commands to the flask command with click groups:\n\n"
            "import click\nfrom flask import Flask\nfrom flask.cli import AppGroup\n\n"
            "Each command is then called as flask user create.",
        )
    }
    prose = _answered("How do I add my own commands to the flask command?", ["c"], docs)
    imports = "import click\nfrom flask import Flask\nfrom flask.cli import AppGroup"
    assert f"```\n{imports}\n```" in prose
    assert "Custom Commands With Click Groups" not in prose
    assert prose.startswith("You can add your own commands")


LOOPING = {
    "l": (
        "Data Structures: Looping Techniques",
        "To loop over a sequence in sorted order, use the sorted() function which returns a "
        "new sorted sequence while leaving the source unaltered.\n\n"
        ">>> for f in sorted(set(basket)):\n...     print(f)\n\n"
        "To loop over a sequence in reverse, first specify the sequence in a forward "
        "direction and then call the reversed() function.\n\n"
        ">>> for i in reversed(range(1, 10, 2)):\n...     print(i)\n\n"
        "When looping through a dictionary, the key and corresponding value can be "
        "retrieved at the same time using the items() method.",
    )
}


def test_within_a_section_the_paragraph_alike_in_meaning_is_quoted() -> None:
    # The shipped sentence model reads "backwards" as "in reverse"; the words tie.
    similarity = _sentence_model()
    asked: list[list[str]] = []

    def recorded(question: str, texts: Sequence[str], *, exact: bool = True) -> list[float]:
        asked.append(list(texts))
        return list(similarity(question, texts, exact=exact))

    question = "How do I loop over a sequence backwards?"
    outcomes = _searched_and_read(["l"], LOOPING)
    view = TurnView(question, outcomes=outcomes, similarity=recorded)
    by_meaning, _ = _prose(_answer(view))
    # The run holding the likest paragraph is quoted (``run_meaning_max``); the fit on ten
    # collections opens it a paragraph earlier, as one of about 120 words, rather than
    # carry the next paragraph, about dictionaries, that lowers its mean likeness.
    assert "To loop over a sequence in reverse" in by_meaning
    assert "When looping through a dictionary" not in by_meaning
    # Prose paragraphs only, each bounded: code is not read for meaning.
    assert any(len(texts) == 3 for texts in asked)
    assert all(">>>" not in text and len(text) <= 200 for texts in asked for text in texts)


def _sentence_model() -> Similarity:
    pytest.importorskip("onnxruntime", reason="the sentence model needs 'citeline[dense]'")
    from citeline.agent.meaning import new_similarity

    found = new_similarity()
    assert found is not None
    return found


def test_an_indented_block_under_a_colon_line_is_code_and_a_list_item_is_not() -> None:
    docs = {
        "g": (
            "Generator expressions and list comprehensions",
            "A list comprehension is equivalent to the following Python code:\n\n"
            "for expr1 in sequence1:\n    if not (condition1):\n"
            "        continue   # Skip this element\n    yield expr1\n\n"
            "- Note:\n  a list item continued on an indented line stays a list item.",
        )
    }
    prose = _answered("What is a list comprehension equivalent to?", ["g"], docs)
    assert (
        "```\nfor expr1 in sequence1:\n    if not (condition1):\n"
        "        continue   # Skip this element\n    yield expr1\n```"
    ) in prose
    kinds = [unit.kind for unit in units_of(docs["g"][1])]
    assert kinds == ["sentence", "code", "list"]


def test_a_quoted_bullet_stays_prose_however_many_symbols_its_words_hold() -> None:
    # The sample's own bullets, each once quoted as a code block.
    text = (
        "The operator module holds functions for:\n\n"
        "• Math operations: add(), sub(), mul(), floordiv(), abs(), …\n\n"
        "• modules written in C and dynamically loaded (.dll, .pyd, .so, .sl, etc);\n\n"
        "    • cx_Freeze (Cross-platform)"
    )
    units = units_of(text)
    assert [unit.kind for unit in units] == ["sentence", "list", "list", "list"]
    assert units[-1].text == "• cx_Freeze (Cross-platform)"  # dedented: not indented code
    assert not any("```" in unit.text for unit in units)


def test_a_numbered_step_or_a_ticked_item_stays_a_list_however_many_symbols_it_holds() -> None:
    # The Markdown reader writes an ordered item's number and a task list's box as the page
    # shows them; a step naming files is no code block.
    text = (
        "Lay the project out as follows:\n\n"
        "1. <NAME>/__init__.py\n\n"
        "2) src/<NAME>/__about__.py = {version}\n\n"
        "\u2611 tests/{unit,integration}/*.py"
    )
    units = units_of(text)
    assert [unit.kind for unit in units] == ["sentence", "list", "list", "list"]
    assert not any("```" in unit.text for unit in units)


def test_a_sentence_restating_the_one_before_never_opens_an_answer() -> None:
    assert is_dangling("In other words, a list comprehension is a loop.")
    assert is_dangling("To put it another way, it is a loop.")
    assert is_dangling("Put another way: it is a loop.")
    assert not is_dangling("Put the loop inside a function.")


def test_the_rest_of_a_sentence_a_code_block_cut_never_opens_an_answer() -> None:
    assert is_dangling("you might be wondering why appending an element to y changed x too.")
    assert is_dangling("then integer division has to return the floor.")
    # A name in code opens lower case too, and opens a sentence of its own.
    assert not is_dangling("len() returns the number of items.")
    assert not is_dangling("pip install requests fetches the package.")


def test_the_explanation_after_a_question_a_code_block_cut_in_two_is_reached() -> None:
    docs = {
        "y": (
            "Why did changing list y also change list x?",
            "If you wrote code like:\n\n    >>> x = []\n    >>> y = x\n    >>> y.append(10)\n\n"
            "you might be wondering why appending an element to y changed x too.\n\n"
            "There are two factors that produce this result:\n\n"
            "- Variables are simply names that refer to objects: y = x makes y refer to the "
            "same object.\n\n- Lists are mutable, so the object both names refer to changed.\n\n"
            "Tuples are another matter altogether, described in a later chapter of the guide.",
        )
    }
    # Asked "what", not "why", so the section's lead is the answer's start by rule.
    prose = _answered("What makes changing list y also change list x?", ["y"], docs)
    # The question restated, the sentence the code cut in two, and the list its colon
    # introduced are two paragraphs to a reader, not four.
    assert "you might be wondering why" in prose
    assert "same object" in prose
    assert "Tuples are another matter" not in prose


def test_a_sections_own_heading_line_never_opens_its_answer() -> None:
    docs = {
        "dup": (
            "Programming FAQ › How do you remove duplicates from a list?",
            "How do you remove duplicates from a list?\n\n"
            "If you don't mind reordering the list, sort it and then scan from the end of the "
            "list, deleting duplicates as you go. If all elements of the list may be used as "
            "set keys, convert the list to a set and back: list(set(mylist)) removes them.",
        )
    }
    prose = _answered("How do I remove duplicates from a list?", ["dup"], docs)
    assert prose.startswith("If you don't mind reordering the list")
    units = units_of(
        "7.2.2. Saving structured data with json\n\nStrings can be written.",
        ("7.2.2.  Saving structured data with JSON"),
    )
    assert [unit.text for unit in units] == ["Strings can be written."]


RELEASE_NOTES = {
    "new": (
        "What\u2019s New In Python 3.8 › f-strings support = for self-documenting expressions",
        "Added an = specifier to f-strings. An f-string such as f'{expr=}' will expand to the "
        "text of the expression, an equal sign, then the representation of the evaluated "
        "expression.",
    ),
    "guide": (
        "Input and Output › Formatted String Literals",
        "Formatted string literals (also called f-strings for short) let you include the value "
        "of Python expressions inside a string by prefixing the string with f or F and "
        "writing expressions as {expression}. An f-string is evaluated at run time.",
    ),
}


def test_a_question_asking_whether_it_can_be_done_is_shown_the_code() -> None:
    docs = {
        "exc": (
            "Errors and Exceptions › Handling Exceptions",
            "A try statement can catch several kinds of exceptions in one except clause, "
            "each handled alike: the handler runs for whichever of them was raised in the "
            "try clause, and the exceptions it does not name pass on to the handlers of an "
            "outer try statement, or stop the program with a traceback when none is left.\n\n"
            "Name them as a parenthesized tuple:\n\n"
            "    except (RuntimeError, TypeError, NameError):\n        pass\n",
        )
    }
    prose = _answered("Can I catch several exceptions in one except clause?", ["exc"], docs)
    assert "except (RuntimeError, TypeError, NameError):" in prose


def test_a_why_question_is_answered_by_the_reason_not_the_sections_lead() -> None:
    docs = {
        "gil": (
            "Library FAQ › The global interpreter lock",
            "The global interpreter lock is a lock held by the interpreter while it runs "
            "Python code, so that only one thread runs Python code at a time; a thread waiting "
            "for input gives it up, and so do the extension modules that do long work in C, "
            "which is how a program of many threads still keeps several cores busy at once.\n\n"
            "The global interpreter lock stays because taking it out made single-threaded "
            "programs a third slower.",
        )
    }
    # Weighed above the rest, a why-question's lead (``run_lead_why``) counts against the
    # section's opening, so the paragraph giving the reason is quoted.
    with use_tuning(_stressed("passage", "run_lead_why", -20.0)):
        prose = _answered("Why has the global interpreter lock not been removed?", ["gil"], docs)
    assert "a third slower" in prose


def test_a_list_no_colon_introduced_is_a_paragraph_of_its_own() -> None:
    units = units_of("A first paragraph ends here.\n\n- an item\n\n- another item")
    assert [u.paragraph for u in units] == [0, 1, 1]
    units = units_of("Two kinds exist:\n\n- an item\n\n- another item")
    assert [u.paragraph for u in units] == [0, 0, 0]
    units = units_of(
        "To start the server, call the function:\n\n    go()\n\n"
        "and then it stops.\n\nAnd a new one."
    )
    assert [u.paragraph for u in units] == [0, 0, 0, 1]


def test_a_huge_title_or_question_reaches_the_sentence_model_bounded() -> None:
    seen: list[tuple[str, list[str]]] = []

    def similarity(question: str, texts: Sequence[str], *, exact: bool = True) -> list[float]:
        seen.append((question, list(texts)))
        return [0.0 for _ in texts]

    docs = {"h": ("Vitamin D " * 100_000, DOCS["101"][1])}
    view = TurnView(
        QUESTION + " fracture" * 100_000,
        outcomes=_searched_and_read(["h"], docs),
        similarity=similarity,
    )
    _answer(view)
    assert seen
    assert all(len(question) <= 1_000 for question, _ in seen)
    assert all(len(text) <= 400 for _, texts in seen for text in texts)


def test_a_section_cut_into_thousands_of_paragraphs_reaches_the_sentence_model_bounded() -> None:
    seen: list[int] = []

    def similarity(question: str, texts: Sequence[str], *, exact: bool = True) -> list[float]:
        seen.append(len(texts))
        return [0.0 for _ in texts]

    hostile = "\n\n".join(f"Vitamin D fact number {i}." for i in range(3_000))
    docs = {"h": ("Vitamin D", hostile + "\n\nVitamin D supplementation reduces fracture risk.")}
    view = TurnView(QUESTION, outcomes=_searched_and_read(["h"], docs), similarity=similarity)
    _answer(view)
    assert seen and max(seen) <= MEANING_BLOCKS


def test_a_dangling_opener_comes_with_the_sentence_it_refers_to() -> None:
    view = TurnView(
        "What does converting raise for text that is not a number?",
        outcomes=_searched_and_read(["convert"], DOCS_PAGE),
    )
    prose, _ = _prose(_answer(view))
    assert "raises `ValueError`" in prose
    assert not prose.startswith("This converts")
    assert "call `int()` on it." in prose


def test_a_link_inside_a_quoted_paragraph_is_reduced_to_its_text() -> None:
    docs = {
        "7": (
            "Routing",
            "Routes map a URL to a view; see [the routing guide](https://example.org/r) for "
            "the patterns a route accepts.",
        )
    }
    view = TurnView("How are routes mapped to a view?", outcomes=_searched_and_read(["7"], docs))
    text = _answer(view)
    assert "https://example.org/r" not in text
    prose, anchors = _prose(text)
    assert {a.href for a in anchors} == {"cite:7"}
    assert "see the routing guide for the patterns" in prose


def test_a_fenced_code_block_holding_link_markup_is_quoted_as_code_and_cites_nothing() -> None:
    docs = {
        "8": (
            "Templates: links",
            "To link to a page from a template, write the anchor with the url tag:\n\n"
            "```html\n<a href=\"{% url 'home' %}\">Home</a>\n```\n\n"
            "The url tag reverses the route's name into its path.",
        )
    }
    view = TurnView(
        "How do I link to a page from a template?",
        outcomes=_searched_and_read(["8"], docs),
    )
    prose, anchors = _prose(_answer(view))
    assert "```html\n<a href=\"{% url 'home' %}\">Home</a>\n```" in prose
    assert {a.href for a in anchors} == {"cite:8"}


def test_code_whose_fence_the_pipeline_would_not_read_is_never_quoted_with_link_markup() -> None:
    docs = {
        "9": (
            "Templates: links",
            "To link to a page from a template, write the anchor with the url tag:\n\n"
            "````\n```html\n<a href=\"{% url 'home' %}\">Home</a>\n```\n````\n\n"
            "The url tag reverses the route's name into its path.",
        )
    }
    view = TurnView(
        "How do I link to a page from a template?",
        outcomes=_searched_and_read(["9"], docs),
    )
    text = _answer(view)
    assert "{% url" not in text
    _, anchors = _prose(text)
    assert {a.href for a in anchors} == {"cite:9"}


def test_code_closed_by_a_fence_indented_past_three_spaces_is_never_quoted_with_link_markup() -> (
    None
):
    # The section's reader ends the block there; the pipeline, as CommonMark, does not, and
    # would read everything after it as code.
    docs = {
        "6": (
            "Templates: links",
            "To link to a page from a template, write the anchor with the url tag:\n\n"
            "```html\n<a href=\"{% url 'home' %}\">Home</a>\n    ```\n\n"
            "The url tag reverses the route's name into its path.",
        )
    }
    view = TurnView(
        "How do I link to a page from a template?", outcomes=_searched_and_read(["6"], docs)
    )
    text = _answer(view)
    assert "{% url" not in text
    _, anchors = _prose(text)
    assert {a.href for a in anchors} == {"cite:6"}


def test_code_the_pipeline_would_leave_open_is_never_quoted_so_the_answer_stays_prose() -> None:
    docs = {
        "5": (
            "Printing",
            "To print a greeting to standard output, call the print function:\n\n"
            "```\nprint('hello')\n    ```\n\n"
            "Printing a greeting writes it to standard output, followed by a newline.",
        )
    }
    text = _answer(TurnView("How do I print a greeting?", outcomes=_searched_and_read(["5"], docs)))
    assert "print('hello')" not in text
    prose, anchors = _prose(text)
    assert "## Sources" not in prose and "](" not in prose
    assert {a.href for a in anchors} == {"cite:5"}


def test_a_sentence_holding_what_markdown_reads_as_an_autolink_is_never_quoted() -> None:
    docs = {
        "v": (
            "Variable Rules",
            "Optionally, you can use a converter to specify the type of the argument like "
            "<converter:variable_name>.\n\n"
            "Converter types: int accepts positive integers, and path is like string but also "
            "accepts slashes.",
        )
    }
    view = TurnView(
        "Which converter types accept integers?",
        outcomes=_searched_and_read(["v"], docs),
    )
    text = _answer(view)
    assert "<converter:variable_name>" not in text
    _, anchors = _prose(text)
    assert {a.href for a in anchors} <= {"cite:v"}


_ids = st.text("abcdefghij0123456789-", min_size=1, max_size=8)
_words = st.sampled_from(
    ["vitamin", "fracture", "bone", "risk", "older", "dose", "light", "cell", "this", "however"]
)
_sentence = st.tuples(st.lists(_words, min_size=4, max_size=12), st.sampled_from(".:!")).map(
    lambda parts: " ".join(parts[0]).capitalize() + parts[1]
)
# Code holds what prose rarely does: brackets, comparisons, and now and then text that the
# pipeline would read as citation markup (a link, an anchor, a sources heading).
_code_line = st.lists(
    st.one_of(_words, st.sampled_from(["[0]", "(x)", "x < y", "<b>", "{'a': [1]}"])),
    min_size=1,
    max_size=6,
).map(" ".join)
_markup_line = st.sampled_from(["[text](y)", "<a href='z'>z</a>", "## Sources", ""])
_code = st.tuples(
    st.lists(_code_line, min_size=1, max_size=4), st.booleans(), st.booleans(), _markup_line
).map(lambda c: "```\n" + "\n".join([*c[0], *([c[3]] if c[1] and c[2] else [])]) + "\n```")
_block = st.one_of(
    st.lists(_sentence, min_size=1, max_size=4).map(" ".join),
    _code,
    st.lists(_sentence, min_size=1, max_size=3).map(lambda s: "\n".join(f"- {x}" for x in s)),
)
_section = st.lists(_block, min_size=1, max_size=6).map("\n\n".join)


@settings(max_examples=200, deadline=None)
@given(
    docs=st.dictionaries(
        _ids, st.tuples(st.text(min_size=1, max_size=20), _section), min_size=1, max_size=4
    ),
    question=st.tuples(
        st.sampled_from(["", "How do I "]), st.lists(_words, min_size=1, max_size=6)
    ).map(lambda q: q[0] + " ".join(q[1])),
)
def test_the_answer_never_holds_text_absent_from_the_section_it_cites(
    docs: dict[str, tuple[str, str]], question: str
) -> None:
    results = [
        {"id": i, "href": f"https://example.org/{i}", "title": t, "passage": s[:40]}
        for i, (t, s) in docs.items()
    ]
    reads = [
        ToolOutcome("read", {"id": i, "href": f"https://example.org/{i}", "title": t, "text": s})
        for i, (t, s) in docs.items()
    ]
    view = TurnView(question, outcomes=(ToolOutcome("search", {"results": results}), *reads))
    text = _answer(view)
    prose, anchors = _prose(text)
    event("quotes code" if "```" in prose else "quotes prose only")
    if text.startswith(NOTHING_FOUND):
        assert not anchors
        return
    hrefs = [a.href for a in anchors]
    assert hrefs and set(hrefs) <= {r["href"] for r in results}
    sections = {f"https://example.org/{i}": s for i, (_, s) in docs.items()}
    # Each cited passage, from its link to the next one, is the cited section's own text.
    for at, anchor in enumerate(anchors):
        assert anchor.start is not None
        end = anchors[at + 1].start if at + 1 < len(anchors) else len(prose)
        # A code block may come fenced where the section stored its lines bare: the fence
        # is markup that makes it read as code, not text.
        shown = re.sub(r"^```$", "", prose[anchor.start : end], flags=re.MULTILINE)
        for part in re.split(r"\n\n+", shown):
            if part.strip():
                assert _flat(part) in _flat(sections[anchor.href]), (part, sections[anchor.href])


@settings(max_examples=40, deadline=None)
@given(
    sentences=st.lists(
        st.sampled_from(
            [
                "Vitamin D supplementation reduced the risk of hip fracture in older adults.",
                "Older adults given vitamin D had fewer fractures than those given placebo.",
                "Falls are common.",
                "```\nsupplement(dose=800)\n```",
                "- calcium\n- vitamin D",
                "Bone density declines with age.",
            ]
        ),
        min_size=1,
        max_size=8,
    )
)
def test_an_answer_over_kept_units_equals_one_over_units_split_anew(sentences: list[str]) -> None:
    docs = {**DOCS, "404": ("Vitamin D in older adults", "\n\n".join(sentences))}
    view = TurnView(question=QUESTION, outcomes=_searched_and_read(["404", "101"], docs))
    embedded._units.cache_clear()
    fresh = _answer(view)
    assert _answer(view) == fresh  # the second answer reads the kept units
    text = "\n\n".join(sentences)
    rules = TUNING.text
    kept = embedded._units(text, "Falls are common.", rules)
    assert list(kept) == units_of(text, "Falls are common.", rules)


def test_a_section_read_again_is_not_split_again(monkeypatch: pytest.MonkeyPatch) -> None:
    splits: list[str] = []

    def counting(text: str, heading: str = "", rules: TextRules = TextRules()) -> list[Unit]:
        splits.append(text)
        return units_of(text, heading, rules)

    monkeypatch.setattr(embedded, "units_of", counting)
    embedded._units.cache_clear()
    view = TurnView(question=QUESTION, outcomes=_searched_and_read(["101", "202"]))
    first = _answer(view)
    count = len(splits)
    assert count >= 1
    assert _answer(view) == first
    assert len(splits) == count


def test_a_title_about_change_in_a_measure_is_not_release_notes() -> None:
    from citeline.models.embedded.ranking import (
        SECTION_FEATURES,
        Candidate,
        asked,
        section_features,
    )

    text = "A diet low in saturated fat lowered serum cholesterol by a tenth in a year."
    candidates = [
        Candidate("Shifts in serum cholesterol after diet", text),
        Candidate("Changes in serum cholesterol after diet", text),
        Candidate("Changes › Version 2.2.0", text),
    ]
    read = asked("Does diet lower serum cholesterol?", (), candidates, TUNING)
    rows = section_features(read, candidates, None, TUNING)
    notes = [row[SECTION_FEATURES.index("release_notes")] for row in rows]
    assert notes == [0.0, 0.0, 1.0]


def _page(doc_id: str, text: str, offset: int, following: int | None) -> ToolOutcome:
    title, _ = DOCS[doc_id]
    record: dict[str, object] = {"id": doc_id, "href": f"cite:{doc_id}", "title": title}
    record.update({"text": text, "truncated": following is not None})
    if offset:
        record["offset"] = offset
    if following is not None:
        record["next_offset"] = following
    return ToolOutcome("read", record)


def test_a_long_section_is_read_on_page_by_page_and_its_end_can_answer() -> None:
    first = "Falls are common in older adults. " * 300
    last = "Vitamin D supplementation reduced hip fracture risk in older adults by a fifth."
    searched = _search(["101"])
    view = TurnView(QUESTION, outcomes=(searched, _page("101", first, 0, len(first))))
    with use_tuning(dataclasses.replace(TUNING, read_chars=2 * len(first))):
        step = next_step(view)
    assert step == (ToolRequest("read", {"id": "101", "offset": len(first)}),)
    pages = (searched, _page("101", first, 0, len(first)), _page("101", last, len(first), None))
    prose, _ = _prose(_answer(TurnView(QUESTION, outcomes=pages)))
    assert "reduced hip fracture risk" in prose


def test_the_rest_of_a_long_section_is_asked_for_at_once_a_page_apart() -> None:
    page = "Falls are common in older adults. " * 300
    view = TurnView(QUESTION, outcomes=(_search(["101"]), _page("101", page, 0, len(page))))
    with use_tuning(dataclasses.replace(TUNING, read_chars=4 * len(page) + 1)):
        step = next_step(view)
    assert step == tuple(
        ToolRequest("read", {"id": "101", "offset": n * len(page)}) for n in (1, 2, 3, 4)
    )


def test_no_response_asks_for_more_pages_than_the_tool_loop_runs_and_none_twice() -> None:
    page = "Falls are common in older adults. " * 300
    searched, first = _search(["101"]), _page("101", page, 0, len(page))
    with use_tuning(dataclasses.replace(TUNING, read_chars=40 * len(page))):
        step = next_step(TurnView(QUESTION, outcomes=(searched, first), requests=2))
        assert isinstance(step, tuple) and len(step) == MAX_CALLS_PER_RESPONSE
        read = tuple(
            _page("101", page, r.args["offset"], r.args["offset"] + len(page)) for r in step
        )
        after = next_step(TurnView(QUESTION, outcomes=(searched, first, *read), requests=3))
    assert isinstance(after, tuple)
    assert after[0].args["offset"] == (MAX_CALLS_PER_RESPONSE + 1) * len(page)
    assert not {r.args["offset"] for r in after} & {r.args["offset"] for r in step}


def test_reading_stops_while_the_turn_still_has_a_request_for_the_answer() -> None:
    page = "Falls are common in older adults. " * 300
    view = TurnView(
        QUESTION,
        outcomes=(_search(["101"]), _page("101", page, 0, len(page))),
        requests=MAX_MODEL_REQUESTS - 1,
    )
    assert not isinstance(next_step(view), tuple)  # it answers from what it has


def test_a_passage_the_search_found_past_the_pages_read_can_answer() -> None:
    page = "Falls are common in older adults. " * 300
    found = "Vitamin D supplementation reduced hip fracture risk by a fifth."
    docs = {**DOCS, "101": ("Vitamin D and fractures", found)}
    outcomes = (_search(["101"], docs), _page("101", page, 0, len(page)))
    with use_tuning(dataclasses.replace(TUNING, read_chars=len(page))):
        prose, _ = _prose(_answer(TurnView(QUESTION, outcomes=outcomes)))
    assert "reduced hip fracture risk" in prose


def test_a_section_is_read_no_further_than_its_bound() -> None:
    bounded = dataclasses.replace(TUNING, read_chars=1_000)
    view = TurnView(QUESTION, outcomes=(_search(["101"]), _page("101", "x. " * 400, 0, 1_200)))
    with use_tuning(bounded):
        assert not isinstance(next_step(view), tuple)  # it answers from what it has
