"""The embedded model's features: each says what it claims to about a section or a run, and
the fitted models combine them as their weights say (loaded from the shipped file, applied in
plain Python, switched off one at a time by an ablation)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citeline.models.embedded.choice import (
    READ_MODEL_FEATURES,
    best_run,
    choose,
    read_values,
    section_order,
    section_scores,
)
from citeline.models.embedded.features import (
    CONFIDENCE_FEATURES,
    FEATURES,
    PASSAGE_FEATURES,
    READ_FEATURES,
    SECTION_FEATURES,
)
from citeline.models.embedded.model import (
    Reading,
    SourceText,
    ToolOutcome,
    read_sections,
    unheld_of,
)
from citeline.models.embedded.pairs import near_pairs, subject_pairs
from citeline.models.embedded.passages import read_features, run_features, runs_of, units_of
from citeline.models.embedded.ranking import Candidate, asked, section_features
from citeline.models.embedded.tuning import (
    Fitted,
    LinearModel,
    Tuning,
    TuningError,
    current_tuning,
    shipped_tuning,
    tuning_from_json,
    tuning_to_json,
    use_tuning,
)
from citeline.text.answer_terms import names as name_terms
from citeline.text.answer_terms import subject_terms

TUNING = Tuning()


def _sections(
    question: str,
    candidates: list[Candidate],
    similarity: object = None,
    earlier: Sequence[str] = (),
) -> list[dict[str, float]]:
    read = asked(question, earlier, candidates, TUNING)
    rows = section_features(read, candidates, similarity, TUNING)  # type: ignore[arg-type]
    return [dict(zip(SECTION_FEATURES, row, strict=True)) for row in rows]


def _runs(
    question: str, text: str, title: str = "A page: A section", found: Sequence[str] = ()
) -> list[dict[str, float]]:
    candidates = [Candidate(title, text)]
    read = asked(question, (), candidates, TUNING)
    units = units_of(text)
    runs = runs_of(units, TUNING)
    rows = run_features(read.question, units, runs, frozenset(), {}, TUNING, found=found)
    return [dict(zip(PASSAGE_FEATURES, row, strict=True)) for row in rows]


# -- section features --------------------------------------------------------------------


def test_a_question_word_in_the_heading_counts_in_the_heading_field_not_the_body() -> None:
    found = _sections(
        "How do I make a frozen dataclass?",
        [
            Candidate("dataclasses: Frozen instances", "Instances cannot be assigned to."),
            Candidate("dataclasses: Inheritance", "A frozen dataclass can inherit from one."),
        ],
    )
    assert found[0]["heading"] > 0 and found[1]["heading"] == 0
    assert found[1]["body"] > found[0]["body"]
    assert found[0]["page"] == found[1]["page"] > 0  # "dataclass" is the page's, in both


def test_a_heading_naming_exactly_the_question_is_named_and_precise() -> None:
    found = _sections(
        "What is a context manager?",
        [
            Candidate("Glossary: context manager", "An object which controls the environment."),
            Candidate("Glossary: asynchronous context manager", "An object which controls it."),
        ],
    )
    assert found[0]["named"] == 1.0 and found[1]["named"] == 0.0
    assert found[0]["heading_precision"] == 1.0 > found[1]["heading_precision"]


def test_the_search_order_is_the_reciprocal_rank_and_the_first_is_marked() -> None:
    found = _sections("tuples", [Candidate(f"Section {i}", "tuples") for i in range(4)])
    assert [f["rank"] for f in found] == [1.0, 1 / 2, 1 / 3, 1 / 4]
    assert [f["first"] for f in found] == [1.0, 0.0, 0.0, 0.0]


def test_a_faq_heading_asking_another_kind_of_question_is_marked() -> None:
    found = _sections(
        "How do I sort a list?",
        [
            Candidate("FAQ: Why doesn't list.sort() return the sorted list?", "Sorting."),
            Candidate("FAQ: How do I sort a list in place?", "Sorting."),
        ],
    )
    assert found[0]["other_kind"] == 1.0 and found[1]["other_kind"] == 0.0


def test_release_notes_are_marked_unless_the_question_asks_what_changed() -> None:
    notes = Candidate("What's New In 3.8: f-strings", "Added an = specifier to f-strings.")
    guide = Candidate("Input and Output: f-strings", "Formatted string literals.")
    assert _sections("What is an f-string?", [notes, guide])[0]["release_notes"] == 1.0
    assert _sections("What is an f-string?", [notes, guide])[1]["release_notes"] == 0.0
    assert _sections("Which version added f-strings?", [notes, guide])[0]["release_notes"] == 0


def test_a_name_the_question_writes_in_words_is_found_written_as_one() -> None:
    found = _sections(
        "How do I check that a string starts with a prefix?",
        [
            Candidate("Strings: str methods", "str.startswith(prefix) returns True when ..."),
            Candidate("Strings: str methods", "str.center(width) returns a centred string."),
        ],
    )
    assert found[0]["compound"] == 1.0 and found[1]["compound"] == 0.0
    assert found[0]["coverage"] > found[1]["coverage"]


def test_a_section_writing_the_questions_words_together_holds_their_pair() -> None:
    found = _sections(
        "How do I create a virtual environment?",
        [
            Candidate("venv: Creating virtual environments", "The venv module creates them."),
            Candidate("Glossary: virtual machine", "The environment a program runs in."),
        ],
    )
    assert found[0]["pairs"] == 1.0
    assert found[1]["pairs"] == 0.0 < found[1]["coverage"]


def test_a_question_of_one_subject_word_has_no_pairs_to_hold() -> None:
    found = _sections("What is a decorator?", [Candidate("Glossary: decorator", "A decorator.")])
    assert found[0]["pairs"] == 0.0


def test_several_passages_of_one_section_count_as_hits() -> None:
    found = _sections("x", [Candidate("A", "x", hits=1), Candidate("B", "x", hits=5)])
    assert found[0]["hits"] < found[1]["hits"] == 1.0


def test_an_earlier_questions_words_count_less_than_the_follow_ups_own() -> None:
    candidates = [Candidate("Tuples", "tuples are immutable"), Candidate("Speed", "faster code")]
    found = _sections("Which one is faster?", candidates, earlier=["What is a tuple?"])
    assert found[1]["own_coverage"] == 1.0 and found[0]["own_coverage"] == 0.0
    assert 0 < found[0]["coverage"] < found[1]["coverage"]


def test_a_section_holding_the_earlier_questions_words_covers_the_history() -> None:
    candidates = [Candidate("Tuples", "tuples are faster"), Candidate("Speed", "faster code")]
    found = _sections("Which one is faster?", candidates, earlier=["What is a tuple?"])
    assert found[0]["history_coverage"] == pytest.approx(1.0)
    assert found[1]["history_coverage"] == 0.0
    # A question that opens a conversation has no history to cover.
    assert all(f["history_coverage"] == 0.0 for f in _sections("Is a tuple faster?", candidates))


def _reading(
    question: str, candidates: list[Candidate], unheld: frozenset[str] = frozenset()
) -> Reading:
    sources = [
        SourceText(f"https://example.org/{i}", c.title, (c.passage,))
        for i, c in enumerate(candidates)
    ]
    return read_sections(question, (), sources, None, TUNING, unheld)


def test_a_name_the_question_writes_is_only_its_capitalised_words_past_a_sentence_start() -> None:
    assert name_terms("How do I test a component with Jest?") == {"jest"}
    assert name_terms("Sorting lists. Which key does Python use?") == {"python"}
    assert name_terms("What does baseURL do in the GIL? I ask.") == {"baseurl", "gil"}
    assert name_terms("how do i sort a list?") == set()


@given(
    st.lists(
        st.sampled_from(["Alpha", "beta", "Gamma", "I", "x.", "Delta?", "epsilon"]), max_size=12
    )
)
def test_names_are_always_subject_terms_of_the_question(parts: list[str]) -> None:
    question = " ".join(parts)
    assert name_terms(question) <= subject_terms(question)


def test_a_name_no_result_holds_or_one_holds_in_passing_is_counted() -> None:
    results = [
        Candidate("Fixtures: Using fixtures", "A fixture sets up a component for a test."),
        Candidate("Comparisons", "Unlike Jest, this tool collects tests by name."),
        Candidate("Writing tests", "A test is a function whose name starts with test."),
    ]
    once = _reading("How do I test a component with Jest?", results)
    assert once.names == 1 and once.missing == 0 and once.passing >= 1
    nowhere = _reading("How do I test a React component?", results)
    assert nowhere.names == 1 and nowhere.missing == 1
    # A name a result's title holds is the collection's own subject, however few hold it.
    titled = _reading("How do I use Fixtures?", results)
    assert titled.names == 0 and titled.passing == 0


def test_a_subject_word_the_search_says_no_document_holds_is_counted_unindexed() -> None:
    results = [Candidate("Writing tests", "A test is a function whose name starts with test.")]
    reading = _reading("How do I test a component with Jest?", results, frozenset({"jest"}))
    assert reading.unindexed == 1
    # Framing words and words the collection holds are not, and a hyphenated word only when
    # every part of it is unheld.
    assert _reading("How do I test it?", results, frozenset({"how"})).unindexed == 0
    assert _reading("Is x86-only code tested?", results, frozenset({"x86"})).unindexed == 0
    assert _reading("Is x86-only code tested?", results, frozenset({"x86", "only"})).unindexed == 1
    assert _reading("How do I test a component with Jest?", results).unindexed == 0


def test_a_name_no_document_holds_is_unfamiliar_and_a_word_of_the_readers_own_is_not() -> None:
    results = [Candidate("Writing tests", "A test is a function whose name starts with test.")]
    jest = _reading("How do I test a component with Jest?", results, frozenset({"jest"}))
    assert jest.unindexed == 1 and jest.unfamiliar == 1
    # A word of the reader's own that the collection does not write is unindexed, no name.
    reachable = _reading("Is the test reachable?", results, frozenset({"reachable"}))
    assert reachable.unindexed == 1 and reachable.unfamiliar == 0


def test_an_answer_whose_weights_do_not_weigh_unfamiliar_names_does_not_count_them() -> None:
    sources = [SourceText("https://example.org/0", "Writing tests", ("A test is a function.",))]
    unheld = frozenset({"jest"})
    question = "How do I test a component with Jest?"
    wanted = frozenset(FEATURES) - {"answer_unfamiliar"}
    reading = read_sections(question, (), sources, None, TUNING, unheld, wanted=wanted)
    assert reading.unindexed == 1 and reading.unfamiliar == 0


def test_the_unheld_words_are_read_from_the_searches_that_succeeded_only() -> None:
    outcomes = [
        ToolOutcome("search", {"results": [], "not_in_collection": ["jest", 3, None]}),
        ToolOutcome("search", "search failed: not_in_collection", failed=True),
        ToolOutcome("search", {"results": [], "not_in_collection": "vitest"}),
        ToolOutcome("read", {"not_in_collection": ["mocha"]}),
        # The tool loop hands the model a search's value inside a list beside its reminders.
        ToolOutcome("search", [{"results": [], "not_in_collection": ["karma"]}, "Cite."]),
    ]
    assert unheld_of(outcomes) == frozenset({"jest", "karma"})


def _similarity(by_word: dict[str, float]) -> object:
    def similarity(question: str, texts: Sequence[str], *, exact: bool = True) -> list[float]:
        return [next((v for w, v in by_word.items() if w in text), 0.1) for text in texts]

    return similarity


def test_meaning_is_the_sentence_models_likeness_of_title_and_opening() -> None:
    candidates = [Candidate("Sorting: Key Functions", "key="), Candidate("Dictionaries", "d")]
    found = _sections("sort by a key", candidates, _similarity({"Sorting": 0.6}))
    assert found[0]["meaning"] == pytest.approx(0.6) and found[1]["meaning"] == 0.1
    assert found[0]["meaning_title"] == pytest.approx(0.6)
    # Without a sentence model every meaning feature is 0.
    assert all(
        f[n] == 0 for f in _sections("sort", candidates) for n in SECTION_FEATURES if "meaning" in n
    )


class _Stored:
    """A similarity that also reads stored passage vectors, by section id."""

    def __init__(self, passages: dict[str, float]) -> None:
        self.stored = passages
        self.asked: list[list[str | None]] = []

    def __call__(self, question: str, texts: Sequence[str], *, exact: bool = True) -> list[float]:
        return [0.2 for _ in texts]

    def passages(self, question: str, ids: Sequence[str | None]) -> list[float | None]:
        self.asked.append(list(ids))
        return [None if i is None else self.stored.get(i) for i in ids]


def test_a_sections_likest_stored_passage_is_its_passage_meaning() -> None:
    candidates = [
        Candidate("Sorting: Key Functions", "key=", id="sorting#key"),
        Candidate("Dictionaries", "d", id="dicts"),
    ]
    stored = _Stored({"sorting#key": 0.7, "dicts": 0.3})
    found = _sections("sort by a key", candidates, stored)
    assert [f["meaning_passage"] for f in found] == [0.7, 0.3]
    assert stored.asked == [["sorting#key", "dicts"]]


def test_a_section_with_no_stored_passage_takes_its_meaning_instead() -> None:
    # A lexical collection stores no passage vector: the title-and-opening likeness is the
    # nearest figure, where 0 would read as "unlike the question".
    candidates = [Candidate("Sorting", "key=", id="sorting"), Candidate("Dictionaries", "d")]
    found = _sections("sort by a key", candidates, _Stored({"sorting": 0.7}))
    assert [f["meaning_passage"] for f in found] == [0.7, 0.2]
    plain = _sections("sort by a key", candidates, _similarity({"Sorting": 0.6}))
    assert [f["meaning_passage"] for f in plain] == [f["meaning"] for f in plain]


# -- run features ------------------------------------------------------------------------


SECTION = (
    "Both sorted() and list.sort() take a key function.\n\n"
    "For example, to sort records by age:\n\n"
    "```python\nsorted(rows, key=lambda row: row['age'])\n```\n\n"
    "Changed in version 3.2: key may be None.\n\n"
    "The sort is stable: records that compare equal keep their order."
)


def test_a_how_question_marks_the_runs_that_show_code() -> None:
    found = _runs("How do I sort records by a key?", SECTION)
    with_code = [f for f in found if f["run_code"]]
    assert with_code and all(f["run_code_how"] == 1.0 for f in with_code)
    found = _runs("Is the sort stable?", SECTION)
    assert all(f["run_code_how"] == 0.0 for f in found)


def test_the_lead_and_the_position_are_marked() -> None:
    found = _runs("Is the sort stable?", SECTION)
    assert found[0]["run_lead"] == 1.0 and found[0]["run_position"] == 0.0
    assert all(f["run_lead"] == 0.0 and f["run_position"] > 0 for f in found[1:])


def test_coverage_counts_the_question_words_a_run_holds() -> None:
    found = _runs("Is the sort stable?", SECTION)
    last = found[-1]  # "The sort is stable: ..."
    assert last["run_coverage"] == 1.0 and last["run_first_coverage"] == 1.0
    assert found[0]["run_coverage"] < 1.0


def test_the_run_that_first_writes_a_question_word_is_marked_not_the_ones_that_repeat_it() -> None:
    text = (
        "A command can be marked as going away with the parameter deprecated=True.\n\n"
        "Its help then says the command is deprecated, and so does the list of commands.\n\n"
        "Check it by asking for the deprecated command's help."
    )
    found = _runs("How do I mark a command as deprecated?", text)
    firsts = [f["run_first_mention"] for f in found]
    assert firsts[0] == max(firsts) > 0
    # The last paragraph repeats every word the question shares with the section.
    assert found[-1]["run_first_mention"] == 0.0 < found[-1]["run_coverage"]


def test_a_run_in_the_passage_the_search_ranked_first_is_marked_above_one_in_its_second() -> None:
    # Three paragraphs, each long enough to be a run of its own.
    cache, expiry, never = (
        "The cache keeps every page it has served for an hour by default, and it serves the "
        "kept copy to every reader who asks for the same address within that hour, whatever "
        "the reader's language or the headers the request carries, so that a busy page is "
        "built once an hour.",
        "Set the expiry in seconds with the max_age option of the cache section of the file, "
        "or per page with the cache_for field of its front matter, which wins over the section "
        "when both are written; an expiry of zero keeps nothing and sends every request to the "
        "application.",
        "A page that changes on every request, a reader's account page or a search result, "
        "should never be cached at all: list its address under the cache section's skip key, "
        "and the cache passes every request for it straight to the application, whatever the "
        "expiry says.",
    )
    text = "\n\n".join((cache, expiry, never))
    # The search's passages of the section, best first, as its index cut them: their line
    # breaks and letter case are not the units' own.
    found = [expiry.replace(" with the ", " with\nthe "), cache.upper()]
    runs = _runs("How long are pages cached?", text, found=found)
    assert len(runs) == 3
    assert [f["run_found"] for f in runs] == [1 / 2, 1.0, 0.0]
    assert all(f["run_found"] == 0.0 for f in _runs("How long are pages cached?", text))


def test_a_short_unit_is_not_placed_by_a_passage_that_happens_to_write_it() -> None:
    text = "Example:\n\n```\nserve --cache\n```\n\nThe cache is on by default in every mode."
    runs = _runs("Is the cache on?", text, found=["Another example:\n\nserve --cache"])
    assert all(f["run_found"] == 0.0 for f in runs)


def test_a_read_section_counts_what_its_whole_text_holds() -> None:
    candidates = [Candidate("A page: A section", SECTION)]
    stable = asked("Is the sort stable?", (), candidates, TUNING).question
    other = asked("Is a set hashable?", (), candidates, TUNING).question
    units = units_of(SECTION)
    names = READ_FEATURES[2:]  # the first two are the caller's: the scores before reading
    held = dict(zip(names, read_features(stable, units, frozenset(), {}, TUNING), strict=True))
    missed = dict(zip(names, read_features(other, units, frozenset(), {}, TUNING), strict=True))
    assert held["read_coverage"] == 1.0 and missed["read_coverage"] < 1.0
    assert held["read_body"] > missed["read_body"]
    assert held["read_meaning"] == 0.0  # no sentence model


def test_a_run_holds_a_pair_written_in_one_sentence_not_across_two() -> None:
    question = "What is a virtual environment?"
    together = _runs(question, "A virtual environment keeps a project's packages apart.")
    apart = _runs(question, "Packages installed in it are virtual. The environment is the same.")
    assert [f["run_pairs"] for f in together] == [1.0]
    assert all(f["run_pairs"] == 0.0 < f["run_coverage"] for f in apart)


def test_a_read_section_holds_the_pairs_any_of_its_sentences_writes() -> None:
    candidates = [Candidate("A page: A section", SECTION)]
    names = READ_FEATURES[2:]
    units = units_of(SECTION)
    sort_key = asked("How do I sort by a key?", (), candidates, TUNING).question
    apart = asked("Is a key stable?", (), candidates, TUNING).question
    held = dict(zip(names, read_features(sort_key, units, frozenset(), {}, TUNING), strict=True))
    missed = dict(zip(names, read_features(apart, units, frozenset(), {}, TUNING), strict=True))
    assert held["read_pairs"] > 0.0 == missed["read_pairs"]


@given(st.lists(st.sampled_from(["sort", "key", "list", "stable", "the", "a"]), max_size=12))
def test_a_pair_is_held_whatever_order_its_two_words_are_written_in(words: list[str]) -> None:
    pairs = subject_pairs("sort key")
    forward = near_pairs(" ".join(words), pairs, TUNING.pair_window)
    backward = near_pairs(" ".join(reversed(words)), pairs, TUNING.pair_window)
    assert forward == backward


@given(
    st.lists(st.sampled_from(["sort", "key", "list", "stable", "order", "the"]), max_size=16),
    st.integers(min_value=1, max_value=4),
)
def test_a_pair_is_near_exactly_when_its_words_stand_within_the_window(
    words: list[str], window: int
) -> None:
    pairs = subject_pairs("sort key list stable order")
    terms = [subject_terms(word).pop() if subject_terms(word) else "" for word in words]
    places = [(at, term) for at, term in enumerate(t for t in terms if t)]
    expected = {
        frozenset((a, b))
        for i, a in places
        for j, b in places
        if a != b and abs(i - j) <= window and frozenset((a, b)) in pairs
    }
    assert near_pairs(" ".join(words), pairs, window) == expected


def test_a_name_written_as_code_in_the_question_is_found_in_the_run() -> None:
    found = _runs("What does list.sort() return?", SECTION)
    assert found[0]["run_asked_code"] == 1.0


# -- runs --------------------------------------------------------------------------------


def test_a_run_never_opens_on_a_sentence_leaning_on_one_left_out() -> None:
    text = "Tuples are immutable. This makes them hashable. They can be dictionary keys."
    starts = {units_of(text)[r.start].text for r in runs_of(units_of(text), TUNING)}
    assert starts == {"Tuples are immutable."}


def test_a_passage_at_the_end_of_a_long_section_is_a_run() -> None:
    filler = "\n\n".join(f"Paragraph {i} says nothing of the matter." for i in range(2_000))
    text = filler + "\n\nThe answer is forty-two, at the very end of the section."
    units = units_of(text)
    runs = runs_of(units, TUNING)
    assert any("forty-two" in units[r.start].text for r in runs)


@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=1, max_value=50))
def test_runs_of_any_section_are_bounded(limit: int) -> None:
    text = " ".join(f"Sentence number {i} ends here." for i in range(500))
    assert len(runs_of(units_of(text), dataclasses.replace(TUNING, max_runs=limit))) <= limit


# -- the fitted models -------------------------------------------------------------------


def test_the_shipped_weights_load_with_both_sets_and_only_known_features() -> None:
    shipped = shipped_tuning()
    for fitted in (shipped.with_meaning, shipped.words_only):
        for model, names in (
            (fitted.section, SECTION_FEATURES),
            (fitted.passage, PASSAGE_FEATURES),
            (fitted.read, READ_MODEL_FEATURES),
            (fitted.confidence, CONFIDENCE_FEATURES),
        ):
            assert model.weights, "a fitted model has weights"
            assert set(model.weights) <= set(names)
        assert 0.0 < fitted.threshold < 1.0
    assert not any(
        "meaning" in name and w for name, w in shipped.words_only.section.weights.items()
    )
    assert "crossval.py" in shipped.source  # the command that wrote them


def test_a_weights_file_round_trips_and_an_unknown_setting_is_refused() -> None:
    fitted = Fitted(LinearModel({"heading": 2.0}), LinearModel({"run_coverage": 1.0}, 0.5))
    tuning = dataclasses.replace(TUNING, with_meaning=fitted, search_k=15)
    again = tuning_from_json(json.loads(tuning_to_json(tuning, command="a command")))
    assert again.with_meaning == fitted and again.search_k == 15
    with pytest.raises(TuningError, match="unknown settings"):
        tuning_from_json({"settings": {"no_such_setting": 1}})


def _by_hand(
    section: dict[str, float], passage: dict[str, float], read: dict[str, float]
) -> Fitted:
    return Fitted(
        LinearModel(section),
        LinearModel(passage),
        LinearModel(read),
        LinearModel({"answer_score": 1.0}),
        threshold=0.5,
    )


READ = {0: [0.0] * (len(READ_FEATURES) - 2), 1: [0.0] * (len(READ_FEATURES) - 2)}


def _row(names: Sequence[str], **values: float) -> list[float]:
    return [values.get(name, 0.0) for name in names]


def test_the_models_choose_as_their_weights_say() -> None:
    sections = [_row(SECTION_FEATURES, heading=1.0), _row(SECTION_FEATURES, body=1.0)]
    runs = {
        0: [_row(PASSAGE_FEATURES, run_coverage=0.2), _row(PASSAGE_FEATURES, run_coverage=0.9)],
        1: [_row(PASSAGE_FEATURES, run_coverage=1.0)],
    }
    heading_first = _by_hand(
        {"heading": 2.0, "body": 1.0}, {"run_coverage": 1.0}, {"read_section": 1.0}
    )
    choice = choose(heading_first, sections, runs, READ, read=2, found=1.0, terms=2)
    assert (choice.section, choice.run) == (0, 1) and choice.answers
    assert section_order(section_scores(heading_first, sections)) == (0, 1)
    # The read model may prefer the section whose best run is better, read or not first.
    by_run = dataclasses.replace(heading_first, read=LinearModel({"read_best_run": 1.0}))
    assert choose(by_run, sections, runs, READ, read=2, found=1.0, terms=2).section == 1
    # Only the sections read are chosen from.
    assert choose(by_run, sections, runs, READ, read=1, found=1.0, terms=2).section == 0
    body_first = _by_hand(
        {"heading": 1.0, "body": 2.0}, {"run_coverage": 1.0}, {"read_section": 1.0}
    )
    assert choose(body_first, sections, runs, READ, read=1, found=1.0, terms=2).section == 1


def test_the_read_model_weighs_what_each_sections_best_run_holds() -> None:
    # Two sections alike before reading: the first's best run (by the passage model) holds
    # less of the question and is less alike in meaning than the second's.
    sections = [_row(SECTION_FEATURES, heading=1.0), _row(SECTION_FEATURES, heading=1.0)]
    runs = {
        0: [_row(PASSAGE_FEATURES, run_length=1.0, run_coverage=0.3, run_meaning_max=0.2)],
        1: [
            _row(PASSAGE_FEATURES, run_coverage=0.1),
            _row(PASSAGE_FEATURES, run_length=1.0, run_coverage=0.8, run_meaning_max=0.7),
        ],
    }
    for feature in ("read_run_coverage", "read_run_meaning"):
        fitted = _by_hand({"heading": 1.0}, {"run_length": 1.0}, {feature: 1.0})
        choice = choose(fitted, sections, runs, READ, read=2, found=1.0, terms=2)
        assert (choice.section, choice.run) == (1, 1)
        # Switched off, the two read sections tie and the one ranked first answers.
        ablated = frozenset({feature})
        off = choose(fitted, sections, runs, READ, read=2, found=1.0, terms=2, ablated=ablated)
        assert off.section == 0


@settings(max_examples=50, deadline=None)
@given(
    st.lists(
        st.lists(st.floats(min_value=0, max_value=1), min_size=2, max_size=2),
        min_size=1,
        max_size=8,
    )
)
def test_a_sections_best_run_features_are_those_of_the_run_the_passage_model_picks(
    values: list[list[float]],
) -> None:
    rows = [_row(PASSAGE_FEATURES, run_coverage=c, run_meaning_max=m) for c, m in values]
    fitted = _by_hand({}, {"run_coverage": 1.0, "run_meaning_max": -0.5}, {})
    number, score = best_run(fitted, rows)
    scores = [c - 0.5 * m for c, m in values]
    assert score == max(scores) and number == scores.index(max(scores))
    values_read = read_values(0.0, score, READ[0], rows[number])
    found = dict(zip(READ_MODEL_FEATURES, values_read, strict=True))
    assert found["read_run_coverage"] == values[number][0]
    assert found["read_run_meaning"] == values[number][1]


def test_the_confidence_below_its_threshold_is_nothing_found() -> None:
    sections = [_row(SECTION_FEATURES, heading=1.0)]
    runs = {0: [_row(PASSAGE_FEATURES, run_coverage=1.0)]}
    fitted = _by_hand({"heading": 1.0}, {"run_coverage": 1.0}, {"read_best_run": 1.0})
    sure = choose(fitted, sections, runs, READ, read=1, found=1.0, terms=2)
    assert sure.answers and sure.confidence > 0.5
    doubtful = dataclasses.replace(fitted, threshold=0.99)
    assert not choose(doubtful, sections, runs, READ, read=1, found=1.0, terms=2).answers


def test_whether_it_answers_is_judged_by_the_answer_among_the_first_sections_read() -> None:
    # The read model prefers the second section, whose run holds the question; the first
    # section's run holds none of it. Judged among the first one, the answer is doubtful.
    sections = [_row(SECTION_FEATURES, heading=1.0), _row(SECTION_FEATURES, body=1.0)]
    runs = {
        0: [_row(PASSAGE_FEATURES, run_coverage=0.0)],
        1: [_row(PASSAGE_FEATURES, run_coverage=1.0)],
    }
    fitted = dataclasses.replace(
        _by_hand({"heading": 1.0}, {"run_coverage": 1.0}, {"read_best_run": 1.0}),
        confidence=LinearModel({"answer_run_coverage": 4.0}, bias=-2.0),
    )
    chosen = choose(fitted, sections, runs, READ, read=2, found=1.0, terms=2)
    assert chosen.section == 1 and chosen.answers
    judged = choose(fitted, sections, runs, READ, read=2, judge=1, found=1.0, terms=2)
    assert (judged.section, judged.run) == (1, 0) and not judged.answers
    assert judged.score == chosen.score


def test_an_ablated_feature_counts_nothing() -> None:
    sections = [_row(SECTION_FEATURES, heading=1.0), _row(SECTION_FEATURES, body=1.0)]
    runs = {0: [_row(PASSAGE_FEATURES)], 1: [_row(PASSAGE_FEATURES)]}
    fitted = _by_hand({"heading": 2.0, "body": 1.0}, {}, {"read_section": 1.0})
    assert choose(fitted, sections, runs, READ, read=2, found=1.0, terms=2).section == 0
    ablated = frozenset({"heading"})
    chosen = choose(fitted, sections, runs, READ, read=2, found=1.0, terms=2, ablated=ablated)
    assert chosen.section == 1


def test_a_tuning_set_for_a_block_is_the_one_in_force_there_only() -> None:
    changed = shipped_tuning().without("meaning")
    with use_tuning(changed):
        assert current_tuning() is changed and "meaning" in current_tuning().ablated
    assert current_tuning() is shipped_tuning()


def test_every_feature_has_one_name() -> None:
    assert len(FEATURES) == len(set(FEATURES))


def test_a_run_that_names_code_the_question_did_not_write_is_marked() -> None:
    question = "How do I send a file back to the client?"
    opening = "Files can be sent back to the client from a view in several ways."
    plain = _runs(question, f"{opening}\n\nThe response then carries the file's bytes.")
    assert all(f["run_names"] == 0.0 for f in plain)
    named = _runs(question, f"{opening}\n\nCall send_file() or pass --static-folder.")
    assert named[-1]["run_names"] > 0.0
    # A name the question writes is no news in the run that repeats it.
    asked_for = _runs("What does send_file() do?", "The function send_file() sends a file back.")
    assert asked_for[0]["run_names"] == 0.0


@pytest.mark.parametrize(
    "name",
    ["Rc::new", "Vec<String>", "&self", "derive(Debug)", "$HOME", "@property", "<VirtualHost>"],
)
def test_a_name_in_the_shape_of_rust_shell_or_xml_is_a_name_given(name: str) -> None:
    question = "How do I share one value between several parts of the program?"
    opening = "A value can have more than one owner in several ways."
    named = _runs(question, f"{opening}\n\nThe answer is {name} here.")
    assert named[-1]["run_names"] > 0.0


def test_prose_with_an_ampersand_a_mail_address_or_a_parenthesis_names_nothing() -> None:
    question = "How do I share one value between several parts of the program?"
    opening = "A value can have more than one owner in several ways."
    plain = _runs(question, f"{opening}\n\nAsk R&D (see above) or write to us: 3 < 4 > 2.")
    assert all(f["run_names"] == 0.0 for f in plain)
