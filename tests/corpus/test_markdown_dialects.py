"""What Python-Markdown and pymdown-extensions make of a page (as MkDocs, Material and
Zensical build it) is what a section's title and text hold: the markup those dialects
consume is gone and the text they show is kept."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from citeline.corpus import Corpus, Document
from citeline.corpus.formats import inline_bound
from citeline.corpus.formats.cell_bound import MAX_CELLS_PER_MB, TOO_MANY_CELLS
from citeline.corpus.formats.includes import MAX_AUTO_APPENDED, expand
from citeline.corpus.formats.inline_bound import TOO_MANY_INLINE
from citeline.corpus.formats.line_bound import MAX_LINES_PER_MB, TOO_MANY_LINES, within_lines
from citeline.corpus.formats.markdown import MAX_NESTING, TOO_DEEP, read
from citeline.corpus.formats.origin import SourceFile
from citeline.corpus.formats.rejected import Omitted

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


NESTED_TABS = """\
# Metadata

## Readme

=== ":octicons-file-code-16: pyproject.toml"

    === "Simple"
        The file extension must be `.md`.

        ```toml
        readme = "README.md"
        ```

    === "Complex"
        The `content-type` field must be set.

        ===+ "File"
            A `charset` field may also be set.

            ```toml
            readme = {"file" = "README.md"}
            ```
        ===! "Text"
            | key | value |
            |-----|-------|
            | `text` | the description |

!!! note
    Always included in source distributions.
"""


def test_content_tabs_read_as_their_labels_and_their_bodies_as_markdown() -> None:
    text = _sections(NESTED_TABS)["page#readme"].text
    assert text == (
        "Readme\n\n:octicons-file-code-16: pyproject.toml\n\nSimple\n\n"
        'The file extension must be .md.\n\nreadme = "README.md"\n\nComplex\n\n'
        "The content-type field must be set.\n\nFile\n\nA charset field may also be set.\n\n"
        'readme = {"file" = "README.md"}\n\nText\n\nkey\n\nvalue\n\ntext\n\n'
        "the description\n\nNote\n\nAlways included in source distributions."
    )


def test_an_admonition_inside_a_list_item_stays_in_the_item() -> None:
    text = _text("# A\n\n1. Install it.\n\n    !!! tip\n        Use pipx.\n\n2. Run it.\n")
    assert "1. Install it.\n\nTip\n\nUse pipx.\n\n2. Run it." in text


def test_near_misses_of_a_tab_stay_text_and_a_tab_in_code_stays_code() -> None:
    text = _text(
        '# A\n\n=== Unquoted\n    indented code\n\n```\n=== "In code"\n    kept\n```\n\n'
        '=== "Tab"\n    Body.\nNot in the tab.\n'
    )
    assert "=== Unquoted" in text and "indented code" in text
    assert '=== "In code"\n    kept' in text
    # A line indented less than the tab's body ends the tab: it is a paragraph of its own.
    assert text.endswith("Tab\n\nBody.\nNot in the tab.")


def test_a_fence_left_open_in_a_tab_ends_with_the_tab() -> None:
    text = _text('# A\n\n=== "Tab"\n    ```\n    open(\n\nAfter the tab, *prose*.\n')
    assert text.endswith("open(\n\nAfter the tab, prose.")


def test_a_shorter_fence_does_not_close_a_longer_one() -> None:
    # CommonMark: a closing fence is at least as long as the opening one.
    text = _text('# A\n\n````\n```\n=== "Not a tab"\n```\n````\n\n=== "Tab"\n    Body.\n')
    assert '```\n=== "Not a tab"\n```' in text and text.endswith("Tab\n\nBody.")


_PIECES = ['=== "T"', "!!! note", '??? tip "Title"', "```", "- item", "", "word"]


@given(
    st.lists(
        st.tuples(st.sampled_from(_PIECES), st.integers(min_value=0, max_value=12)),
        max_size=40,
    )
)
def test_every_word_written_outside_the_markup_is_kept_whatever_the_nesting(
    lines: list[tuple[str, int]],
) -> None:
    numbered = [
        " " * indent + (f"{piece} w{number}" if piece in {"- item", "word"} else piece)
        for number, (piece, indent) in enumerate(lines)
    ]
    text = _text("# Page\n\n" + "\n".join(numbered) + "\n")
    for number, (piece, _) in enumerate(lines):
        if piece in {"- item", "word"}:
            assert f"w{number}" in text


def test_thousands_of_nested_tabs_keep_the_text_at_the_bottom() -> None:
    # What it costs is a row of benchmarks/hostile_files.py, not a timing here.
    depth = 3000
    page = "# Deep\n\n" + "".join(f'{" " * 4 * level}=== "T{level}"\n' for level in range(depth))
    page += " " * 4 * depth + "The bottom.\n"
    text = _text(page)
    assert "T2999" in text and "The bottom." in text


FOOTNOTES = """\
# Notes

