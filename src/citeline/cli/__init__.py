"""The ``citeline`` command line: one module per command group, all on one Typer app.

This layer uses the public Python API only; each module imports its command's heavy
dependencies inside the command so that ``citeline --help`` stays fast.
"""

from __future__ import annotations

# Each module below registers its commands on ``app`` when imported.
from citeline.cli import ask, corpus, demo, eval, serve, token, version  # noqa: F401
from citeline.cli.app import app


def main() -> None:
    app()


__all__ = ["app", "main"]
