"""``citeline ingest``, ``search`` and ``reindex``: build an index from files, query it, and
build this machine's search index again from the collection.

Thin wiring over ``citeline.corpus``: the commands parse options, show progress and print;
every decision about documents is the corpus layer's. Exit status 0: all went well; 1: some
files or records were skipped (each is listed with its reason); 2: the command could not
run (missing path, unreadable or incompatible index), with a sentence saying what to do.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from citeline.cli.app import app
from citeline.cli.index import (
    IndexOption,
    build_command,
    fail,
    index_location,
    shown,
    unusable_index,
)
from citeline.cli.terminal_text import json_text, printable
from citeline.database import SqliteUrl, parse_database_url

if TYPE_CHECKING:
    from citeline.corpus import Corpus, Hit, IngestProgress, IngestReport

_RETRIEVAL_HELP = (
    "lexical (BM25), dense (sentence vectors) or hybrid (both fused); dense and hybrid need "
    "pip install 'citeline\\[dense]'."
)
# How each mode is named to the person searching.
_MODES = {
    "lexical": "by words (lexical)",
    "dense": "by meaning (dense)",
    "hybrid": "by words and meaning (hybrid)",
}
# A search result shows this much of its passage on a terminal; --json gives it all.
_SNIPPET_CHARS = 300


_BaseUrlOption = Annotated[
    str | None,
    typer.Option(
        "--base-url",
        help="PATH is the source or the build of the site published here: each page and "
        "section is linked at its address under it (a/b.html#id, a/b.md as a/b/).",
    ),
]
_IncludeRootOption = Annotated[
    Path | None,
    typer.Option(
        "--include-root",
        help="Markdown include directives may read files under this folder only. "
        "Default: the project PATH lies in (the nearest folder above it holding .git, "
        "pyproject.toml, setup.py or package.json), else PATH.",
    ),
]
_PruneOption = Annotated[
    bool, typer.Option("--prune", help="Remove indexed documents no longer under PATH.")
]
_ReleaseOption = Annotated[
    str | None,
    typer.Option("--release", help="A label naming this version of the collection."),
]
_RetrievalOption = Annotated[
    str | None,
    typer.Option(
        "--retrieval",
        envvar="CITELINE_RETRIEVAL",
        help="What to build the collection for: "
        + _RETRIEVAL_HELP
        + " Default: what it was built for before, else hybrid where the dense extra is "
        "installed and lexical where it is not.",
    ),
]


@app.command()
def ingest(
    path: Annotated[Path, typer.Argument(help="A file or folder (read recursively).")],
    db: IndexOption = None,
    base_url: _BaseUrlOption = None,
    include_root: _IncludeRootOption = None,
    prune: _PruneOption = False,
    release: _ReleaseOption = None,
    retrieval: _RetrievalOption = None,
) -> None:
    """Index Markdown, HTML (built sites too), plain text and BEIR JSONL files.

    Files unchanged since the last ingest cost nothing."""
    from citeline.corpus import Corpus

    db = index_location(db)
    _check_ingest(path, base_url, include_root)
    # Opened lexical: the collection's own mode may be the one this ingest changes.
    with Corpus.open(db, retrieval="lexical") as corpus:
        options = _IngestOptions(prune, release, base_url, retrieval, include_root)
        if sys.stderr.isatty():
            report = _ingest_with_bar(corpus, path, options)
        else:
            plain = (_plain_line, _plain_embed_line, _plain_meaning_line)
            report = _ingest_told(corpus, path, options, *plain)
        _say_ingested(corpus, report, db)
    if not report.ok:
        raise typer.Exit(code=1)


def _check_ingest(path: Path, base_url: str | None, include_root: Path | None) -> None:
    """Refuse, in a sentence, what ``ingest`` could not use, before the index is opened."""
    if base_url is not None and not base_url.startswith(("http://", "https://", "/")):
        fail(
            "ingest",
            f"--base-url {base_url!r} is not a site address; give one like https://docs.example.org/.",
        )
    if not path.exists():
        fail("ingest", f"{path} does not exist; give a file or folder to ingest.")
    if include_root is not None and not include_root.is_dir():
        fail(
            "ingest",
            f"--include-root {include_root} is not a folder; give the folder includes may read.",
        )


@dataclass(frozen=True, slots=True)
class _IngestOptions:
    """What ``citeline ingest`` was asked to do beside reading PATH."""

    prune: bool
    release: str | None
    base_url: str | None
    retrieval: str | None
    include_root: Path | None


def _ingest_told(
    corpus: Corpus,
    path: Path,
    options: _IngestOptions,
    progress: Callable[[IngestProgress], None],
    embedded: Callable[[int, int], None],
    read_for_meaning: Callable[[int, int], None],
) -> IngestReport:
    """The ingest, telling ``progress`` of files, then ``embedded`` of passages and
    ``read_for_meaning`` of sections, (done, total)."""
    from citeline.agent import ingest_reading

    return corpus.ingest(
        path,
        prune=options.prune,
        release=options.release,
        progress=progress,
        base_url=options.base_url,
        include_root=options.include_root,
        retrieval=options.retrieval,
        reading=ingest_reading(),
        embed_progress=embedded,
        meaning_progress=read_for_meaning,
    )


def _say_ingested(corpus: Corpus, report: IngestReport, db: str) -> None:
    """Each problem on stderr, then what the index now holds and how it is searched."""
    for problem in report.skipped:
        typer.echo(str(problem), err=True)
    typer.echo(f"{report.summary()} ({len(corpus)} documents in {shown(db)})")
    mode, note = corpus.searched_as_built()
    typer.echo(f"Searched {_MODES[mode]}.")
    if note is not None:
        typer.echo(f"citeline ingest: {note}", err=True)


@app.command()
def search(
    query: Annotated[str, typer.Argument(help="What to look for, in plain words.")],
    db: IndexOption = None,
    k: Annotated[int, typer.Option("-k", "--k", min=1, help="How many passages.")] = 10,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the hits as a JSON array.")
    ] = False,
    retrieval: Annotated[
        str | None,
        typer.Option(
            "--retrieval",
            envvar="CITELINE_RETRIEVAL",
            help=_RETRIEVAL_HELP + " Default: what the collection was ingested for.",
        ),
    ] = None,
) -> None:
    """Print the passages that best match QUERY, best first."""
    from citeline.corpus import Corpus

    db = index_location(db)
    reason = unusable_index(db)
    if reason is not None:
        fail("search", reason)
    with Corpus.open(db, retrieval=retrieval) as corpus:
        hits = corpus.search(query, k=k)
        mode, note = corpus.retrieval, corpus.retrieval_note
    if note is not None:
        typer.echo(f"citeline search: {note}", err=True)
    # The mode on the terminal; the JSON on standard output stays the hits alone.
    typer.echo(f"Searched {_MODES[mode]}.", err=as_json)
    if as_json:
        typer.echo(json_text([asdict(hit) for hit in hits], indent=2))
        return
    if not hits:
        typer.echo("No passage matches; try other words.", err=True)
        return
    for rank, hit in enumerate(hits, start=1):
        # A document's title and text are shown as the model's are: no control character.
        typer.echo(printable(_format_hit(rank, hit)))


@app.command()
def reindex(db: IndexOption = None) -> None:
    """Build this machine's search index again from the collection (SQLite or PostgreSQL).

    Opening a collection already catches its search index up with every write, even after a crash.

    Run this when the index's files are damaged or were deleted in part.
    """
    from citeline.corpus import Corpus

    db = index_location(db)
    location = parse_database_url(db)
    if isinstance(location, SqliteUrl) and not location.path.is_file():
        fail("reindex", f"There is no index at {db}: build one with `{build_command(db)}` first.")
    with Corpus.open(db, retrieval="lexical", rebuild_index=True) as corpus:
        passages, documents = corpus.indexed_passages, len(corpus)
    typer.echo(f"indexed {passages} passages of {documents} documents ({shown(db)})")


def _format_hit(rank: int, hit: Hit) -> str:
    source = hit.url or hit.doc_id
    snippet = " ".join(hit.text.split())
    if len(snippet) > _SNIPPET_CHARS:
        snippet = snippet[: _SNIPPET_CHARS - 1].rstrip() + "…"
    return (
        f"{rank}. {hit.title}  [{hit.doc_id}]  score {hit.score:.2f}\n"
        f"   {source} @ {hit.start}-{hit.end}\n"
        f"   {snippet}\n"
    )


def _plain_line(progress: IngestProgress) -> None:
    typer.echo(
        f"[{progress.files_done}/{progress.files_total} files, "
        f"{progress.documents_done} documents] {progress.path}",
        err=True,
    )


def _plain_embed_line(done: int, total: int) -> None:
    typer.echo(f"[{done}/{total} passages embedded]", err=True)


def _plain_meaning_line(done: int, total: int) -> None:
    # What the embedded model reads of each section, stored so answers need not embed it.
    typer.echo(f"[{done}/{total} sections read for meaning]", err=True)


def _ingest_with_bar(corpus: Corpus, path: Path, options: _IngestOptions) -> IngestReport:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    with Progress(
        TextColumn("ingesting files"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.description}"),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task("", total=None)

        def advance(progress: IngestProgress) -> None:
            bar.update(
                task,
                completed=progress.files_done,
                total=progress.files_total,
                description=f"{progress.documents_done} documents, {progress.path.name}",
            )

        def embedded(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total, description="passages embedded")

        def read_for_meaning(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total, description="sections read for meaning")

        return _ingest_told(corpus, path, options, advance, embedded, read_for_meaning)