A claim[^1] and another[^note]. An undefined[^x] stays, and so does `code [^1]`.

[^1]: The first source.
    Its second line.

    A second paragraph of it.

[^note]:
    Body on the lines below.

After the notes.
"""


def test_footnote_markers_show_no_word_and_their_definitions_keep_their_text() -> None:
    assert _text(FOOTNOTES) == (
        "Notes\n\nA claim and another. An undefined[^x] stays, and so does code [^1].\n\n"
        "The first source.\nIts second line.\n\nA second paragraph of it.\n\n"
        "Body on the lines below.\n\nAfter the notes."
    )


def test_a_footnote_marker_in_a_title_is_not_part_of_it() -> None:
    documents = _sections("# Page\n\nx\n\n## Origins[^1]\n\nOld.\n\n[^1]: Since 2004.\n")
    assert documents["page#origins"].title == "Page › Origins"


def test_abbreviation_definitions_show_nothing() -> None:
    text = _text(
        "# Glossary\n\nUpload to PyPI.\n\n*[PyPI]: Python Package Index\n*[CSS]:\n"
        "    Cascading Style Sheets\n\n*Emphasis* [in brackets]: stays.\n"
    )
    assert text == "Glossary\n\nUpload to PyPI.\n\nEmphasis [in brackets]: stays."


@given(
    st.lists(
        st.sampled_from(["[^1]", "[^1]: ", "[^a b]", "    ", "\n", "\n\n", "`[^1]`", "word", "!"]),
        max_size=30,
    )
)
def test_footnote_markup_in_any_arrangement_keeps_every_word(parts: list[str]) -> None:
    text = _text("# Page\n\n" + "".join(parts))
    assert text.count("word") == parts.count("word")


def _project(tmp_path: Path, snippets: str) -> Path:
    """A project whose mkdocs.yml gives pymdownx.snippets ``snippets`` (YAML lines)."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'demo'\n", "utf-8")
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: Demo\nmarkdown_extensions:\n  - pymdownx.snippets:\n" + snippets, "utf-8"
    )
    (tmp_path / "docs" / ".snippets").mkdir(parents=True)
    return tmp_path / "docs"


def _page(docs: Path, markdown: str) -> dict[str, Document]:
    (docs / "page.md").write_text(markdown, "utf-8")
    origin = SourceFile(
        docs / "page.md", "page", "page.md", BASE + "page/", include_root=docs.parent
    )
    return _sections(markdown, origin=origin)


def test_the_files_snippets_appends_to_every_page_define_its_links(tmp_path: Path) -> None:
    docs = _project(
        tmp_path,
        "      base_path: [docs/.snippets]\n      auto_append: [links.txt, abbrs.txt]\n",
    )
    (docs / ".snippets" / "links.txt").write_text(
        "[PEP 508]: https://peps.python.org/pep-0508/\n", "utf-8"
    )
    (docs / ".snippets" / "abbrs.txt").write_text("*[PyPI]: Python Package Index\n", "utf-8")
    # A shortcut reference is a link only where a definition names it.
    [page] = _page(docs, "# Dependencies\n\nWritten as [PEP 508] strings, from PyPI.\n").values()
    assert page.text == "Dependencies\n\nWritten as PEP 508 strings, from PyPI."


