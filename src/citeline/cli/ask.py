"""``citeline ask``: one question, its answer streamed to the terminal, then its references.

The answer is rendered from the event stream alone (``citeline.answer``): tokens
as they arrive, then the citation events as numbered references, each with the address a
reader can open (its ``href``) when its source has one. ``--json``
prints the events themselves, one contract JSON object per line. What a model or a
document wrote reaches the terminal through ``terminal_text``, so no control character
of theirs does. This command does not parse the answer's prose.
"""

from __future__ import annotations

from contextlib import ExitStack
from typing import TYPE_CHECKING, NoReturn

import typer

from citeline.cli.app import app
from citeline.cli.index import IndexOption, index_location, unusable_index
from citeline.cli.model_options import DEFAULT_MAX_TOKENS, ContextTokensOption, MaxTokensOption

if TYPE_CHECKING:
    from rich.console import Console

    from citeline.corpus import Corpus
    from citeline.data import DataCatalog
    from citeline.events import Citation, Done
    from citeline.models import ModelHandle


@app.command()
def ask(
    question: str = typer.Argument(..., help="The question to answer."),
    db: IndexOption = None,
    project: str | None = typer.Option(
        None,
        "--project",
        help="Tables and measures to answer from: a citeline.toml or its folder; "
        "'sample' is the bundled Palmer penguins data.",
    ),
    data: list[str] = typer.Option(
        [], "--data", help="Add a table from a CSV, Parquet, SQLite or DuckDB file: NAME=PATH."
    ),
    model: str | None = typer.Option(
        None,
        "--model",
        help="Model that answers: embedded, openai:<model>, ollama:<model> or "
        "anthropic:<model> [CITELINE_MODEL, else embedded].",
        show_default=False,
    ),
    json_lines: bool = typer.Option(
        False, "--json", help="Print one event per line as contract JSON instead of text."
    ),
    max_tokens: MaxTokensOption = DEFAULT_MAX_TOKENS,
    context_tokens: ContextTokensOption = None,
) -> None:
    """Answer QUESTION from the index and/or data, citing what it used.

    Exit status 1: the answer failed part-way.

    Exit status 2: the inputs cannot be used or the model server failed; the message says why.
    """
    import asyncio
    import logging

    from citeline.corpus import Corpus
    from citeline.data import DataCatalog, project_from_options
    from citeline.models import resolve_model

    tables_only = db is None and (project is not None or bool(data))
    database = index_location(db)
    reason = unusable_index(database)
    if reason is not None and not tables_only:
        _fail(f"{reason} Or answer from tables with --project/--data (try --project sample).")
    handle = resolve_model(model, max_tokens=max_tokens, context_tokens=context_tokens)
    # A model server's failure is said once, as this command's own last line (below);
    # the engine's record of it is for a server's log.
    logging.getLogger("citeline.agent.engine").setLevel(logging.ERROR)
    declared = project_from_options(project, data)
    with ExitStack() as opened:
        catalog = opened.enter_context(DataCatalog.open(declared)) if declared is not None else None
        # With tables named and no index named, the default index joins in only if it holds
        # documents: a first `citeline ask --project sample` needs no index at all.
        corpus = opened.enter_context(Corpus.open(database)) if reason is None else None
        done = asyncio.run(
            _print_answer(question, corpus, handle, json_lines=json_lines, data=catalog)
        )
    _exit_for(done)


def _exit_for(done: Done | None) -> None:
    """A model server's fault as this command's last line (status 2); status 1 for an
    answer that failed part-way."""
    if done is not None and done.failure is not None:
        from citeline.cli.terminal_text import printable

        # The model server's own words are in it (a plain-text fault body, as sent).
        _fail(printable(done.failure))
    if done is None or done.state == "failed":
        raise typer.Exit(1)


def _fail(message: str) -> NoReturn:
    typer.echo(f"citeline ask: {message}", err=True)
    raise typer.Exit(2)


async def _print_answer(
    question: str,
    corpus: Corpus | None,
    handle: ModelHandle,
    *,
    json_lines: bool,
    data: DataCatalog | None = None,
) -> Done | None:
    from rich.console import Console

    from citeline import answer
    from citeline.cli.terminal_text import json_text, printable
    from citeline.events import Citation, Done, Token, to_json

    console = Console(highlight=False)
    citations: list[Citation] = []
    done: Done | None = None
    text_tail = ""
    async for event in answer(question, corpus=corpus, data=data, model=handle):
        if json_lines:
            typer.echo(json_text(to_json(event)))
        elif isinstance(event, Token):
            console.print(printable(event.text), end="", markup=False, soft_wrap=True)
            text_tail = (text_tail + event.text)[-2:]
        elif isinstance(event, Citation):
            citations.append(event)
        if isinstance(event, Done):
            done = event
            if not json_lines:
                # The answer's own trailing newlines count towards the gap before references.
                console.print("\n" * (2 - text_tail.count("\n")), end="")
                _print_references(console, citations, event, handle.name)
    return done


def _print_references(
    console: Console, citations: list[Citation], done: Done, model_name: str
) -> None:
    from citeline.cli.terminal_text import printable

    if citations:
        console.print("[bold]References[/bold]")
        for citation in citations:
            # The address a reader can open, when the source has one; else what names it.
            where = citation.href or citation.id or citation.url
            # Soft-wrapped: a hard wrap broke an address in two, so it could not be opened.
            line = printable(f"  [{citation.n}] {citation.display_name} — {where}")
            console.print(line, markup=False, soft_wrap=True)
            if citation.quote is not None:
                quote = printable(citation.quote)
                console.print(f"      > {quote} ({citation.kind}, verified)", markup=False)
    label = f"{done.state} in {done.seconds:.1f} s · {model_name}"
    if done.provenance:
        label += f" · provenance: {done.provenance}"
    if done.dropped_anchors:
        label += f" · {done.dropped_anchors} uncited link(s) dropped"
    if done.tool_call_text:
        label += f" · {done.tool_call_text} tool call(s) in the text removed"
    console.print()
    console.print(label, style="dim", markup=False)
    if done.truncated:
        console.print(
            "The model's reply was cut at its token limit: raise --max-tokens, or lower "
            "--context-tokens if the model's context is small.",
            style="yellow",
            markup=False,
        )
    if done.state == "failed" and done.failure is None:
        console.print("The answer failed part-way; the log says why.", style="red", markup=False)
    elif done.state == "nothing_found":
        console.print(
            "Nothing in the index answered that; try other words.", style="yellow", markup=False
        )
