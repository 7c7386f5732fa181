"""``citeline eval``: measure a deployment on its own questions.

``citeline eval citations`` runs a question file through the real answer engine (any
``--model``, over an index, tables or both) and reports citation precision and recall,
gold sources cited, expected terms and figures, wrong answers labelled verified, dropped
anchors, answers without citations, quotes, markup leaks and timings. Definitions are in
``docs/eval.md``; the measuring is :mod:`citeline.evaluation`, this module only wires it to
the command line.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

from citeline.cli.app import CitelineGroup, app
from citeline.cli.index import IndexOption, fail, index_location, unusable_index
from citeline.cli.model_options import DEFAULT_MAX_TOKENS, ContextTokensOption, MaxTokensOption

if TYPE_CHECKING:
    from citeline.events import Event
    from citeline.models import ChatMessage

eval_app = typer.Typer(
    cls=CitelineGroup,
    name="eval",
    help="Measure citeline on your own data and questions.",
    no_args_is_help=True,
)
app.add_typer(eval_app, name="eval")


@eval_app.command("citations")
def citations(
    questions: Annotated[
        Path,
        typer.Option(
            "--questions",
            help="JSONL questions with gold source ids (see docs/eval.md), "
            "or a SciFact claims file with corpus.jsonl beside it.",
        ),
    ],
    db: IndexOption = None,
    project: Annotated[
        str | None,
        typer.Option(
            "--project",
            help="Tables and measures to answer from too: a citeline.toml or its folder; "
            "'sample' is the bundled Palmer penguins data.",
        ),
    ] = None,
    data: Annotated[
        list[str] | None,
        typer.Option(
            "--data", help="Add a table from a CSV, Parquet, SQLite or DuckDB file: NAME=PATH."
        ),
    ] = None,
    model: Annotated[
        str | None,
        typer.Option(
            "--model",
            help="embedded, openai:<model>, ollama:<model> or anthropic:<model> "
            "(default: $CITELINE_MODEL, else embedded).",
            show_default=False,
        ),
    ] = None,
    limit: Annotated[
        int | None,
        typer.Option("--limit", min=1, help="Ask only the first N questions."),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Write the JSON report (settings, summary, every question)."),
    ] = None,
    plot: Annotated[
        Path | None,
        typer.Option("--plot", help="Draw the per-question distributions to this PNG file."),
    ] = None,
    max_tokens: MaxTokensOption = DEFAULT_MAX_TOKENS,
    context_tokens: ContextTokensOption = None,
    warm_up: Annotated[
        bool,
        typer.Option(
            "--warm-up/--no-warm-up",
            help="Ask the first question once, unscored, before timing, so one-time start-up "
            "costs stay out of the timings.",
        ),
    ] = True,
) -> None:
    """Ask each question, score each answer's citations, terms and figures, print the summary.

    Answers come from the index (--db), the tables (--project, --data) or both, as with
    `citeline ask`. A question with a history is asked as a chat follow-up after its
    earlier questions.

    Exit status 1: model citation markup leaked into some prose, or an answer stream broke.
    Exit status 2: the inputs cannot be used (the message says why).
    """
    import asyncio

    from rich.console import Console

    from citeline import answer
    from citeline.corpus import Corpus
    from citeline.data import DataCatalog, project_from_options
    from citeline.evaluation import (
        build_report,
        evaluate_answers,
        load_questions,
        summarize,
        write_report,
    )
    from citeline.evaluation.plot import ensure_plot_available, write_distribution_plot
    from citeline.evaluation.terminal import EvaluationProgress, summary_table
    from citeline.models import resolve_model

    console = Console()
    tables_only = db is None and (project is not None or bool(data))
    handle = resolve_model(model, max_tokens=max_tokens, context_tokens=context_tokens)
    asked = load_questions(questions, limit=limit)
    if plot is not None:
        ensure_plot_available()
    declared = project_from_options(project, data or ())
    if not asked:
        _fail(f"{questions} holds no questions; add one JSON object per line (see docs/eval.md).")
    index = index_location(db)
    reason = unusable_index(index)
    if reason is not None and not tables_only:
        _fail(f"{reason} Or answer from tables with --project/--data (try --project sample).")
    with ExitStack() as opened:
        # With tables named and no index named, the default index joins in only if it
        # holds documents, as with `citeline ask`.
        corpus = opened.enter_context(Corpus.open(index)) if reason is None else None
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

        with EvaluationProgress(len(asked), Console(stderr=True)) as progress:
            results = asyncio.run(
                evaluate_answers(
                    asked, answer_from_sources, on_answer=progress.advance, warm_up=warm_up
                )
            )
    summary = summarize([result.score for result in results])
    console.print(summary_table(summary, title=f"Citation quality: {handle.name}"))

    if out is not None:
        settings = {
            "db": None if corpus is None else index,
            "project": project,
            "data": list(data or ()),
            "questions": str(questions),
            "model": handle.spec,
            "model_name": handle.name,
            "limit": limit,
            "warm_up": warm_up,
        }
        write_report(out, build_report(results, summary, settings))
        console.print(f"Report written to {out}")
    if plot is not None:
        write_distribution_plot(
            [result.score for result in results],
            plot,
            title=f"{questions.name} with {handle.name} ({summary.questions} questions)",
        )
        console.print(f"Plot written to {plot}")
    if summary.leak_rate:
        typer.echo(
            "Model citation markup reached the prose of some answers; see the report.", err=True
        )
    if summary.errors:
        typer.echo(f"{summary.errors} answer streams broke off; the report says why.", err=True)
    if summary.leak_rate or summary.errors:
        raise typer.Exit(code=1)


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

    from citeline.corpus import Corpus
    from citeline.corpus.judged_queries import load_beir_queries, ndcg_at, rank_documents, recall_at
    from citeline.evaluation.percentiles import percentile

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
