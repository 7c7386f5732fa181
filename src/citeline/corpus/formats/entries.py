"""API entries written without a heading: an anchored block that opens with its signature.

Some reference generators give each entry of a page no ``h*`` element: RDoc writes a
method as ``<div class="method-detail" id="method-i-add">`` whose first child is its
signature line (``<div class="method-heading">``: the name, the arguments), then its
description and its source. Read by headings alone, each method was text of the heading
before it: RubyMail's "Public Instance Methods" was one section of 24,392 characters, found
for any word of any of its 63 methods and cited at none of their addresses. Such an entry
is a section of its own, titled by its signature line, at its block's id, as an entry
whose generator writes its signature as a heading already is (YARD's ``h3.signature``,
gtk-doc's and Doxygen's member headings).

An entry is found by its structure alone: a block with an id, holding no heading, whose
first child is one line of inline text that reads as a signature (a name called or
indexed, ``add(name, value)``, ``fields[RW]``, or a return arrow) and is no sentence,
with words after it, or a line that holds the block's own permalink (``SELF_LINKED``:
Crystal's ``def clear : Nil #``, of which 6,636 entries with text of their own were one
"Instance Method Detail" section each page, none at its own id), with prose after it; the
page links to its id (RDoc's list of methods), or an entry of the
same shape stands beside it. A block that opens with a caption (a code block's file name,
an admonition's "Note") opens with no signature. A part most entries' lines repeat, of
plain words (RDoc's "click to toggle source", which a script shows as the pointer rests
on the line), is the generator's label, no part of any name: it is left out (``labels``).
A page of one entry has no other to compare it with, and keeps it (6 of the 30 RDoc class
pages measured).

This module only finds such entries in a page the HTML reader has cleared of chrome; how
the page is cut into sections, and what a line's text is, is the reader's to say.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from selectolax.lexbor import LexborNode

from citeline.corpus.formats.nodes import word_count, words_in

_HEADINGS = "h1, h2, h3, h4, h5, h6"
# The blocks that hold an entry (RDoc's ``div``), and the blocks its signature line may be.
# A list's item is a step of the list, whatever it opens with: docutils' runtime settings
# page names a call atop the item that says what it does.
_ENTRY_TAGS = frozenset(["div", "section", "article"])
_LINE_TAGS = frozenset(["div", "p"])
# What a line of one line holds none of: a block of its own.
_BLOCKS = (
    "address, blockquote, dd, div, dl, dt, figure, h1, h2, h3, h4, h5, h6, hr, li, ol, p, "
    "pre, section, table, ul"
)
# What reads as a signature: a line that opens with a name called, ``add(name)``,
# ``==(other)``, ``valid?()`` (no space before the bracket, as code writes it), or indexed,
# ``fields[RW]``, or with a name and its block or return arrow (RDoc's call-seq ``str.upcase
# → new_str``, YARD's ``⇒``). Measured over the RDoc entries of six Debian packages
# (RubyMail, benchmark-ips, UUIDTools, Rinku, Settingslogic, http_parser.rb): 301 of 301
# signature lines. A caption that names a call after its words is none: CMake's guide
# titles a code block "Examples of find_package() basic signature".
_SIGNATURE = re.compile(r"\A\S*[^\s(\[{][(\[]|\A\S+\s*(?:[{→⇒]|->)")
# A line ending so is a sentence or a caption, no signature.
_SENTENCE_END = re.compile(r"[.!?:;,]\s*$")
# The most words a signature line holds: the longest of those 301 holds 15 (a call-seq of
# four arguments and a block, its label included); a paragraph is longer.
_SIGNATURE_WORDS = 40
# The fewest entries of one shape side by side that make an entry whose id no link reaches
# (RDoc lists a class's methods in its menu, not its attributes: 35 of the 301 entries).
_SIDE_BY_SIDE = 2
# The attribute the HTML reader sets on the line of a block that held the block's own
# permalink (its "#", "¶"): that line names the place, a signature whatever its words.
SELF_LINKED = "data-citeline-self-linked"
# The fewest entries whose lines repeat a part before it is read as a label, and the fewest
# words of such a label, each of letters alone: "[RW]", an attribute's access, is a part of
# its signature.
_LABELLED_ENTRIES = 2
_LABEL_WORDS = 2
_PLAIN_WORD = re.compile(r"[^\W\d_]+")
# Steps a walk up the tree takes at most (the HTML reader's bound): a hostile page of
# thousands of nested entries costs as many short walks.
_WALK = 8


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry of a page: its block (``element``), its signature line (``line``) and the
    id of its place (``anchor``)."""

    element: LexborNode
    line: LexborNode
    anchor: str


