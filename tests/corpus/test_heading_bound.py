"""A heading longer than any documentation writes titles its section by its beginning only."""

from __future__ import annotations

from pathlib import Path

from citeline.corpus import Document
from citeline.corpus.formats import html, markdown
from citeline.corpus.formats.heading_bound import MAX_HEADING_CHARS, bounded_heading
from citeline.corpus.formats.origin import SourceFile

ORIGIN = SourceFile(Path("page.md"), "page", "page.md", "https://example.org/page/")
HTML_ORIGIN = SourceFile(Path("page.html"), "page", "page.html", "https://example.org/page.html")


def _documents(source: str) -> list[Document]:
    return [item for item in markdown.read(source, ORIGIN) if isinstance(item, Document)]


def test_a_heading_of_2000_links_titles_its_section_by_its_first_whole_words() -> None:
    links = " ".join(f"[word {n}](page-{n}.md)" for n in range(2_000))
    [page, section] = _documents(f"# Links\n\nIntro.\n\n## {links}\n\nText.\n")
    heading = " ".join(f"word {n}" for n in range(2_000))
    assert len(section.title) <= len("Links › ") + MAX_HEADING_CHARS
    assert section.title.startswith("Links › word 0 word 1 word 2 ")
    assert heading.startswith(section.title.removeprefix("Links › ") + " ")
    # Its text keeps the whole heading, and its anchor is made from all of it.
    assert section.text == f"{heading}\n\nText."
    assert section.url is not None and section.url.endswith("-word-1999")
    assert page.title == "Links"


def test_an_html_heading_of_2000_links_is_cut_the_same_way() -> None:
    links = " ".join(f'<a href="page-{n}.html">word {n}</a>' for n in range(2_000))
    page = f"<main><h1>Links</h1><p>Intro.</p><h2>{links}</h2><p>Text.</p></main>"
    found = html.read(page, HTML_ORIGIN)
    [_, section] = [item for item in found if isinstance(item, Document)]
    heading = " ".join(f"word {n}" for n in range(2_000))
    assert len(section.title) <= len("Links › ") + MAX_HEADING_CHARS
    assert heading.startswith(section.title.removeprefix("Links › ") + " ")
    assert section.text.startswith(heading)


def test_a_normal_heading_titles_its_section_whole() -> None:
    heading = "Reset password token secret and lifetime parameters are attributes of UserManager"
    [_, section] = _documents(f"# Page\n\nIntro.\n\n## {heading}\n\nText.\n")
    assert section.title == f"Page › {heading}"


def test_a_heading_without_spaces_is_cut_at_the_bound() -> None:
    assert bounded_heading("x" * 5_000) == "x" * MAX_HEADING_CHARS
    assert bounded_heading("x" * MAX_HEADING_CHARS) == "x" * MAX_HEADING_CHARS
