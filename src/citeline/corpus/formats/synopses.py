"""A page's synopsis tables: rows that each name entries documented further on the page.

API generators open a reference page with a table of what it documents, one row an entry:
gtk-doc's "Functions", "Types and Values", "Properties" and "Signals" (a return type, the
linked name, a property's flags), Doxygen's member tables ("Macros", "Functions", each
row a declaration and its brief line, "More..."), Javadoc's method summaries. Each row
links the section of its entry on the same page and says nothing that section does not
say: read as text, the table made a section of every name on the page that a search for
any of them finds before the entry itself. A table any of whose rows says more (a
comparison table that links the sections it compares: "count(10) → 10 11 12") is text.

This module only finds such rows in a page the HTML reader has already cleared of chrome;
which ids name a heading's place is the reader's to say (``anchors``). It deliberately
reads nothing else of the page.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from selectolax.lexbor import LexborNode

_HEADINGS = "h1, h2, h3, h4, h5, h6"
_HEADING_TAGS = frozenset(_HEADINGS.split(", "))
_WORD_TOKEN = re.compile(r"\w+")


def synopsis_rows(
    content: LexborNode, page: str, anchors: Callable[[LexborNode], list[str]]
) -> list[LexborNode]:
    """The synopsis tables of ``content`` (the page at ``page``, its path in the site), or,
    in one that holds a heading of its own (Doxygen's "Macros" heads its rows in the same
    table), their rows: every row with words links a section of the page that comes after
    the table (a heading, by the ids ``anchors`` names its place with), in the page itself
    (``#id``) or by the page's own name (gtk-doc's ``glib-Hash-Tables.html#g-hash-table-new``
    on that page), leads nowhere on the page before it, and holds no word outside its
    links that those sections lack."""
    tables = content.css("table:not(table *)")
    own = PurePosixPath(page).name
    read: _Page | None = None
    candidates: list[tuple[int, list[LexborNode]]] = []
    first_named: int | None = None  # where the first section any of them names stands
    for table in tables:
        if not any(_in_page(link, own) for link in table.css("a[href]")):
            continue
        read = read or _Page.read(content, own, anchors)  # only for a page with one
        entries = [row for row in table.css("tr") if _WORD_TOKEN.search(_text(row))]
        entries = [row for row in entries if row.css_first(_HEADINGS) is None]
        at = read.order[table.mem_id]
        named = [read.named(row, at) for row in entries]
        if not entries or not all(named):
            continue
        first = min(min(sections) for sections in named)
        first_named = first if first_named is None else min(first_named, first)
        candidates.append((at, entries if table.css_first(_HEADINGS) else [table]))
    # A synopsis stands before every entry: a table inside an entry (Doxygen's table of a
    # macro's signature, which links the macro it expands to; gtk-doc's parameters, which
    # link their types) only seems to name one.
    return [node for at, nodes in candidates if first_named and at < first_named for node in nodes]


@dataclass
class _Page:
    """What the rows of a page's tables are judged by: its name (``own``), its headings by
    the ids of their places, every element by its id or ``<a name>``, each node's place in
    document order, and each heading's section's words once read."""

    own: str
    places: dict[str, LexborNode]
    marks: dict[str, LexborNode]
    order: dict[int, int]
    words: dict[int, set[str]] = field(default_factory=dict)

    @classmethod
    def read(
        cls, content: LexborNode, own: str, anchors: Callable[[LexborNode], list[str]]
    ) -> _Page:
        marks: dict[str, LexborNode] = {}
        for node in content.css("[id], a[name]"):
            for name in (node.id, node.attributes.get("name")):
                if name:
                    marks.setdefault(str(name), node)
        return cls(
            own,
            {anchor: h for h in content.css(_HEADINGS) for anchor in anchors(h)},
            marks,
            {node.mem_id: index for index, node in enumerate(content.traverse())},
        )

    def named(self, row: LexborNode, after: int) -> list[int]:
        """Where the sections ``row`` names after position ``after`` stand, when it leads
        nowhere before it and says nothing they do not; else none. A footnote's row links
        back to its mark in the text (docutils' "[1] See Docstring Extractor below.", which
        names a section after it and says nothing that section does not)."""
        links = row.css("a[href]")
        sections: list[LexborNode] = []
        for anchor in filter(None, (_in_page(link, self.own) for link in links)):
            place = self.places.get(anchor) or self.marks.get(anchor)
            if place is not None and self.order.get(place.mem_id, -1) <= after:
                return []
            if anchor in self.places:
                sections.append(self.places[anchor])
        if not sections:
            return []
        said: set[str] = set()
        for section in sections:
            if section.mem_id not in self.words:
                self.words[section.mem_id] = _section_words(section)
            said |= self.words[section.mem_id]
        inside = {w.lower() for link in links for w in _WORD_TOKEN.findall(_text(link))}
        outside = {w.lower() for w in _WORD_TOKEN.findall(_text(row))} - inside
        return [self.order[section.mem_id] for section in sections] if outside <= said else []


def _in_page(link: LexborNode, own: str) -> str | None:
    """The id ``link`` leads to on this page (named ``own``), if it leads here."""
    href = str(link.attributes.get("href") or "")
    path, _, fragment = href.partition("#")
    if not fragment or (path and PurePosixPath(path).name != own):
        return None
    return fragment


def _section_words(heading: LexborNode) -> set[str]:
    """The words of ``heading`` and of what follows it beside it, to the next heading of
    its level or above: gtk-doc's ``div.refsect2`` holds a function's heading, its
    signature and its text; Doxygen's member heading stands beside its ``div.memitem``."""
    level = int(str(heading.tag)[1])
    texts = [_text(heading)]
    sibling = heading.next
    while sibling is not None:
        tag = str(sibling.tag)
        if tag in _HEADING_TAGS and int(tag[1]) <= level:
            break
        if tag != "-comment":
            texts.append(_text(sibling))
        sibling = sibling.next
    return {word.lower() for text in texts for word in _WORD_TOKEN.findall(text)}


def _text(node: LexborNode) -> str:
    return str(node.text(deep=True, separator=" "))
