"""``--help`` shows every command's and option's text as written: Typer's Rich mode reads
brackets as markup (``[default: citeline.sqlite]`` vanished from ``--db``'s help) and keeps a
paragraph's line breaks (a docstring wrapped at 100 columns broke mid-sentence)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rich.text import Text
from typer.main import get_command

from citeline.cli import app


def _commands() -> Iterator[tuple[str, Any]]:
    pending: list[tuple[str, Any]] = [("citeline", get_command(app))]
    while pending:
        name, command = pending.pop()
        yield name, command
        subcommands: dict[str, Any] = getattr(command, "commands", {})
        pending.extend((f"{name} {n}", c) for n, c in subcommands.items())


def test_every_help_text_shows_as_written() -> None:
    texts = [(name, command.help or "") for name, command in _commands()]
    texts += [
        (f"{name} {'/'.join(param.opts)}", param.help or "")
        for name, command in _commands()
        for param in command.params
        if param.param_type_name == "option"
    ]
    swallowed = [
        (where, text)
        for where, text in texts
        if Text.from_markup(text).plain != text.replace("\\[", "[")
    ]
    assert swallowed == []


def test_each_paragraph_of_a_commands_help_is_one_line() -> None:
    broken = [
        (name, paragraph)
        for name, command in _commands()
        for paragraph in (command.help or "").split("\n\n")
        if "\n" in paragraph.strip()
    ]
    assert broken == []


def test_the_index_option_shows_its_default() -> None:
    (ask,) = [command for name, command in _commands() if name == "citeline ask"]
    (db,) = [param for param in ask.params if "--db" in param.opts]
    assert "(default: citeline.sqlite)" in (db.help or "")
