"""Misconfiguration stops start-up with a sentence that says how to fix it."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from caller_keys import Keys
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
        app, ["serve", "--db", str(tmp_path / "c.db")], env={"CITELINE_CALLER_KEY_FILE": ""}
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
