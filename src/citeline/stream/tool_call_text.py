"""Remove tool calls a model wrote as text, fragment by fragment, and count them.

A model server that does not parse its model's tool-call format passes the call through
as prose: recorded from Qwen2.5-Coder behind llama-cpp-python, ``<tools></tools>`` before
an answer, a fenced ```` ```json ```` block ``{"name": "sort", "arguments": {...}}`` and a
bare ``{"name": ..., "arguments": ...}`` object. None of it is for a reader. This stage
takes out, outside fenced code:

- an element ``<tool_call>``, ``<tool_calls>``, ``<tools>``, ``<function_call>`` (any
  case) through its closing tag, or through the end of the answer when it never closes;
- a fenced block whose info string is ``json``, ``tool_call`` or ``tool_code`` and whose
  body is a call: a JSON object with ``name`` and ``arguments`` (or ``parameters``), or a list
  of them;
- such an object standing at the start of a line.

Only a fence or an object at column 0 is read (a server passes its model's call there),
so an indented line of prose is never held. A line ends as CommonMark ends one, at LF, CR
or CR LF, as for every other stage.

A removal that began a line takes the blank lines after it too. Everything else passes
through as written. It holds back only what may still become one of these: a ``<`` that
may open such a tag (at most 16 characters), a fence line until its info string is
read and such a block until it closes, and a line opening on ``{`` until its braces
balance; a held block or object past ``MAX_HELD`` characters is released as it is (a call
is short: the recorded ones were under 400). It decides nothing about links or quotes.
"""

from __future__ import annotations

import json
from typing import Final, Literal

import regex

from citeline.stream.code_fences import CodeFences

# Past this a held block or object is not a call (the recorded calls were under 400
# characters): released as written, so a long JSON example reaches the reader.
MAX_HELD: Final = 4_096

_TAG_NAMES: Final = r"tool_calls?|tools|function_call"
_OPEN_TAG: Final = regex.compile(rf"<(?P<name>{_TAG_NAMES})>", regex.IGNORECASE)
# A fence that may hold a call: at column 0 (where a server leaves one), three or more
# backticks or tildes, then an info string naming JSON or a call, then the line's end. Not a
# fence without one: held to its close, a plain code block would stop streaming (the
# recorded calls were all `json`).
_CALL_FENCE: Final = regex.compile(
    r"(?P<fence>`{3,}|~{3,})[ \t]*(?:json|tool_call|tool_code)[ \t]*(?:\r\n?|\n)",
    regex.IGNORECASE,
)
# A blank line ends a held object: a line ending, blanks, another line ending (a CR and the
# LF after it are one).
_BLANK_LINE: Final = regex.compile(r"(?:\r\n|\r(?!\n)|\n)[ \t]*[\r\n]")
_LINE_END: Final = regex.compile(r"[\r\n]")
_OBJECT_START: Final = regex.compile(r"\{")
_CALL_PREFIX: Final = regex.compile(r"\s*[\[{]\s*\{?\s*\"name\"\s*:")

_Mode = Literal["text", "tag", "fence", "object"]


