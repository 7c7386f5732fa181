"""``citeline token``: key pairs and caller tokens for a guarded server.

A site keeps the private key and mints a short-lived token per reader on its own server;
``citeline serve`` holds only the public key (``CITELINE_CALLER_KEY_FILE``). These
commands are how a site, a script or a test gets real keys and tokens.
"""

from __future__ import annotations

import os
from pathlib import Path

import typer

from citeline.cli.app import CitelineGroup, app

token_app = typer.Typer(
    cls=CitelineGroup,
    help="Make signing keys and mint caller tokens for a guarded server.",
    no_args_is_help=True,
)
app.add_typer(token_app, name="token")

PRIVATE_KEY_NAME = "private.pem"
PUBLIC_KEY_NAME = "public.pem"


@token_app.command()
def keygen(
    directory: Path = typer.Argument(..., help="Folder to write private.pem and public.pem in."),
) -> None:
    """Write a new Ed25519 key pair: private.pem (for the site) and public.pem (for the server)."""
    from citeline.server import generate_key_pair

    private_path = directory / PRIVATE_KEY_NAME
    public_path = directory / PUBLIC_KEY_NAME
    for path in (private_path, public_path):
        if path.exists():
            typer.echo(
                f"citeline token keygen: {path} already exists; move it away or choose "
                "another folder (a key is never overwritten).",
                err=True,
            )
            raise typer.Exit(1)
    pair = generate_key_pair()
    directory.mkdir(parents=True, exist_ok=True)
    # The private key is created readable by its owner only, never briefly world-readable.
    descriptor = os.open(private_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as private_file:
        private_file.write(pair.private_pem)
    public_path.write_bytes(pair.public_pem)
    typer.echo(f"wrote {private_path} (keep it on the site) and {public_path}")
    typer.echo(f"serve with: CITELINE_CALLER_KEY_FILE={public_path} citeline serve --db FILE")


@token_app.command()
def mint(
    key: Path = typer.Option(..., "--key", help="The site's private key (PEM)."),
    sub: str = typer.Option(..., "--sub", help="Who the token is for; rate limits count per sub."),
    ttl: int = typer.Option(120, "--ttl", min=1, help="Seconds until the token expires."),
    aud: str | None = typer.Option(
        None, "--aud", help="Audience (default: CITELINE_TOKEN_AUDIENCE, else citeline)."
    ),
) -> None:
    """Print a caller token for SUB, signed with the private key."""
    from citeline.server import ServerSettings, StartupError, mint_token

    try:
        audience = ServerSettings.from_env(token_audience=aud or None).token_audience
        private_pem = key.read_bytes()
        token = mint_token(private_pem, subject=sub, ttl_seconds=ttl, audience=audience)
    except OSError as error:
        typer.echo(
            f"citeline token mint: {key} cannot be read ({error.strerror or error}); "
            "pass the private key that `citeline token keygen DIR` wrote.",
            err=True,
        )
        raise typer.Exit(1) from None
    except StartupError as error:
        typer.echo(f"citeline token mint: {error}", err=True)
        raise typer.Exit(1) from None
    typer.echo(token)
