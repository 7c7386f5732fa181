"""A code listing's lines as a browser shows them, where the markup, not the text, breaks
them.

A ``<pre>`` keeps the line breaks of its text, and most highlighters write one (Pygments,
Shiki: a ``<span>`` a line and a newline between). Today's JavaScript generators write each
line as a block instead, with no newline in the text: Docusaurus 3.10 (Prism) as ``<div
class="token-line"><span>...</span><br></div>``, Astro Starlight 0.37 (Expressive Code)
as ``<div class="ec-line"><div class="code">...</div></div>``. Read as text, every line of
a listing ran into the next ("$ black test.py --checkAll done! ✨ 🍰 ✨1 file would be left
unchanged."): all 76 multi-line listings of the Docusaurus site built from Black's docs and
all 77 of the Starlight one (VitePress's Shiki writes newlines: its 77 were whole).

Such a listing (one holding a block or a ``<br>``) is read as a browser lays it out: a
``<br>`` breaks the line; a block starts and ends one, and the breaks of blocks that meet
count once, so a block's last ``<br>`` or its text's last newline ends its line and adds
no empty one (an empty line is a block holding nothing but such a break, as both write
it). One break is read where a browser shows two: a ``<br>`` right before a newline of the
text is the line's end written twice (Apache's manual ends lines so, ``<br>\n``; read as
two, 7 of its sections gained an empty line in a listing). Its text then replaces its
content, one text node (its ``<code>``, whose class names the language, goes: nothing
reads it past this point). A listing without a block or a ``<br>`` is left as it is: its
text is already what it shows.
"""

from __future__ import annotations

from selectolax.lexbor import LexborNode

from citeline.corpus.formats.nodes import BLOCK_TAGS

_LINE_MARKUP = ", ".join(["br", *sorted(BLOCK_TAGS)])


def break_block_lines(content: LexborNode) -> None:
    """Writes each outermost listing of ``content`` whose lines are blocks or ``<br>``
    as the text a browser shows (see the module)."""
    for listing in content.css("pre:not(pre *)"):
        if listing.css_first(_LINE_MARKUP) is None:
            continue
        text = _shown_text(listing)
        for child in list(listing.iter(include_text=True)):
            child.decompose()
        if text:
            listing.insert_child(text)


def _shown_text(listing: LexborNode) -> str:
    """The text of ``listing`` with a line break where a ``<br>`` or a block's edge shows
    one; one walk, so a listing costs its size whatever its nesting."""
    out: list[str] = []
    edge = False  # a block's edge was passed since the last text: a line ends, if open
    forced = False  # a ``<br>`` was passed since the last text
    stack: list[tuple[LexborNode, bool]] = [(listing, False)]
    while stack:
        node, leaving = stack.pop()
        if leaving:
            edge = True
            continue
        if node.tag == "-text":
            text = str(node.text_content or "")
            if not text:
                continue
            # A ``<br>`` before a newline of the text is one break written twice.
            if forced:
                broken = not text.startswith("\n")
            else:
                broken = edge and bool(out) and not out[-1].endswith("\n")
            if broken:
                out.append("\n")
            edge = forced = False
            out.append(text)
        elif node.tag == "br":
            if forced:
                out.append("\n")  # the break before it ended a line of nothing
            forced = True
        elif node.tag != "-comment":
            if node.tag in BLOCK_TAGS and node is not listing:
                edge = True
                stack.append((node, True))
            children = list(node.iter(include_text=True))
            stack.extend((child, False) for child in reversed(children))
    return "".join(out)
