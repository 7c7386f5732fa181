"""Words written for one kind of reader only: a title hidden from screen readers because
its element's label says it is what a sighted reader sees, and words shown to a screen
reader alone are no text where they name a mark (a heading's permalink, a code frame).
The markup is reduced from a site Astro Starlight 0.37.7 (Astro 5.18) built from Black's
docs; beside each case, the neighbouring one that must not change."""

from __future__ import annotations

from pathlib import Path

from citeline.corpus import Document
from citeline.corpus.formats import html
from citeline.corpus.formats.origin import SourceFile

_ICON = (
    '<span aria-hidden="true" class="sl-anchor-icon"><svg width="16"><path d="m12"></path>'
    "</svg></span>"
)


def _documents(content: str) -> dict[str, Document]:
    page = f"""<html><head><title>The basics | Black</title></head><body>
    <main data-pagefind-body><div class="sl-container"><h1 id="_top">The basics</h1></div>
    <div class="sl-markdown-content">{content}</div></main></body></html>"""
    origin = SourceFile(Path("the_basics/index.html"), "the_basics/index", "the_basics/index.html")
    return {d.id: d for d in html.read(page, origin) if isinstance(d, Document)}


def _heading(anchor: str, words: str, link_words: str) -> str:
    return (
        f'<div class="sl-heading-wrapper level-h2"><h2 id="{anchor}">{words}</h2>'
        f'<a class="sl-anchor-link" href="#{anchor}">{_ICON}{link_words}</a></div>'
    )


def test_a_permalink_after_its_heading_whose_words_only_a_screen_reader_hears_is_no_text() -> None:
    spoken = '<span class="sr-only" data-pagefind-ignore>Section titled “Usage”</span>'
    documents = _documents(f"{_heading('usage', 'Usage', spoken)}<p>Run black on a file.</p>")
    usage = documents["the_basics/index#usage"]
    assert usage.text == "Usage\n\nRun black on a file."
    assert usage.title == "The basics › Usage"


def test_a_link_of_shown_words_after_a_heading_stays_text() -> None:
    shown = "<span>see the usage notes</span>"
    documents = _documents(f"{_heading('usage', 'Usage', shown)}<p>Run black on a file.</p>")
    assert documents["the_basics/index#usage"].text == (
        "Usage\n\nsee the usage notes\nRun black on a file."
    )


def test_an_asides_title_hidden_from_screen_readers_is_read_as_its_label_names_it() -> None:
    aside = """<aside aria-label="Note - Black is now stable!" class="starlight-aside">
    <p class="starlight-aside__title" aria-hidden="true"><svg viewBox="0 0 24 24"><path
    d="M12"></path></svg>Note - Black is now stable!</p><div class="starlight-aside__content">
    <p>Black is used by many projects.</p></div></aside>"""
    text = _documents(aside)["the_basics/index"].text
    assert text == "The basics\n\nNote - Black is now stable!\n\nBlack is used by many projects."


def test_hidden_words_that_no_label_around_them_says_stay_hidden() -> None:
    aside = """<aside aria-label="Note" class="starlight-aside"><p aria-hidden="true">Decoration</p>
    <div><p>Black is used by many projects.</p></div></aside>"""
    text = _documents(aside)["the_basics/index"].text
    assert text == "The basics\n\nBlack is used by many projects."


def _frame(caption: str) -> str:
    listing = (
        '<pre data-language="sh"><code><div class="ec-line"><div class="code"><span>black'
        "</span><span> src/</span></div></div></code></pre>"
    )
    return f"""<div class="expressive-code"><figure class="frame is-terminal not-content">
    <figcaption class="header">{caption}</figcaption>{listing}<div class="copy"><div
    aria-live="polite"></div><button title="Copy to clipboard" data-copied="Copied!"
    data-code="black src/"><div></div></button></div></figure></div>"""


def test_a_code_frames_caption_for_a_screen_reader_is_no_text_of_the_listing() -> None:
    frame = _frame('<span class="title"></span><span class="sr-only">Terminal window</span>')
    assert _documents(frame)["the_basics/index"].text == "The basics\n\nblack src/"


def test_a_code_frames_shown_title_stays_above_the_listing() -> None:
    caption = '<span class="title">format.sh</span><span class="sr-only">Terminal window</span>'
    frame = _frame(caption)
    assert _documents(frame)["the_basics/index"].text == "The basics\n\nformat.sh\n\nblack src/"


def test_words_for_a_screen_reader_outside_a_permalink_or_a_frame_stay() -> None:
    cell = """<table><tr><th>Feature</th><th>Supported</th></tr><tr><td>Jupyter</td>
    <td><svg aria-hidden="true"></svg><span class="sr-only">Yes</span></td></tr></table>"""
    text = _documents(cell)["the_basics/index"].text
    assert "Yes" in text
