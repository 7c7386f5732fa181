"""The Typer application that every ``citeline`` sub-command registers on, and where a
refusal becomes a sentence on standard error.

Every error citeline raises on purpose derives from ``citeline.errors.CitelineError`` and
says what to do next, so it is caught here, once, for every command: its sentence is printed
after the command's name and the process exits with status 2, never with a traceback. Any
other exception is a bug and keeps its traceback, except a full disk (``ENOSPC``), which is a
sentence and status 2 too. Deliberately not here: the commands.
"""

from __future__ import annotations

import errno
from typing import Any

import typer
from typer.core import TyperGroup

from citeline.errors import CitelineError

# The exit status of a command that could not do what was asked (status 1 is kept for
# "ran, and found a problem": a skipped file, a failed answer, a leak in an evaluation).
REFUSED = 2


class CitelineGroup(TyperGroup):
    """A command group (the root, ``eval``, ``token``): runs a sub-command and turns a
    ``CitelineError`` into its sentence after the command's full name ("citeline eval
    retrieval: ...") and exit status 2. The innermost group catches it, so it knows the
    whole name."""

    # ``Any``: the context's class is the click copy that Typer vendors privately.
    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except CitelineError as error:
            typer.echo(f"{_command_name(ctx)}: {error}", err=True)
            raise typer.Exit(REFUSED) from None
        except OSError as error:
            # A full disk is no bug: every command says so (a report, a plot, a key file
            # written where no layer translated it), never with a traceback.
            if error.errno != errno.ENOSPC:
                raise
            command = " ".join(part for part in ("citeline", ctx.invoked_subcommand) if part)
            typer.echo(
                f"{command}: the disk is full ({error.filename or error.strerror}): free "
                "some space and run the command again.",
                err=True,
            )
            raise typer.Exit(REFUSED) from None


def _command_name(ctx: Any) -> str:
    """ "citeline", the groups ``ctx`` is nested in, and the command it invoked."""
    names = [ctx.invoked_subcommand]
    while ctx.parent is not None:
        names.append(ctx.info_name)
        ctx = ctx.parent
    return " ".join(["citeline", *(name for name in reversed(names) if name)])


app = typer.Typer(
    name="citeline",
    cls=CitelineGroup,
    help="An answer engine whose citations the server, not the model, decides.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _root() -> None:
    """Ingest a collection, search it, ask it questions, and serve cited answers."""
