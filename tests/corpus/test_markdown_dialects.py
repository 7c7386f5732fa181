"""What Python-Markdown and pymdown-extensions make of a page (as MkDocs, Material and
Zensical build it) is what a section's title and text hold: the markup those dialects
consume is gone and the text they show is kept."""

from __future__ import annotations

from pathlib import Path

from citeline.corpus import Document
from citeline.corpus.formats.markdown import read
from citeline.corpus.formats.origin import SourceFile

BASE = "https://docs.example.org/"


def _sections(markdown: str, *, origin: SourceFile | None = None) -> dict[str, Document]:
    """The documents of ``markdown`` read as the page ``page.md``, by id."""
    origin = origin or SourceFile(Path("page.md"), "page", "page.md", BASE + "page/")
    return {item.id: item for item in read(markdown, origin) if isinstance(item, Document)}


def _text(markdown: str) -> str:
    return "\n\n".join(document.text for document in _sections(markdown).values())


def test_a_closing_sequence_before_an_attribute_list_leaves_the_title() -> None:
    documents = _sections(
        "# Metadata\n\nIntro.\n\n## Name (*required*) ## {: #name }\n\nThe name.\n\n"
        "## 1.18.2 - 2026-10-27 ## {: #hatch-v1.18.2 }\n\nFixed.\n"
    )
    assert documents["page#name"].title == "Metadata › Name (required)"
    assert documents["page#hatch-v1.18.2"].title == "Metadata › 1.18.2 - 2026-10-27"


def test_a_hash_that_ends_a_word_of_the_title_is_kept() -> None:
    documents = _sections("# Languages\n\nIntro.\n\n## C# {: #csharp }\n\nA language.\n")
    assert documents["page#csharp"].title == "Languages › C#"
    # A heading of hashes alone is empty, as CommonMark reads "### ###".
    empty = _sections("# A\n\nx\n\n## ## {: #empty }\n\nBody.\n")["page#empty"]
    assert "#" not in empty.title and empty.text.endswith("Body.")