def test_an_appended_file_outside_the_include_root_is_not_read(tmp_path: Path) -> None:
    # What it costs is a row of benchmarks/hostile_files.py, not a timing here.
    (tmp_path / "secret.txt").write_text("OUTSIDE-SECRET\n", "utf-8")
    project = tmp_path / "project"
    project.mkdir()
    many = ", ".join(f"missing{number}.txt" for number in range(10_000))
    docs = _project(project, f"      auto_append: [../secret.txt, {many}]\n")
    (docs / "page.md").write_text("# Page\n\nText.\n", "utf-8")
    expanded = expand(
        "# Page\n\nText.\n", docs / "page.md", include_root=project, ingest_folder=docs
    )
    assert "OUTSIDE-SECRET" not in expanded.text
    assert expanded.dropped == MAX_AUTO_APPENDED and "outside the include root" in " ".join(
        expanded.problems
    )


def test_a_reference_defined_elsewhere_reads_as_its_text_as_autorefs_shows_it() -> None:
    text = _text(
        "# API\n\nSee [PEP 517][] and [the standard][project metadata standard], "
        "[`Extension`][markdown.extensions.Extension] and [defined][d].\n\n[d]: /d/\n"
    )
    assert text == "API\n\nSee PEP 517 and the standard, Extension and defined."


def test_brackets_that_name_no_reference_stay_as_written() -> None:
    text = _text(
        "# Arrays\n\nIndex it as matrix[0][1], mark a note[^1][^2], write `[code][ref]` "
        "and [a shortcut].\n"
    )
    assert text == (
        "Arrays\n\nIndex it as matrix[0][1], mark a note[^1][^2], write [code][ref] "
        "and [a shortcut]."
    )


def test_inline_highlighted_code_shows_without_its_language_prefix() -> None:
    text = _text(
        '# Build\n\nSet `#!toml packages = ["src/foo"]`, run `:::python import os` and '
        "keep `#!<EXE_PATH>`, `#!/bin/sh`, `#!` and `:::`.\n"
    )
    assert text == (
        'Build\n\nSet packages = ["src/foo"], run import os and '
        "keep #!<EXE_PATH>, #!/bin/sh, #! and :::."
    )


def test_attribute_lists_attr_list_takes_off_inline_elements_and_cells_show_nothing() -> None:
    text = _text(
        "# Labels\n\nLabeled `release`{ .label .release }, **`linenums`**{ #linenums }: "
        "*em*{.x} and [a link](x.md){: target=_blank }.\n\n"
        "-   :material-clock:{ .lg .middle } __Set up in 5 minutes__\n\n"
        "| *a* { .foo } | *b*{ .foo } |\n|---|---|\n| 1 | 2 |\n"
    )
    assert text == (
        "Labels\n\nLabeled release, linenums: em and a link.\n\n"
        "• :material-clock: Set up in 5 minutes\n\na\n\nb\n\n1\n\n2"
    )


def test_braces_attr_list_would_not_take_stay_as_written() -> None:
    # In a paragraph attr_list reads a list only on a line of its own; after an element,
    # only with no space between; in a cell, only at its end.
    text = _text(
        "# Braces\n\nText { #id } stays, `code` {.spaced} stays.\n\n"
        "| {not} | { .x } y |\n|---|---|\n"
    )
    assert text == ("Braces\n\nText { #id } stays, code {.spaced} stays.\n\n{not}\n\n{ .x } y")


def test_markdown_inside_a_block_tag_marked_markdown_is_read_as_markdown() -> None:
    text = _text(
        "# Figures\n\n<figure markdown>\n  ![Installation example](demo.gif){ loading=lazy }\n"
        '</figure>\n\n<div class="grid cards" markdown>\n-   __Environments__\n</div>\n'
    )
    assert text == "Figures\n\nInstallation example\n\n• Environments"


