"""``citeline token keygen`` and ``mint`` make keys and tokens the server accepts."""

from __future__ import annotations

import stat
import time
from pathlib import Path

import jwt
from typer.testing import CliRunner

from citeline.cli import app
from citeline.server.tokens import TokenVerifier, VerifiedToken, read_public_keys


def test_keygen_then_mint_makes_a_token_the_server_verifies(tmp_path: Path) -> None:
    runner = CliRunner()
    made = runner.invoke(app, ["token", "keygen", str(tmp_path / "keys")])
    assert made.exit_code == 0, made.output
    private = tmp_path / "keys" / "private.pem"
    assert stat.S_IMODE(private.stat().st_mode) == 0o600
    minted = runner.invoke(
        app, ["token", "mint", "--key", str(private), "--sub", "reader-7", "--ttl", "60"]
    )
    assert minted.exit_code == 0, minted.output
    token = minted.output.strip()
    verifier = TokenVerifier(
        read_public_keys(tmp_path / "keys" / "public.pem"), audience="citeline"
    )
    assert verifier.verify(token) == VerifiedToken("sub:reader-7")
    claims = jwt.decode(token, options={"verify_signature": False})
    assert claims["aud"] == "citeline"
    assert 55 <= claims["exp"] - time.time() <= 61
    assert jwt.get_unverified_header(token)["alg"] == "EdDSA"


def test_mint_honours_an_audience(tmp_path: Path) -> None:
    runner = CliRunner()
    runner.invoke(app, ["token", "keygen", str(tmp_path)])
    minted = runner.invoke(
        app,
        ["token", "mint", "--key", str(tmp_path / "private.pem"), "--sub", "s", "--aud", "docs"],
    )
    assert jwt.decode(minted.output.strip(), options={"verify_signature": False})["aud"] == "docs"


def test_keygen_never_overwrites_a_key(tmp_path: Path) -> None:
    runner = CliRunner()
    assert runner.invoke(app, ["token", "keygen", str(tmp_path)]).exit_code == 0
    before = (tmp_path / "private.pem").read_bytes()
    again = runner.invoke(app, ["token", "keygen", str(tmp_path)])
    assert again.exit_code == 1
    assert "already exists" in again.output
    assert (tmp_path / "private.pem").read_bytes() == before


def test_mint_with_a_missing_or_public_key_says_what_to_pass(tmp_path: Path) -> None:
    runner = CliRunner()
    runner.invoke(app, ["token", "keygen", str(tmp_path)])
    for key in (tmp_path / "nope.pem", tmp_path / "public.pem"):
        result = runner.invoke(app, ["token", "mint", "--key", str(key), "--sub", "s"])
        assert result.exit_code == 1
        assert "private" in result.output
        assert "Traceback" not in result.output
