"""Misconfiguration stops start-up with a sentence that says how to fix it."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from tests.support.caller_keys import Keys
from typer.testing import CliRunner

from citeline.cli import app
from citeline.server import ServerSettings, StartupError, create_app
from citeline.server.settings import SETTINGS, SettingsError


@pytest.mark.parametrize("key_file", [None, "missing.pem", "empty.pem", "a-folder"])
def test_no_usable_key_stops_start_up_with_the_fix(
    key_file: str | None, tmp_path: Path, settings: Callable[..., ServerSettings]
) -> None:
    (tmp_path / "empty.pem").write_bytes(b"  \n")
    (tmp_path / "a-folder").mkdir()
    path = None if key_file is None else tmp_path / key_file
    with pytest.raises(StartupError) as error:
        create_app(settings(caller_key_file=path))
    message = str(error.value)
    assert "CITELINE_CALLER_KEY_FILE" in message
    assert "--open" in message


def test_a_project_that_cannot_be_loaded_stops_start_up_naming_the_setting(
    tmp_path: Path, settings: Callable[..., ServerSettings]
) -> None:
    with pytest.raises(StartupError, match="CITELINE_PROJECT"):
        create_app(settings(project=str(tmp_path / "missing" / "citeline.toml")))


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every file")
def test_an_unreadable_key_stops_start_up(
    tmp_path: Path, settings: Callable[..., ServerSettings], keys: Keys
) -> None:
    locked = tmp_path / "locked.pem"
    locked.write_bytes(keys.ed25519_public_file.read_bytes())
    locked.chmod(0)
    with pytest.raises(StartupError, match="cannot be read"):
        create_app(settings(caller_key_file=locked))


def test_a_private_key_in_the_key_file_is_refused(
    tmp_path: Path, settings: Callable[..., ServerSettings], keys: Keys
) -> None:
    private = tmp_path / "private.pem"
    private.write_bytes(keys.ed25519_private)
    with pytest.raises(StartupError, match="public half"):
        create_app(settings(caller_key_file=private))


def test_a_key_file_of_other_text_is_refused(
    tmp_path: Path, settings: Callable[..., ServerSettings]
) -> None:
    junk = tmp_path / "junk.pem"
    junk.write_text("this is not a key\n")
    with pytest.raises(StartupError, match="no PEM public key"):
        create_app(settings(caller_key_file=junk))


def test_an_unknown_rate_limit_storage_is_refused(settings: Callable[..., ServerSettings]) -> None:
    with pytest.raises(StartupError, match="CITELINE_RATE_LIMIT_STORAGE"):
        create_app(settings(rate_limit_storage="carrier-pigeon://loft"))


def test_a_bad_environment_value_names_the_variable() -> None:
    with pytest.raises(SettingsError, match="CITELINE_RATE_LIMIT"):
        ServerSettings.from_env({"CITELINE_RATE_LIMIT": "lots"})
    with pytest.raises(SettingsError, match="CITELINE_ANSWER_TIMEOUT"):
        ServerSettings.from_env({"CITELINE_ANSWER_TIMEOUT": "0"})


def test_flags_win_over_the_environment_which_wins_over_defaults() -> None:
    environ = {"CITELINE_PORT": "9001", "CITELINE_RATE_WINDOW": "60"}
    settings = ServerSettings.from_env(environ, port=9002)
    assert (settings.port, settings.rate_window, settings.rate_limit) == (9002, 60, 30)


def test_every_setting_has_a_citeline_variable_a_default_and_help() -> None:
    assert {setting.field for setting in SETTINGS} >= {"answer_timeout", "rate_limit"}
    for setting in SETTINGS:
        assert setting.env.startswith("CITELINE_")
        assert setting.help.endswith(".")


@pytest.fixture
def root_logging() -> Iterator[None]:
    """``citeline serve`` configures the root logger; put pytest's back afterwards."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


@pytest.mark.usefixtures("root_logging")
def test_citeline_serve_without_a_key_exits_with_the_fix(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app,
        ["serve", "--port", "0", "--db", str(tmp_path / "c.db")],
        env={"CITELINE_CALLER_KEY_FILE": ""},
    )
    assert result.exit_code == 2
    assert "CITELINE_CALLER_KEY_FILE" in result.output
    assert "Traceback" not in result.output


def test_citeline_serve_help_lists_every_setting() -> None:
    result = CliRunner().invoke(app, ["serve", "--help"], terminal_width=200)
    assert result.exit_code == 0
    for setting in SETTINGS:
        assert setting.env in result.output


def test_the_server_docs_list_every_setting() -> None:
    docs = (Path(__file__).parents[2] / "docs" / "server.md").read_text()
    for setting in SETTINGS:
        assert f"`{setting.env}`" in docs


