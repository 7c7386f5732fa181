"""SciFact claims read as questions: gold documents and evidence sentences by index."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from citeline.evaluation import (
    EvalQuestion,
    EvidenceSentence,
    QuestionFileError,
    load_questions,
    load_scifact_claims,
)

FIXTURES = Path(__file__).parent / "fixtures" / "scifact"
SHARED_SCIFACT = Path(__file__).parents[2] / ".." / "shared" / "data" / "scifact-allenai"


@pytest.fixture
def release(tmp_path: Path) -> Path:
    """The fixture slice laid out as the release is: claims beside ``corpus.jsonl``."""
    shutil.copy(FIXTURES / "claims.jsonl", tmp_path / "claims_train.jsonl")
    shutil.copy(FIXTURES / "corpus.jsonl", tmp_path / "corpus.jsonl")
    return tmp_path / "claims_train.jsonl"


def test_claims_with_evidence_become_questions_with_gold_documents_and_sentences(
    release: Path,
) -> None:
    assert load_questions(release) == [
        EvalQuestion(
            "1",
            "Aspirin lowers fever.",
            gold_ids=("10",),
            evidence=(
                EvidenceSentence("10", "It lowers fever in adults."),
                EvidenceSentence("10", "The effect lasts hours."),
            ),
        ),
        EvalQuestion(
            "3",
            "Ibuprofen raises fever.",
            gold_ids=("20", "10"),
            evidence=(
                EvidenceSentence("20", "Ibuprofen lowers fever too."),
                EvidenceSentence("10", "Aspirin is an old drug."),
            ),
        ),
    ]


def test_a_cited_document_without_evidence_is_not_gold(release: Path) -> None:
    first = load_scifact_claims(release)[0]
    assert first.gold_ids == ("10",)


def test_claims_without_evidence_can_be_kept_as_unjudged_questions(release: Path) -> None:
    questions = load_scifact_claims(release, with_evidence_only=False)
    assert [q.id for q in questions] == ["1", "2", "3"]
    assert questions[1].gold_ids == ()
    assert questions[1].evidence == ()


def test_a_limit_counts_the_claims_kept(release: Path) -> None:
    assert [q.id for q in load_scifact_claims(release, limit=1)] == ["1"]


def test_claims_without_their_corpus_say_where_to_put_it(tmp_path: Path) -> None:
    shutil.copy(FIXTURES / "claims.jsonl", tmp_path / "claims_train.jsonl")
    with pytest.raises(QuestionFileError, match=r"put the release's corpus\.jsonl at"):
        load_questions(tmp_path / "claims_train.jsonl")


def test_an_evidence_index_outside_the_abstract_is_refused(release: Path) -> None:
    release.write_text(
        json.dumps(
            {
                "id": 9,
                "claim": "c",
                "evidence": {"20": [{"sentences": [5], "label": "SUPPORT"}]},
                "cited_doc_ids": [20],
            }
        )
        + "\n"
    )
    with pytest.raises(QuestionFileError, match="outside document 20's 2 sentences"):
        load_questions(release)


@pytest.mark.skipif(
    not (SHARED_SCIFACT / "claims_train.jsonl").is_file(),
    reason="the shared SciFact data is not beside this checkout",
)
def test_the_real_train_claims_map_evidence_indices_to_the_abstract_sentences() -> None:
    questions = load_scifact_claims(SHARED_SCIFACT / "claims_train.jsonl", limit=3)
    # Claim 2 is the release README's example: doc 13734012 sentence 4, a CONTRADICT rationale.
    assert [q.id for q in questions] == ["2", "9", "12"]
    assert questions[0].question == "1 in 5 million in UK have abnormal PrP positivity."
    assert questions[0].gold_ids == ("13734012",)
    [evidence] = questions[0].evidence
    assert evidence.source_id == "13734012"
    assert evidence.text.startswith("RESULTS Of the 32,441 appendix samples 16 were positive")
    assert [len(q.evidence) for q in questions] == [1, 1, 2]
