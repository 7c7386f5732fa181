"""The one index setting every command shares, and the check before answering from it.

Every command that reads or writes an index takes the same ``--db`` (a SQLite file or a
``postgresql://`` URL, also ``CITELINE_DATABASE_URL``) with the same default,
``citeline.sqlite`` in the working folder: measured before this existed, ``ingest``
wrote ``citeline.sqlite`` and ``serve`` read ``citeline.db``, so a first ``serve``
answered "I found nothing" from an empty index without a warning. Commands that answer
stop instead, with the command that builds the index. It deliberately opens no index
beyond counting its documents.
"""

from __future__ import annotations

from typing import Annotated, NoReturn

import typer

from citeline.database import DEFAULT_DATABASE, PostgresUrl, SqliteUrl, parse_database_url

DB_OPTION = typer.Option(
    "--db",
    envvar=["CITELINE_DATABASE_URL", "CITELINE_DB"],
    help=f"The index: a SQLite file or a postgresql:// URL (default: {DEFAULT_DATABASE}).",
    show_default=False,
    show_envvar=True,
)
# The parameter every index-using command declares: ``db: IndexOption = None``.
IndexOption = Annotated[str | None, DB_OPTION]


def index_location(db: str | None) -> str:
    """``db`` as given, else the default index."""
    return db if db is not None and db.strip() else DEFAULT_DATABASE


def shown(db: str) -> str:
    """``db`` as it may be printed: a PostgreSQL URL without its password."""
    location = parse_database_url(db)
    return location.redacted if isinstance(location, PostgresUrl) else db


def build_command(db: str) -> str:
    """The command that builds the index at ``db``."""
    named = "" if db == DEFAULT_DATABASE else f" --db {shown(db)}"
    return f"citeline ingest PATH{named}"


def unusable_index(db: str) -> str | None:
    """Why the index at ``db`` cannot answer (it does not exist, or holds no documents),
    as a sentence that says how to build it; None when it can."""
    from citeline.corpus import Corpus

    location = parse_database_url(db)
    if isinstance(location, SqliteUrl) and not location.path.is_file():
        return f"There is no index at {db}: build one with `{build_command(db)}` first."
    with Corpus.open(db) as corpus:
        documents = len(corpus)
    if documents == 0:
        return (
            f"The index at {shown(db)} holds no documents: build it with "
            f"`{build_command(db)}` first."
        )
    return None


def fail(command: str, message: str) -> NoReturn:
    """Stop ``command`` with ``message`` on standard error and exit status 2."""
    typer.echo(f"citeline {command}: {message}", err=True)
    raise typer.Exit(code=2)