def test_a_block_tag_without_the_markdown_attribute_keeps_its_text_raw() -> None:
    text = _text(
        '# Raw\n\n<div data-markdown="1">\n*not emphasis*\n</div>\n\n<div markdownish>\n'
        "__nor strong__\n</div>\n"
    )
    assert text == "Raw\n\n*not emphasis*\n\n__nor strong__"


def test_long_lines_of_near_miss_markup_lose_no_text_after_them() -> None:
    # What it costs is a row of benchmarks/hostile_files.py, not a timing here.
    # Each line took seconds while two parts of a pattern could match the same spaces.
    run = " " * 20_000
    page = "\n\n".join(
        [
            f"# a{{{run}}}x",
            f"!!!{run}x!",
            "<div " + "markdown " * 20_000,
            f"`code`:a:{{.x {run}{{",
            f"| a {{.x{run} |\n|---|\n| b |",
            f"## a{run}#x {{: #x }}",
        ]
    )
    text = _text(page)
    assert text.endswith("b")


# pymdownx.blocks


def test_an_html_blocks_selector_is_no_text_of_the_page() -> None:
    text = _text(
        "# Output\n\nRun it:\n\n/// html | div.result\n```html\n<p>Some text.</p>\n```\n///\n\n"
        "/// define\nApple\n\n- A fruit.\n///\n"
    )
    assert text == "Output\n\nRun it:\n\n<p>Some text.</p>\n\nApple\n\n• A fruit."


def test_a_titled_block_keeps_its_title_and_its_options_show_no_text() -> None:
    text = _text(
        "# Page\n\n/// admonition | Some title\n    type: warning\n    attrs: {class: x}\n\n"
        "Content here.\n///\n\n/// details | Summary\n    open: True\nBody.\n///\n\n"
        "/// tip\nA tip.\n///\n"
    )
    assert text == "Page\n\nSome title\n\nContent here.\n\nSummary\n\nBody.\n\nTip\n\nA tip."


def test_an_indented_line_after_a_docusaurus_admonition_is_its_text() -> None:
    # ":::note" takes no options: what follows is the block's Markdown, code here.
    assert _text("# Page\n\n:::note Title\n\n    indented code\n:::\n") == (
        "Page\n\nTitle\n\nindented code"
    )


def test_options_end_at_the_first_line_that_is_not_indented() -> None:
    text = _text("# Page\n\n/// note | N\n    type: tip\nShown.\n\n    code after a blank\n///\n")
    assert text == "Page\n\nN\n\nShown.\n\ncode after a blank"


# GitHub alerts and Obsidian callouts


def test_an_alert_reads_as_an_admonition_its_label_then_its_body() -> None:
    text = _text(
        "# Install\n\n> [!WARNING]\n> This project is in *maintenance* mode.\n\n"
        "> [!tip]- Fold me\n> Hidden at first.\n>\n> Second paragraph.\n\n"
        "> [!note]\n>\n> After a blank line.\n\n"
        "> [!warning | inline | end]\n> Classed.\n\n> [!note] ### Header in Title\n> Body.\n"
    )
    assert text == (
        "Install\n\nWarning\n\nThis project is in maintenance mode.\n\nFold me\n\n"
        "Hidden at first.\n\nSecond paragraph.\n\nNote\n\nAfter a blank line.\n\n"
        "Warning\n\nClassed.\n\nHeader in Title\n\nBody."
    )


def test_a_marker_that_does_not_open_the_quote_alone_stays_text() -> None:
    text = _text(
        "# Quotes\n\n> See [!NOTE] here.\n\n> A quote\n> [!NOTE]\n\n"
        "Not quoted: [!NOTE]\n\n```md\n> [!TIP]\n> In code.\n```\n\n> \\[!NOTE] escaped\n"
    )
    assert text == (
        "Quotes\n\nSee [!NOTE] here.\n\nA quote\n[!NOTE]\n\nNot quoted: [!NOTE]\n\n"
        "> [!TIP]\n> In code.\n\n[!NOTE] escaped"
    )


