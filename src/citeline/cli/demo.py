"""``citeline demo``: the bundled sample collection, indexed and served, in one command.

It ingests the sample (sections of the Python documentation, see
``citeline.sample``) into its own index, incrementally, so a second run starts at once,
then runs ``citeline serve`` on it in open mode with the embedded model: no key, no
token, no network. It says where it keeps its index (``--db`` chooses another). It is for
a first look on one's own machine; of the guard's settings it offers only the rate limit
(``--rate-limit``), since open mode must never face the public. Its port is bound before
it prints anything, so a taken port is one sentence naming ``--port`` (status 2), not a
link to another program's server; Ctrl+C stops it in one line with status 0, while it
indexes too.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlencode

import typer

from citeline.cli.app import app

if TYPE_CHECKING:
    import socket


def _examples() -> tuple[str, str]:
    """The sample's example questions (``sample/examples.txt``): its first, a documentation
    question, and its last, the sample table's. Read from the file the demo's page shows, so
    the command and the page offer the same questions and none is written in code."""
    from citeline.sample import examples_path

    lines = examples_path().read_text(encoding="utf-8").splitlines()
    questions = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    return questions[0], questions[-1]


def default_demo_db() -> Path:
    """``$XDG_DATA_HOME/citeline/demo.sqlite`` (``~/.local/share`` when unset).

    Outside the working folder, so the demo leaves nothing behind wherever it is run,
    and a second run finds the index it built and re-checks it in under a second.
    """
    data_home = os.environ.get("XDG_DATA_HOME", "").strip()
    base = Path(data_home) if data_home else Path.home() / ".local" / "share"
    return base / "citeline" / "demo.sqlite"


@app.command()
def demo(
    port: int = typer.Option(8000, "--port", help="Port to listen on."),
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on."),
    db: Path | None = typer.Option(
        None,
        "--db",
        help="Index file for the sample [$XDG_DATA_HOME/citeline/demo.sqlite].",
        show_default=False,
    ),
    model: str = typer.Option(
        "embedded", "--model", help="Model that answers (embedded needs no key or network)."
    ),
    data: bool = typer.Option(
        True,
        "--data/--no-data",
        help="Also answer from the sample table (Palmer penguins) and its governed measures.",
    ),
    rate_limit: int = typer.Option(
        30,
        "--rate-limit",
        min=1,
        help="Answers the page may start per 10 minutes; past it, the page says to wait.",
    ),
    examples: Path | None = typer.Option(
        None,
        "--examples",
        help="Example questions for the empty page, one a line (default: the demo's own).",
        show_default=False,
    ),
    workers: int | None = typer.Option(
        None,
        "--workers",
        min=1,
        help="Server processes on the port (default: one per core).",
        show_default=False,
    ),
) -> None:
    """Index the bundled sample collection and serve the search page on it, no key needed."""
    from citeline.cli.port import bind_listening_socket

    # First, before a word is printed: a taken port is the whole story, told once.
    listening = bind_listening_socket(host, port)
    try:
        try:
            path = _index_sample(db)
        except KeyboardInterrupt:
            typer.echo("Stopped by Ctrl+C.", err=True)
            return
        _say_where(host, port, data)
        _serve_sample(path, host, port, model, data, rate_limit, examples, workers, listening)
    finally:
        listening.close()


def _say_where(host: str, port: int, data: bool) -> None:
    """The page's address, a question to try there, and how to stop."""
    shown_host = "127.0.0.1" if host in {"0.0.0.0", "::"} else host
    example_question, data_question = _examples()
    example = urlencode({"q": example_question})
    typer.echo(
        f"\n  Open http://{shown_host}:{port}/  (try http://{shown_host}:{port}/?{example})\n"
    )
    if data:
        typer.echo(f'With the sample table loaded too, ask for example "{data_question}"')
    typer.echo("Answers come from the model named on the page. Stop with Ctrl+C.")


def _serve_sample(
    path: Path,
    host: str,
    port: int,
    model: str,
    data: bool,
    rate_limit: int,
    examples: Path | None,
    workers: int | None,
    listening: socket.socket,
) -> None:
    """``citeline serve`` on the sample's index, open, with the sample's labels and links."""
    from citeline.cli.serve import start_server
    from citeline.sample import COLLECTION_NAME, LINK_TEMPLATE, RELEASE, examples_path

    # Log lines for a person at a terminal, unless they chose a format themselves.
    os.environ.setdefault("CITELINE_LOG_FORMAT", "text")
    start_server(
        db=str(path),
        overrides={
            "host": host,
            "port": port,
            "model": model,
            "open": True,
            "project": "sample" if data else None,
            "release": RELEASE,
            "link_template": LINK_TEMPLATE,
            "examples": examples if examples is not None else examples_path(),
            "collection_name": COLLECTION_NAME,
            "rate_limit": rate_limit,
            "workers": workers,
        },
        listening=listening,
    )


def _index_sample(db: Path | None) -> Path:
    """Bring the demo's index of the sample up to date, saying where it is and what it
    holds; the index's path."""
    from citeline.agent import ingest_reading
    from citeline.corpus import Corpus, CorpusError, SchemaVersionError
    from citeline.errors import PathUnusableError
    from citeline.sample import RELEASE, sample_path

    path = db if db is not None else default_demo_db()
    typer.echo(f"The demo's index: {path}" + ("" if db is not None else " (choose with --db)."))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        try:
            corpus = Corpus.open(path)
        except SchemaVersionError:
            if db is not None:
                raise
            # The default index is the demo's own cache of the bundled sample: one written by
            # an older citeline is rebuilt rather than left in a newcomer's way.
            typer.echo("The demo's index is from an older citeline; rebuilding it.")
            for stale in (path, *(path.with_name(path.name + s) for s in ("-wal", "-shm"))):
                stale.unlink(missing_ok=True)
            corpus = Corpus.open(path)
        with corpus:
            report = corpus.ingest(
                sample_path(),
                prune=True,
                release=RELEASE,
                reading=ingest_reading(),
                embed_progress=_told("passages embedded"),
                meaning_progress=_told("sections read for meaning"),
            )
            documents = len(corpus)
    except (CorpusError, OSError) as error:
        raise PathUnusableError(
            f"{error}\nTo start afresh, delete {path} or pass --db with another file."
        ) from None
    seconds = time.perf_counter() - started
    typer.echo(
        f"Sample collection: {documents} sections of the Python 3.11 documentation "
        f"({report.summary()}; {seconds:.1f} s)."
    )
    return path


def _told(what: str) -> Callable[[int, int], None]:
    """A progress line per batch of an embedding stage: on a slow machine the first run
    embeds the sample for minutes (94 s on both cores of an AMD EPYC with AVX2 and no VNNI,
    241 s on one), and a page that is not up yet should not look like a hang. A run with
    nothing left to embed says nothing."""

    def tell(done: int, total: int) -> None:
        if total:
            typer.echo(f"  {done:,} of {total:,} {what}")

    return tell
