"""``citeline serve``: the answer server, the search page and chat over HTTP.

Flags cover what one usually changes; every setting (flags included) also has a
``CITELINE_*`` variable, listed with its default by ``citeline serve --help``. A server
that cannot run as configured stops here, before it listens, with the fix in one sentence.
"""

from __future__ import annotations

import typer

from citeline.cli.app import app
from citeline.server.settings import describe_settings

_EPILOG = "Settings (environment; flags win):\n\n" + "\n\n".join(describe_settings().splitlines())


@app.command(epilog=_EPILOG)
def serve(
    db: str | None = typer.Option(
        None,
        "--db",
        help="SQLite file, or a sqlite:/// or postgresql:// URL, holding the corpus index, "
        "answers and conversations [CITELINE_DATABASE_URL, else CITELINE_DB].",
        show_default=False,
    ),
    host: str | None = typer.Option(
        None, "--host", help="Address to listen on (default 127.0.0.1)."
    ),
    port: int | None = typer.Option(None, "--port", help="Port to listen on (default 8000)."),
    model: str | None = typer.Option(
        None, "--model", help="Model that answers (default embedded)."
    ),
    open_mode: bool = typer.Option(
        False, "--open", help="Answer without caller tokens (never on a public site)."
    ),
    wire: str | None = typer.Option(
        None,
        "--wire",
        help="Wire profile: native (default) or reactome, which also serves React-to-Me's "
        "routes and reads its setting names [CITELINE_WIRE].",
        show_default=False,
    ),
    project: str | None = typer.Option(
        None,
        "--project",
        help="citeline.toml (or 'sample') whose tables and measures answers may use too.",
        show_default=False,
    ),
    release: str | None = typer.Option(
        None, "--release", help="Release label for start events (default: the index's own)."
    ),
    link_template: str | None = typer.Option(
        None, "--link-template", help="Source link for the page, e.g. https://x.org/{id}."
    ),
) -> None:
    """Serve cited answers, the search page and chat over HTTP."""
    import uvicorn

    from citeline.corpus.errors import CorpusError
    from citeline.models import ModelSpecError
    from citeline.server import StartupError, create_app
    from citeline.server.logs import configure_logging
    from citeline.server.settings import ServerSettings

    try:
        settings = ServerSettings.from_env(
            database_url=db,
            host=host,
            port=port,
            model=model,
            open=True if open_mode else None,
            wire=wire,
            project=project,
            release=release,
            link_template=link_template,
        )
        configure_logging(settings.log_format)
        server_app = create_app(settings)
    except (StartupError, CorpusError, ModelSpecError) as error:
        typer.echo(f"citeline serve: {error}", err=True)
        raise typer.Exit(2) from None
    # log_config=None: uvicorn's own lines go through the handler configured above. Access
    # lines are off by default: measured, they were a third of a refusal's cost, and every
    # answer and refusal already logs its outcome.
    uvicorn.run(
        server_app,
        host=settings.host,
        port=settings.port,
        log_config=None,
        access_log=settings.access_log,
    )