# The title MkDocs gives a page of no title and no h1


def _untitled(relative: str, markdown: str = "Intro.\n\n## Usage\n\nBody.\n") -> list[str]:
    origin = SourceFile(Path(relative), relative[:-3], relative, BASE + relative[:-3] + "/")
    return [document.title for document in _sections(markdown, origin=origin).values()]


def test_a_page_of_no_title_is_named_by_its_file_as_mkdocs_names_it() -> None:
    assert _untitled("tutorial/getting-started.md") == ["Getting started", "Usage"]
    assert _untitled("arguments/envvar.md") == ["Envvar", "Usage"]
    assert _untitled("guide/third_party.md") == ["Third party", "Usage"]
    # A name not all in lower case keeps its case; an index takes its folder's name, the
    # site's is "Home".
    assert _untitled("API_reference.md") == ["API reference", "Usage"]
    assert _untitled("commands/index.md") == ["Commands", "Usage"]
    assert _untitled("index.md") == ["Home", "Usage"]
    assert _untitled("README.md") == ["Home", "Usage"]


def test_a_page_with_an_h1_or_a_title_keeps_it_over_its_file_name() -> None:
    assert _untitled("envvar.md", "# Environment variables\n\nIntro.\n") == [
        "Environment variables"
    ]
    assert _untitled("envvar.md", "---\ntitle: From front matter\n---\n\nIntro.\n") == [
        "From front matter"
    ]


# markdown-exec's code blocks


def test_a_code_block_markdown_exec_runs_keeps_its_code_and_no_option() -> None:
    # Its output is made at build time (unknown here); its source is what "source" shows,
    # and the options of the info string are no text, nor do they hide its language.
    text = _text(
        '# Run\n\n```python exec="on" source="tabbed-left" tabs="Source|Result"\n'
        'print("Hello Markdown!")\n```\n\n````md exec="1" source="above"\n'
        '```python exec="true" html="true"\nprint(1)\n```\n````\n'
    )
    assert text == (
        'Run\n\nprint("Hello Markdown!")\n\n```python exec="true" html="true"\nprint(1)\n```'
    )


def test_a_code_block_of_no_exec_option_is_read_as_before() -> None:
    text = _text('# Code\n\n```python title="demo.py"\nx = 1\n```\n')
    assert text == "Code\n\ndemo.py\n\nx = 1"


def test_a_list_written_as_html_in_a_table_cell_keeps_each_item_apart() -> None:
    text = _text(
        "# Markers\n\n| Marker | Examples |\n| --- | --- |\n"
        "| `sys_platform` | <ul><li>linux</li><li>win32</li><li>darwin</li></ul> |\n"
        "| `os_name` | posix<p>java</p> |\n"
    )
    assert "linux\nwin32\ndarwin" in text
    assert "posix\njava" in text


def test_inline_html_that_is_no_block_joins_its_words_as_written() -> None:
    assert _text("# Page\n\nA <span>glued</span>word and <kbd>Ctrl</kbd>+C.\n") == (
        "Page\n\nA gluedword and Ctrl+C."
    )


def test_a_markdown_tag_indented_in_a_list_item_reads_as_the_paragraph_it_is() -> None:
    # Python-Markdown reads a raw HTML block only within 3 spaces of the line's start: in a
    # list item the figure is inline HTML, its image shown, its markup no text.
    page = (
        "# Setup\n\n1. Select an interpreter:\n\n     <figure markdown>\n"
        '         ![Select interpreter](./select.png){ loading=lazy role="img" }\n'
        "     </figure>\n\n2. Run it.\n\n<figure markdown>\n\n![A chart](chart.png)\n\n"
        "</figure>\n"
    )
    assert _text(page) == (
        "Setup\n\n1. Select an interpreter:\n\nSelect interpreter\n\n2. Run it.\n\nA chart"
    )


