"""A page's title block and its headings' words, as a reader reads them.

Three structures generators share make a page's headings say something else than its
title and sections, whatever the theme:

- a ``<header>`` (or ``<hgroup>``) holding two headings and nothing else, the kind of what
  the page documents above its name (gi-docgen's ``<h3>Method</h3><h1>Gsk.RoundedRect.
  intersects_rect</h1>``) or a subtitle below it: one title, which read as two headings made
  the kind the root of every path ("Method › ... › Declaration": 1,185 of the 1,196
  sections of GTK 4's GSK reference, libgtk-4-doc's ``gsk4``);
- a ``<header>`` placed as a page's banner is (beside the content, not in it), whose ``h1``
  is the page's only one and names the page as its ``<title>`` does (odoc's ``<header
  class="odoc-preamble">``, the module's name and its preamble): the page's own title and
  text, which dropped as a banner cost js_of_ocaml's reference 4,648 words;
- a bracketed link to another page at the end of a heading ("[src]", "[source]", "[edit]"):
  a control, not the heading's words (Node.js 18's "Stream[src]" headed 145 of its sections'
  titles; gi-docgen puts one after each "Declaration" and "Description").

A ``<title>`` may also name no page: Sphinx writes "<no title>" for a source that opens with
no heading (22 of the 53 pages of Black's manual, python-black-doc, whose Markdown sources
it read as text; xarray's ``api-hidden``), and every section of the page was titled by it
("<no title> › ..."). A title in angle brackets that no heading of the page shows is a
placeholder (``placeholder_title``): the page is titled by its first heading, else by its
file's name as MkDocs names a page without one (``file_title``: "getting_started.html" is
"Getting started", "contributing/index.html" is "Contributing"), not "index".

This module changes the parsed page in place before the reader finds its content; which
page a link leads to is ``nodes.page_target``'s to say. It deliberately leaves a header that
holds anything but headings (a logo, a search box, a menu), and a heading's link to a place
on its own page (a permalink) or with words after it.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from selectolax.lexbor import LexborNode

from citeline.corpus.formats.nodes import holds_no_element, page_target, word_count, written
from citeline.corpus.formats.site import TITLE_SEPARATORS

# A ``<header>`` outside every element of content: the page's banner by where it stands
# (WHATWG HTML: a header whose nearest sectioning ancestor is the body).
BANNER_HEADERS = (
    "header:not(article header):not(main header):not([role=main] header):not(section header)"
)
_HEADINGS = "h1, h2, h3, h4, h5, h6"
# A title wholly in angle brackets: Sphinx's "<no title>".
_PLACEHOLDER = re.compile(r"\A<[^<>]+>\Z")
# The names of a folder's own page (MkDocs': ``index.md``, ``README.md``).
_INDEX_NAMES = frozenset(["index", "readme"])
_WORDS = re.compile(r"\w+")
# A link's text in brackets, a word inside: "[src]", "[ edit ]"; not "[]" or "[*]".
_BRACKETED = re.compile(r"\A\[[^\[\]]*\w[^\[\]]*\]\Z")
# Steps any walk takes at most: up from a link to its heading (generators wrap such a link
# in a span or two: MediaWiki's ``span.mw-editsection`` around its brackets), or back over
# the blank text between two headings of a header.
_WALK = 8


def placeholder_title(title: str, body: LexborNode) -> bool:
    """Whether ``title`` (the ``<title>``'s words) is a generator's placeholder, no name: the
    whole of it, or of its part before a separator, in angle brackets, and no heading in
    ``body`` shows it (a reference page of an HTML element, "<video>: The Video Embed
    element", shows it in its heading)."""
    # Its first part, where no site's profile took the site's name off ("<no title> —
    # Celery 5.2.6 documentation" on a page read alone).
    placeholder = TITLE_SEPARATORS.split(title, maxsplit=1)[0].strip()
    if not _PLACEHOLDER.match(placeholder):
        return False
    return all(placeholder not in _text(heading) for heading in body.css(_HEADINGS))


def file_title(page: str) -> str:
    """The title of a page that names itself nowhere (no ``<title>`` but a placeholder, no
    heading; a Markdown page of no ``title`` and no ``h1``), by its path ``page`` in the
    site, as MkDocs' ``Page.title`` names it: the file's name less its suffix, dashes and
    underscores read as spaces, capitalized where it is all lower case ("getting-started.md"
    is "Getting started", "API_reference.md" "API reference"); the site's own index is
    "Home". One departure: MkDocs calls every other index (``index``, ``README``) "Index",
    which names nothing; here it takes its folder's name ("tutorial/arguments/index.md" is
    "Arguments"), as its address does. The title MkDocs' nav gives a page is not read:
    written for the menu, it can differ from the page's own (an earlier reading of it took
    the API name out of pages whose file name alone held it)."""
    parts = PurePosixPath(page).parts
    name = PurePosixPath(page).stem
    if name.lower() in _INDEX_NAMES:
        name = parts[-2] if len(parts) > 1 else "Home"
    name = name.replace("-", " ").replace("_", " ").strip() or name
    return name.capitalize() if name.lower() == name else name


def read_as_shown(body: LexborNode, title: str, site: str, page: str) -> None:
    """Reads ``body`` (of ``page``, titled ``title`` less the name of the ``site``, where its
    pages' titles share one) as a reader reads its title and headings: each heading without
    its bracketed link to another page, a header of headings as one title, and a
    banner-placed header naming the page as its content (not where ``title`` is empty)."""
    for heading in body.css(_HEADINGS):
        control = _bracketed_control(heading, page)
        if control is not None:
            control.decompose()
    for header in body.css("header, hgroup"):
        _join_headings(header)
    banners = [h for h in body.css(BANNER_HEADERS) if h.css_first("h1") is not None]
    # Read once: a banner's ``h1`` titles the page only where the body holds no other.
    if (
        title
        and len(banners) == 1
        and len(body.css("h1")) == 1
        and _names_the_page(banners[0], title, site, page)
    ):
        banners[0].unwrap()


def _bracketed_control(heading: LexborNode, page: str) -> LexborNode | None:
    """The bracketed link to another page that ends ``heading``, if it has one: its last link
    with a word (only links without one may follow it, permalinks), when that leads to
    another page (``page_target``) and it, or the element around it holding nothing else
    but its brackets, is in brackets, with no word after it in the heading."""
    if holds_no_element(heading):
        return None  # no link, as most headings
    link = next((a for a in reversed(heading.css("a[href]")) if written(a)), None)
    if link is None or page_target(str(link.attributes.get("href") or ""), page) is None:
        return None
    control = _bracketed(link, heading)
    if control is None or _words_after(control, heading):
        return None
    return control


def _bracketed(link: LexborNode, heading: LexborNode) -> LexborNode | None:
    """``link``, or the nearest element around it inside ``heading`` whose words are the
    link's, when its text is in brackets; else None."""
    words = word_count(link)
    node = link
    for _ in range(_WALK):
        if _BRACKETED.match(str(node.text(deep=True)).strip()):
            return node
        parent = node.parent
        if parent is None or parent.mem_id == heading.mem_id or word_count(parent) != words:
            return None
        node = parent
    return None


def _words_after(node: LexborNode, heading: LexborNode) -> bool:
    """Whether a word follows ``node`` inside ``heading``."""
    for _ in range(_WALK):
        sibling = node.next
        while sibling is not None:
            if written(sibling):
                return True
            sibling = sibling.next
        parent = node.parent
        if parent is None or parent.mem_id == heading.mem_id:
            return False
        node = parent
    return True


def _join_headings(header: LexborNode) -> None:
    """Makes the headings that open ``header`` one, the highest in rank, when two or more
    stand side by side there (``_side_by_side``) and no heading but that one names a place
    (an id): the others' words go before its own where they stand before it ("Method
    Gsk.RoundedRect.intersects_rect"), after a colon where they stand after it (a
    subtitle). What else the header holds (gi-docgen's namespace page: a description, a
    table of its version, an ``h4`` over its dependencies) stays the title's text."""
    headings = header.css(_HEADINGS)
    # (A node's ``css`` matches the node itself: a heading holding another matches twice.)
    if len(headings) < 2 or any(len(h.css(_HEADINGS)) > 1 for h in headings):
        return
    run = headings[:1]
    for heading in headings[1:]:
        if not _side_by_side(run[-1], heading):
            break
        run.append(heading)
    if len(run) < 2:
        return
    top = min(run, key=lambda heading: str(heading.tag))
    others = [h for h in run if h.mem_id != top.mem_id]
    if any(h.css_first("[id], a[name]") is not None for h in others):
        return
    at = run.index(top)
    before = " ".join(_text(h) for h in run[:at] if _text(h))
    after = ": ".join(_text(h) for h in run[at + 1 :] if _text(h))
    if before:
        first = top.child
        if first is None:
            top.insert_child(before)
        else:
            first.insert_before(f"{before} ")
    if after:
        top.insert_child(f": {after}")
    for heading in others:
        heading.decompose()


def _side_by_side(before: LexborNode, heading: LexborNode) -> bool:
    """Whether ``heading`` comes right after ``before`` in the same element (blank text and
    comments between them aside)."""
    sibling = heading.prev
    for _ in range(_WALK):
        if sibling is None:
            return False
        if sibling.mem_id == before.mem_id:
            return True
        if sibling.tag != "-comment" and (sibling.tag != "-text" or written(sibling)):
            return False
        sibling = sibling.prev
    return False


def _names_the_page(header: LexborNode, title: str, site: str, page: str) -> bool:
    """Whether the banner-placed ``header``, which holds the body's only ``h1``, holds the
    page's title: no role says it is the banner, that ``h1`` shares a word with the page's
    own part of ``title`` (before a separator) and does not name the ``site`` (its words
    are not all in the site's name, nor in a part of ``title`` after a separator: Node.js's
    "About this documentation | Node.js v18.20.4 Documentation" is no title of its
    banner's "Node.js v18.20.4 documentation"), and its words are not a link to another
    page (a banner's name of the site links its front page)."""
    if str(header.attributes.get("role") or "").strip().lower() == "banner":
        return False
    h1 = header.css_first("h1")
    if h1 is None:
        return False
    own, *rest = TITLE_SEPARATORS.split(title)
    named = _words_of(_text(h1))
    if not named & _words_of(own) or any(named <= _words_of(part) for part in [site, *rest]):
        return False
    away = [
        link
        for link in h1.css("a[href]")
        if page_target(str(link.attributes.get("href") or ""), page) is not None
    ]
    return sum(word_count(link) for link in away) < word_count(h1)


def _words_of(text: str) -> set[str]:
    return {word.lower() for word in _WORDS.findall(text)}


def _text(node: LexborNode) -> str:
    return " ".join(str(node.text(deep=True)).split())
