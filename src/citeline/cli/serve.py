"""``citeline serve``: the answer server, the search page and chat over HTTP.

Flags cover what one usually changes; every setting (flags included) also has a
``CITELINE_*`` variable, listed with its default by ``citeline serve --help``. A server
that cannot run as configured stops here, before it listens, with the fix in one sentence;
so does one whose index does not exist or holds no documents, since it would answer every
question with "I found nothing". Its port is bound before anything else is done or printed,
so a taken port is one sentence naming ``--port`` and status 2; Ctrl+C stops it in one
line with status 0. The settings' list in ``--help`` is built only when help is shown: the
settings live in the server package, whose web framework costs a third of a second to
import, and ``citeline --help`` must not pay it.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperCommand

from citeline.cli.app import app
from citeline.cli.index import IndexOption, fail, index_location, unusable_index

if TYPE_CHECKING:
    import socket

    from citeline.server import ServerSettings


class _SettingsHelp(TyperCommand):
    """``serve``'s command, whose help ends with every setting and its default."""

    # Typed loosely: Typer's Context class is private to it (a vendored click).
    def format_help(self, ctx: Any, formatter: Any) -> None:
        from citeline.server import describe_settings

        self.epilog = "Settings (environment; flags win):\n\n" + "\n\n".join(
            describe_settings().splitlines()
        )
        super().format_help(ctx, formatter)


# The options of `citeline serve`, each the setting of the same name (None: unset).
_HostOption = Annotated[
    str | None, typer.Option("--host", help="Address to listen on (default 127.0.0.1).")
]
_PortOption = Annotated[
    int | None, typer.Option("--port", help="Port to listen on (default 8000).")
]
_ModelOption = Annotated[
    str | None, typer.Option("--model", help="Model that answers (default embedded).")
]
_OpenModeOption = Annotated[
    bool, typer.Option("--open", help="Answer without caller tokens (never on a public site).")
]
_WireOption = Annotated[
    str | None,
    typer.Option(
        "--wire",
        help="Wire profile: native (default) or reactome, which also serves React-to-Me's "
        "routes and reads its setting names [CITELINE_WIRE].",
        show_default=False,
    ),
]
_ProjectOption = Annotated[
    str | None,
    typer.Option(
        "--project",
        help="citeline.toml (or 'sample') whose tables and measures answers may use too.",
        show_default=False,
    ),
]
_ReleaseOption = Annotated[
    str | None,
    typer.Option("--release", help="Release label for start events (default: the index's own)."),
]
_LinkTemplateOption = Annotated[
    str | None,
    typer.Option("--link-template", help="Source link for the page, e.g. https://x.org/{id}."),
]
_ExamplesOption = Annotated[
    Path | None,
    typer.Option(
        "--examples",
        help="Example questions for the empty page, one a line (default: the examples "
        "the project file lists, else a few of the collection's headings).",
        show_default=False,
    ),
]
_CollectionNameOption = Annotated[
    str | None,
    typer.Option(
        "--collection-name",
        help="What the empty page calls the collection (default: the site's own name, read at "
        "ingest).",
        show_default=False,
    ),
]
_RateLimitOption = Annotated[
    int | None,
    typer.Option(
        "--rate-limit", min=1, help="Answers one caller may start per window (default 30)."
    ),
]
_ForwardedAllowIpsOption = Annotated[
    str | None,
    typer.Option(
        "--forwarded-allow-ips",
        help="Proxy addresses whose X-Forwarded-For is believed (default: none).",
        show_default=False,
    ),
]
_MaxTokensOption = Annotated[
    int | None,
    typer.Option("--max-tokens", help="Most tokens a model may write per reply (default 2048)."),
]
_WorkersOption = Annotated[
    int | None,
    typer.Option(
        "--workers",
        min=1,
        help="Server processes on the port, sharing the collection, answers and rate limit "
        "(default: one per core).",
        show_default=False,
    ),
]
_ContextTokensOption = Annotated[
    int | None,
    typer.Option(
        "--context-tokens",
        help="Most tokens of corpus text a real model is given per answer (default 3000).",
    ),
]
_AllowOriginOption = Annotated[
    list[str] | None,
    typer.Option(
        "--allow-origin",
        metavar="ORIGIN",
        help="A site whose pages may ask from a browser, e.g. https://docs.example.org (repeat"
        " for each; default: none) [CITELINE_ALLOW_ORIGINS].",
        show_default=False,
    ),
]


@app.command(cls=_SettingsHelp)
def serve(
    db: IndexOption = None,
    host: _HostOption = None,
    port: _PortOption = None,
    model: _ModelOption = None,
    open_mode: _OpenModeOption = False,
    wire: _WireOption = None,
    project: _ProjectOption = None,
    release: _ReleaseOption = None,
    link_template: _LinkTemplateOption = None,
    examples: _ExamplesOption = None,
    collection_name: _CollectionNameOption = None,
    rate_limit: _RateLimitOption = None,
    forwarded_allow_ips: _ForwardedAllowIpsOption = None,
    max_tokens: _MaxTokensOption = None,
    workers: _WorkersOption = None,
    context_tokens: _ContextTokensOption = None,
    allow_origin: _AllowOriginOption = None,
) -> None:
    """Serve cited answers, the search page and chat over HTTP."""
    start_server(
        db=db,
        overrides={
            "host": host,
            "port": port,
            "model": model,
            "open": True if open_mode else None,
            "wire": wire,
            "project": project,
            "release": release,
            "link_template": link_template,
            "examples": examples,
            "collection_name": collection_name,
            "rate_limit": rate_limit,
            "forwarded_allow_ips": forwarded_allow_ips,
            "max_tokens": max_tokens,
            "workers": workers,
            "context_tokens": context_tokens,
            "allow_origins": list(allow_origin or ()),
        },
    )


def start_server(
    *,
    db: str | None,
    overrides: Mapping[str, Any],
    listening: socket.socket | None = None,
) -> None:
    """What ``citeline serve`` does, and ``citeline demo`` after its ingest: ``overrides``
    are ``ServerSettings.from_env``'s (a None leaves the ``CITELINE_*`` variable or the
    default); ``listening`` is the socket the caller bound before it printed anything (else
    it is bound here, first)."""
    from citeline.cli.port import bind_listening_socket
    from citeline.server import ServerSettings

    database = index_location(db)
    settings = ServerSettings.from_env(database_url=database, **overrides)
    if listening is None:
        listening = bind_listening_socket(settings.host, settings.port)
    try:
        _serve_on(settings, database, listening, tables_only=overrides.get("project") is not None)
    finally:
        listening.close()


def _serve_on(
    settings: ServerSettings, database: str, listening: socket.socket, *, tables_only: bool
) -> None:
    """Check what can be checked, then serve on ``listening`` (in workers when set)."""
    from citeline.server import Guard, configure_logging, create_app
    from citeline.server import serve as listen

    configure_logging(settings.log_format)
    # The guard's settings first: a server that could never answer says so before it
    # says its index is empty.
    Guard.check(settings)
    reason = unusable_index(database)
    if reason is not None and not tables_only:
        fail("serve", reason)
    if settings.worker_count > 1:
        from citeline.server import serve_workers

        serve_workers(settings, listening, settings.worker_count)
        return
    try:
        server_app = create_app(settings)
    except KeyboardInterrupt:
        # Ctrl+C while the app opens its index and tables: stopped, not broken.
        typer.echo("Stopped by Ctrl+C.", err=True)
        return
    listen(server_app, settings, listening)
