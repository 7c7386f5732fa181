"""A Markdown page's lists of links, found by their structure, and when a section loses them.

A list of links is a list each of whose items is nothing but links (and lists of links):
a table of contents, a Markdown tree's index page ("- [Installation](install.md)", nested
or not), a chapter's list of its pages. A list whose items say anything beside their links
("[Baseline](baseline.md): record the failures you are not fixing yet") is text. Where a
section holds a list of links to the tree's own pages or places, its lists of links and its
paragraphs of nothing but links go when they are all its body holds (a heading over a table
of contents: the section goes), or when the section is a list of links by the measure the
HTML reader drops one by (``link_lists``: an index page's intro stays, its list goes); a
page of nothing else is a page of links (mdBook's ``SUMMARY.md``, its chapters in lists
between a prefix and a suffix chapter each a paragraph of one link). Node.js's Markdown sources
open ``BUILDING.md``, ``README.md`` and ``GOVERNANCE.md`` with a table of contents of their
own sections (48, 16 and 11 links), and its ``api/index.md`` is a list of 62 pages: read
as text, each named every section it points at. A list of links in a section of text stays:
Hatch's order in which overrides apply (four links to its sections) and the extensions
Python-Markdown Extra bundles (seven pages) are what their sentences say. A section whose
lists lead only off the tree is a reading list (Starlette's "Further reading" of two
articles, Hatch's standalone binaries to download), the only place that names them: it
stays. The text of the items (``markdown``) is read apart: this module knows only the
tokens' structure.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from markdown_it.token import Token

from citeline.corpus.formats.link_lists import a_link_list

_LISTS_OPEN = frozenset(["bullet_list_open", "ordered_list_open"])
_LISTS_CLOSE = frozenset(["bullet_list_close", "ordered_list_close"])
# What, inside a list, is text whatever it holds; a paragraph (``inline``) and an HTML block
# are read by the caller's ``bare_links``.
_TEXT_BLOCKS = frozenset(["heading_open", "fence", "code_block", "table_open"])
_WORDS = re.compile(r"\w+")


class Links(NamedTuple):
    """The links one paragraph or list holds: to the tree's own pages or places, and off it."""

    own: int
    off: int


class LinkList(NamedTuple):
    """A list of links: the index of the token that closes it and the links it holds."""

    end: int
    links: Links


@dataclass(frozen=True)
class PageLinks:
    """A page's lists of links, by the index of the token that opens each (the outermost
    first), and its link lines: paragraphs outside any list that are nothing but links
    (mdBook's prefix and suffix chapters, ``[Introduction](README.md)``), by the index of
    their inline token."""

    lists: dict[int, LinkList]
    lines: frozenset[int]


def link_lists(tokens: Sequence[Token], bare_links: Callable[[Token], Links | None]) -> PageLinks:
    """The lists of links and link lines among ``tokens``. ``bare_links`` says how many
    links a paragraph or HTML block holds when it is nothing but links, else None. One
    pass, each token once: a list is known to be one at its close."""
    found: dict[int, LinkList] = {}
    lines: set[int] = set()
    # Per open list: where it opened, its own links, its links off the tree, whether bare.
    open_: list[list[int]] = []
    for index, token in enumerate(tokens):
        if token.type in _LISTS_OPEN:
            open_.append([index, 0, 0, 1])
            continue
        if token.type in _LISTS_CLOSE and open_:
            opened, own, off, bare = open_.pop()
            if bare and own + off:
                found[opened] = LinkList(index, Links(own, off))
            if open_:
                open_[-1][1] += own
                open_[-1][2] += off
            continue
        if not open_:
            paragraph = token.type == "inline" and tokens[index - 1].type == "paragraph_open"
            if paragraph and bare_links(token) is not None:
                lines.add(index)
            continue
        if token.type in _TEXT_BLOCKS:
            held = None
        elif token.type in {"inline", "html_block"}:
            held = bare_links(token)
        else:
            continue
        if held is None:
            # Every list open around it holds it, so none of them is a list of links:
            # marked from the innermost out up to one already marked, which was marked
            # with all those around it, so that each list is marked once.
            for state in reversed(open_):
                if not state[3]:
                    break
                state[3] = 0
        else:
            open_[-1][1] += held.own
            open_[-1][2] += held.off
    return PageLinks(found, frozenset(lines))


@dataclass
class SectionLists:
    """The lists of links and link lines of the section being read: which of its parts (its
    lines of text, the heading first when it has one) they are, their links, and whether a
    list leads only to the tree's own pages; and, for the page, whether it holds such a list
    and whether every section read so far held nothing else."""

    listed: set[int] = field(default_factory=set)
    links: int = 0
    own: bool = False
    headed: bool = False
    page_own: bool = False
    only_links: bool = True
    _start: int = 0  # where the list being read started, among the parts
    _end: int = -1  # the token that closes it

    def open_section(self, *, headed: bool) -> None:
        self.listed, self.links, self.own, self.headed = set(), 0, False, headed

    def read(self, index: int, found: PageLinks, parts: int) -> None:
        """Note token ``index``, read when the section has ``parts`` parts: a list of links
        opens (one outside any other), the one open closes, its parts written, or a link
        line is about to be written."""
        if index > self._end and index in found.lists:
            self._start, (self._end, links) = parts, found.lists[index]
            self.links += links.own + links.off
            self.own = self.own or not links.off
            self.page_own = self.page_own or self.own
        elif index == self._end:
            self.listed.update(range(self._start, parts))
        elif index in found.lines:
            self.listed.add(parts)

    def shown(self, parts: list[str]) -> list[str]:
        """``parts``, the section's, less its lists of links and link lines where they are
        no text of it (the module's rule)."""
        body = [part for at, part in enumerate(parts) if at not in self.listed]
        rest = body[1:] if self.headed else body
        if any(part.strip() for part in rest):
            self.only_links = False
            if not self.own:
                return parts
            inside = sum(len(_WORDS.findall(parts[at])) for at in self.listed)
            words = inside + sum(len(_WORDS.findall(part)) for part in rest)
            if not a_link_list(words, inside, self.links):
                return parts
        return body if self.own else parts

    @property
    def page_of_links(self) -> bool:
        """Whether the page, every section read, held nothing but links, some of them a
        list of links to the tree's own pages: its link lines go too (mdBook's
        ``SUMMARY.md``)."""
        return self.page_own and self.only_links
