"""Structures generators share, read as a browser shows them: inline elements inside a word,
``details`` boxes, redirect pages, Texinfo's navigation bars around its sections, and a
page's own table of contents. The cases are the real pages that broke: Rust by Example,
CMake's documentation and the Z Shell Manual as Debian installs them."""

from __future__ import annotations

from pathlib import Path

from citeline.corpus import Document
from citeline.corpus.formats import html
from citeline.corpus.formats.origin import SourceFile


def _read(source: str, page: str = "page") -> list[Document]:
    origin = SourceFile(Path(f"{page}.html"), page, f"{page}.html")
    return [d for d in html.read(source, origin) if isinstance(d, Document)]


def test_inline_code_inside_a_word_leaves_the_word_whole() -> None:
    # Rust by Example's error/multiple_error_types/boxing_errors.html.
    page = """<html><head><title>Boxing errors</title></head><body><main>
    <h1 id="boxing-errors"><code>Box</code>ing errors</h1><p>A way to write simple code.</p>
    <h2 id="results">Iterating over <code>Result</code>s</h2><p>An iteration can fail.</p>
    </main></body></html>"""
    titles = [d.title for d in _read(page)]
    assert titles == ["Boxing errors", "Boxing errors › Iterating over Results"]


def test_a_block_or_line_break_inside_a_heading_still_separates_its_words() -> None:
    page = """<html><body><main><h1>Setup<br>guide</h1><p>Text of the guide.</p>
    <h2>Install<div>on Linux</div>now</h2><p>Run the installer.</p></main></body></html>"""
    titles = [d.title for d in _read(page)]
    assert titles == ["Setup guide", "Setup guide › Install on Linux now"]


def test_a_details_boxs_summary_is_a_line_of_its_own() -> None:
    # CMake's tutorial, "Adding a Library": the answer behind "show/hide answer".
    page = """<html><body><main><h1>Adding a Library</h1><p>Add the library.</p>
    <details><summary>TODO 1: Click to show/hide answer</summary><div><p>We configure
    the library.</p></div></details><p>Next, link it.</p></main></body></html>"""
    (document,) = _read(page)
    assert "TODO 1: Click to show/hide answer\nWe configure the library." in document.text
    assert "answerWe" not in document.text
