"""The per-question distribution of a citation evaluation, drawn to a PNG file.

Four panels: citation precision and recall over the judged questions, and time to first
token and total time over every answer. matplotlib (the ``eval`` extra) is imported only
here and only when a plot is asked for, with the Agg backend so no display is needed; the
rest of the evaluation runs without it. It computes no figures beyond what it draws.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from citeline.errors import CitelineError
from citeline.evaluation.metrics import QuestionScore


class PlotUnavailableError(CitelineError, RuntimeError):
    """matplotlib is not installed; the message says how to install it."""


def ensure_plot_available() -> None:
    """Raise :class:`PlotUnavailableError` now if a plot could not be drawn later.

    A caller checks before a long run, so a missing library does not cost the run.
    """
    _pyplot()


def write_distribution_plot(scores: Sequence[QuestionScore], path: Path, *, title: str) -> None:
    """Draw the per-question distributions of ``scores`` to the PNG file ``path``."""
    pyplot = _pyplot()
    figure, axes = pyplot.subplots(2, 2, figsize=(10, 7), constrained_layout=True)
    try:
        figure.suptitle(title)
        judged = [score for score in scores if score.precision is not None]
        # Eleven bins on [0, 1] put each of the common values 0, 1/2 and 1 alone in a bin.
        score_bins = [i / 11 for i in range(12)]
        _histogram(
            axes[0][0],
            [score.precision for score in judged if score.precision is not None],
            score_bins,
            "citation precision",
            "questions",
        )
        _histogram(
            axes[0][1],
            [score.recall for score in judged if score.recall is not None],
            score_bins,
            "citation recall",
            "questions",
        )
        _histogram(
            axes[1][0],
            [s.first_token_seconds * 1000 for s in scores if s.first_token_seconds is not None],
            30,
            "time to first token (ms)",
            "answers",
        )
        _histogram(
            axes[1][1],
            [score.total_seconds * 1000 for score in scores],
            30,
            "total time (ms)",
            "answers",
        )
        path.parent.mkdir(parents=True, exist_ok=True)
        figure.savefig(path, format="png", dpi=100)
    finally:
        pyplot.close(figure)


def _histogram(axis: Any, values: list[float], bins: Any, label: str, unit: str) -> None:
    if values:
        axis.hist(values, bins=bins, color="#3b6ea5", edgecolor="white")
    else:
        axis.text(0.5, 0.5, "nothing to show", ha="center", va="center", transform=axis.transAxes)
    axis.set_xlabel(label)
    axis.set_ylabel(unit)
    axis.set_title(f"{label} (n = {len(values)})")


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError as error:
        raise PlotUnavailableError(
            "Drawing the plot needs matplotlib: install it with "
            "`pip install 'citeline[eval]'`, or leave out --plot."
        ) from error
    matplotlib.use("Agg")
    import matplotlib.pyplot as pyplot

    return pyplot
