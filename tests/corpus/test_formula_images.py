"""A formula drawn as an image is read as its source, its ``alt`` text, where it stands:
inline in its sentence, on its own line for display math. The cases are the structures
Sphinx's imgmath, Doxygen's formula images and latex2html write, and the neighbouring
images (a logo, an icon, a figure) whose ``alt`` stays out of the text."""

from __future__ import annotations

from pathlib import Path

from citeline.corpus import Document
from citeline.corpus.formats import html
from citeline.corpus.formats.origin import SourceFile


def _text(body: str) -> str:
    page = f"""<html><head><title>BLAS</title></head><body><div role="main"><h1>BLAS</h1>
    {body}</div></body></html>"""
    origin = SourceFile(Path("blas.html"), "blas", "blas.html")
    [document] = [d for d in html.read(page, origin) if isinstance(d, Document)]
    return document.text


def test_an_inline_math_image_keeps_its_formula_in_the_sentence() -> None:
    body = """<p>If <img class="math" src="_images/math/5a93.png" alt="x"/> is real, the
    index of the first <img class="math" src="_images/math/e9bc.png" alt="k"/> is returned.</p>"""
    assert _text(body) == "BLAS\n\nIf x is real, the index of the first k is returned."


def test_a_display_formula_stands_on_its_own_line_between_its_sentences() -> None:
    body = """<p>Scales a vector by a constant:</p><div class="math">
    <p><img src="_images/math/5052.png" alt="x := \\alpha x."/></p></div>
    <p>The scalar must be a float.</p>"""
    assert _text(body) == (
        "BLAS\n\nScales a vector by a constant:\n\nx := \\alpha x.\n\nThe scalar must be a float."
    )


def test_doxygens_formula_images_and_tex_delimited_alt_text_are_formulas() -> None:
    body = """<p>The rotation by <img class="formulaInl" alt="$\\theta$" src="form_0.png"/>
    is</p><p class="formulaDsp"><img class="formulaDsp" alt="\\[ R = I \\]" src="form_1.png"/>
    </p><p>and <img alt="$n^2$" src="img3.png"> steps.</p>"""
    assert _text(body) == (
        "BLAS\n\nThe rotation by $\\theta$ is\n\n\\[ R = I \\]\n\nand $n^2$ steps."
    )


def test_a_logo_an_icon_and_a_figure_keep_their_alt_text_out_of_the_page() -> None:
    body = """<p><img class="logo" src="logo.png" alt="Logo"/>The manual.</p>
    <div class="admonition note"><p><img src="note.png" alt="Note"/>Mind the gap.</p></div>
    <div class="figure"><p><img src="shot.png" alt="../_images/shot.png"/></p></div>
    <div class="mathematics-intro"><p>Read on.</p><img src="x.png" alt="diagram"/></div>"""
    text = _text(body)
    assert "Logo" not in text and "Note" not in text and "shot.png" not in text
    assert "diagram" not in text
    assert "The manual." in text and "Mind the gap." in text
