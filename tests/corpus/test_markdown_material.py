"""What Material for MkDocs and pymdown-extensions show of a page's lists, checkboxes, icons,
code annotations, diagrams and code blocks' titles is what its sections' text holds, under
the settings of the ``mkdocs.yml`` that governs the page; a page under none reads as
CommonMark."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from citeline.corpus import Document
from citeline.corpus.formats.code_annotations import annotated
from citeline.corpus.formats.markdown import read
from citeline.corpus.formats.origin import SourceFile

BASE = "https://docs.example.org/"


def _documents(markdown: str, *, project: Path | None = None) -> list[Document]:
    """The documents of ``markdown`` read as the page ``docs/page.md`` of ``project`` (whose
    ``mkdocs.yml`` then decides the dialect), or as a page with no project around it."""
    if project is None:
        origin = SourceFile(Path("page.md"), "page", "page.md", BASE + "page/")
    else:
        page = project / "docs" / "page.md"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(markdown, "utf-8")
        origin = SourceFile(page, "page", "page.md", BASE + "page/", include_root=project)
    return [item for item in read(markdown, origin) if isinstance(item, Document)]


def _text(markdown: str, *, project: Path | None = None) -> str:
    """The text of ``markdown`` read as ``_documents`` reads it, its sections joined."""
    return "\n\n".join(document.text for document in _documents(markdown, project=project))


def _project(tmp_path: Path, settings: str) -> Path:
    """A project whose ``mkdocs.yml`` holds ``settings`` (YAML) after its site name, in a
    folder of its own under ``tmp_path`` (settings are cached by the file's mtime)."""
    project = tmp_path / f"project{len(list(tmp_path.iterdir()))}"
    project.mkdir()
    (project / "pyproject.toml").write_text("[project]\nname = 'demo'\n", "utf-8")
    (project / "mkdocs.yml").write_text("site_name: Demo\n" + settings, "utf-8")
    return project


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


def test_under_pymdownx_fancylists_a_list_counts_from_its_first_number(tmp_path: Path) -> None:
    page = "# Steps\n\n3. Third.\n4. Fourth.\n"
    fancy = _project(tmp_path, "markdown_extensions:\n  - pymdownx.fancylists:\n      x: 1\n")
    assert _text(page, project=fancy) == "Steps\n\n3. Third.\n\n4. Fourth."
    # Its block of options shows no title.
    block = "# Steps\n\n/// fancylists | type=a start=9\n1. Ninth.\n///\n"
    text = _text(block, project=fancy)
    assert "type=a" not in text and text.endswith("Ninth.")


def test_an_item_that_opens_with_code_keeps_its_place_in_the_count() -> None:
    text = _text("# Steps\n\n1. ```sh\n   make\n   ```\n2. Second.\n")
    assert text == "Steps\n\nmake\n\n2. Second."


def test_ten_thousand_items_from_a_nine_digit_start_keep_their_numbers() -> None:
    # What it costs is a row of benchmarks/hostile_files.py, not a timing here.
    page = "# Long\n\n" + "".join(f"{999_999_990 + n}. item\n" for n in range(10_000))
    text = _text(page)
    assert text.startswith("Long\n\n999999990. item") and text.endswith("1000009989. item")


@given(st.lists(st.sampled_from(["1. w", "- w", "    ", "", "text w", "```"]), max_size=30))
def test_every_word_of_any_arrangement_of_lists_is_kept(lines: list[str]) -> None:
    numbered = [line.replace("w", f"w{n}") for n, line in enumerate(lines)]
    text = _text("# Page\n\n" + "\n".join(numbered) + "\n")
    for n, line in enumerate(lines):
        if "w" in line:
            assert f"w{n}" in text


# Task lists and icons

TASKS = (
    "# Features\n\n- [x] Login routes\n- [ ] SAML\n    - [X] [OAuth2](oauth.md) flow\n"
    "* [x]no space\n"
)


def test_a_task_items_checkbox_reads_as_the_box_it_shows_not_as_brackets() -> None:
    # With no mkdocs.yml, as GitHub, Docusaurus and Hugo render task lists.
    assert _text(TASKS) == (
        "Features\n\n\u2611 Login routes\n\n\u2610 SAML\n\n\u2611 OAuth2 flow\n\n• [x]no space"
    )


def test_under_mkdocs_a_checkbox_needs_pymdownx_tasklist(tmp_path: Path) -> None:
    plain = _text(TASKS, project=_project(tmp_path, ""))
    assert "• [x] Login routes" in plain and "• [ ] SAML" in plain
    tasks = _project(tmp_path, "markdown_extensions:\n  - pymdownx.tasklist:\n      x: 1\n")
    assert "\u2611 Login routes\n\n\u2610 SAML" in _text(TASKS, project=tasks)


def test_brackets_that_open_no_list_item_stay_as_written() -> None:
    text = _text("# Box\n\n[x] is not a task here, nor `- [x] code`.\n\n```\n- [x] code\n```\n")
    assert text == "Box\n\n[x] is not a task here, nor - [x] code.\n\n- [x] code"


ICONS = (
    '# Links :material-link:\n\n=== ":octicons-file-code-16: pyproject.toml"\n\n'
    "    [Open :material-open-in-new:](https://example.org/)\n\n"
    "Click :fontawesome-brands-github: GitHub, mark it :white_check_mark: or :x:, "
    "at 10:30:45, in `:material-code:` and :unknown-set-icon:; the **:material-play: Run** "
    "button.\n\n"
    "-   :material-clock:{ .lg .middle } __Set up__\n"
)


def test_icons_show_no_text_where_pymdownx_emoji_draws_them(tmp_path: Path) -> None:
    project = _project(tmp_path, "markdown_extensions:\n  - pymdownx.emoji:\n      x: 1\n")
    assert _text(ICONS, project=project) == (
        "Links\n\npyproject.toml\n\nOpen\n\n"
        "Click GitHub, mark it :white_check_mark: or :x:, at 10:30:45, in :material-code: "
        "and :unknown-set-icon:; the Run button.\n\n• Set up"
    )


def test_without_pymdownx_emoji_a_shortcode_is_the_text_it_shows(tmp_path: Path) -> None:
    for text in (_text(ICONS), _text(ICONS, project=_project(tmp_path, ""))):
        assert "Open :material-open-in-new:" in text and ":octicons-file-code-16:" in text


def test_a_line_of_a_thousand_shortcodes_shows_none_of_them(tmp_path: Path) -> None:
    # What it costs is a row of benchmarks/hostile_files.py, not a timing here.
    project = _project(tmp_path, "markdown_extensions:\n  - pymdownx.emoji\n")
    line = ":material-" + "a-" * 20_000 + " " + ":material-x:" * 1000 + " end"
    text = _text("# Page\n\n" + line + "\n", project=project)
    assert text.endswith(" end") and ":material-x:" not in text


# Code annotations

ANNOTATED = """\
# Beanie

Initialize it:

```py
await init_beanie(
    database=db,  # (1)!
    document_models=[User],  # the models (2)
)
```

1. The `db` Motor database defined above.

2. Add your **own** models too.

After.
"""
ANNOTATE_FEATURE = "theme:\n  name: material\n  features:\n    - content.code.annotate\n"


def test_code_annotations_read_as_notes_at_the_lines_they_annotate(tmp_path: Path) -> None:
    text = _text(ANNOTATED, project=_project(tmp_path, ANNOTATE_FEATURE))
    assert text == (
        "Beanie\n\nInitialize it:\n\nawait init_beanie(\n"
        "    database=db,  # The db Motor database defined above.\n"
        "    document_models=[User],  # the models (Add your own models too.)\n)\n\nAfter."
    )


def test_a_code_block_marked_annotate_is_annotated_without_the_theme_feature() -> None:
    text = _text("# Config\n\n``` { .yaml .annotate }\nport: 80 # (1)!\n```\n\n1. The port.\n")
    assert text == "Config\n\nport: 80 # The port."


def test_without_annotations_turned_on_markers_and_notes_stay_as_written(tmp_path: Path) -> None:
    for text in (_text(ANNOTATED), _text(ANNOTATED, project=_project(tmp_path, ""))):
        assert "database=db,  # (1)!" in text
        assert "1. The db Motor database defined above.\n\n2. Add your own models too." in text


def test_a_marker_takes_the_comment_it_stands_in_and_no_more() -> None:
    notes = ["N1", "N2"]
    cases = {
        "a // b  # (1)!": "a // b  # N1",  # the last opener before it opens the comment
        "<div/> <!-- (2)! --> <p/>": "<div/> <!-- N2 --> <p/>",
        "/* x */ y(1)  -- (2)!": "/* x */ y(1)  -- N2",  # a closed comment holds none
        "x  # a (1) b (2)! c": "x  # a (N1) N2",
        "cmd --flag (1)": "cmd --flag (1)",  # "--" opens a comment only before a space
        "# (1)!\n# (1)!": "\n# N1",  # the last marker of a note shows it
    }
    for code, shown in cases.items():
        assert annotated(code, notes)[0] == shown


def test_what_is_no_annotation_stays_as_written(tmp_path: Path) -> None:
    project = _project(tmp_path, ANNOTATE_FEATURE)
    # Markers outside a comment, past the list, in a block of no language or of no list;
    # a list that follows no code block; a paragraph holding an element ends the search.
    text = _text(
        '# Page\n\n```py\nprint("(1)")  # (3)!\nx = 1  # (1)!\n```\n\n1. One.\n2. Two.\n\n'
        "```\ny  # (1)!\n```\n\n1. Kept.\n\n```py\nz  # (1)!\n```\n\nSee `z`:\n\n1. Kept too.\n\n"
        "```py\nw  # (1)!\n```\n",
        project=project,
    )
    assert text == (
        'Page\n\nprint("(1)")  # (3)!\nx = 1  # One.\n\n2. Two.\n\n'
        "y  # (1)!\n\n1. Kept.\n\nz  # (1)!\n\nSee z:\n\n1. Kept too.\n\nw  # (1)!"
    )


def test_a_paragraph_of_plain_text_before_the_list_is_passed_as_material_passes_it(
    tmp_path: Path,
) -> None:
    text = _text(
        "# Page\n\n```js\nrun(); // (1)!\n```\n\nPlain words.\n\n1. Runs it.\n",
        project=_project(tmp_path, ANNOTATE_FEATURE),
    )
    assert text == "Page\n\nrun(); // Runs it.\n\nPlain words."


def test_a_thousand_markers_of_one_note_show_it_once(tmp_path: Path) -> None:
    # What it costs is a row of benchmarks/hostile_files.py, not a timing here.
    project = _project(tmp_path, ANNOTATE_FEATURE)
    lines = "x = 1  # (1)!\n" * 1000 + "# " + "(1) /* (2)! " * 20_000 + "\n"
    page = f"# Page\n\n```py\n{lines}```\n\n1. The note.\n2. Second.\n"
    text = _text(page, project=project)
    assert text.count("The note.") == 1 and text.count("Second.") == 1
    assert "(1)!" not in text and text.startswith("Page\n\nx = 1\nx = 1\n")


@given(
    st.lists(
        st.sampled_from(["```py", "```", "a  # (1)!", "b  # c (2)", "1. w", "- w", "", "p w"]),
        max_size=30,
    )
)
def test_every_word_of_a_note_is_kept_wherever_markers_and_lists_fall(lines: list[str]) -> None:
    numbered = [line.replace(" w", f" w{n}") for n, line in enumerate(lines)]
    text = _text("# Page\n\n``` { .py .annotate }\n" + "\n".join(numbered) + "\n")
    for n, line in enumerate(lines):
        if line.endswith(" w"):
            assert f"w{n}" in text


# Diagrams

MERMAID = """\
# Overview

```mermaid
flowchart TB
    MANAGER{UserManager}
    subgraph ROUTERS[Routers]
        AUTH[[get_auth_router]]
    end
    MANAGER -->|injects| ROUTERS
```
"""


def test_a_mermaid_diagram_stays_as_the_source_the_page_shows_without_javascript(
    tmp_path: Path,
) -> None:
    # pymdownx.superfences' fence_code_format writes <pre class="mermaid"><code>, the source
    # as written, which Mermaid's script draws over; the labels it draws are all in it.
    project = _project(
        tmp_path,
        "markdown_extensions:\n  - pymdownx.superfences:\n      custom_fences:\n"
        "        - name: mermaid\n          class: mermaid\n",
    )
    for text in (_text(MERMAID), _text(MERMAID, project=project)):
        assert text == (
            "Overview\n\nflowchart TB\n    MANAGER{UserManager}\n    subgraph ROUTERS[Routers]\n"
            "        AUTH[[get_auth_router]]\n    end\n    MANAGER -->|injects| ROUTERS"
        )


# Code block titles

SUPERFENCES = (
    "markdown_extensions:\n  - admonition\n  - pymdownx.highlight\n  - pymdownx.superfences\n"
)


def test_a_code_blocks_title_is_the_line_the_page_shows_above_it(tmp_path: Path) -> None:
    # Ansible Lint 26.10.1's configuring.md writes '```yaml title=".ansible-lint-ignore"'
    # and, inside a warning, rules/yaml.md '```yaml title=".yamllint"': Material prints the
    # file's name above each block, and the index kept only the code.
    text = _text(
        '# Configuration\n\nIgnore rules per file:\n\n```yaml title=".ansible-lint-ignore"\n'
        "playbook.yml package-latest\n```\n\n!!! warning\n\n"
        '    ```yaml title=".yamllint"\n    rules: {}\n    ```\n\n'
        "``` { .python title='main.py' }\nimport os\n```\n",
        project=_project(tmp_path, SUPERFENCES),
    )
    assert text == (
        "Configuration\n\nIgnore rules per file:\n\n.ansible-lint-ignore\n\n"
        "playbook.yml package-latest\n\nWarning\n\n.yamllint\n\nrules: {}\n\nmain.py\n\nimport os"
    )


def test_a_code_blocks_title_shows_only_where_the_pages_renderer_shows_one(
    tmp_path: Path,
) -> None:
    markdown = '# Page\n\n```python title="main.py"\nimport os\n```\n'
    # Python-Markdown's own fenced_code makes a title an attribute, or a Pygments option
    # for whole documents only; superfences without Pygments makes it an attribute.
    plain = _project(tmp_path, "markdown_extensions: [attr_list]\n")
    assert _text(markdown, project=plain) == "Page\n\nimport os"
    javascript = _project(
        tmp_path,
        "markdown_extensions:\n  - pymdownx.highlight:\n      use_pygments: false\n"
        "  - pymdownx.superfences\n",
    )
    assert _text(markdown, project=javascript) == "Page\n\nimport os"
    # Docusaurus shows it: a page under no mkdocs.yml reads so.
    assert _text(markdown) == "Page\n\nmain.py\n\nimport os"


def test_an_info_string_of_a_hundred_thousand_titles_keeps_its_code() -> None:
    # What it costs is a row of benchmarks/hostile_files.py, not a timing here.
    markdown = "# Page\n\n```python " + 'title="x title=' * 100_000 + "\ncode\n```\n"
    assert _text(markdown).endswith("code")


# Headings' attribute lists, as attr_list reads them


def _titles(markdown: str, *, project: Path | None = None) -> dict[str, str]:
    """Each section's id and title, ``markdown`` read as ``_documents`` reads it."""
    return {item.id: item.title for item in _documents(markdown, project=project)}


ATTRIBUTE_WORDS = """\
# Options

Intro.

### `archs` {: #archs cmd-line env-var toml }

Architectures.

## Android {: android}

A platform.

## `title` {: #title data-label="a b" }

Quoted.
"""


def test_under_attr_list_a_headings_valueless_attributes_leave_title_and_anchor(
    tmp_path: Path,
) -> None:
    project = _project(tmp_path, "markdown_extensions:\n  - attr_list\n")
    assert _titles(ATTRIBUTE_WORDS, project=project) == {
        "page": "Options",
        "page#archs": "Options › archs",
        "page#android": "Options › Android",
        "page#title": "Options › title",
    }


def test_without_attr_list_braces_of_words_stay_in_the_title(tmp_path: Path) -> None:
    # Docusaurus and Hugo read "{#id}" only; "{: android}" is the text their pages show.
    for titles in (
        _titles(ATTRIBUTE_WORDS),
        _titles(ATTRIBUTE_WORDS, project=_project(tmp_path, "")),
    ):
        assert titles["page#android-android"] == "Options › Android {: android}"


def test_braces_that_do_not_end_the_heading_or_follow_no_space_stay(tmp_path: Path) -> None:
    project = _project(tmp_path, "markdown_extensions:\n  - attr_list\n")
    titles = _titles(
        "# Page\n\nx\n\n## The {name} field\n\ny\n\n## dict{a}\n\nz\n\n## Use `{x}`\n\nw\n",
        project=project,
    )
    assert list(titles.values())[1:] == [
        "Page › The {name} field",
        "Page › dict{a}",
        "Page › Use {x}",
    ]


def test_a_heading_of_many_spaced_braces_keeps_its_name(tmp_path: Path) -> None:
    # What it costs is a row of benchmarks/hostile_files.py, not a timing here.
    project = _project(tmp_path, "markdown_extensions:\n  - attr_list\n")
    heading = "## Name" + " {" * 20_000 + " }" + " " * 20_000 + "x}"
    titles = _titles("# Page\n\nx\n\n" + heading + "\n\nBody.\n", project=project)
    assert list(titles.values())[1] == "Page › Name"


# Attribute lists glued to the elements pymdownx makes of text


def test_under_attr_list_a_list_glued_to_a_word_leaves_no_text(tmp_path: Path) -> None:
    # MagicLink's links of bare addresses and shorthands, Caret's superscripts: elements
    # this parser leaves as text, after which attr_list takes the list off.
    project = _project(tmp_path, "markdown_extensions:\n  - attr_list\n  - pymdownx.magiclink\n")
    text = _text(
        "# Links\n\nMail fake.email@email.com{.magiclink-ignore}, see #1{ .magiclink-ignore }"
        ' and ^†^{#_fn_1}.\n\n[=85% "85%"]{: .candystripe}\n',
        project=project,
    )
    assert text == 'Links\n\nMail fake.email@email.com, see #1 and ^†^.\n\n[=85% "85%"]'


def test_a_glued_list_stays_without_attr_list_and_spaced_or_latex_braces_stay(
    tmp_path: Path,
) -> None:
    page = "# Math\n\nSee #1{.magiclink-ignore}, text { .spaced } and \\sum_{i=0}^n x.\n"
    assert _text(page) == (
        "Math\n\nSee #1{.magiclink-ignore}, text { .spaced } and \\sum_{i=0}^n x."
    )
    project = _project(tmp_path, "markdown_extensions:\n  - attr_list\n")
    assert _text(page, project=project) == "Math\n\nSee #1, text { .spaced } and \\sum_{i=0}^n x."


# Keys


KEYS = (
    "# Shortcuts\n\nPress ++ctrl+alt+delete++, then ++cmd+shift+p++ or ++enter++; "
    '++ctrl+"My Key"++ and ++page-up++, ++f5++, ++esc++. In code: `++ctrl+c++`.\n'
)


def test_under_pymdownx_keys_a_combination_reads_as_the_keys_the_page_shows(
    tmp_path: Path,
) -> None:
    project = _project(tmp_path, "markdown_extensions:\n  - pymdownx.keys\n")
    assert _text(KEYS, project=project) == (
        "Shortcuts\n\nPress Ctrl+Alt+Del, then Cmd+Shift+P or Enter; Ctrl+My Key and "
        "Page Up, F5, Esc. In code: ++ctrl+c++."
    )


def test_without_pymdownx_keys_a_combination_stays_as_written(tmp_path: Path) -> None:
    for text in (_text(KEYS), _text(KEYS, project=_project(tmp_path, ""))):
        assert "Press ++ctrl+alt+delete++, then ++cmd+shift+p++" in text


def test_pluses_that_make_no_combination_stay_as_written(tmp_path: Path) -> None:
    project = _project(tmp_path, "markdown_extensions:\n  - pymdownx.keys\n")
    page = "# C\n\nIn C++ and C++ again, i++ + ++j, a+++b, ++ ++, ++-.\n"
    assert _text(page, project=project) == _text(page)


# Definition lists


DEFINITIONS = (
    "# Fruit\n\nApple\n:   Pomaceous fruit of plants of the genus Malus in\n"
    "    the family Rosaceae.\n\n    An apple a day.\n\nOrange\n:   A citrus fruit.\n"
    ":   A colour.\n\nMethods\n\n:   `render`: shows it.\n"
)


def test_under_def_list_a_term_and_its_definition_read_as_the_page_shows_them(
    tmp_path: Path,
) -> None:
    project = _project(tmp_path, "markdown_extensions:\n  - def_list\n")
    assert _text(DEFINITIONS, project=project) == (
        "Fruit\n\nApple\n\nPomaceous fruit of plants of the genus Malus in\nthe family "
        "Rosaceae.\n\nAn apple a day.\n\nOrange\n\nA citrus fruit.\n\nA colour.\n\n"
        "Methods\n\nrender: shows it."
    )


def test_without_def_list_the_colon_of_a_definition_stays_as_written(tmp_path: Path) -> None:
    for text in (_text(DEFINITIONS), _text(DEFINITIONS, project=_project(tmp_path, ""))):
        assert "Apple\n:   Pomaceous fruit" in text and "Methods\n\n:   render" in text


def test_a_colon_opening_the_page_is_no_definition_and_a_terms_attribute_list_goes(
    tmp_path: Path,
) -> None:
    project = _project(tmp_path, "markdown_extensions:\n  - def_list\n  - attr_list\n")
    page = ":   Not a definition.\n\nApple { #apple }\n:   Fruit.\n"
    assert _text(page, project=project) == ":   Not a definition.\n\nApple\n\nFruit."
