"""What Material for MkDocs and pymdown-extensions show of a page's lists, checkboxes, icons,
code annotations and diagrams is what its sections' text holds, under the settings of the
``mkdocs.yml`` that governs the page; a page under none reads as CommonMark."""

from __future__ import annotations

import time
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from citeline.corpus import Document
from citeline.corpus.formats.markdown import read
from citeline.corpus.formats.origin import SourceFile

BASE = "https://docs.example.org/"


def _text(markdown: str, *, project: Path | None = None) -> str:
    """The text of ``markdown`` read as the page ``docs/page.md`` of ``project`` (whose
    ``mkdocs.yml`` then decides the dialect), or as a page with no project around it."""
    if project is None:
        origin = SourceFile(Path("page.md"), "page", "page.md", BASE + "page/")
    else:
        page = project / "docs" / "page.md"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(markdown, "utf-8")
        origin = SourceFile(page, "page", "page.md", BASE + "page/", include_root=project)
    documents = [item for item in read(markdown, origin) if isinstance(item, Document)]
    return "\n\n".join(document.text for document in documents)


def _project(tmp_path: Path, settings: str) -> Path:
    """A project whose ``mkdocs.yml`` holds ``settings`` (YAML) after its site name."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'demo'\n", "utf-8")
    (tmp_path / "mkdocs.yml").write_text("site_name: Demo\n" + settings, "utf-8")
    return tmp_path


# Numbered lists


def test_an_ordered_lists_items_read_with_the_numbers_the_page_shows() -> None:
    text = _text(
        "# Migrate\n\n1. Upgrade.\n1. Rename `User`.\n1. Run the tests.\n\n"
        "Then:\n\n7) Seventh, as written.\n8) Eighth.\n\n- A bullet\n    1. nested\n"
    )
    assert text == (
        "Migrate\n\n1. Upgrade.\n\n2. Rename User.\n\n3. Run the tests.\n\nThen:\n\n"
        "7) Seventh, as written.\n\n8) Eighth.\n\n• A bullet\n\n1. nested"
    )


def test_under_mkdocs_a_list_counts_from_one_unless_sane_lists_is_on(tmp_path: Path) -> None:
    # Python-Markdown's lazy_ol (on unless sane_lists) ignores a list's first number: a
    # list that a code block interrupted starts again at 1 on the published page.
    page = "# Steps\n\n3. Third.\n4. Fourth.\n"
    assert _text(page, project=_project(tmp_path, "")) == "Steps\n\n1. Third.\n\n2. Fourth."
    sane = _project(tmp_path, "markdown_extensions:\n  - sane_lists\n")
    assert _text(page, project=sane) == "Steps\n\n3. Third.\n\n4. Fourth."


def test_an_item_that_opens_with_code_keeps_its_place_in_the_count() -> None:
    text = _text("# Steps\n\n1. ```sh\n   make\n   ```\n2. Second.\n")
    assert text == "Steps\n\nmake\n\n2. Second."


def test_ten_thousand_items_and_a_nine_digit_start_read_in_linear_time() -> None:
    page = "# Long\n\n" + "".join(f"{999_999_990 + n}. item\n" for n in range(10_000))
    started = time.perf_counter()
    text = _text(page)
    assert time.perf_counter() - started < 10
    assert text.startswith("Long\n\n999999990. item") and text.endswith("1000009989. item")


@given(st.lists(st.sampled_from(["1. w", "- w", "    ", "", "text w", "```"]), max_size=30))
def test_every_word_of_any_arrangement_of_lists_is_kept(lines: list[str]) -> None:
    numbered = [line.replace("w", f"w{n}") for n, line in enumerate(lines)]
    text = _text("# Page\n\n" + "\n".join(numbered) + "\n")
    for n, line in enumerate(lines):
        if "w" in line:
            assert f"w{n}" in text
