"""A Markdown page or section that is only a list of links to the tree's own pages (a table
of contents, an index page) is no text: a section of nothing else is not indexed, a page of
nothing else is counted as a page of links, and an index page keeps its intro without its
list. A list that says anything beside its links, a list in a section of text and a list of
links off the tree stay text."""

from __future__ import annotations

from pathlib import Path

from citeline.corpus import Corpus, Document
from citeline.corpus.formats.link_lists import LINK_LISTS
from citeline.corpus.formats.markdown import read
from citeline.corpus.formats.origin import SourceFile
from citeline.corpus.formats.rejected import Omitted

BASE = "https://docs.example.org/"


def _read(markdown: str) -> list[Document | Omitted]:
    origin = SourceFile(Path("guide.md"), "guide", "guide.md", BASE + "guide/")
    return [item for item in read(markdown, origin) if isinstance(item, Document | Omitted)]


def _texts(markdown: str) -> dict[str, str]:
    return {item.id: item.text for item in _read(markdown) if isinstance(item, Document)}


def _pages(count: int) -> str:
    return "".join(f"- [Page about topic {n}](topic-{n}.md)\n" for n in range(count))


def test_a_page_that_is_only_a_table_of_contents_is_counted_not_indexed() -> None:
    markdown = (
        "# User Guide\n\n"
        "- [Installation](install.md)\n"
        "* [Configuration](config/index.md)\n"
        "    - [Options](config/options.md#all-options)\n"
        "    - [**Plugins**](config/plugins.md)\n"
    )
    assert _read(markdown) == [Omitted(LINK_LISTS, 1)]


def test_a_summary_of_parts_and_chapters_is_a_page_of_links() -> None:
    # mdBook's SUMMARY.md: a prefix chapter, parts under headings, a suffix chapter.
    markdown = (
        "# Summary\n\n[Introduction](README.md)\n\n"
        "# User Guide\n\n- [Installation](guide/installation.md)\n"
        "- [Reading Books](guide/reading.md)\n\n"
        "# Reference Guide\n\n- [Command Line Tool](cli/README.md)\n"
        "    - [init](cli/init.md)\n\n---\n\n[Contributors](misc/contributors.md)\n"
    )
    assert _read(markdown) == [Omitted(LINK_LISTS, 1)]


def test_a_lone_link_under_a_heading_of_a_page_of_text_stays() -> None:
    markdown = "# Install\n\nRun the installer.\n\n## Next\n\n[Configuration](config.md)\n"
    assert _texts(markdown)["guide#next"] == "Next\n\nConfiguration"


def test_a_heading_over_nothing_but_a_list_of_the_pages_own_sections_is_no_section() -> None:
    markdown = (
        "# Building\n\nHow to build the project from source.\n\n"
        "## Table of contents\n\n"
        "1. [Supported platforms](#supported-platforms)\n"
        "2. [Building on Windows](#building-on-windows)\n\n"
        "## Supported platforms\n\nLinux, macOS and Windows.\n"
    )
    texts = _texts(markdown)
    assert "guide#table-of-contents" not in texts
    assert texts["guide"] == "Building\n\nHow to build the project from source."
    assert texts["guide#supported-platforms"] == "Supported platforms\n\nLinux, macOS and Windows."


def test_an_index_pages_intro_stays_and_its_long_list_of_pages_goes() -> None:
    texts = _texts("# Docs\n\nWelcome to the documentation.\n\n" + _pages(12))
    assert texts == {"guide": "Docs\n\nWelcome to the documentation."}


def test_a_short_list_of_pages_that_a_sentence_introduces_stays() -> None:
    markdown = (
        "# Extra\n\nThe supported extensions include:\n\n"
        "* [Abbreviations](abbreviations.md)\n* [Footnotes](footnotes.md)\n"
    )
    assert _texts(markdown)["guide"] == (
        "Extra\n\nThe supported extensions include:\n\n• Abbreviations\n\n• Footnotes"
    )


def test_an_ordered_list_of_links_to_sections_in_a_section_of_text_stays() -> None:
    markdown = (
        "# Overrides\n\nOverride sources apply in this order:\n\n"
        "1. [platform](#platform)\n2. [environment variables](#env)\n"
    )
    assert _texts(markdown)["guide"].endswith("1. platform\n\n2. environment variables")


def test_a_list_whose_items_say_more_than_their_links_is_text() -> None:
    markdown = (
        "# Guides\n\n"
        "- [Installation](install.md): how to install it on every platform\n"
        "- [Configuration](config.md)\n"
    )
    assert _texts(markdown)["guide"] == (
        "Guides\n\n• Installation: how to install it on every platform\n\n• Configuration"
    )


def test_a_list_of_links_with_a_nested_list_of_prose_is_text() -> None:
    markdown = "# Guides\n\n- [Installation](install.md)\n    - Takes a minute.\n"
    assert _texts(markdown)["guide"] == "Guides\n\n• Installation\n\n• Takes a minute."


def test_a_reading_list_of_links_off_the_tree_stays() -> None:
    markdown = (
        "# Middleware\n\nText.\n\n## Further reading\n\n"
        "- [Introduction to ASGI](https://example.org/asgi/)\n"
        "- [Writing ASGI middleware](//blog.example.org/middleware)\n"
    )
    texts = _texts(markdown)
    assert texts["guide#further-reading"] == (
        "Further reading\n\n• Introduction to ASGI\n\n• Writing ASGI middleware"
    )


def test_a_link_off_the_tree_goes_with_the_pages_list_it_closes() -> None:
    # Node.js's api/index.md: its modules, then the repository's address.
    markdown = _pages(3) + "\n<hr/>\n\n* [Code repository](https://example.org/node)\n"
    assert _read(markdown) == [Omitted(LINK_LISTS, 1)]


def test_cards_of_links_with_captions_stay_text() -> None:
    markdown = (
        "# Home\n\n## Documentation\n\n"
        '<div class="grid cards" markdown>\n\n'
        "-   __New here?__\n\n    ---\n\n    Get started in minutes:\n\n"
        "    - [:octicons-arrow-right-24: Quick Start](quick-start.md)\n"
        "    - [:octicons-arrow-right-24: Tutorial](tutorial.md)\n\n"
        "</div>\n"
    )
    assert _texts(markdown)["guide#documentation"] == (
        "Documentation\n\n• New here?\n\nGet started in minutes:\n\n"
        "• :octicons-arrow-right-24: Quick Start\n\n• :octicons-arrow-right-24: Tutorial"
    )


def test_an_autorefs_reference_is_a_link_of_the_tree() -> None:
    markdown = "# API\n\n## Processors\n\n* [`preprocessors`][markdown.preprocessors]\n"
    assert "guide#processors" not in _texts(markdown)


def test_an_ingest_reports_the_page_of_links_as_dropped(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Contents\n\n" + _pages(3), "utf-8")
    (docs / "topic-0.md").write_text("# Page about topic 0\n\nWhat topic 0 is.\n", "utf-8")
    with Corpus.open(tmp_path / "index.sqlite") as corpus:
        report = corpus.ingest(docs, retrieval="lexical")
        hits = corpus.search("page about topic", k=5)
    assert report.omitted == {LINK_LISTS: 1}
    assert [hit.doc_id for hit in hits] == ["topic-0"]
