"""Small readings of a parsed page's nodes that the HTML reader's parts share: whether a
node holds a word, how many it holds, which page a link leads to, which elements are
blocks; and the one change they share, a permalink dropped.

It deliberately reads nothing but the node it is given.
"""

from __future__ import annotations

import posixpath
import re
from functools import lru_cache
from urllib.parse import urlsplit, urlunsplit

from selectolax.lexbor import LexborNode

_WORD = re.compile(r"\w")
# A word as a reader counts it: a run of non-space holding a letter or digit.
_WORD_TOKEN = re.compile(r"\S*\w\S*")
# The schemes of an address that leads to a page (``javascript:``, ``mailto:`` lead to none).
_PAGE_SCHEMES = frozenset(["http", "https"])
# The elements a browser shows as blocks (a table's rows and cells among them): their
# boundaries separate the text around them, where inline elements run on.
BLOCK_TAGS = frozenset(
    [
        "address",
        "article",
        "aside",
        "blockquote",
        "dd",
        "details",
        "div",
        "dl",
        "dt",
        "figcaption",
        "figure",
        "footer",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hr",
        "li",
        "main",
        "ol",
        "p",
        "pre",
        "section",
        "summary",
        "table",
        "td",
        "th",
        "tr",
        "ul",
    ]
)


def written(node: LexborNode) -> bool:
    """Whether ``node`` (an element or a text node) holds a word; a comment holds none."""
    if node.tag == "-comment":
        return False
    text = node.text_content if node.tag == "-text" else node.text(deep=True)
    return _WORD.search(str(text or "")) is not None


def holds_no_element(node: LexborNode) -> bool:
    """Whether ``node`` holds text alone, or nothing: a CSS query inside it finds no element
    but ``node`` itself (lexbor matches a node against its own query). selectolax parses a
    query anew at each call (1.4 to 2.4 us); a page of 20,000 one-line sections asked
    240,000 of its headings and paragraphs (their anchors, permalinks and links, whether
    each is a navigation bar), 0.2 s of the 2.1 s of CPU its ingest took, before each was
    first asked this (0.08 us)."""
    return next(node.iter(), None) is None


def words_in(text: str) -> int:
    """How many words ``text`` holds."""
    return len(_WORD_TOKEN.findall(text))


def word_count(node: LexborNode) -> int:
    """How many words ``node`` holds, its text nodes each counted apart (so that a list's
    items, or a bar's cells, are not run together)."""
    if node.tag == "-comment":
        return 0
    if node.tag == "-text":
        return words_in(str(node.text_content or ""))
    return words_in(str(node.text(deep=True, separator=" ")))


# A page's links repeat their addresses (a bar's, a menu's on every page of a site): each
# is resolved once.
@lru_cache(maxsize=4096)
def page_target(href: str, page: str) -> str | None:
    """The page ``href`` leads to from ``page`` (its path in the site): the path resolved
    against ``page``'s folder, or a web address as written, without a place on the page or
    a query; None for a place on ``page`` itself, an address of no page (``javascript:``,
    ``mailto:``) or one that cannot be read."""
    try:
        parts = urlsplit(href.strip())
    except ValueError:
        return None
    if parts.scheme and parts.scheme.lower() not in _PAGE_SCHEMES:
        return None
    if parts.scheme or parts.netloc:
        return urlunsplit((parts.scheme.lower(), parts.netloc, parts.path, "", ""))
    if not parts.path:
        return None  # "#id" or "?query": this page
    found = posixpath.normpath(posixpath.join(posixpath.dirname(page), parts.path))
    return None if found == posixpath.normpath(page) else found


def drop_permalink(link: LexborNode) -> None:
    """Drops the permalink ``link``; one that bears an id (Node.js' "#") keeps it, emptied,
    where it names the place."""
    if link.id:
        for child in list(link.iter(include_text=True)):
            child.decompose()
        del link.attrs["href"]
    else:
        link.decompose()
