"""Tool calls a model server left in the text are taken out of the prose, however it is split."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from citeline.stream.tool_call_text import MAX_HELD, ToolCallTextStripper

from .test_properties import split


def run(fragments: list[str]) -> tuple[str, int]:
    stripper = ToolCallTextStripper()
    out = "".join(stripper.feed(fragment) for fragment in fragments) + stripper.flush()
    return out, stripper.removed


CALLS = {
    "an empty tools element before the answer": (
        "<tools></tools>\n\n## How to sort\n\nUse sorted().",
        "## How to sort\n\nUse sorted().",
    ),
    "a fenced JSON call": (
        'It works.\n\n```json\n{"name": "remove_duplicates", "arguments": {"list": [1]}}\n```\n'
        "\nThe output would be",
        "It works.\n\nThe output would be",
    ),
    "a bare JSON call at a line's start": (
        '{"name": "search", "arguments": {"query": "sort"}}\nAnswer: a < b here.',
        "Answer: a < b here.",
    ),
    "a tool_call element mid-line": (
        'See <TOOL_CALL>{"name": "search", "arguments": {}}</tool_call> below.',
        "See  below.",
    ),
    "a list of calls with parameters": (
        '```json\n[{"name": "a", "parameters": {}}, {"name": "b", "parameters": {}}]\n```\nDone.',
        "Done.",
    ),
    "a call cut short by the token limit": (
        'Answer first.\n<tool_call>\n{"name": "search", "argu',
        "Answer first.\n",
    ),
    "a fenced call cut short": ('Intro.\n```json\n{"name": "search", "arguments": {"q', "Intro.\n"),
    # A lone CR ends a line for this stage as for the others (issue 29).
    "a bare call after a lone CR": (
        'Answer.\r{"name": "search", "arguments": {"query": "sort"}}\rMore.',
        "Answer.\rMore.",
    ),
    "a fenced call with CR line endings": (
        'It works.\r\r```json\r{"name": "s", "arguments": {}}\r```\r\rThe output',
        "It works.\r\rThe output",
    ),
    "a fenced call with CRLF line endings": (
        'It works.\r\n```json\r\n{"name": "s", "arguments": {}}\r\n```\r\nThe output',
        "It works.\r\nThe output",
    ),
}

PROSE = {
    "a plain code block streams as written": '```\n{"name": "x", "arguments": {}}\n```\n',
    "a JSON example that is not a call": '```json\n{"a": 1}\n```\ndone',
    "a brace opening a line of prose": "{ set } of things\n\nmore",
    "a call shown inside a python code block": (
        '```python\n{"name": "x", "arguments": {}}\n<tool_call>\n```\nok'
    ),
    "an indented call-like line": '  {"name": "x", "arguments": {}}\n',
    "other tags and comparisons": "a <b>bold</b> x < y and <toolbox>",
    "a brace after a lone CR, then a blank line": "Sets:\r{ a, b\r\rare sets",
}


@pytest.mark.parametrize("case", list(CALLS.values()), ids=list(CALLS))
def test_a_tool_call_left_as_text_is_removed_and_counted(case: tuple[str, str]) -> None:
    text, expected = case
    for fragments in ([text], list(text)):
        assert run(fragments) == (expected, 1)


@pytest.mark.parametrize("text", list(PROSE.values()), ids=list(PROSE))
def test_prose_and_code_that_are_not_calls_pass_as_written(text: str) -> None:
    for fragments in ([text], list(text)):
        assert run(fragments) == (text, 0)


def test_a_long_json_block_is_released_as_written_past_the_bound() -> None:
    text = '```json\n{"name": "x", "data": "' + "y" * MAX_HELD + '"}\n```\nafter'
    assert run([text]) == (text, 0)
    stripper = ToolCallTextStripper()
    released = stripper.feed(text[: MAX_HELD + 100])
    assert released  # not held to the end of the block


PIECES = [
    "<tools>", "</tools>", "<tool_call>", "</tool_call>", "```json\n", "```\n", "```python\n",
    '{"name": "s", "arguments": {}}', '{"name": ', "}", "{", "\n", "\n\n", "text ", "<", "a<b",
    "\r", "\r\n", "```json\r", "~~~json\r\n", " ",
]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(PIECES), max_size=14)
    .map("".join)
    .flatmap(lambda text: st.tuples(st.just(text), split(text)))
)
# Found by hypothesis before the stage read a blank line inside unbalanced braces as prose:
# whole, the text was taken for one call (removed); a character at a time, for prose.
@example(('{{"name": "s", "arguments": {}}\n\n}', ['{{"name": "s", "arguments": {}}\n\n}']))
@example(("{\n\n}", ["{", "\n", "\n}"]))
def test_the_output_and_the_count_do_not_depend_on_how_the_text_was_split(
    case: tuple[str, list[str]],
) -> None:
    text, fragments = case
    assert run(fragments) == run([text]) == run(list(text))


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab .,\n", max_size=60))
def test_prose_without_calls_is_released_by_the_same_feed(text: str) -> None:
    stripper = ToolCallTextStripper()
    assert stripper.feed(text) == text
