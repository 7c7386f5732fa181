"""Model citation markup that reached the prose: the check behind the leak rate.

The stream pipeline removes anchors, quote elements and the trailing source list before a
token is emitted; this module looks at the finished answer text for any of them, so that a
pipeline bug (or a path that bypassed the pipeline) shows up as a number that must be zero.
It is written independently of the strippers on purpose: reusing their patterns would only
confirm that they agree with themselves. It does not strip or repair anything.

The asymmetry that settles each pattern: a false alarm makes someone read one answer; a
missed leak hides a broken pipeline from every deployment that trusts the number. Each
pattern therefore matches the markup in any form the pipeline is meant to remove, and only
stops short where real prose looks the same (see ``_SOURCES_HEADING``).
"""

from __future__ import annotations

import re
from typing import Final

_HTML_ANCHOR: Final = re.compile(r"<a(?=[\s>])|</a\s*>", re.IGNORECASE)
_QUOTE_ELEMENT: Final = re.compile(r"</?citation(?=[\s>])", re.IGNORECASE)
# A markdown image passes through the pipeline by design (it is not a citation), so its
# `](` is removed before looking for link markup; a bare `](` anywhere else is a leak,
# whether or not its `[` is still there.
_MARKDOWN_IMAGE: Final = re.compile(r"!\[[^\[\]\n]*\]\(")
_MARKDOWN_LINK: Final = re.compile(r"\]\(")
# Only a heading whose words are nothing but "sources" (or references, citations), the
# list heading the prompts pin: "## Sources of reactive oxygen species" and "## Cellular
# sources" are prose the pipeline keeps on purpose, so counting them would make a correct
# pipeline fail a check that must read zero.
_SOURCES_HEADING: Final = re.compile(
    r"^[ \t]{0,3}(?:#{1,6}[ \t]+|\*\*[ \t]*)(?:sources?|references?|citations?)[ \t]*:?"
    r"[ \t]*(?:\*\*)?[ \t]*:?[ \t]*$",
    re.IGNORECASE | re.MULTILINE,
)

# A fence as surely as any renderer reads one: at column 0, three or more backticks with
# none after them, or tildes; it closes on a line of the same character, at least as many.
# An unclosed block is looked in: only markup that is certainly code is left out.
_FENCE_OPEN: Final = re.compile(r"(`{3,})[^`\n]*$|(~{3,})[^\n]*$")

LEAK_KINDS: Final = ("html_anchor", "markdown_link", "sources_heading", "quote_element")


def find_leaks(text: str) -> tuple[str, ...]:
    """The kinds of model citation markup present in ``text``, in ``LEAK_KINDS`` order.
    A closed fenced code block is code, shown as written (an HTML template's ``<a href>``
    is the answer to "how do I link to a page?"), so it is not looked in."""
    text = _without_fenced_code(text)
    found: list[str] = []
    if _HTML_ANCHOR.search(text):
        found.append("html_anchor")
    if _MARKDOWN_LINK.search(_MARKDOWN_IMAGE.sub("", text)):
        found.append("markdown_link")
    if _SOURCES_HEADING.search(text):
        found.append("sources_heading")
    if _QUOTE_ELEMENT.search(text):
        found.append("quote_element")
    return tuple(found)


def _without_fenced_code(text: str) -> str:
    """``text`` without its closed fenced code blocks, in one pass: a block that never
    closes is kept whole and looked in (with any fence inside it), so hostile text of
    thousands of unclosed fences costs one scan, not one per fence."""
    kept: list[str] = []
    block: list[str] = []
    fence = ""
    for line in text.split("\n"):
        if fence:
            block.append(line)
            if _closes(line, fence):
                block.clear()
                fence = ""
            continue
        opener = _FENCE_OPEN.match(line)
        if opener:
            fence = opener.group(1) or opener.group(2)
            block.append(line)
        else:
            kept.append(line)
    kept.extend(block)
    return "\n".join(kept)


def _closes(line: str, fence: str) -> bool:
    body = line.strip()
    indent = len(line) - len(line.lstrip(" "))
    return indent <= 3 and len(body) >= len(fence) and set(body) == {fence[0]}
