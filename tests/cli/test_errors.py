"""Every error citeline raises on purpose is a ``CitelineError``, and the command line turns
each one into its sentence and exit status 2, never a traceback.

The first tests read the whole package, so an error class added later is held to the same
rule without this file changing; the last ones make real commands fail for real reasons.
"""

from __future__ import annotations

import importlib
import inspect
import os
import pkgutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

import citeline
from citeline.cli import app
from citeline.errors import CitelineError

runner = CliRunner()

# Raised and caught inside one module, never past it: a front-matter problem becomes one
# line of the ingest report (the file is skipped), so no caller ever sees the class.
CAUGHT_WHERE_RAISED = {"citeline.corpus.formats.front_matter.FrontMatterError"}


def _citeline_exception_classes() -> list[type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    for module_info in pkgutil.walk_packages(citeline.__path__, "citeline."):
        # The sample is data, and ``__main__`` runs the command when imported.
        if module_info.name.startswith("citeline.sample") or module_info.name.endswith("__main__"):
            continue
        module = importlib.import_module(module_info.name)
        for _, value in inspect.getmembers(module, inspect.isclass):
            if issubclass(value, BaseException) and value.__module__.startswith("citeline"):
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return [found[name] for name in sorted(found) if name not in CAUGHT_WHERE_RAISED]


ERRORS = _citeline_exception_classes()


def test_the_package_defines_the_errors_this_file_holds_to_the_rule() -> None:
    # A walk that found nothing would pass every test below without checking anything.
    names = {error.__name__ for error in ERRORS}
    assert {"CitelineError", "CorpusError", "StoreUnavailableError", "SettingsError"} <= names


@pytest.mark.parametrize("error_class", ERRORS, ids=lambda each: each.__name__)
def test_every_error_citeline_raises_derives_from_the_root_and_is_named_an_error(
    error_class: type[BaseException],
) -> None:
    assert issubclass(error_class, CitelineError)
    assert error_class.__name__.endswith("Error")


@pytest.fixture
def failing_command() -> Iterator[None]:
    """A hidden ``citeline fail-with CLASS`` that raises the named error, so every class
    can be raised to the command line without finding a real fault for each."""
    by_name = {error.__name__: error for error in ERRORS}

    def fail_with(name: str) -> None:
        raise by_name[name](f"{name} happened; do the thing that fixes it.")

    app.command("fail-with", hidden=True)(fail_with)
    try:
        yield
    finally:
        app.registered_commands[:] = [
            each for each in app.registered_commands if each.name != "fail-with"
        ]


@pytest.mark.usefixtures("failing_command")
@pytest.mark.parametrize("error_class", ERRORS, ids=lambda each: each.__name__)
def test_the_command_line_prints_each_error_as_its_sentence_with_status_2(
    error_class: type[BaseException],
) -> None:
    result = runner.invoke(app, ["fail-with", error_class.__name__])
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        f"citeline fail-with: {error_class.__name__} happened; do the thing that fixes it."
    )
    assert "Traceback" not in result.output
    assert isinstance(result.exception, SystemExit)


@pytest.mark.usefixtures("failing_command")
def test_an_error_that_is_not_citelines_keeps_its_traceback() -> None:
    # A bug must not be dressed as advice: only CitelineError is turned into a sentence.
    app.command("fail-like-a-bug", hidden=True)(lambda: 1 / 0)
    try:
        result = runner.invoke(app, ["fail-like-a-bug"])
    finally:
        app.registered_commands[:] = [
            each for each in app.registered_commands if each.name != "fail-like-a-bug"
        ]
    assert isinstance(result.exception, ZeroDivisionError)


@pytest.mark.parametrize(
    ("command", "says"),
    [
        (["ask", "q", "--project", "sample", "--model", "nonsense:x"], "nonsense"),
        (["ask", "q", "--project", "no-such-project.toml"], "no-such-project.toml"),
        (["eval", "retrieval", "--beir", "no-such-folder"], "name a split that this folder has"),
        (["serve", "--wire", "nonsense"], "nonsense"),
        (["search", "q", "--db", "postgresql://nobody@127.0.0.1:9/none"], "cannot connect"),
    ],
    ids=["model setting", "project file", "judged queries", "server setting", "database"],
)
def test_a_real_refusal_is_a_sentence_with_status_2(
    command: list[str], says: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for variable in ("CITELINE_DATABASE_URL", "CITELINE_DB", "CITELINE_MODEL"):
        monkeypatch.delenv(variable, raising=False)
    result = runner.invoke(app, command)
    assert result.exit_code == 2, result.output
    assert says in result.stderr
    assert "Traceback" not in result.output
    assert isinstance(result.exception, SystemExit)


def test_the_installed_command_prints_no_traceback(tmp_path: Path) -> None:
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in {"CITELINE_DATABASE_URL", "CITELINE_DB", "CITELINE_MODEL"}
    }
    command = ["ask", "q", "--project", "sample", "--model", "nonsense:x"]
    finished = subprocess.run(
        [sys.executable, "-c", "from citeline.cli import main; main()", *command],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env=environment,
    )
    assert finished.returncode == 2
    assert finished.stderr.startswith("citeline ask: ")
    assert "nonsense" in finished.stderr
    assert "Traceback" not in finished.stderr


def test_the_root_is_exported_beside_the_public_api() -> None:
    assert citeline.CitelineError is CitelineError
    assert issubclass(typer.Exit, Exception) and not issubclass(typer.Exit, CitelineError)
