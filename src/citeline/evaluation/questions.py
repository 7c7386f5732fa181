"""Evaluation questions: what to ask, which sources should be cited, and the gold evidence.

Reads the citeline question file (JSONL, one question per line) and dispatches a SciFact
claims file to :mod:`citeline.evaluation.scifact`, so a caller has one entry point,
:func:`load_questions`, whatever the layout. It does not score anything and does not know
how answers are produced.

The citeline layout, one JSON object per line::

    {"id": "q1", "question": "...", "gold_ids": ["doc-a", "https://example.org/b"],
     "evidence": {"doc-a": ["A sentence of doc-a that answers the question."]},
     "answer_terms": ["key=", "itemgetter"], "figures": ["5076", "217.2"],
     "history": ["An earlier question of the same conversation"], "expects": "measure"}

``id`` defaults to the line number; ``gold_ids`` holds source identifiers as a citation
names them (a document's id, or its url when it has none) and may be empty. Everything
else is optional: ``evidence`` (gold sentences per source), ``answer_terms`` (a right
answer contains one of them), ``figures`` (plain decimals a right answer contains, all of
them), ``history`` (the earlier user questions, oldest first, of the conversation the
question is asked in) and ``expects`` (how a right data answer is produced: one of
``EXPECTED_OUTCOMES``). Other keys (a note, a kind) are the file's own and are ignored.
Blank lines are skipped.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal, TypeAlias

from citeline.errors import CitelineError
from citeline.evaluation.answer_checks import FIGURE_FORMAT

ExpectedOutcome: TypeAlias = Literal["measure", "sql", "nothing_found"]
EXPECTED_OUTCOMES: Final[tuple[ExpectedOutcome, ...]] = ("measure", "sql", "nothing_found")


class QuestionFileError(CitelineError, ValueError):
    """A question file that cannot be read; the message says where and how to fix it."""


@dataclass(frozen=True, slots=True)
class EvidenceSentence:
    """One gold evidence sentence and the source it belongs to."""

    source_id: str
    text: str


@dataclass(frozen=True, slots=True)
class EvalQuestion:
    """A question with its gold sources and what its answer must hold; any may be empty.

    ``history`` holds the earlier user questions of its conversation, oldest first; empty
    means the question opens a conversation. ``expects`` is ``None`` when the question does
    not say how its answer should be produced.
    """

    id: str
    question: str
    gold_ids: tuple[str, ...] = ()
    evidence: tuple[EvidenceSentence, ...] = ()
    answer_terms: tuple[str, ...] = ()
    figures: tuple[str, ...] = ()
    history: tuple[str, ...] = ()
    expects: ExpectedOutcome | None = None

    @property
    def is_data_question(self) -> bool:
        """Whether the answer is judged as a figure from data (it has figures or ``expects``)."""
        return bool(self.figures) or self.expects is not None


def load_questions(path: Path, *, limit: int | None = None) -> list[EvalQuestion]:
    """The questions in ``path``, in file order, at most ``limit`` of them.

    A SciFact claims file (its records have ``claim`` and ``cited_doc_ids``) is read with
    :func:`citeline.evaluation.scifact.load_scifact_claims`, keeping the claims that have
    evidence; anything else must be in the citeline layout described in this module.
    """
    records = list(read_jsonl(path))
    if records and _is_scifact_claim(records[0][1]):
        # Imported here: the SciFact reader imports this module's types.
        from citeline.evaluation.scifact import load_scifact_claims

        return load_scifact_claims(path, limit=limit)
    questions = [_question_from_record(path, line, record) for line, record in records]
    _reject_duplicate_ids(path, questions)
    return questions[:limit] if limit is not None else questions


def read_jsonl(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line number, object)`` for each non-blank line of a JSONL file.

    A line that cannot be read is a ``QuestionFileError`` naming the file and the line:
    bytes that are not UTF-8, JSON nested past what the parser can follow (a 100,000-deep
    line raised ``RecursionError``), a number too long to convert (a 5,000-digit id), or
    anything but one object.
    """
    try:
        handle = path.open("rb")
    except OSError as error:
        raise QuestionFileError(
            f"Cannot read {path}: {error.strerror or error}. Check the path and try again."
        ) from error
    with handle:
        for number, raw in enumerate(handle, start=1):
            try:
                line = raw.decode("utf-8-sig" if number == 1 else "utf-8")
            except UnicodeDecodeError as error:
                raise QuestionFileError(
                    f"{path}:{number} is not UTF-8 text (bad byte at offset {error.start} of"
                    " the line); save the file as UTF-8."
                ) from None
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as error:
                raise QuestionFileError(
                    f"{path}:{number} is not valid JSON ({error.msg}); "
                    "each line must be one JSON object."
                ) from error
            except RecursionError:
                raise QuestionFileError(
                    f"{path}:{number} nests JSON too deeply to read; "
                    "each line must be one flat JSON object."
                ) from None
            except ValueError as error:
                raise QuestionFileError(
                    f"{path}:{number} cannot be read ({_first_line(error)}); "
                    "write long numbers as strings."
                ) from None
            if not isinstance(record, dict):
                raise QuestionFileError(
                    f"{path}:{number} is not a JSON object; each line must be one JSON object."
                )
            yield number, record