class ToolCallTextStripper:
    """Feed raw fragments in order; ``feed`` returns text that is final. Call ``flush`` once."""

    def __init__(self) -> None:
        self._buffer = ""
        self._mode: _Mode = "text"
        self._closer = ""
        self._fence = ""
        self._line_start = True
        self._opened_at_line_start = False
        self._held_from = 0
        self._eat_blanks = False
        self._fences = CodeFences()
        self.removed = 0

    def feed(self, text: str) -> str:
        if (
            not self._buffer
            and not self._line_start
            and self._mode == "text"
            and not self._eat_blanks
            and "<" not in text
            and "\n" not in text
            and "\r" not in text
        ):
            # Most fragments are prose in the middle of a line: nothing in them can open a
            # call, so they go out as they came (1.17 µs a fragment before this path).
            if text:
                self._fences.feed(text)
            return text
        self._buffer += text
        out: list[str] = []
        while self._step(out, final=False):
            pass
        return self._release(out)

    def flush(self) -> str:
        out: list[str] = []
        while self._step(out, final=True):
            pass
        if self._mode == "tag":
            self.removed += 1  # a call the token limit cut short
        elif self._mode in ("fence", "object"):
            held = self._buffer
            if _is_call(held[self._held_from :] if self._mode == "fence" else held):
                self.removed += 1
            else:
                self._put(out, held)
        self._buffer, self._mode = "", "text"
        return self._release(out)

    def _release(self, out: list[str]) -> str:
        return "".join(out)

    def _put(self, out: list[str], text: str) -> None:
        """Text that goes to the reader: the fences tracker reads it as it goes, so whether a
        line starts inside code is known without reading the text again."""
        if text:
            out.append(text)
            self._fences.feed(text)

    def _step(self, out: list[str], *, final: bool) -> bool:
        """One move on the buffer; ``False`` when it needs more text (or, ``final``, is done)."""
        if self._mode == "tag":
            return self._in_tag()
        if self._mode == "fence":
            return self._in_fence(out, final=final)
        if self._mode == "object":
            return self._in_object(out, final=final)
        return self._in_text(out, final=final)

    def _in_text(self, out: list[str], *, final: bool) -> bool:
        buffer = self._buffer
        if self._eat_blanks:
            stripped = buffer.lstrip(" \t\r\n")
            if not stripped:
                self._buffer = ""
                return False
            self._buffer, buffer, self._eat_blanks = stripped, stripped, False
            self._line_start = True
        position = emitted = 0
        while position < len(buffer):
            at_line_start = self._line_start if position == 0 else buffer[position - 1] in "\r\n"
            char = buffer[position]
            if at_line_start or char == "<":
                self._put(out, buffer[emitted:position])
                emitted = position
                in_code = self._fences.inside
                if at_line_start and not in_code:
                    decided = self._line_opening(buffer, position, final=final)
                    if decided is not None:
                        return decided
                if char == "<" and not in_code:
                    match = _OPEN_TAG.match(buffer, position, partial=True)
                    if match is not None and match.partial and not final:
                        return self._hold(buffer, position)
                    if match is not None and not match.partial:
                        self._opened_at_line_start = at_line_start
                        self._closer = f"</{match.group('name').lower()}>"
                        self._buffer, self._mode = buffer[match.end() :], "tag"
                        return True
            position = _next_special(buffer, position + 1)
        self._put(out, buffer[emitted:])
        self._buffer = ""
        if buffer:
            self._line_start = buffer[-1] in "\r\n"
        return False

    def _line_opening(self, buffer: str, position: int, *, final: bool) -> bool | None:
        """At a line start (all before it released): hold or enter a block that may be a
        call; ``None`` when neither."""
        fence = _CALL_FENCE.match(buffer, position, partial=not final)
        if fence is not None:
            if fence.partial:
                return self._hold(buffer, position)
            self._buffer, self._mode = buffer[position:], "fence"
            self._fence = fence.group("fence")
            self._held_from = fence.end() - position
            return True
        start = _OBJECT_START.match(buffer, position, partial=not final)
        if start is not None:
            if start.partial:
                return self._hold(buffer, position)
            self._buffer, self._mode = buffer[position:], "object"
            return True
        return None

    def _hold(self, buffer: str, position: int) -> bool:
        """Keep ``buffer[position:]`` (all before it released) until more text decides it."""
        if position:
            self._line_start = buffer[position - 1] in "\r\n"
        self._buffer = buffer[position:]
        return False

    def _in_tag(self) -> bool:
        lowered = self._buffer.lower()
        end = lowered.find(self._closer)
        if end == -1:
            # Only a tail that may begin the closing tag is kept: the rest is the call's.
            self._buffer = self._buffer[-(len(self._closer) - 1) :]
            return False
        self._buffer = self._buffer[end + len(self._closer) :]
        self.removed += 1
        self._mode = "text"
        self._line_start = self._eat_blanks = self._opened_at_line_start
        return True

    def _in_fence(self, out: list[str], *, final: bool) -> bool:
        closer = regex.compile(
            rf"[\r\n][ \t]{{0,3}}{regex.escape(self._fence[0])}{{{len(self._fence)},}}[ \t]*"
            r"(?:\r\n?|\n|$)"
        )
        held = self._buffer
        match = closer.search(held, self._held_from - 1)
        # Complete once its line ending is: an LF, or a CR with something after it that
        # is not the LF of the same ending.
        complete = match is not None and (
            match.group().endswith("\n")
            or (match.group().endswith("\r") and match.end() < len(held))
        )
        if match is None or (not final and not complete):
            if len(held) > MAX_HELD:
                return self._give_back(out)
            return False
        body = held[self._held_from : match.start()]
        if _is_call(body):
            self.removed += 1
            self._buffer, self._mode, self._eat_blanks = held[match.end() :], "text", True
            return True
        self._put(out, held[: match.end()])
        self._buffer, self._mode = held[match.end() :], "text"
        self._line_start = True
        return True

    def _in_object(self, out: list[str], *, final: bool) -> bool:
        held = self._buffer
        end = _balanced_end(held)
        # A blank line before the braces balance ends it, however the text was split: read
        # whole, "{\n\n{...}}" balanced first and was taken for a call, fed in pieces it was
        # released at the blank line.
        if _BLANK_LINE.search(held, 0, len(held) if end is None else end) is not None:
            return self._give_back(out)
        if end is None:
            if len(held) > MAX_HELD:
                return self._give_back(out)
            return False
        if _is_call(held[:end]):
            self.removed += 1
            self._buffer, self._mode, self._eat_blanks = held[end:], "text", True
            return True
        return self._give_back(out)

    def _give_back(self, out: list[str]) -> bool:
        """Release what was held as prose: it was not a call. Its first character goes out
        now and the rest is read again, so a line that opens on ``{`` is not held twice."""
        held = self._buffer
        self._put(out, held[0])
        self._buffer, self._mode = held[1:], "text"
        self._line_start = held[0] in "\r\n"
        # A fence line released as prose opens a code block: the fences tracker sees it.
        if held[0] in "`~":
            found = _LINE_END.search(held)
            line_end = -1 if found is None else found.start()
            cut = len(held) if line_end == -1 else line_end + 1
            if held.startswith("\r\n", line_end):
                cut += 1
            self._put(out, held[1:cut])
            self._buffer = held[cut:]
            self._line_start = line_end != -1
        return True


