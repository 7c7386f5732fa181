"""A row of labels that only a style sheet spaces apart, read as separate words.

Generators set a member's flags as a row of badges: spans of one class side by side, with
no text between them, that CSS draws apart with a margin or a border. Read as text, the
row is one word: Doxygen's ``<span class="mlabels"><span class="mlabel">inline</span><span
class="mlabel">static</span></span>`` read "inlinestatic" (and "protectedvirtual",
"overridenoexcept"): 936 times in 353 of the 1,717 sections of the 229 pages that set
two labels in a row in the C++ references measured (libsigc++ 3, cairomm 1.16, libxml++
2.6, Eigen 3.4); now 12 times in 4, each glued in the page's own text ("noexceptoverride").

This module puts a space between the labels of such a row: two or more ``span`` elements
of one class, each a label of a few words with no element inside it, that are all their
parent (a span, a block or a table's cell, no paragraph) holds but blank text. It
deliberately leaves inline elements anywhere else: a word split across tags in prose
(``<b>foo</b>bar``, ``<em>un</em><em>likely</em>``) reads as one, as a browser shows it,
and so does anything in code, where a highlighter's spans split tokens.
"""

from __future__ import annotations

from selectolax.lexbor import LexborNode

# Where spans split one word or token apart: code, as highlighters write it.
_CODE = frozenset(["pre", "code", "kbd", "samp", "tt"])
# The most words a label holds: Doxygen's longest is "pure virtual".
_LABEL_WORDS = 3
# What holds a row of labels: Doxygen's ``span.mlabels`` in a member's heading, its member
# list's ``td.entry``. A paragraph, an item or a heading that holds nothing but spans is
# prose that may split a word.
_ROW_HOLDERS = frozenset(["span", "div", "td", "th"])
# The most steps up to find code around a row.
_WALK = 8


def space_label_rows(content: LexborNode) -> None:
    """Puts a space between the labels of each row of labels in ``content`` (see the
    module)."""
    parents: dict[int, LexborNode] = {}
    for span in content.css("span[class] + span[class]"):
        parent = span.parent
        if parent is not None:
            parents.setdefault(parent.mem_id, parent)
    for parent in parents.values():
        labels = _labels(parent)
        if parent.tag in _ROW_HOLDERS and labels and not _in_code(parent):
            for label in labels[1:]:
                label.insert_before(" ")


def _labels(parent: LexborNode) -> list[LexborNode]:
    """The children of ``parent`` when they are a row of labels (see the module); else
    none."""
    labels: list[LexborNode] = []
    for child in parent.iter(include_text=True):
        if child.tag == "-comment":
            continue
        if child.tag == "-text":
            if str(child.text_content or "").strip():
                return []
            continue
        words = str(child.text(deep=True)).split()
        if child.tag != "span" or not 0 < len(words) <= _LABEL_WORDS or child.child is None:
            return []
        if any(inner.tag != "-text" for inner in child.iter(include_text=True)):
            return []
        labels.append(child)
    classes = {str(label.attributes.get("class") or "") for label in labels}
    return labels if len(labels) > 1 and len(classes) == 1 else []


def _in_code(node: LexborNode) -> bool:
    """Whether ``node`` is code or lies in it (``_WALK`` levels up)."""
    current: LexborNode | None = node
    for _ in range(_WALK):
        if current is None:
            return False
        if current.tag in _CODE:
            return True
        current = current.parent
    return False