def _first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return lines[0][:200] if lines else "no detail"


def _is_scifact_claim(record: dict[str, Any]) -> bool:
    return "claim" in record and "cited_doc_ids" in record


def _question_from_record(path: Path, line: int, record: dict[str, Any]) -> EvalQuestion:
    where = f"{path}:{line}"
    question = record.get("question")
    if not isinstance(question, str) or not question.strip():
        raise QuestionFileError(
            f'{where} has no "question" text; give each line a non-empty "question" string.'
        )
    raw_id = record.get("id", line)
    if not isinstance(raw_id, str | int) or isinstance(raw_id, bool) or str(raw_id) == "":
        raise QuestionFileError(f'{where}: "id" must be a non-empty string or an integer.')
    gold = record.get("gold_ids", [])
    if not isinstance(gold, list) or not all(_is_identifier(value) for value in gold):
        raise QuestionFileError(
            f'{where}: "gold_ids" must be a list of source identifiers (strings or integers).'
        )
    return EvalQuestion(
        id=str(raw_id),
        question=question,
        gold_ids=tuple(dict.fromkeys(str(value) for value in gold)),
        evidence=_evidence_from_record(where, record.get("evidence", {})),
        answer_terms=_strings(where, record, "answer_terms", 'for example ["key=", "itemgetter"]'),
        figures=_figures(where, record.get("figures", [])),
        history=_strings(where, record, "history", 'for example ["How do I sort a list?"]'),
        expects=_expects(where, record.get("expects")),
    )


def _strings(where: str, record: dict[str, Any], key: str, example: str) -> tuple[str, ...]:
    raw = record.get(key, [])
    if not isinstance(raw, list) or not all(isinstance(v, str) and v.strip() for v in raw):
        raise QuestionFileError(f'{where}: "{key}" must be a list of non-empty strings, {example}.')
    return tuple(raw)


def _figures(where: str, raw: object) -> tuple[str, ...]:
    # A figure's written decimals are its precision, so it is kept as written: a JSON number
    # would lose "190.0"'s trailing zero. An integer is accepted as its decimal string.
    problem = (
        f'{where}: "figures" must be a list of plain decimal numbers written as strings, '
        'without thousands separators, for example ["5076", "217.2"].'
    )
    if not isinstance(raw, list):
        raise QuestionFileError(problem)
    figures: list[str] = []
    for value in raw:
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        if not isinstance(value, str) or not FIGURE_FORMAT.fullmatch(value.strip()):
            raise QuestionFileError(problem)
        figures.append(value.strip())
    return tuple(figures)


def _expects(where: str, raw: object) -> ExpectedOutcome | None:
    if raw is None:
        return None
    for outcome in EXPECTED_OUTCOMES:
        if raw == outcome:
            return outcome
    choices = ", ".join(f'"{outcome}"' for outcome in EXPECTED_OUTCOMES)
    raise QuestionFileError(f'{where}: "expects" must be one of {choices}, not {raw!r}.')


def _evidence_from_record(where: str, raw: object) -> tuple[EvidenceSentence, ...]:
    problem = (
        f'{where}: "evidence" must map a source identifier to a list of sentence strings, '
        'for example {"doc-a": ["The sentence that answers."]}.'
    )
    if not isinstance(raw, dict):
        raise QuestionFileError(problem)
    sentences: list[EvidenceSentence] = []
    for source_id, texts in raw.items():
        if not isinstance(texts, list) or not all(isinstance(text, str) for text in texts):
            raise QuestionFileError(problem)
        sentences.extend(EvidenceSentence(source_id=source_id, text=text) for text in texts)
    return tuple(sentences)


def _is_identifier(value: object) -> bool:
    return isinstance(value, str | int) and not isinstance(value, bool) and str(value) != ""


def _reject_duplicate_ids(path: Path, questions: list[EvalQuestion]) -> None:
    seen: set[str] = set()
    for question in questions:
        if question.id in seen:
            raise QuestionFileError(
                f"{path}: question id {question.id!r} appears twice; give each question its own id."
            )
        seen.add(question.id)
