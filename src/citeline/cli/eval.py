"""``citeline eval``: measure a deployment on its own questions.

``citeline eval citations`` runs a question file through the real answer engine (any
``--model``, over an index, tables or both) and reports citation precision and recall,
gold sources cited, expected terms and figures, wrong answers labelled verified, dropped
anchors, answers without citations, quotes, markup leaks and timings. Definitions are in
``docs/eval.md``; the measuring is :mod:`citeline.evaluation`, this module only wires it to
the command line.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import AbstractContextManager, ExitStack, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

from citeline.cli.app import CitelineGroup, app
from citeline.cli.index import IndexOption, fail, index_location, unusable_index
from citeline.cli.model_options import (
    DEFAULT_MAX_TOKENS,
    ContextTokensOption,
    MaxTokensOption,
    ModelOption,
)

if TYPE_CHECKING:
    from rich.console import Console

    from citeline.data import Project
    from citeline.evaluation import CitationSummary, EvalQuestion, EvaluatedAnswer
    from citeline.events import Event
    from citeline.models import ChatMessage, ModelHandle

eval_app = typer.Typer(
    cls=CitelineGroup,
    name="eval",
    help="Measure citeline on your own data and questions.",
    no_args_is_help=True,
)
app.add_typer(eval_app, name="eval")


QuestionsOption = Annotated[
    Path,
    typer.Option(
        "--questions",
        help="JSONL questions with gold source ids (see docs/eval.md), "
        "or a SciFact claims file with corpus.jsonl beside it.",
    ),
]
ProjectOption = Annotated[
    str | None,
    typer.Option(
        "--project",
        help="Tables and measures to answer from too: a citeline.toml or its folder; "
        "'sample' is the bundled Palmer penguins data.",
    ),
]
DataOption = Annotated[
    list[str] | None,
    typer.Option(
        "--data", help="Add a table from a CSV, Parquet, SQLite or DuckDB file: NAME=PATH."
    ),
]
LimitOption = Annotated[
    int | None, typer.Option("--limit", min=1, help="Ask only the first N questions.")
]
OutOption = Annotated[
    Path | None,
    typer.Option("--out", help="Write the JSON report (settings, summary, every question)."),
]
PlotOption = Annotated[
    Path | None,
    typer.Option("--plot", help="Draw the per-question distributions to this PNG file."),
]
WarmUpOption = Annotated[
    bool,
    typer.Option(
        "--warm-up/--no-warm-up",
        help="Ask the first question once, unscored, before timing, so one-time start-up "
        "costs stay out of the timings.",
    ),
]
AblateOption = Annotated[
    list[str] | None,
    typer.Option(
        "--ablate",
        help="Switch one of the embedded model's features off (its value counts 0, the "
        "fitted weights unchanged), to see what it is worth; repeatable. The features are "
        "listed in docs/models.md.",
    ),
]


@eval_app.command("citations")
def citations(
    questions: QuestionsOption,
    db: IndexOption = None,
    project: ProjectOption = None,
    data: DataOption = None,
    model: ModelOption = None,
    limit: LimitOption = None,
    out: OutOption = None,
    plot: PlotOption = None,
    max_tokens: MaxTokensOption = DEFAULT_MAX_TOKENS,
    context_tokens: ContextTokensOption = None,
    warm_up: WarmUpOption = True,
    ablate: AblateOption = None,
) -> None:
    """Ask each question, score each answer's citations, terms and figures, print the summary.

    Answers come from the index (--db), the tables (--project, --data) or both, as in ask.

    A question with a history is asked as a chat follow-up after its earlier questions.

    Exit status 1: model citation markup leaked into some prose, or an answer stream broke.

    Exit status 2: the inputs cannot be used (the message says why).
    """
    from rich.console import Console

    from citeline.data import project_from_options
    from citeline.evaluation import ensure_plot_available, load_questions, summarize, summary_table
    from citeline.models import resolve_model

    handle = resolve_model(model, max_tokens=max_tokens, context_tokens=context_tokens)
    ablated = _checked_ablation(ablate or [], handle.extractive)
    asked = load_questions(questions, limit=limit)
    if plot is not None:
        ensure_plot_available()
    declared = project_from_options(project, data or ())
    if not asked:
        _fail(f"{questions} holds no questions; add one JSON object per line (see docs/eval.md).")
    chosen = _index_to_answer_from(db, tables_named=project is not None or bool(data))
    results = _answered(asked, chosen, declared, handle, warm_up, ablated)
    summary = summarize([result.score for result in results])
    console = Console()
    console.print(summary_table(summary, title=f"Citation quality: {handle.name}"))
    if out is not None:
        settings = {
            "db": chosen,
            "project": project,
            "data": list(data or ()),
            "questions": str(questions),
            "model": handle.spec,
            "model_name": handle.name,
            "limit": limit,
            "warm_up": warm_up,
            "ablate": sorted(set(ablate or [])),
        }
        _write_report(console, out, results, summary, settings)
    if plot is not None:
        _write_plot(console, plot, results, f"{questions.name} with {handle.name}", summary)
    _exit_with_status(summary)


def _index_to_answer_from(db: str | None, *, tables_named: bool) -> str | None:
    """The index named, or the default one. With tables named and no index named, the
    default index joins in only if it holds documents, as with `citeline ask`."""
    index = index_location(db)
    reason = unusable_index(index)
    if reason is not None and not (db is None and tables_named):
        _fail(f"{reason} Or answer from tables with --project/--data (try --project sample).")
    return index if reason is None else None


def _answered(
    asked: Sequence[EvalQuestion],
    index: str | None,
    declared: Project | None,
    handle: ModelHandle,
    warm_up: bool,
    ablated: frozenset[str] = frozenset(),
) -> list[EvaluatedAnswer]:
    """Each question answered from the index (when given) and the tables (when declared)."""
    import asyncio

    from rich.console import Console

    from citeline import answer
    from citeline.corpus import Corpus
    from citeline.data import DataCatalog
    from citeline.evaluation import EvaluationProgress, evaluate_answers

    with ExitStack() as opened:
        corpus = opened.enter_context(Corpus.open(index)) if index is not None else None
        catalog = opened.enter_context(DataCatalog.open(declared)) if declared is not None else None

        def answer_from_sources(
            question: str, history: Sequence[ChatMessage]
        ) -> AsyncIterator[Event]:
            # A follow-up is asked as the chat endpoint asks one: the chat profile, with the
            # conversation so far; an opening question as the search page asks it.
            return answer(
                question,
                corpus=corpus,
                data=catalog,
                model=handle,
                profile="chat" if history else "search",
                history=history,
            )

        with (
            EvaluationProgress(len(asked), Console(stderr=True)) as progress,
            _ablation_in_force(ablated),
        ):
            return asyncio.run(
                evaluate_answers(
                    asked, answer_from_sources, on_answer=progress.advance, warm_up=warm_up
                )
            )


def _write_report(
    console: Console,
    out: Path,
    results: Sequence[EvaluatedAnswer],
    summary: CitationSummary,
    settings: Mapping[str, object],
) -> None:
    from citeline.evaluation import build_report, write_report

    write_report(out, build_report(results, summary, settings))
    console.print(f"Report written to {out}")


def _write_plot(
    console: Console,
    plot: Path,
    results: Sequence[EvaluatedAnswer],
    title: str,
    summary: CitationSummary,
) -> None:
    from citeline.evaluation import write_distribution_plot

    scores = [result.score for result in results]
    write_distribution_plot(scores, plot, title=f"{title} ({summary.questions} questions)")
    console.print(f"Plot written to {plot}")


def _exit_with_status(summary: CitationSummary) -> None:
    """Status 1 when markup leaked into prose or a stream broke, each said in a sentence."""
    if summary.leak_rate:
        typer.echo(
            "Model citation markup reached the prose of some answers; see the report.", err=True
        )
    if summary.errors:
        typer.echo(f"{summary.errors} answer streams broke off; the report says why.", err=True)
    if summary.leak_rate or summary.errors:
        raise typer.Exit(code=1)


def _checked_ablation(features: Sequence[str], extractive: bool) -> frozenset[str]:
    """The features ``--ablate`` names, checked: the embedded model's, asked of it."""
    if not features:
        return frozenset()
    from citeline.models import embedded_features

    # The fitted features are the embedded model's, the one extractive model.
    if not extractive:
        _fail(
            "--ablate switches off a feature of the embedded model; use it with --model embedded."
        )
    known = embedded_features()
    unknown = sorted(set(features) - set(known))
    if unknown:
        _fail(
            f"No feature named {', '.join(unknown)}; the embedded model's features are "
            f"{', '.join(known)}."
        )
    return frozenset(features)


