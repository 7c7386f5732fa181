"""A built site's pages read into the sections a reader who follows a link sees, apart from
citeline's ingest, by the generator that built them.

One reading for every generator: the text of the element that holds the page's own text,
cut before each place a link can name (a heading, a glossary term) into a section from there
to the next, under the anchor the link uses. A heading no link can name (MkDocs's home page's,
a manual page's NAME) is no place to cut: its text stays in the section before it. The
page's own address (``""``) holds its opening, from the top through the first section. What
differs by generator is only where the text is and where the anchor is (``LAYOUTS``).

Permalinks (Sphinx's ``¶``) are dropped, and text reads as a browser lays it out: a block
apart from its neighbours, inline elements run on (``_BLOCKS``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from selectolax.lexbor import LexborHTMLParser, LexborNode

_MARK = re.compile(r"\x00(\d+)\x00")
_HEADINGS = "h1, h2, h3, h4, h5, h6"
# The elements a browser lays out as blocks (or cells, or line breaks): their text is apart
# from what is beside them. Everything else is inline and reads on as the page shows it, so
# that ``<code>Session</code>-level`` and a signature of a ``<span>`` a token
# (``requests.get(url, params=None)``) read as written.
_BLOCKS = (
    f"{_HEADINGS}, address, article, aside, blockquote, br, caption, dd, details, div, dl, dt, "
    "figcaption, figure, footer, header, hr, li, main, nav, ol, p, pre, section, summary, "
    "table, td, th, tr, ul"
)


def _own_id(node: LexborNode) -> str | None:
    return str(node.id) if node.id else None


def _sphinx_anchor(node: LexborNode) -> str | None:
    # Sphinx puts a section's id on its <section> (docutils' HTML5 writer) or on its
    # <div class="section"> (the older one), not on the heading; a glossary term has its own.
    if node.id:
        return str(node.id)
    parent = node.parent
    if parent is not None and parent.id:
        classes = str(parent.attributes.get("class") or "").split()
        if parent.tag == "section" or (parent.tag == "div" and "section" in classes):
            return str(parent.id)
    return None


def _docbook_anchor(node: LexborNode) -> str | None:
    # AsciiDoc puts the id on the heading (or an element in it), DocBook an <a name> in it.
    if node.id:
        return str(node.id)
    for selector, attribute in (("[id]", "id"), ("a[name]", "name")):
        marker = node.css_first(selector)
        if marker is not None and marker.attributes.get(attribute):
            return str(marker.attributes[attribute])
    return None


def _last_anchor(node: LexborNode) -> str | None:
    # DocBook XSL's XHTML writes a heading's anchor as ``<a id="_links"/>``; read as HTML,
    # that <a> is left open, and the parser copies it into what follows, so a later heading
    # can hold a copy of the one before's anchor ahead of its own. Its own is the last; the
    # copy's id names the earlier heading, where a browser scrolls.
    marked = node.css("[id]")
    return str(marked[-1].id) if marked else None


# The classes texi2any gives the <div> of a node, whose id is the node's (and the section's)
# address: ``R-intro.html#Missing-values``.
_TEXINFO_NODES = frozenset(
    {
        "top",
        "chapter",
        "section",
        "subsection",
        "subsubsection",
        "unnumbered",
        "unnumberedsec",
        "unnumberedsubsec",
        "unnumberedsubsubsec",
        "appendix",
        "appendixsec",
        "appendixsection",
        "appendixsubsec",
        "appendixsubsubsec",
    }
)


def _texinfo_anchor(node: LexborNode) -> str | None:
    # A node's heading is named by the node's <div id>; a heading that is no node's (an
    # @subheading, "Examples" in R-intro.html) by the empty <span id> texi2any puts before it.
    parent = node.parent
    own = set(str(node.attributes.get("class") or "").split())
    if own & _TEXINFO_NODES and parent is not None and parent.tag == "div" and parent.id:
        return str(parent.id)
    before = node.prev
    while before is not None and before.tag == "-text" and not (before.text() or "").strip():
        before = before.prev
    if before is not None and before.tag == "span" and before.id:
        return str(before.id)
    return None


def _node_doc_anchor(node: LexborNode) -> str | None:
    # Node's tools/doc puts a heading's id on the "#" permalink inside it (``<a class="mark"
    # id="pathjoinpaths">``), the old one on an empty ``<a class="legacy">`` after it.
    mark = node.css_first("a.mark[id]")
    return str(mark.id) if mark is not None else _own_id(node)


@dataclass(frozen=True, slots=True)
class Layout:
    """Where one generator puts a page's text and its sections' anchors: ``content`` selects
    the element holding the text, ``places`` the elements a link can name, and ``anchor``
    reads the name. ``opening`` is False where the page's own address is no section of it.
    ``chrome`` selects what is in ``content`` but no section's text (navigation, a table of
    contents, footnotes), dropped before the page is read."""

    content: str
    places: str
    anchor: Callable[[LexborNode], str | None]
    opening: bool = True
    chrome: str = ""


LAYOUTS: dict[str, Layout] = {
    # The text in <div role="main"> (every Sphinx theme here: alabaster, sphinx13, Flask's);
    # a glossary's terms are places of their own (``glossary.html#term-role``).
    "sphinx": Layout('div[role="main"]', f"{_HEADINGS}, dl.glossary > dt[id]", _sphinx_anchor),
    # The whole body (a manual page has no content element); a glossary's anchored term
    # (``gitglossary.html#def_index``) is a place. The git set's gold names sections only,
    # and was written against a reading without the page's opening.
    "asciidoc": Layout("body", f"{_HEADINGS}, dt:has(> a[id])", _docbook_anchor, opening=False),
    # A chapter's text is in <main>; the sidebar, menu bar and navigation are outside it.
    "mdbook": Layout("main", _HEADINGS, _own_id),
    # The mkdocs theme's <div class="col-md-9" role="main">; the navigation bar, the table of
    # contents and the search and keyboard dialogs are outside it.
    "mkdocs": Layout('div[role="main"]', _HEADINGS, _own_id),
    # GNU Texinfo's texi2any (6.8; the R manuals, one page per manual): the whole body, cut at
    # every heading. Each node's navigation line ("Next: … Previous: … Up: …"), the list of its
    # subsections that ends it, the table of contents and the page's footnotes are chrome.
    "texinfo-html": Layout(
        "body",
        _HEADINGS,
        _texinfo_anchor,
        chrome="div.header, ul.section-toc, div.Contents_element, div.footnote",
    ),
    # Exim's website scripts (the DocBook that xfpt writes, through XSLT): a chapter's text is
    # in <div id="chapter">, its sections <h3 id="SECID147">; a contents page's in <div
    # id="index">. The menu bar, the previous/next links and the footer are outside both.
    "xfpt": Layout("#chapter, #index", _HEADINGS, _own_id),
    # DocBook XSL's chunked HTML (the Debian Reference, a chapter a page): the whole body, cut
    # at every heading, each named by the <a id> in it (``ch01.en.html#_links``). The
    # navigation header and footer and a chapter's table of contents are chrome.
    "docbook": Layout(
        "body", _HEADINGS, _last_anchor, chrome="div.navheader, div.navfooter, div.toc"
    ),
    # Node.js's own doc generator (tools/doc, a module a page): the text is in <div
    # id="apicontent">; the header (version picker, index, "Options") and the page's table
    # of contents are outside it. The "#" permalink in each heading names its section.
    "node-doc": Layout("#apicontent", _HEADINGS, _node_doc_anchor),
}


def _plain(text: str) -> str:
    return " ".join(text.split())


@cache
def page_sections(page: Path, generator: str) -> dict[str, str]:
    """The sections of the built page at ``page``, by the anchor a link to each uses."""
    layout = LAYOUTS[generator]
    content = LexborHTMLParser(page.read_text(encoding="utf-8")).css_first(layout.content)
    assert content is not None, (page, layout.content)
    for permalink in content.css("a.headerlink"):
        permalink.decompose()
    for chrome in content.css(layout.chrome) if layout.chrome else []:
        chrome.decompose()
    for block in content.css(_BLOCKS):
        block.insert_before("\n")
        block.insert_after("\n")
    anchors: list[str] = []
    for place in content.css(layout.places):
        anchor = layout.anchor(place)
        if anchor is None and (anchors or not layout.opening):
            continue
        place.insert_before(f"\x00{len(anchors)}\x00")
        anchors.append(anchor or "")
    parts = _MARK.split(str(content.text(separator="")))
    sections: dict[str, str] = {}
    if layout.opening and len(parts) == 1:
        sections[""] = _plain(parts[0])
    for index in range(1, len(parts), 2):
        number, text = int(parts[index]), _plain(parts[index + 1])
        if number == 0 and layout.opening:
            sections[""] = _plain(f"{parts[0]} {text}")
        if anchors[number]:
            sections.setdefault(anchors[number], text)
    return sections


def page_file(folder: Path, base_url: str, url: str) -> tuple[Path, str]:
    """The file under ``folder`` that serves ``url`` and the anchor it names (``""`` for
    none), as a web server answers: a folder's address is its ``index.html``."""
    page, _, anchor = url.removeprefix(base_url).partition("#")
    if page == "" or page.endswith("/"):
        page += "index.html"
    return folder / page, anchor


def site_sections(folder: Path, base_url: str, generator: str) -> Callable[[str], str | None]:
    """The text of the section each address of the site built under ``folder`` names, or
    None where no page or no section of it is there."""

    def section(url: str) -> str | None:
        page, anchor = page_file(folder, base_url, url)
        return page_sections(page, generator).get(anchor) if page.is_file() else None

    return section
