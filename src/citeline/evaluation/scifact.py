"""SciFact claims, read as evaluation questions straight from the AllenAI release layout.

A claims file (``claims_train.jsonl``) holds ``id``, ``claim``, ``cited_doc_ids`` and
``evidence`` (``{doc_id: [{"sentences": [index, ...], "label": ...}]}``); the evidence
indices point into each abstract's sentence list in ``corpus.jsonl`` beside it. This module
turns a claim into an :class:`EvalQuestion` whose gold sources are the documents that hold
evidence and whose gold evidence is those sentences' text. It does not index the corpus:
build the index from ``beir-scifact/corpus.jsonl``, whose ``_id`` is the same document id
as a string.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from citeline.evaluation.questions import (
    EvalQuestion,
    EvidenceSentence,
    QuestionFileError,
    read_jsonl,
)

CORPUS_FILE_NAME = "corpus.jsonl"


def load_scifact_claims(
    claims_path: Path,
    *,
    corpus_path: Path | None = None,
    with_evidence_only: bool = True,
    limit: int | None = None,
) -> list[EvalQuestion]:
    """The claims of ``claims_path`` as questions, in file order, at most ``limit`` of them.

    Gold sources are the documents with evidence, not every cited document: the release
    marks a cited document without evidence as NOT ENOUGH INFO for the claim (25 of the 505
    train claims with evidence also cite such a document), so citing it is not a right
    answer. A claim with no evidence at all is skipped unless ``with_evidence_only`` is
    false, when it becomes a question with no gold sources, which the metrics leave unjudged.
    """
    claims: list[tuple[int, dict[str, Any]]] = []
    for line, record in read_jsonl(claims_path):
        _check_claim(claims_path, line, record)
        if record["evidence"] or not with_evidence_only:
            claims.append((line, record))
    if limit is not None:
        claims = claims[:limit]
    needed = {str(doc_id) for _, record in claims for doc_id in record["evidence"]}
    sentences = _abstract_sentences(
        corpus_path or claims_path.parent / CORPUS_FILE_NAME, needed, claims_path
    )
    return [_question_from_claim(claims_path, line, record, sentences) for line, record in claims]


def _check_claim(path: Path, line: int, record: dict[str, Any]) -> None:
    where = f"{path}:{line}"
    if not isinstance(record.get("claim"), str) or "id" not in record:
        raise QuestionFileError(f'{where}: a SciFact claim needs "id" and "claim" text.')
    evidence = record.get("evidence")
    if not isinstance(evidence, dict) or not all(
        isinstance(rationales, list)
        and all(
            isinstance(rationale, dict) and isinstance(rationale.get("sentences"), list)
            for rationale in rationales
        )
        for rationales in evidence.values()
    ):
        raise QuestionFileError(
            f'{where}: SciFact "evidence" must map a document id to a list of '
            '{"sentences": [index, ...], "label": ...} rationales.'
        )


def _abstract_sentences(
    corpus_path: Path, needed: set[str], claims_path: Path
) -> dict[str, list[str]]:
    if not needed:
        return {}
    if not corpus_path.is_file():
        raise QuestionFileError(
            f"SciFact evidence in {claims_path} points into abstracts that are not here: "
            f"put the release's {CORPUS_FILE_NAME} at {corpus_path}."
        )
    sentences: dict[str, list[str]] = {}
    for line, record in read_jsonl(corpus_path):
        doc_id = str(record.get("doc_id"))
        abstract = record.get("abstract")
        if doc_id not in needed:
            continue
        if not isinstance(abstract, list) or not all(isinstance(s, str) for s in abstract):
            raise QuestionFileError(
                f"{corpus_path}:{line}: a SciFact abstract must be a list of sentence strings."
            )
        # BEIR's text is " ".join(s.strip() for s in abstract): stripping here keeps an
        # evidence sentence byte-equal to a span of the indexed document.
        sentences[doc_id] = [sentence.strip() for sentence in abstract]
    missing = sorted(needed - sentences.keys())
    if missing:
        raise QuestionFileError(
            f"{corpus_path} lacks documents {', '.join(missing[:5])} that {claims_path} cites "
            "as evidence; use the corpus of the same SciFact release."
        )
    return sentences


def _question_from_claim(
    path: Path, line: int, record: dict[str, Any], sentences: dict[str, list[str]]
) -> EvalQuestion:
    evidence: list[EvidenceSentence] = []
    for doc_id, rationales in record["evidence"].items():
        abstract = sentences[str(doc_id)]
        indices = sorted({index for rationale in rationales for index in rationale["sentences"]})
        for index in indices:
            if not isinstance(index, int) or not 0 <= index < len(abstract):
                raise QuestionFileError(
                    f"{path}:{line}: evidence sentence {index!r} is outside document "
                    f"{doc_id}'s {len(abstract)} sentences; use the corpus of the same release."
                )
            evidence.append(EvidenceSentence(source_id=str(doc_id), text=abstract[index]))
    return EvalQuestion(
        id=str(record["id"]),
        question=record["claim"],
        gold_ids=tuple(dict.fromkeys(str(doc_id) for doc_id in record["evidence"])),
        evidence=tuple(evidence),
    )