def _ablation_in_force(ablated: frozenset[str]) -> AbstractContextManager[object]:
    if not ablated:
        return nullcontext()
    from citeline.models import embedded_without

    return embedded_without(sorted(ablated))


def _fail(message: str, command: str = "citations") -> NoReturn:
    fail(f"eval {command}", message)


@eval_app.command("retrieval")
def retrieval(
    beir: Annotated[
        Path,
        typer.Option(
            "--beir",
            help="A BEIR-layout folder: queries.jsonl and qrels/SPLIT.tsv whose document ids "
            "are the index's.",
        ),
    ],
    split: Annotated[str, typer.Option("--split", help="Which qrels file to judge by.")] = "train",
    limit: Annotated[
        int | None, typer.Option("--limit", min=1, help="Judge only the first N queries.")
    ] = None,
    db: IndexOption = None,
) -> None:
    """nDCG@10, recall@100 and query latency of the index on judged queries."""
    import time

    from rich.console import Console
    from rich.table import Table

    from citeline.corpus import Corpus, load_beir_queries, ndcg_at, rank_documents, recall_at
    from citeline.evaluation import percentile

    db = index_location(db)
    queries = load_beir_queries(beir, split)[:limit]
    reason = unusable_index(db)
    if reason is not None:
        _fail(reason, "retrieval")
    corpus = Corpus.open(db)
    if not queries:
        _fail(
            f"{beir} has no {split} queries with a relevant document; check --split.", "retrieval"
        )
    ndcg: list[float] = []
    recall: list[float] = []
    latency_ms: list[float] = []
    with corpus:
        for query in queries:
            started = time.perf_counter()
            ranked = rank_documents(corpus, query.text, depth=100)
            latency_ms.append((time.perf_counter() - started) * 1000)
            ndcg.append(ndcg_at(ranked, query.relevant, 10))
            recall.append(recall_at(ranked, query.relevant, 100))
    table = Table(title=f"Retrieval on {beir.name} ({split}, {len(queries)} queries)")
    for column in ("nDCG@10", "recall@100", "query p50", "query p95"):
        table.add_column(column, justify="right")
    table.add_row(
        f"{sum(ndcg) / len(ndcg):.4f}",
        f"{sum(recall) / len(recall):.4f}",
        f"{percentile(latency_ms, 50) or 0.0:.1f} ms",
        f"{percentile(latency_ms, 95) or 0.0:.1f} ms",
    )
    Console().print(table)
