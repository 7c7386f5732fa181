"""The prompt files in ``citeline/prompts/``, read at run time.

The words live only in those Markdown files (package data), never restated in
code, so they can be edited without touching Python. This module only finds and
reads them; it does not template or combine them.
"""

from __future__ import annotations

import functools
from importlib.resources import files
from typing import Literal, TypeAlias

from citeline.conversation import Profile as Profile

PromptName: TypeAlias = Literal[
    "search",
    "chat",
    "citation-request",
    "measure-tool",
    "sql-tool",
    "search-tool",
    "read-tool",
    "first-search",
]


@functools.cache
def load_prompt(name: PromptName) -> str:
    """The text of ``prompts/<name>.md`` without its trailing newline."""
    return (
        files("citeline").joinpath("prompts", f"{name}.md").read_text(encoding="utf-8").rstrip("\n")
    )