def test_an_outline_deeper_than_the_parser_reads_is_counted_once_with_what_it_lost() -> None:
    # markdown-it reads 20 levels, a list counting 2: a 10th list's items are dropped.
    outline = "".join(f"{' ' * 4 * level}- Level {level}\n" for level in range(9))
    outline += "".join(f"{' ' * 36}- Lost {n}\n" for n in range(3))
    items = list(read("# Outline\n\n" + outline, SourceFile(Path("o.md"), "o", "o.md", None)))
    assert Omitted(TOO_DEEP, 1) in items
    text = next(item.text for item in items if isinstance(item, Document))
    assert "Level 8" in text and "Lost" not in text


def test_a_page_nested_deeper_than_the_parser_reads_is_counted_and_the_rest_kept() -> None:
    origin = SourceFile(Path("page.md"), "page", "page.md", BASE + "page/")
    deepest = "# Deep\n\n" + ">" * MAX_NESTING + " Lost.\n\nAfter it.\n"
    items = list(read(deepest, origin))
    assert Omitted(TOO_DEEP, 1) in items
    assert [item.text for item in items if isinstance(item, Document)] == ["Deep\n\nAfter it."]
    kept = list(read("# Deep\n\n" + ">" * (MAX_NESTING - 1) + " Kept.\n", origin))
    assert not any(isinstance(item, Omitted) for item in kept)


def test_a_page_of_more_short_lines_than_its_size_allows_is_read_up_to_them_and_counted(
    corpus: Corpus, tmp_path: Path
) -> None:
    # Under a MB, a page may hold MAX_LINES_PER_MB lines: its title, a blank, then lines.
    lines = "".join(f"line{n}\n" for n in range(MAX_LINES_PER_MB))
    (tmp_path / "long.md").write_text("# Long\n\n" + lines, "utf-8")
    (tmp_path / "good.md").write_text("# Good\n\nFine.\n", "utf-8")
    report = corpus.ingest(tmp_path)
    assert report.omitted == {TOO_MANY_LINES: 1} and report.ok
    assert f"dropped 1 {TOO_MANY_LINES}" in report.summary()
    words = corpus.get("long").text.split()  # type: ignore[union-attr]
    assert words[1] == "line0" and words[-1] == f"line{MAX_LINES_PER_MB - 3}"
    assert corpus.get("good") is not None


def test_a_page_of_as_many_lines_as_it_may_hold_is_read_whole() -> None:
    origin = SourceFile(Path("page.md"), "page", "page.md", BASE + "page/")
    lines = "".join(f"line{n}\n" for n in range(MAX_LINES_PER_MB - 2))
    items = list(read("# Long\n\n" + lines + "\n" * 1000, origin))  # blanks past it lose nothing
    assert not any(isinstance(item, Omitted) for item in items)
    [document] = items
    assert isinstance(document, Document)
    assert document.text.split()[-1] == f"line{MAX_LINES_PER_MB - 3}"


def test_a_page_of_long_lines_is_read_whole_however_many_it_holds() -> None:
    # 40 characters a line, the break included, over two MB: the bound grows with the page.
    line = "A sentence of prose as long as most are\n"
    text, cut = within_lines(line * (2 * MAX_LINES_PER_MB + 100))
    assert not cut and len(text) == len(line) * (2 * MAX_LINES_PER_MB + 100)
    text, cut = within_lines("x\n" * (MAX_LINES_PER_MB + 1))
    assert cut and text == "x\n" * (MAX_LINES_PER_MB - 1) + "x"


def _table(columns: int, rows: int) -> str:
    """A table of ``columns`` columns: a header of names, then ``rows`` rows of numbers."""
    header = "|" + "".join(f" c{n} |" for n in range(columns)) + "\n"
    lines = ("|" + " r{0} |" * columns + "\n").format
    return header + "|" + "---|" * columns + "\n" + "".join(lines(n) for n in range(rows))


