"""Code a page lays out in markup: a listing's line numbers, and a signature set in cells.

A listing's line numbers are not its code. Generators write them three ways, all found here
by their structure, never by a class:

- a number at the start of each line, in an element of its own (Doxygen's ``span.lineno``
  in each ``div.line`` of a source page, Pygments' inline ``span.linenos``), or as the
  line's first characters in a code block (Doxygen's old ``00042`` before each line);
- a column of its own: a code block of nothing but the numbers beside the code block they
  number (rustdoc's source pages, Pygments' ``td.linenos`` table, YARD's source of each
  method).

Either way the numbers count up by one from line to line (a line without one, where
Pygments numbers every n-th line, keeps the count), and the code beside them holds more
than numbers: a code block of consecutive numbers alone (a program's output) is code.

A table that lays a function's signature out in cells (Doxygen's ``memname``: the return
type and name, "(", each parameter's type and name over rows, ")") is read as one line of
signature, "void f(int x, char *y)", not a cell a line.

This module reads and rewrites only the content the HTML reader has found; what is content
is the reader's to say.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from selectolax.lexbor import LexborNode

# The fewest numbered lines that make a listing's numbers: two counting up by one.
_NUMBERED_LINES = 2
# The most levels up from a column of numbers to the element that holds the code block it
# numbers: Pygments' ``pre`` in ``div.linenodiv`` in ``td.linenos``, in the row (3).
_COLUMN_LEVELS = 3
_NUMBER = re.compile(r"\s*(\d+)\s*")
# Where a number that begins a line of its own block stands (Doxygen's ``div.line``), outside
# code blocks (whose lines are read apart): Sphinx's inline code holds a ``span`` a word.
_LINE_STARTS = "div > span:not(pre *)"
# The pieces of a line of its own block read (``_lines``): its number and the code after it.
_FIRST_PIECES = 2
# Steps a walk up the tree takes at most (the reader's bound).
_WALK = 8
# A number that opens a line of code as its first characters, padded with zeros to its
# listing's width ("00042"), and the space after it.
_LEADING_NUMBER = re.compile(r"(\s*)(0\d+|[1-9]\d+)(?:[ \t]|$)")
_WORD = re.compile(r"\w")
_WHITESPACE = re.compile(r"[\s\u00a0]+")
# The elements a signature's cells may hold: words, links, emphasis, code; not blocks.
_BLOCKS = "p, div, pre, ul, ol, dl, table, h1, h2, h3, h4, h5, h6, blockquote"


@dataclass(frozen=True, slots=True)
class _Piece:
    """A run of non-blank text on one line of a listing: the line's number (from 0), the
    text node it is in, which of that node's lines it is, and the element that holds the
    line (the code block, or the line's own element)."""

    line: int
    text: str
    node: LexborNode
    chunk: int
    holder: LexborNode

    @property
    def element(self) -> LexborNode:
        """The outermost element around the piece, inside its line's holder, that holds no
        other text (Doxygen links a line's number inside its ``span.lineno`` where the
        line defines an entry); the holder itself for text directly in it."""
        element = self.node.parent or self.holder
        own = _text(self.node)
        for _ in range(_WALK):
            parent = element.parent
            if element.mem_id == self.holder.mem_id or parent is None:
                break
            if parent.mem_id == self.holder.mem_id or _text(parent) != own:
                break
            element = parent
        return element


def clear_line_numbers(content: LexborNode) -> None:
    """Drops the line numbers of ``content``'s listings (the module's three kinds)."""
    for column in _number_columns(content):
        column.decompose()
    for listing in _listings(content):
        if not _may_be_numbered(listing):
            continue
        numbers = _numbered_lines(listing)
        if numbers:
            for element in numbers:
                if listing.tag == "pre":
                    element.decompose()
                else:
                    # A space: the line's first words run on from the text before the
                    # listing (Doxygen's "Go to the documentation of this file.") as a
                    # block's do, and the number's padding kept them apart.
                    element.replace_with(" ")
            continue
        _clear_leading_numbers(listing)


def _listings(content: LexborNode) -> Iterator[LexborNode]:
    """The code blocks of ``content``, and each element whose lines are its children
    (Doxygen's ``div.fragment`` of ``div.line``): the parent of an element that holds a
    number alone and begins a child of it."""
    yield from content.css("pre:not(pre *)")
    seen: set[int] = set()
    for number in content.css(_LINE_STARTS):
        line = number.parent
        holder = line.parent if line is not None else None
        if holder is None or holder.mem_id in seen or not _a_number(number):
            continue
        seen.add(holder.mem_id)
        yield holder


def _may_be_numbered(listing: LexborNode) -> bool:
    """Whether ``_NUMBERED_LINES`` lines of ``listing`` at least begin with a digit: what
    every listing with line numbers shows, read before its lines are."""
    if listing.tag == "pre":
        lines = str(listing.text(deep=True)).split("\n")
    else:
        lines = [str(child.text(deep=True)) for child in listing.iter()]
    return sum(1 for line in lines if line.lstrip()[:1].isdigit()) >= _NUMBERED_LINES


def _lines(listing: LexborNode) -> list[list[_Piece]]:
    """The pieces of text of each line of ``listing``: split at line breaks in a code block,
    one line each child element elsewhere."""
    if listing.tag == "pre":
        return _split_lines(listing)
    # A line's first two pieces tell what ``_numbered_lines`` reads: its number, and whether
    # code follows it.
    return [_line_pieces(child, number) for number, child in enumerate(listing.iter())]


def _line_pieces(line: LexborNode, number: int) -> list[_Piece]:
    """The first ``_FIRST_PIECES`` pieces of text of ``line``, the ``number``-th line of its
    listing, each line of its own block."""
    pieces: list[_Piece] = []
    for text in line.traverse(include_text=True):
        if text.tag == "-text" and str(text.text_content or "").strip():
            pieces.append(_Piece(number, str(text.text_content), text, 0, line))
            if len(pieces) >= _FIRST_PIECES:
                break
    return pieces


def _split_lines(node: LexborNode) -> list[list[_Piece]]:
    """The pieces of text of ``node``, a line each at its line breaks."""
    lines: list[list[_Piece]] = [[]]
    for text in node.traverse(include_text=True):
        if text.tag != "-text":
            continue
        for index, chunk in enumerate(str(text.text_content or "").split("\n")):
            if index:
                lines.append([])
            if chunk.strip():
                lines[-1].append(_Piece(len(lines) - 1, chunk, text, index, node))
    return lines


def _numbered_lines(listing: LexborNode) -> list[LexborNode]:
    """The elements of ``listing`` that number its lines: each the first text of its line and
    its whole text a number, all of one kind (tag and class) that holds nothing else in the
    listing, counting up by one from line to line, with code after one of them at least."""
    lines = _lines(listing)
    firsts = [
        (line[0].line, element, _kind(element))
        for line in lines
        if line and _a_number(line[0].node)
        for element in (line[0].element,)
        if element.mem_id != line[0].holder.mem_id
    ]
    kinds = Counter(kind for _, _, kind in firsts)
    if not kinds:
        return []
    kind, _ = kinds.most_common(1)[0]
    numbered = [(line, element) for line, element, its in firsts if its == kind]
    if len(numbered) < _NUMBERED_LINES or not _counts_up(
        [(line, int(str(element.text(deep=True)))) for line, element in numbered]
    ):
        return []
    own = {element.mem_id for _, element in numbered}
    for element in listing.css(kind[0] + "".join(f".{name}" for name in kind[1].split())):
        if _kind(element) == kind and element.mem_id not in own and _text(element):
            return []  # the kind is the code's own (a number literal's)
    if not any(len(lines[line]) > 1 for line, _ in numbered):
        return []  # numbers alone: the listing's output, not its lines' numbers
    return [element for _, element in numbered]


def _clear_leading_numbers(listing: LexborNode) -> None:
    """Takes the numbers off a code block whose every line with text begins with one,
    padded with zeros to one width, counting up by one, and one line at least holds code
    after it (Doxygen's old source pages: ``<a name="l00042"></a>00042 int x;``). A
    program's output that numbers its lines ("0: /usr/local/bin/node", Node.js' page on
    ``process.argv``) pads none."""
    if listing.tag != "pre":
        return
    lines = [line for line in _split_lines(listing) if line]
    if any(_a_number(line[0].element) for line in lines):
        return  # a number in an element of its own: the code's (``_numbered_lines``)
    found = [(line, _LEADING_NUMBER.match(line[0].text)) for line in lines]
    leads = [(line, lead) for line, lead in found if lead is not None]
    if len(leads) != len(lines) or len(leads) < _NUMBERED_LINES:
        return
    if not _counts_up([(line[0].line, int(lead.group(2))) for line, lead in leads]):
        return
    widths = {len(lead.group(2)) for _, lead in leads}
    if len(widths) != 1 or not any(lead.group(2).startswith("0") for _, lead in leads):
        return  # numbers of the code's own ("0: /usr/local/bin/node", a program's output)
    if not any(len(line) > 1 or line[0].text[lead.end() :].strip() for line, lead in leads):
        return
    # The spaces every line's code keeps after its number's own: the gutter, not the code's
    # indentation (SQLite's quickstart writes "01  #!/usr/bin/tclsh", "03    puts ...").
    rests = [line[0].text[lead.end() :] + "".join(p.text for p in line[1:]) for line, lead in leads]
    gutter = min((len(rest) - len(rest.lstrip(" ")) for rest in rests if rest.strip()), default=0)
    nodes: dict[int, tuple[LexborNode, dict[int, int]]] = {}
    for line, lead in leads:
        node, cuts = nodes.setdefault(line[0].node.mem_id, (line[0].node, {}))
        cuts[line[0].chunk] = lead.end() + min(gutter, len(line[0].text) - lead.end())
    for node, cuts in nodes.values():
        chunks = str(node.text_content or "").split("\n")
        for index, cut in cuts.items():
            chunks[index] = chunks[index][cut:]
        node.replace_with("\n".join(chunks))


def _number_columns(content: LexborNode) -> list[LexborNode]:
    """The code blocks of ``content`` that hold nothing but numbers, one a line, counting up
    by one, just before a code block of as many lines, beside them or beside an element
    around them (within ``_COLUMN_LEVELS`` elements up): rustdoc's ``pre.line-numbers``
    before the source, Pygments' ``td.linenos`` and YARD's ``pre.lines`` before the code's
    cell (YARD's: 7,932 lines of numbers in 1,244 of its own manual's 2,802 sections), and
    a column of one number that stands on a line of the code, line for line (YARD's 159
    one-line methods). A program's output of numbers follows its code: it stays."""
    found = []
    for column in content.css("pre:not(pre *)"):
        # A blank line is a line the column leaves unnumbered: YARD's column opens with two
        # for the "# File ..." comment and blank line it writes atop each method's source.
        lines = str(column.text(deep=True)).rstrip("\n").split("\n")
        numbered = [(line, n) for line, n in enumerate(lines) if n.strip()]
        if not numbered or not all(_NUMBER.fullmatch(n) for _, n in numbered):
            continue
        if not _counts_up([(line, int(number)) for line, number in numbered]):
            continue
        # One number alone counts nothing up: it numbers the code only where it stands on
        # a line of code, its column as long as the code, line for line (YARD's one-line
        # methods, "\n\n31" beside the "# File" comment, a blank line and the method).
        alone = numbered[0][0] if len(numbered) < _NUMBERED_LINES else None
        node = column
        for _ in range(_COLUMN_LEVELS):
            code = _code_after(node)
            if code is not None:
                if _numbered_by(code, len(lines), alone):
                    found.append(column)
                break
            if node.parent is None or node.parent.mem_id == content.mem_id:
                break
            node = node.parent
    return found


def _code_after(node: LexborNode) -> LexborNode | None:
    """The code block that the element just after ``node`` is or first holds, past blank
    text; None where that element holds no code block, or nothing follows."""
    sibling = node.next
    while sibling is not None and sibling.tag in {"-text", "-comment"}:
        if sibling.tag == "-text" and str(sibling.text_content or "").strip():
            return None
        sibling = sibling.next
    if sibling is None:
        return None
    return sibling if sibling.tag == "pre" else sibling.css_first("pre")


def _numbered_by(code: LexborNode, count: int, alone: int | None = None) -> bool:
    """Whether ``code`` is of ``count`` lines (one more or fewer, as a block's last line
    break falls), with a word in them; for the one number of a column on its line
    ``alone``, of exactly ``count`` lines, a word on that one."""
    text = str(code.text(deep=True)).strip("\n")
    lines = text.split("\n")
    if alone is not None:
        return len(lines) == count and bool(_WORD.search(lines[alone]))
    return abs(len(lines) - count) <= 1 and bool(_WORD.search(text))


def _counts_up(numbers: list[tuple[int, int]]) -> bool:
    """Whether each (line, number) of ``numbers`` lies as far from its line as the first:
    the numbers count up by one, a line each."""
    offset = numbers[0][1] - numbers[0][0]
    return all(number - line == offset for line, number in numbers)


def join_signature_tables(content: LexborNode) -> None:
    """Writes each signature table of ``content`` as one line of text in its place: an
    innermost table of inline cells whose first row holds, after a cell of words (the
    return type and name), a cell of "(" alone, and a later cell of ")" alone closes (Doxygen
    writes every function's and macro's so). A table of signs that lists "(" in a column
    of them opens no row with it after a name. Read a cell a line, libsdl2-doc's
    ``SDLTest_RandomInit`` was "void SDLTest_RandomInit / ( / SDLTest_RandomContext * /
    rndContext, / unsigned int / xi, ..." over eleven lines."""
    for table in content.css("table"):
        # (lexbor's ``css`` of an element finds the element itself too)
        if any(block.mem_id != table.mem_id for block in table.css(_BLOCKS)):
            continue
        rows = [[_text(cell) for cell in row.css("td, th")] for row in table.css("tr")]
        rows = [row for row in rows if any(row)]
        if not rows or "(" not in rows[0][1:]:
            continue
        cells = [cell for row in rows for cell in row]
        opened = rows[0].index("(")
        if not any(_WORD.search(cell) for cell in rows[0][:opened]) or ")" not in cells[opened:]:
            continue
        line = _signature(cells)
        for child in list(table.iter(include_text=True)):
            child.decompose()
        table.insert_child(line)


def _signature(cells: list[str]) -> str:
    """``cells`` as one line: "(" and ")" against the words inside them, and the name."""
    line = ""
    for cell in cells:
        if not cell:
            continue
        if cell == "(":
            line = line.rstrip() + "("
        elif cell == ")":
            line = line.rstrip().rstrip(",") + ")"
        elif line.endswith("(") or not line:
            line += cell
        else:
            line += " " + cell
    return line


def _a_number(node: LexborNode) -> bool:
    """Whether ``node``'s whole text is a number (ASCII digits, spaces around them)."""
    text = str(node.text_content or "") if node.tag == "-text" else str(node.text(deep=True))
    text = text.strip()
    return text.isascii() and text.isdigit()


def _kind(element: LexborNode) -> tuple[str, str]:
    return str(element.tag), str(element.attributes.get("class") or "")


def _text(node: LexborNode) -> str:
    return _WHITESPACE.sub(" ", str(node.text(deep=True))).strip()