@dataclass(frozen=True, slots=True)
class Entries:
    """The entries of a page, in document order, and the labels their lines repeat."""

    entries: list[Entry]
    labels: list[LexborNode]


def signature_entries(content: LexborNode, linked: frozenset[str]) -> Entries:
    """The entries of ``content`` (see the module's docstring); ``linked`` holds the ids the
    page links to."""
    found: list[Entry] = []
    for node in content.css("[id]:not(pre *)"):
        line = _signature_line(node)
        if line is not None:
            found.append(Entry(node, line, str(node.id)))
    # A block holding another such block, at most ``_WALK`` steps up, is a wrapper of
    # entries, none itself.
    holders: set[int] = set()
    for entry in found:
        parent = entry.element.parent
        for _ in range(_WALK):
            if parent is None:
                break
            holders.add(parent.mem_id)
            parent = parent.parent
    found = [entry for entry in found if entry.element.mem_id not in holders]
    shapes = Counter(_shape(entry) for entry in found)
    entries = [
        entry for entry in found if entry.anchor in linked or shapes[_shape(entry)] >= _SIDE_BY_SIDE
    ]
    return Entries(entries, _labels(entries))


def _signature_line(node: LexborNode) -> LexborNode | None:
    """The signature line ``node`` opens with, when it is an entry's block (no heading in
    it, its first child a signature line, words after it); else None."""
    if node.tag not in _ENTRY_TAGS:
        return None
    line = _first_child(node)
    if line is None or line.tag not in _LINE_TAGS:
        return None
    # (lexbor's ``css`` matches the node itself too)
    if any(block.mem_id != line.mem_id for block in line.css(_BLOCKS)):
        return None
    text = " ".join(str(line.text(deep=True, separator="")).split())
    words = words_in(text)
    if not words or words > _SIGNATURE_WORDS or _SENTENCE_END.search(text):
        return None
    if node.css_first(_HEADINGS) is not None:
        return None
    if _SIGNATURE.search(text) is None:
        # A line that names its block's place is a signature whatever its words, where
        # prose follows it: a caption's "¶" names a code block (Sphinx's ``settings.py``
        # above its listing: 56 of Flask's and 61 of Sphinx's own captions), not an entry.
        return line if SELF_LINKED in line.attributes and _prose_after(node, line) else None
    return line if word_count(node) > word_count(line) else None


def _prose_after(node: LexborNode, line: LexborNode) -> bool:
    """Whether ``node`` holds words beyond its ``line`` outside its code blocks."""
    code = sum(word_count(block) for block in node.css("pre"))
    return word_count(node) - word_count(line) - code > 0


def _first_child(node: LexborNode) -> LexborNode | None:
    """``node``'s first child element, when no text stands before it."""
    child = node.child
    while child is not None:
        if child.tag == "-text":
            if str(child.text_content or "").strip():
                return None
        elif child.tag != "-comment":
            return child
        child = child.next
    return None


def _shape(entry: Entry) -> tuple[int | None, str, str]:
    """What entries side by side share: their parent, their tag and their line's tag."""
    parent = entry.element.parent
    return (
        parent.mem_id if parent is not None else None,
        str(entry.element.tag),
        str(entry.line.tag),
    )


def _labels(entries: list[Entry]) -> list[LexborNode]:
    """The children of the entries' lines that at least half of the lines, and at least
    ``_LABELLED_ENTRIES``, hold alike: at least ``_LABEL_WORDS`` words of letters alone (no
    signature's). RDoc writes its label in each method's line, not in an attribute's: on
    RubyMail's RMail::Address, 21 of 24 lines."""
    parts = [_parts(entry.line) for entry in entries]
    counts = Counter(text for texts in parts for text in texts)
    needed = max(_LABELLED_ENTRIES, (len(entries) + 1) // 2)
    labels = {
        text
        for text, count in counts.items()
        if count >= needed
        and len(text.split()) >= _LABEL_WORDS
        and all(_PLAIN_WORD.fullmatch(word) for word in text.split())
    }
    return [node for texts in parts for text, node in texts.items() if text in labels]


def _parts(line: LexborNode) -> dict[str, LexborNode]:
    """The child elements of ``line`` by their text."""
    parts: dict[str, LexborNode] = {}
    child = line.child
    while child is not None:
        if child.tag not in {"-text", "-comment"}:
            text = " ".join(str(child.text(deep=True, separator=" ")).split())
            if text:
                parts.setdefault(text, child)
        child = child.next
    return parts
