"""Text a model or a document wrote, made safe to write to a terminal.

A terminal obeys the control characters it is given: probed, a model's
``ESC ] 8 ;; https://evil.example ESC \\`` made a clickable link in ``citeline ask``, and
other sequences clear the screen or move the cursor up to overwrite earlier lines (a forged
reference list or footer). So every control character such text holds (C0 but line feed and
tab, DEL, C1) is shown as a visible escape (``\\x1b``), except a carriage return, which is
dropped: its only use in prose is a line ending, and shown it would litter text written with
CRLF. JSON lines escape the same characters the JSON way (``\\u001b``), which ``json`` does
for C0 only. It deliberately does not judge what is printable otherwise (wide characters,
bidirectional text): those draw, they do not command.
"""

from __future__ import annotations

import json
import re
from typing import Any, Final

_CONTROL: Final = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
# What json.dumps(ensure_ascii=False) leaves as it is: DEL and C1.
_JSON_LEFT: Final = re.compile(r"[\x7f-\x9f]")


def printable(text: str) -> str:
    """``text`` with each control character but newline and tab shown as ``\\xNN`` (a
    carriage return dropped)."""
    if _CONTROL.search(text) is None:
        return text
    return _CONTROL.sub(_shown, text)


def json_text(value: Any, *, indent: int | None = None) -> str:
    """``value`` as JSON (one line unless ``indent``) with no control character in it,
    non-ASCII text kept."""
    encoded = json.dumps(value, ensure_ascii=False, indent=indent)
    return _JSON_LEFT.sub(lambda found: f"\\u{ord(found.group()):04x}", encoded)


def _shown(found: re.Match[str]) -> str:
    char = found.group()
    return "" if char == "\r" else f"\\x{ord(char):02x}"
