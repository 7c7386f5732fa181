"""A DocBook title page read as its title and its content, not as a list of credits.

DocBook XSL (and Publican, which builds on it) opens a book, an article or a part with a
``<div class="titlepage">``: the title (``h1.title``), a subtitle, then the credits, each
author's name as a heading of its own (``div.author > h3.author``, in a ``div.authorgroup``
when there are several; ``h3.editor``, ``h3.othercredit``, ``h3.corpauthor`` alike), the
release, the copyright lines and the legal notice, and last, where there is one, the
abstract (inside the title page, or after the table of contents beside it). Read as it
stands, every name started a section: "bzip2 and libbzip2, version 1.0.8 › A program and
library for data compression › Julian Seward", whose text was his address, the release,
the copyright and the licence; xtrans's three authors were three sections of their
affiliations, and the first section of each of libxslt's two tutorials and libsigc++'s was
its author's, holding the abstract: 7 sections titled by a name in the 5 books surveyed
(bzip2, xtrans-dev, libxslt1-dev, libsigc++-3.0-doc), now none.

This module, inside each title page, drops the credits (names and affiliations: no text a
reader searches the book for), reads a subtitle heading as the first line of the title's
section, and moves the release, copyright and legal notice to the end of that section,
after the abstract and whatever else the book says before its first part, so that the
section opens with what the book is about. It deliberately leaves a title page's title, and
everything outside title pages (a chapter's author line in its text, a colophon's credits).
"""

from __future__ import annotations

from selectolax.lexbor import LexborHTMLParser, LexborNode

_HEADINGS = "h1, h2, h3, h4, h5, h6"
# The credits of a title page, by DocBook XSL's classes for its ``author``, ``authorgroup``,
# ``editor``, ``othercredit``, ``corpauthor`` and ``collab`` elements: the name's heading,
# or the block around it with the affiliation and address.
_CREDITS = ", ".join(
    f"div.titlepage {tag}.{kind}"
    for kind in ("authorgroup", "author", "editor", "othercredit", "corpauthor", "collab")
    for tag in ("div", "h3", "span")
)
# What the book's publication says, moved after its content: DocBook XSL's ``releaseinfo``,
# ``pubdate``, ``copyright``, ``legalnotice`` and ``revhistory``.
_PUBLICATION = "p.releaseinfo, p.pubdate, p.copyright, div.legalnotice, div.revhistory, p.edition"
# How many elements after a title page are passed looking for the first that holds a
# heading (a book's first chapter): its table of contents, an abstract, a dedication.
_WALK = 16


def read_title_pages(content: LexborNode) -> None:
    """Reads each title page in ``content`` as its title and content (see the module)."""
    for page in content.css("div.titlepage:not(div.titlepage *)"):
        for credit in page.css(_CREDITS):
            if credit.parent is not None:  # not gone with a block around it
                credit.decompose()
        for subtitle in page.css(":is(h2, h3, h4, h5, h6).subtitle"):
            _as_paragraph(subtitle)
        _move_after_content(page, page.css(_PUBLICATION))


def _as_paragraph(heading: LexborNode) -> None:
    """Puts a paragraph of ``heading``'s words in its place."""
    words = " ".join(str(heading.text(deep=True)).split())
    paragraph = LexborHTMLParser("<p></p>").css_first("p")
    if paragraph is None:
        return
    if words:
        paragraph.insert_child(words)
        heading.insert_before(paragraph)
    heading.decompose()


def _move_after_content(page: LexborNode, blocks: list[LexborNode]) -> None:
    """Moves ``blocks`` (outermost only) after the last element that follows ``page``
    before one that holds a heading, else to the end of ``page``."""
    inner = {  # a block's ``css`` finds the block itself too
        node.mem_id
        for block in blocks
        for node in block.css(_PUBLICATION)
        if node.mem_id != block.mem_id
    }
    outermost = [block for block in blocks if block.mem_id not in inner]
    if not outermost:
        return
    last = _last_before_heading(page)
    for block in reversed(outermost):
        if last is None:
            page.insert_child(block)
        else:
            last.insert_after(block)
        block.decompose()


def _last_before_heading(page: LexborNode) -> LexborNode | None:
    """The last element after ``page`` before one that holds a heading, and holding none
    itself; None where the next element holds one, or none follows."""
    last = None
    sibling = page.next
    for _ in range(_WALK):
        if sibling is None:
            return last
        if sibling.tag not in {"-text", "-comment"}:
            if sibling.tag in _HEADINGS.split(", ") or sibling.css_first(_HEADINGS) is not None:
                return last
            last = sibling
        sibling = sibling.next
    return None
