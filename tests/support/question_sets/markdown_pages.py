"""An MkDocs project's Markdown pages read into the sections its built site publishes, apart
from citeline's ingest: each section's address as MkDocs links it and its text, with the
page's include directives resolved and without. The Markdown question sets (a manifest's
``generator = "markdown"``, benchmarks/questions/typer-md) check their gold addresses and
expected terms against this reading.

It follows what the generator does, not what citeline's reader does: a page ``a/b.md`` is
served at ``a/b/`` and ``a/index.md`` at ``a/``; a heading's anchor is Python-Markdown's
``toc`` slug of its text (accents folded to ASCII, punctuation dropped, runs of spaces and
hyphens one hyphen) made unique on its page with ``_1``, ``_2``; the page's opening (the text
before its first heading, or under a first heading of level 1, which Material shows as the
page's title) is at the page's own address. A section runs from its heading to the next
heading of any level. Include directives are mdx_include's (``{! path !}``, ``{!> path !}``
with the included text indented), resolved against the docs folder as ``mdx_include``'s
``base_path: docs`` does when MkDocs builds from the project's root.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$")
_INCLUDE = re.compile(r"\{!>?\s*(?P<path>[^!|]+?)\s*!\}")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_TAG = re.compile(r"</?[A-Za-z][^<>]*>")
_NOT_SLUG = re.compile(r"[^\w\s-]")
_SEPARATORS = re.compile(r"[-\s]+")
_NUMBERED = re.compile(r"^(.*)_([0-9]+)$")


@dataclass(frozen=True, slots=True)
class PublishedSection:
    """One section of a built page: its anchor ("" for the page's opening), its heading's
    text, its Markdown with every include directive replaced by the included file's text
    (``text``) and with the directives removed (``own_text``: what the page says itself)."""

    anchor: str
    heading: str
    text: str
    own_text: str


def page_address(relative: str) -> str:
    """The address MkDocs (``use_directory_urls``) serves the page at ``relative`` under."""
    path = PurePosixPath(relative)
    parts = [] if path.parent.as_posix() == "." else [path.parent.as_posix()]
    if path.stem != "index":
        parts.append(path.stem)
    return "/".join(parts) + "/" if parts else ""


def toc_slug(heading: str) -> str:
    """Python-Markdown ``toc``'s default ``slugify`` of a heading's rendered text."""
    text = unicodedata.normalize("NFKD", heading).encode("ascii", "ignore").decode("ascii")
    text = _NOT_SLUG.sub("", text).strip().lower()
    return _SEPARATORS.sub("-", text)


def heading_text(markdown: str) -> str:
    """A heading line's text as a reader sees it: links, tags, emphasis and code marks gone."""
    text = _TAG.sub("", _LINK.sub(r"\1", markdown))
    return " ".join(text.replace("**", "").replace("*", "").replace("`", "").split())


def _unique(anchor: str, used: set[str]) -> str:
    # toc's unique(): a repeated id gains _1, then _2, counting on from its own suffix.
    while anchor in used or not anchor:
        numbered = _NUMBERED.match(anchor)
        anchor = f"{numbered.group(1)}_{int(numbered.group(2)) + 1}" if numbered else f"{anchor}_1"
    used.add(anchor)
    return anchor


def page_sections(docs: Path, relative: str) -> dict[str, PublishedSection]:
    """The sections of ``docs/relative`` by anchor, as the built page publishes them."""
    lines = (docs / relative).read_text(encoding="utf-8").splitlines()
    fence: str | None = None
    starts: list[tuple[int, int, str]] = []  # (line, level, heading text)
    for number, line in enumerate(lines):
        opener = _FENCE.match(line)
        if fence is not None:
            if opener and opener.group(1).startswith(fence):
                fence = None
            continue
        if opener:
            fence = opener.group(1)[:3]
            continue
        found = _HEADING.match(line)
        if found:
            starts.append((number, len(found.group(1)), heading_text(found.group(2))))
    used: set[str] = set()
    sections: dict[str, PublishedSection] = {}
    opening_end = starts[0][0] if starts else len(lines)
    bounds: list[tuple[str, str, int, int]] = [("", "", 0, opening_end)]
    for index, (start, level, heading) in enumerate(starts):
        end = starts[index + 1][0] if index + 1 < len(starts) else len(lines)
        anchor = _unique(toc_slug(heading), used)
        opening_text = "\n".join(lines[:start]).strip()
        if index == 0 and level == 1 and not opening_text:
            bounds[0] = ("", heading, start, end)
        else:
            bounds.append((anchor, heading, start, end))
    for anchor, heading, start, end in bounds:
        markdown = "\n".join(lines[start:end])
        if not markdown.strip():
            continue
        sections[anchor] = PublishedSection(
            anchor,
            heading,
            _plain(_INCLUDE.sub(lambda match: _included(docs, match.group("path")), markdown)),
            _plain(_INCLUDE.sub("", markdown)),
        )
    return sections


def published_sections(docs: Path, base_url: str) -> dict[str, PublishedSection]:
    """Every section of the site built from ``docs`` and published at ``base_url``, by its
    address."""
    sections: dict[str, PublishedSection] = {}
    for page in sorted(docs.rglob("*.md")):
        relative = page.relative_to(docs).as_posix()
        for anchor, section in page_sections(docs, relative).items():
            address = base_url + page_address(relative) + (f"#{anchor}" if anchor else "")
            sections[address] = section
    return sections


def _included(docs: Path, path: str) -> str:
    return (docs / path).read_text(encoding="utf-8")


def _plain(markdown: str) -> str:
    """Markdown as near the page's visible text as the expected terms need: link targets,
    tags and emphasis marks dropped, whitespace runs made one space."""
    text = _TAG.sub(" ", _LINK.sub(r"\1", markdown)).replace("**", "")
    return " ".join(text.split())
