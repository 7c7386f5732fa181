"""A row of labels that a style sheet alone spaces apart (Doxygen's member flags) reads as
separate words; a word split across inline tags in prose, or in code, reads as one."""

from __future__ import annotations

from pathlib import Path

from citeline.corpus import Document
from citeline.corpus.formats import html
from citeline.corpus.formats.origin import SourceFile


def _text(body: str) -> str:
    page = f"""<html><head><title>Surface</title></head><body><div class="contents">
    <h1>Surface</h1>{body}</div></body></html>"""
    origin = SourceFile(Path("surface.html"), "surface", "surface.html")
    [document] = [d for d in html.read(page, origin) if isinstance(d, Document)]
    return document.text


def test_a_members_flags_set_side_by_side_as_labels_read_as_separate_words() -> None:
    body = """<table class="mlabels"><tr><td class="mlabels-left">create ()</td>
    <td class="mlabels-right"><span class="mlabels"><span class="mlabel">inline</span><span
    class="mlabel">static</span><span class="mlabel">pure virtual</span></span></td></tr>
    </table><p>Creates a surface.</p>"""
    text = _text(body)
    assert "inline static pure virtual" in text
    assert "inlinestatic" not in text


def test_a_word_split_across_inline_tags_in_prose_reads_as_one() -> None:
    body = """<p><b>foo</b>bar and <em>un</em><em>likely</em> and
    <span class="hl">sur</span><span class="hl">face</span> too.</p>
    <p><span class="x">first</span><span class="x">part</span></p>"""
    text = _text(body)
    assert "foobar and unlikely and surface too." in text
    assert "firstpart" in text


def test_spans_of_one_class_in_code_are_not_spaced() -> None:
    body = """<p>Call <code><span class="pre">get_</span><span class="pre">surface</span></code>
    first.</p><pre><span class="n">a</span><span class="n">b</span></pre>"""
    text = _text(body)
    assert "Call get_surface first." in text
    assert "\nab" in text