def _rsa_public_pem(bits: int) -> bytes:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    # cryptography will not generate a key under 1024 bits, but loads one: a public key
    # needs only a modulus of that length, which is what an attacker would hand over.
    modulus = (1 << (bits - 1)) | 0x20003
    key = rsa.RSAPublicNumbers(65537, modulus).public_key()
    return key.public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )


@pytest.mark.parametrize("bits", [512, 1024, 2047])
def test_an_rsa_key_under_2048_bits_stops_start_up_saying_what_to_do(
    bits: int, tmp_path: Path, settings: Callable[..., ServerSettings], keys: Keys
) -> None:
    weak = tmp_path / "weak.pem"
    # Beside a good key, as in a rotation: one weak key is enough to forge with.
    weak.write_bytes(keys.ed25519_public_file.read_bytes() + _rsa_public_pem(bits))
    with pytest.raises(StartupError) as error:
        create_app(settings(caller_key_file=weak))
    message = str(error.value)
    assert f"{bits}-bit RSA key" in message
    assert "at least 2048 bits" in message and "citeline token keygen" in message


def test_an_rsa_key_of_2048_bits_is_accepted(
    tmp_path: Path, settings: Callable[..., ServerSettings]
) -> None:
    good = tmp_path / "rsa.pem"
    good.write_bytes(_rsa_public_pem(2048))
    create_app(settings(caller_key_file=good))


def test_the_public_model_name_carries_no_address(
    monkeypatch: pytest.MonkeyPatch, settings: Callable[..., ServerSettings]
) -> None:
    from fastapi.testclient import TestClient

    monkeypatch.setenv("OPENAI_BASE_URL", "http://10.20.30.40:8080/v1")
    monkeypatch.setenv("OLLAMA_BASE_URL", "http://gpu-box.internal:11434/v1")
    for model, shown in (("openai:qwen2.5", "qwen2.5"), ("ollama:llama3.1", "llama3.1")):
        with TestClient(create_app(settings(model=model, open=True))) as client:
            info = client.get("/v1/info").json()
        assert shown in info["model"]
        assert "10.20.30.40" not in info["model"] and "gpu-box" not in info["model"]
        assert "http" not in info["model"]


# Run in a fresh interpreter, where nothing is imported yet: create the app, then answer
# once, and report which modules the answer itself had to import.
_FIRST_ANSWER_PROBE = """
import sys
from fastapi.testclient import TestClient
from citeline.server import ServerSettings, create_app

app = create_app(ServerSettings(db=sys.argv[1], open=True, model=sys.argv[2]))
with TestClient(app) as client:
    before = set(sys.modules)
    with client.stream("POST", "/v1/answer", json={"question": "What is a list?"}) as reply:
        body = reply.read().decode()
    assert "event: done" in body, body
    print(" ".join(sorted(set(sys.modules) - before)))
"""


@pytest.mark.parametrize("model", ["embedded", "openai:qwen2.5"])
def test_the_first_answer_imports_no_model_library(
    model: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import subprocess
    import sys

    # Nothing listens on port 9: an OpenAI answer fails at once, after its imports.
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    probe = subprocess.run(
        [sys.executable, "-c", _FIRST_ANSWER_PROBE, str(tmp_path / "c.db"), model],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert probe.returncode == 0, probe.stderr
    imported = set(probe.stdout.split())
    # Measured: these took 3.9 s to import, inside the first request, on the event loop.
    # (A few small submodules that the libraries load on first use, 0.1 s in all, remain.)
    heavy = {
        "pydantic_ai",
        "pydantic_ai.models.openai",
        "pydantic_ai.providers.openai",
        "openai",
        "openai.resources.chat",
        "citeline.agent",
        "citeline.models.pydantic_ai_adapter",
    }
    assert imported & heavy == set()


def test_serve_in_open_mode_warns_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import citeline.server.listen
    from citeline.corpus import Corpus

    database = tmp_path / "citeline.sqlite"
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# Lists\n\nA list is a mutable sequence.\n")
    with Corpus.open(database) as corpus:
        assert corpus.ingest(tmp_path / "docs").ok
    monkeypatch.setattr(citeline.server.listen, "serve", lambda app, settings, listening: None)
    # serve configures logging itself; the records are read where pytest's handler sees them.
    monkeypatch.setattr("citeline.server.logs.configure_logging", lambda log_format: None)
    caplog.set_level(logging.WARNING, logger="citeline.server.guard")
    # Port 0: any free one; the command binds it before anything else.
    # One process: several would each build the app in a worker of their own.
    command = ["serve", "--open", "--port", "0", "--db", str(database), "--workers", "1"]
    result = CliRunner().invoke(app, command)
    assert result.exit_code == 0, result.output
    warnings = [r for r in caplog.records if "OPEN MODE" in r.getMessage()]
    assert len(warnings) == 1