def _next_special(text: str, start: int) -> int:
    """The next position that may matter: a ``<``, or a line start (after LF or CR)."""
    angle = text.find("<", start)
    found = _LINE_END.search(text, start - 1 if start else 0)
    newline = -1 if found is None else found.start()
    candidates = [p for p in (angle, newline + 1 if newline != -1 else -1) if p >= start]
    return min(candidates) if candidates else len(text)


def _balanced_end(text: str) -> int | None:
    """Where the JSON value opening ``text`` (after blanks) ends, or ``None`` if not yet."""
    depth = 0
    in_string = False
    escaped = False
    for index, char in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "{[":
            depth += 1
        elif char in "}]":
            depth -= 1
            if depth == 0:
                return index + 1
    return None


def _is_call(text: str) -> bool:
    """Whether ``text`` is a tool call written as JSON: an object with ``name`` and
    ``arguments`` or ``parameters``, or a list of them. A call cut short or written with a
    slip still counts when it opens as one and names its arguments."""
    try:
        value = json.loads(text)
    except ValueError:
        return bool(_CALL_PREFIX.match(text)) and ('"arguments"' in text or '"parameters"' in text)
    calls = value if isinstance(value, list) else [value]
    return bool(calls) and all(
        isinstance(call, dict)
        and isinstance(call.get("name"), str)
        and ("arguments" in call or "parameters" in call)
        for call in calls
    )
