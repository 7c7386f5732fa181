"""A page's place in its site's reading order, and the bar of links to its neighbours that
closes its content.

Generators that lay a site out as a book link each page to the one before it and the one
after it, and declare those neighbours in the page's head with HTML's link types (``<link
rel="prev" href>``, ``<link rel="next" href>``; or ``rel`` on an ``<a>``); their themes close
the content with a bar of the same links ("previous / Integration (scipy.integrate) / next /
Interpolation (scipy.interpolate)"). Read as text, that bar ended the last section of every
page with the titles of two other pages: 3,861 of SciPy 1.10's 5,546 sections (the PyData
theme), 281 of Groonga 13's (15 of them nothing but the bar); now none. A page that declares
no neighbours may open with a bar of links instead (groff's HTML output, "[ prev | next | top
]", and YODL's list of three in the Z Shell FAQ, which the reader finds before the first
heading): a bar at the end that links exactly the same pages is that navigation again (23
of groff's pages, 6 of the FAQ's).

This module only finds such bars; dropping them is the reader's. It deliberately judges
nothing but what closes the content, and keeps any list there that links other pages than
the neighbours, or not all of them (a chapter's list of its pages, a "See also" that names
the next page among others, a section's one link to the page after it on a page with a
page before it).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from selectolax.lexbor import LexborHTMLParser, LexborNode

from citeline.corpus.formats.nodes import page_target, word_count, written

# The link types that name the pages before and after this one in the site's order (HTML
# 4.01's ``prev`` and ``next``, and ``previous``, which browsers read as ``prev``): a closing
# bar links every one of them the page declares.
_SEQUENCE_TYPES = frozenset(["prev", "previous", "next"])
# The link types of pages a bar may link beside them: the book's start, its contents and its
# index (HTML 4.01), the part above (``up``, texi2html's and Texinfo's), its first and last.
_COMPANION_TYPES = frozenset(["start", "contents", "index", "up", "first", "last", "top"])
# The elements a line of links loose in its parent is made of (WHATWG HTML's phrasing content
# that a bar holds): a run of text and these between two blocks is one line.
_PHRASING = frozenset(
    [
        "a",
        "abbr",
        "b",
        "big",
        "cite",
        "code",
        "em",
        "font",
        "i",
        "img",
        "kbd",
        "mark",
        "q",
        "s",
        "samp",
        "small",
        "span",
        "strong",
        "sub",
        "sup",
        "tt",
        "u",
        "var",
        "wbr",
    ]
)
_HEADINGS = "h1, h2, h3, h4, h5, h6"
# The most siblings a loose line holds each way from where it is read: groff's bar is seven
# ("[ ", a link, " | ", a link, " | ", a link, " ]").
_RUN = 64
# Steps any walk takes at most: into the content's last element with a word (generators put
# the bar at most a few elements inside the content: the PyData theme's beside the article),
# and back over the pieces that close one element.
_WALK = 8


@dataclass(frozen=True, slots=True)
class Neighbours:
    """The pages a page links as its neighbours (each as ``nodes.page_target`` gives it):
    those before and after it (``sequence``), which a closing bar links every one of, and the
    pages such a bar may link beside them (``companions``)."""

    sequence: frozenset[str] = frozenset()
    companions: frozenset[str] = frozenset()


def declared(tree: LexborHTMLParser, page: str) -> Neighbours:
    """The neighbours ``page`` declares, in its head or on its links (``rel``)."""
    sequence: set[str] = set()
    companions: set[str] = set()
    for link in tree.css("link[rel][href], a[rel][href]"):
        types = set(str(link.attributes.get("rel") or "").lower().split())
        found = page_target(str(link.attributes.get("href") or ""), page)
        if found is None:
            continue
        if types & _SEQUENCE_TYPES:
            sequence.add(found)
        elif types & _COMPANION_TYPES:
            companions.add(found)
    return Neighbours(frozenset(sequence), frozenset(companions))


def with_opening_bars(neighbours: Neighbours, bars: Iterable[LexborNode], page: str) -> Neighbours:
    """``neighbours`` with the pages that the bars opening the page link (``bars``, found
    by the reader): where the page declares no neighbours, a closing bar must link exactly
    those; where it does, a closing bar may link them beside its neighbours."""
    linked = _targets(_links(list(bars)), page)
    if neighbours.sequence:
        return Neighbours(neighbours.sequence, neighbours.companions | linked)
    return Neighbours(linked, neighbours.companions)


def loose_line(node: LexborNode) -> list[LexborNode]:
    """The line ``node`` is part of when it is text or phrasing loose in its parent: the run
    of text and phrasing siblings around it, between blocks, in document order (at most
    ``_RUN`` of them each way); none when ``node`` is a block."""
    if not _phrasing(node):
        return []
    before: list[LexborNode] = []
    sibling = node.prev
    while sibling is not None and _phrasing(sibling) and len(before) < _RUN:
        before.append(sibling)
        sibling = sibling.prev
    after: list[LexborNode] = []
    sibling = node.next
    while sibling is not None and _phrasing(sibling) and len(after) < _RUN:
        after.append(sibling)
        sibling = sibling.next
    return [*reversed(before), node, *after]


def closing_bars(content: LexborNode, neighbours: Neighbours, page: str) -> list[LexborNode]:
    """The bars that close ``content`` (``page``'s): the pieces last in it, an element each
    or a loose line (``loose_line``), past blank text, comments and elements without a word,
    that hold nothing but links to ``neighbours`` (no heading, no more words outside their
    links than links: a label each, "Next: X") and together link every page before and after
    it. Where its last element with a word is no such piece, that element is read the same
    way, at most ``_WALK`` levels down."""
    if not neighbours.sequence:
        return []
    allowed = neighbours.sequence | neighbours.companions
    node = content
    for _ in range(_WALK):
        pieces, linked = _closing_pieces(node, allowed, page)
        if pieces:
            return pieces if neighbours.sequence <= linked else []
        last = _last_written(node)
        if last is None or _phrasing(last):
            return []
        node = last
    return []


def _closing_pieces(
    node: LexborNode, allowed: frozenset[str], page: str
) -> tuple[list[LexborNode], set[str]]:
    """The bars that close ``node`` (see ``closing_bars``) and the pages they link."""
    pieces: list[LexborNode] = []
    linked: set[str] = set()
    child = node.last_child
    for _ in range(_WALK):
        while child is not None and not written(child):
            child = child.prev
        if child is None:
            break
        piece = loose_line(child) or [child]
        links = _links(piece)
        found = [page_target(str(link.attributes.get("href") or ""), page) for link in links]
        if (
            not links
            or any(page_ is None or page_ not in allowed for page_ in found)
            or any(n.tag != "-text" and n.css_first(_HEADINGS) is not None for n in piece)
            or sum(map(word_count, piece)) - sum(map(word_count, links)) > len(links)
        ):
            break
        pieces.extend(piece)
        linked.update(page_ for page_ in found if page_ is not None)
        child = piece[0].prev
    return pieces, linked


def _last_written(node: LexborNode) -> LexborNode | None:
    """``node``'s last child with a word."""
    child = node.last_child
    while child is not None and not written(child):
        child = child.prev
    return child


def _phrasing(node: LexborNode) -> bool:
    return node.tag == "-text" or node.tag in _PHRASING


def _links(nodes: list[LexborNode]) -> list[LexborNode]:
    """The links in ``nodes`` (each one's own too), in document order."""
    return [link for node in nodes if node.tag != "-text" for link in node.css("a[href]")]


def _targets(links: list[LexborNode], page: str) -> frozenset[str]:
    found = (page_target(str(link.attributes.get("href") or ""), page) for link in links)
    return frozenset(page_ for page_ in found if page_ is not None)