def test_a_table_of_more_cells_than_its_page_may_hold_is_read_up_to_them_and_counted(
    corpus: Corpus, tmp_path: Path
) -> None:
    # Under a MB, a page's tables may hold MAX_CELLS_PER_MB cells, their headers' too: the
    # rows past them, and the tables after, are left out; the text around them is read.
    columns = 100
    rows = MAX_CELLS_PER_MB // columns  # a row more than fits beside the header
    after = "\n\nAfter it.\n\n" + _table(2, 1) + "\nThe end.\n"
    (tmp_path / "wide.md").write_text("# Wide\n\nBefore.\n\n" + _table(columns, rows) + after)
    (tmp_path / "good.md").write_text("# Good\n\nFine.\n", "utf-8")
    report = corpus.ingest(tmp_path)
    assert report.omitted == {TOO_MANY_CELLS: 1} and report.ok
    assert f"dropped 1 {TOO_MANY_CELLS}" in report.summary()
    words = corpus.get("wide").text.split()  # type: ignore[union-attr]
    assert words[:3] == ["Wide", "Before.", "c0"]
    assert words.count(f"r{rows - 2}") == columns and f"r{rows - 1}" not in words
    assert words[-5:] == [f"r{rows - 2}", "After", "it.", "The", "end."]


def test_a_table_of_as_many_cells_as_its_page_may_hold_is_read_whole() -> None:
    columns = 100
    rows = MAX_CELLS_PER_MB // columns - 1
    origin = SourceFile(Path("page.md"), "page", "page.md", BASE + "page/")
    items = list(read("# Wide\n\n" + _table(columns, rows) + "\nAfter.\n", origin))
    assert not any(isinstance(item, Omitted) for item in items)
    [document] = items
    assert isinstance(document, Document)
    assert document.text.split()[-columns - 1 :] == [f"r{rows - 1}"] * columns + ["After."]


def test_a_table_within_the_bound_reads_as_its_cells() -> None:
    assert _text("# T\n\n" + _table(2, 2) + "\nAfter.\n") == (
        "T\n\nc0\n\nc1\n\nr0\n\nr0\n\nr1\n\nr1\n\nAfter."
    )


def test_a_page_of_more_inline_elements_than_its_parse_may_hold_is_read_up_to_them(
    corpus: Corpus, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each link is three tokens, each space between them one: the title's one and 11 more
    # read the first three links; the rest of the paragraph, and the page after it, no text.
    monkeypatch.setattr(inline_bound, "MAX_INLINE_TOKENS", 12)
    links = "[one](1.md) [two](2.md) [three](3.md) [four](4.md)"
    (tmp_path / "links.md").write_text(f"# Links\n\nIntro {links}.\n\n## Later\n\nNot read.\n")
    (tmp_path / "good.md").write_text("# Good\n\nFine.\n", "utf-8")
    report = corpus.ingest(tmp_path)
    assert report.omitted == {TOO_MANY_INLINE: 1} and report.ok
    assert f"dropped 1 {TOO_MANY_INLINE}" in report.summary()
    assert corpus.get("links").text == "Links\n\nIntro one two three"  # type: ignore[union-attr]
    assert corpus.get("good").text == "Good\n\nFine."  # type: ignore[union-attr]


def test_a_page_of_links_within_the_bound_reads_whole() -> None:
    links = " ".join(f"[link {n}](page-{n}.md)" for n in range(1000))
    origin = SourceFile(Path("page.md"), "page", "page.md", BASE + "page/")
    items = list(read(f"# Links\n\nIntro {links}.\n\n## Later\n\nRead.\n", origin))
    assert not any(isinstance(item, Omitted) for item in items)
    texts = [item.text for item in items if isinstance(item, Document)]
    assert texts[0].endswith("link 999.") and texts[1] == "Later\n\nRead."


def test_the_line_bound_counts_lines_as_the_reader_splits_them() -> None:
    # A form feed or a line separator ends a line for str.splitlines; CRLF is one end.
    for end in ("\f", "\u2028", "\r\n", "\r"):
        text, cut = within_lines(("x" + end) * (MAX_LINES_PER_MB + 1))
        assert cut and len(text.splitlines()) == MAX_LINES_PER_MB
