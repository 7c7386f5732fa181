"""The Typer application that every ``citeline`` sub-command registers on."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="citeline",
    help="An answer engine whose citations the server, not the model, decides.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _root() -> None:
    """Ingest a collection, search it, ask it questions, and serve cited answers."""
