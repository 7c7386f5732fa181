"""Ruby API references read whole: YARD's controls, hand-written in the generator's shape
(YARD 0.9 as Debian's ruby-*-doc packages ship it)."""

from __future__ import annotations

from pathlib import Path

from citeline.corpus import Document
from citeline.corpus.formats import html
from citeline.corpus.formats.origin import SourceFile


def _read(source: str, page: str = "Acme/Header") -> list[Document]:
    origin = SourceFile(Path(f"{page}.html"), page, f"{page}.html")
    return [d for d in html.read(source, origin) if isinstance(d, Document)]


def _yard(heading: str) -> str:
    return f"""<html><head><title>Module: Acme::API — Acme 1.0</title></head><body>
<div id="content"><h1>Module: Acme::API</h1><p>Methods added to a test case.</p>
<h2>{heading}</h2><ul class="summary"><li>#mock(*arguments) ⇒ Mock: builds a mock.</li></ul>
<h2>Instance Method Details</h2><div class="method_details">
<h3 class="signature" id="mock-instance_method">#mock(*arguments) ⇒ Mock</h3>
<p>Builds a new mock object.</p></div></div></body></html>"""


def test_a_link_that_leads_nowhere_beside_a_headings_words_is_no_part_of_its_title() -> None:
    for control in ('<a href="#">collapse</a>', '<a href="javascript:void(0)">expand</a>'):
        heading = f"Instance Method Summary <small>{control}</small>"
        titles = [d.title for d in _read(_yard(heading), "Acme/API")]
        assert "Module: Acme::API › Instance Method Summary" in titles
        assert not any("collapse" in title or "expand" in title for title in titles)


def test_a_heading_all_such_a_link_and_such_a_link_in_a_sentence_keep_their_words() -> None:
    titles = [d.title for d in _read(_yard('<a href="#">Instance Method Summary</a>'), "Acme/API")]
    assert "Module: Acme::API › Instance Method Summary" in titles
    # HAProxy's keywords open a menu from inside a sentence: they are its words.
    page = """<html><head><title>Bind options</title></head><body><main><h1>Bind options</h1>
    <p>This keyword is available in sections: <a href="#" class="dropdown-toggle">bind</a>
    and defaults.</p></main></body></html>"""
    (document,) = _read(page, "bind")
    assert "available in sections: bind and defaults." in document.text
