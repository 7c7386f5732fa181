"""A listing whose markup breaks its lines (a block or a ``<br>`` a line, no newline in its
text) keeps each line apart, blank lines included, as a browser shows it; a listing whose
text holds its newlines reads as it did. Reduced from sites built from Black's docs by
Docusaurus 3.10.2 (Prism), Astro Starlight 0.37.7 (Expressive Code) and VitePress 1.6.4
(Shiki)."""

from __future__ import annotations

from pathlib import Path

from citeline.corpus import Document
from citeline.corpus.formats import html
from citeline.corpus.formats.origin import SourceFile

SHOWN = "The basics\n\n$ black test.py --check\nAll done!\n\n$ echo $?\n0"


def _text(listing: str) -> str:
    page = f"""<html><head><title>The basics</title></head><body><main><h1>The basics</h1>
    {listing}</main></body></html>"""
    origin = SourceFile(Path("the_basics.html"), "the_basics", "the_basics.html")
    [document] = [d for d in html.read(page, origin) if isinstance(d, Document)]
    return document.text


def _docusaurus_line(words: str) -> str:
    span = (
        f'<span class="token plain">{words}</span>'
        if words
        else ('<span class="token plain" style="display:inline-block"></span>')
    )
    return f'<div class="token-line" style="color:#bfc7d5">{span}<br></div>'


def test_docusaurus_lines_each_a_block_ending_in_a_break_stay_apart() -> None:
    lines = "".join(
        _docusaurus_line(words)
        for words in ("$ black test.py --check", "All done!", "", "$ echo $?", "0")
    )
    listing = f"""<div class="language-console codeBlockContainer_Ckt0 theme-code-block"><div
    class="codeBlockContent_QJqH"><pre tabindex="0" class="prism-code language-console"><code
    class="codeBlockLines_e6Vv">{lines}</code></pre><div class="buttonGroup__atx"><button
    type="button" aria-label="Copy code to clipboard" title="Copy" class="clean-btn"><span
    class="copyButtonIcons_eSgA" aria-hidden="true"></span></button></div></div></div>"""
    assert _text(listing) == SHOWN


def _starlight_line(words: str) -> str:
    code = f'<span style="--0:#D6DEEB;--1:#403F53">{words}</span>' if words else "\n"
    return f'<div class="ec-line"><div class="code">{code}</div></div>'


def test_expressive_code_lines_each_a_block_in_a_block_stay_apart() -> None:
    lines = "".join(
        _starlight_line(words)
        for words in ("$ black test.py --check", "All done!", "", "$ echo $?", "0")
    )
    listing = f"""<div class="expressive-code"><figure class="frame is-terminal not-content">
    <figcaption class="header"><span class="title"></span></figcaption><pre
    data-language="console"><code>{lines}</code></pre></figure></div>"""
    assert _text(listing) == SHOWN


def test_a_listing_whose_text_holds_its_newlines_reads_as_before() -> None:
    # VitePress 1.6.4 (Shiki): a span a line, a newline between.
    spans = "\n".join(
        f'<span class="line"><span style="--shiki-light:#24292E">{words}</span></span>'
        for words in ("$ black test.py --check", "All done!", "", "$ echo $?", "0")
    )
    listing = f"""<div class="language-console vp-adaptive-theme"><button title="Copy Code"
    class="copy"></button><pre class="shiki vp-code" tabindex="0"><code>{spans}</code></pre>
    </div>"""
    assert _text(listing).endswith("\n\n$ black test.py --check\nAll done!\n\n$ echo $?\n0")
