"""What a person sees while a citation evaluation runs: a progress bar, then a table.

Rich types stay in this module. It formats figures it is given; it computes none (the
running precision on the bar is the summary of the answers so far) and writes no files.
"""

from __future__ import annotations

from types import TracebackType

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from citeline.evaluation.runner import EvaluatedAnswer
from citeline.evaluation.summary import CitationSummary, summarize


class EvaluationProgress:
    """A progress bar over the questions, showing precision and recall so far."""

    def __init__(self, total: int, console: Console) -> None:
        self._progress = Progress(
            TextColumn("[bold]citations[/bold]"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("{task.description}"),
            console=console,
        )
        self._task = self._progress.add_task("", total=total)
        self._results: list[EvaluatedAnswer] = []

    def __enter__(self) -> EvaluationProgress:
        self._progress.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._progress.stop()

    def advance(self, result: EvaluatedAnswer) -> None:
        """Count one more answer."""
        self._results.append(result)
        summary = summarize([item.score for item in self._results])
        self._progress.update(
            self._task,
            advance=1,
            description=(
                f"precision {_fraction(summary.precision)}  recall {_fraction(summary.recall)}"
            ),
        )


def summary_table(summary: CitationSummary, *, title: str = "Citation quality") -> Table:
    """The overall figures, each with what it is measured over."""
    table = Table(title=title)
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_column("over", justify="right")
    for row in [*_answer_rows(summary), *_markup_rows(summary), *_time_rows(summary)]:
        table.add_row(*row)
    return table


_Row = tuple[str, str, str]


def _answer_rows(summary: CitationSummary) -> list[_Row]:
    """What the answers cited and said: precision, recall, terms, figures, outcomes."""
    states = ", ".join(f"{state} {count}" for state, count in sorted(summary.states.items()))
    judged = f"{summary.judged} judged"
    rows = [
        ("questions", str(summary.questions), states or "-"),
        ("citation precision", _fraction(summary.precision), judged),
        ("citation recall", _fraction(summary.recall), judged),
        ("cites a gold source", _percent(summary.gold_cited_rate), judged),
    ]
    if summary.term_judged:
        rows.append(
            (
                "answers containing an expected term",
                _percent(summary.expected_term_rate),
                f"{summary.term_judged} with terms",
            )
        )
    if summary.figures_judged:
        rows.append(
            (
                "answers with the expected figures",
                _percent(summary.expected_figures_rate),
                f"{summary.figures_judged} with figures",
            )
        )
    if summary.outcome_judged:
        outcomes = ", ".join(f"{kind} {count}" for kind, count in sorted(summary.outcomes.items()))
        over = f"{summary.outcome_judged} with expects; {outcomes}"
        rows.append(("produced as expected", _percent(summary.as_expected_rate), over))
    if summary.data_questions:
        rows.append(
            (
                "wrong answers labelled verified (must be 0)",
                str(summary.wrong_verified),
                f"{summary.data_questions} data questions",
            )
        )
    return rows


def _markup_rows(summary: CitationSummary) -> list[_Row]:
    """How the model's markup fared: citations missing, anchors dropped, quotes, leaks."""
    leaked = ", ".join(f"{kind} {count}" for kind, count in summary.leaks.items() if count)
    return [
        ("no citation", _percent(summary.no_citation_rate), f"{summary.answered} answered"),
        (
            "dropped anchors",
            _percent(summary.dropped_anchor_rate),
            f"{summary.questions} answers, {summary.dropped_anchors} anchors",
        ),
        ("quotes verified", _percent(summary.quote_verification_rate), f"{summary.quotes} quotes"),
        (
            "verified quote in gold evidence",
            _percent(summary.quote_in_evidence_rate),
            f"{summary.evidence_judged_quotes} quotes",
        ),
        (
            "markup leaked (must be 0)",
            _percent(summary.leak_rate),
            leaked or f"{summary.questions} answers",
        ),
    ]


def _time_rows(summary: CitationSummary) -> list[_Row]:
    first = f"{_millis(summary.first_token_p50)} / {_millis(summary.first_token_p95)}"
    total = f"{_millis(summary.total_p50)} / {_millis(summary.total_p95)}"
    rows = [("time to first token p50 / p95", first, ""), ("total time p50 / p95", total, "")]
    if summary.errors:
        rows.append(("broken streams", str(summary.errors), "see the report's errors"))
    return rows


def _fraction(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def _millis(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds * 1000:.0f} ms"
