"""A DocBook title page reads as its title and what the book is about: its credits start no
section, its subtitle is a line of the title's section, and its release, copyright and
legal notice come after the abstract. The fixtures follow DocBook XSL's title page."""

from __future__ import annotations

from pathlib import Path

from citeline.corpus import Document
from citeline.corpus.formats import html
from citeline.corpus.formats.origin import SourceFile

CREDITS = """<div><div class="authorgroup"><div class="author"><h3 class="author"><span
class="firstname">Ada</span> <span class="surname">Byron</span></h3><div class="affiliation">
<span class="orgname">Analytical Engines<br></span></div></div><div class="othercredit"><h3
class="othercredit">Charles Babbage</h3></div></div></div>"""
PUBLICATION = """<div><p class="releaseinfo">Version 1.0 of 1 May 2024</p></div>
<div><p class="copyright">Copyright © 2024 Ada Byron</p></div><div><div class="legalnotice">
<p>Permission is granted to copy this manual.</p></div></div>"""
ABSTRACT = """<div class="abstract"><p class="title"><b>Abstract</b></p><p>A library that
compresses files.</p></div>"""
CHAPTER = """<div class="chapter"><div class="titlepage"><div><div><h2 class="title"><a
name="intro"></a>1. Introduction</h2></div></div></div><p>It compresses.</p></div>"""


def _read(titlepage: str, after: str = "") -> list[Document]:
    page = f"""<html><head><title>zlib manual</title><meta name="generator" content="DocBook
    XSL Stylesheets V1.79.2"></head><body><div class="book"><div class="titlepage"><div>
    <div><h1 class="title"><a name="top"></a>zlib manual</h1></div>{titlepage}</div><hr>
    </div><div class="toc"><p><b>Table of Contents</b></p><dl><dt><a href="#intro">1.
    Introduction</a></dt></dl></div>{after}{CHAPTER}</div></body></html>"""
    origin = SourceFile(Path("manual.html"), "manual", "manual.html")
    return [d for d in html.read(page, origin) if isinstance(d, Document)]


def test_a_title_pages_authors_start_no_section_and_its_abstract_opens_the_book() -> None:
    subtitle = '<div><h2 class="subtitle">A compression library</h2></div>'
    documents = _read(subtitle + CREDITS + PUBLICATION + f"<div>{ABSTRACT}</div>")
    assert [d.title for d in documents] == ["zlib manual", "zlib manual › 1. Introduction"]
    assert documents[0].text == (
        "zlib manual\n\nA compression library\n\nAbstract\n\nA library that compresses files."
        "\n\nVersion 1.0 of 1 May 2024\n\nCopyright © 2024 Ada Byron\n\n"
        "Permission is granted to copy this manual."
    )
    assert "Babbage" not in documents[0].text


def test_an_abstract_after_the_table_of_contents_still_comes_before_the_copyright() -> None:
    documents = _read(CREDITS + PUBLICATION, after=ABSTRACT)
    assert documents[0].text.startswith("zlib manual\n\nAbstract\n\nA library that compresses")
    assert documents[0].text.endswith("Permission is granted to copy this manual.")


def test_an_authors_line_in_a_chapters_text_stays_where_it_is() -> None:
    # Outside a title page, a name is text of the section it stands in.
    byline = '<p class="author">Written by Ada Byron.</p>'
    documents = _read(PUBLICATION, after=byline)
    assert "Written by Ada Byron." in documents[0].text
