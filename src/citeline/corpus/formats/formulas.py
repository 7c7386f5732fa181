"""A formula drawn as an image, read as its source: the image's ``alt`` text.

Generators that render mathematics to images write the formula's LaTeX source in each
image's ``alt``: Sphinx's ``imgmath`` an inline ``<img class="math" alt="n">`` in the
sentence and, for display math, ``<div class="math"><p><img alt="x := \\alpha x."></p>
</div>``; Doxygen without MathJax ``<img class="formulaInl" alt="$\\alpha$">`` and ``<img
class="formulaDsp">``; latex2html an image whose ``alt`` is the ``$...$`` it drew. An image
is no text, so each formula went from its sentence, "the index of the first  is returned"
for "the first k", and a display formula left "Euclidean norm of a vector: returns" with
nothing after it (CVXOPT's manual, python-cvxopt-doc: 950 formula images on 9 pages; read
as their text, 44 of its 63 sections gained them; IT++'s Doxygen reference, libitpp-doc:
1,047 on 66 pages, "where  is the number of channel taps", 302 of their 890 sections; and
Celery's, 6 on 4 pages).

This module puts each formula image's ``alt`` text in its place, so that an inline formula
stays in its sentence and a display formula, alone in its block, stays on its own line.
A formula image is one that a class of its own or of the block it alone fills names math
or a formula, or whose ``alt`` is delimited as TeX delimits math (``$...$``, ``\\[...\\]``,
``\\(...\\)``). It deliberately leaves every other image, whatever its ``alt`` says: a logo's
"Logo", an icon's "Note" or a screenshot's file name is no word of the page's text.
"""

from __future__ import annotations

import re

from selectolax.lexbor import LexborNode

# A class that names math or a formula: Sphinx's ``math``, Doxygen's ``formulaInl`` and
# ``formulaDsp``, MathJax's and KaTeX's wrappers (``mathjax``, ``katex-display``... no
# image of theirs carries one, but a class so named says the same).
_FORMULA_CLASS = re.compile(r"math|formula", re.IGNORECASE)
# An ``alt`` that TeX's delimiters wrap whole: latex2html's ``$\alpha$``, Doxygen's ``\[ ... \]``.
_TEX_DELIMITED = re.compile(r"\A\s*(\$.*\$|\\\[.*\\\]|\\\(.*\\\))\s*\Z", re.DOTALL)
# The most children of a block read to tell whether an image fills it alone: a formula's
# block holds it and blank text; more is no formula's block (and a block of thousands of
# images is not read once per image).
_CHILDREN = 8
# How far up the block a display formula fills is looked for: Sphinx's ``div.math`` holds
# a ``p`` that holds the image.
_WALK = 2


def formulas_as_text(content: LexborNode) -> None:
    """Puts each formula image's ``alt`` text in its place in ``content`` (see the module)."""
    for image in content.css("img[alt]"):
        alt = " ".join(str(image.attributes.get("alt") or "").split())
        if alt and _a_formula(image, alt):
            image.replace_with(alt)


def _a_formula(image: LexborNode, alt: str) -> bool:
    """Whether ``image`` draws a formula: its class, or that of a block it alone fills
    (``_WALK`` levels up), names math or a formula, or its ``alt`` is TeX-delimited."""
    if _TEX_DELIMITED.match(alt) or _names_a_formula(image):
        return True
    node = image
    for _ in range(_WALK):
        parent = node.parent
        if parent is None or _holds_more(parent, node):
            return False
        if _names_a_formula(parent):
            return True
        node = parent
    return False


def _names_a_formula(node: LexborNode) -> bool:
    names = str(node.attributes.get("class") or "").split()
    return any(_FORMULA_CLASS.search(name) for name in names)


def _holds_more(parent: LexborNode, child: LexborNode) -> bool:
    """Whether ``parent`` holds anything but ``child`` and blank text (or more than
    ``_CHILDREN`` children)."""
    for read, sibling in enumerate(parent.iter(include_text=True)):
        if read >= _CHILDREN:
            return True
        if sibling.mem_id == child.mem_id or sibling.tag == "-comment":
            continue
        if sibling.tag != "-text" or str(sibling.text_content or "").strip():
            return True
    return False
