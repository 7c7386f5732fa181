"""``citeline version``: which citeline this is."""

from __future__ import annotations

from importlib.metadata import version as _package_version

import typer

from citeline.cli.app import app


@app.command()
def version() -> None:
    """Print citeline's version."""
    typer.echo(_package_version("citeline"))
