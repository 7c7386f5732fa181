"""A page that shows no h1 of its own is titled as its site's navigation titles it, the
title its sections' paths start with; a page with its own h1, or a front matter title,
keeps it, and a page the navigation does not name keeps its file's name."""

from __future__ import annotations

from pathlib import Path

from citeline.corpus import Document
from citeline.corpus.formats.markdown import read
from citeline.corpus.formats.mkdocs_nav import MAX_DEPTH, MAX_ENTRIES, nav_title, shown
from citeline.corpus.formats.origin import SourceFile

BASE = "https://docs.example.org/"

NAV = """\
site_name: Demo
nav:
  - Home: index.md
  - Tutorial:
    - Background Tasks: tutorial/background.md
    - ./tutorial/plain.md
    - <code>pkg.&#8203;module</code>: reference/module.md
  - Elsewhere: https://example.com/background.md
"""


def _project(tmp_path: Path, settings: str = NAV) -> Path:
    project = tmp_path / f"project{len(list(tmp_path.iterdir()))}"
    (project / "docs" / "tutorial").mkdir(parents=True)
    (project / "pyproject.toml").write_text("[project]\nname = 'demo'\n", "utf-8")
    (project / "mkdocs.yml").write_text(settings, "utf-8")
    return project


def _titles(project: Path, relative: str, markdown: str) -> dict[str, str]:
    page = project / "docs" / relative
    page.parent.mkdir(parents=True, exist_ok=True)
    page.write_text(markdown, "utf-8")
    doc_id = relative.removesuffix(".md")
    origin = SourceFile(page, doc_id, relative, BASE + doc_id + "/", include_root=project)
    return {item.id: item.title for item in read(markdown, origin) if isinstance(item, Document)}


def test_a_page_that_opens_with_a_paragraph_is_titled_by_its_navigation_entry(
    tmp_path: Path,
) -> None:
    titles = _titles(
        _project(tmp_path),
        "tutorial/background.md",
        "Run work after the response.\n\n## Using it\n\nAdd a task.\n",
    )
    assert titles == {
        "tutorial/background": "Background Tasks",
        "tutorial/background#using-it": "Background Tasks › Using it",
    }


def test_a_page_with_its_own_h1_or_front_matter_title_keeps_it(tmp_path: Path) -> None:
    project = _project(tmp_path)
    own = _titles(project, "tutorial/background.md", "# Tasks in the background\n\nText.\n")
    assert own == {"tutorial/background": "Tasks in the background"}
    front = _titles(project, "tutorial/background.md", "---\ntitle: Chosen\n---\nText.\n")
    assert front == {"tutorial/background": "Chosen"}


def test_a_page_the_navigation_names_without_a_title_or_not_at_all_keeps_its_name(
    tmp_path: Path,
) -> None:
    project = _project(tmp_path)
    assert _titles(project, "tutorial/plain.md", "Text.\n") == {"tutorial/plain": "plain"}
    assert _titles(project, "tutorial/other.md", "Text.\n") == {"tutorial/other": "other"}


def test_a_navigation_title_written_as_html_reads_as_the_text_it_shows(tmp_path: Path) -> None:
    project = _project(tmp_path)
    titles = _titles(project, "reference/module.md", "Functions.\n")
    assert titles == {"reference/module": "pkg.module"}
    assert shown("<b>A</b> &amp;  B\u200b") == "A & B"


def test_a_link_elsewhere_titles_no_page_and_no_project_means_no_title(tmp_path: Path) -> None:
    project = _project(tmp_path)
    # "Elsewhere" links to another site: the page of the same name here is not it.
    (project / "docs" / "background.md").write_text("Text.\n", "utf-8")
    assert nav_title(project / "docs" / "background.md") is None
    lone = tmp_path / "lone"
    lone.mkdir()
    (lone / "page.md").write_text("Text.\n", "utf-8")
    assert nav_title(lone / "page.md") is None


def test_a_navigation_of_many_entries_or_deep_sections_is_read_to_a_bound(
    tmp_path: Path,
) -> None:
    entries = "".join(f"  - Page {n}: p{n}.md\n" for n in range(MAX_ENTRIES + 5))
    project = _project(tmp_path, "site_name: Demo\nnav:\n" + entries)
    assert nav_title(project / "docs" / "p0.md") == "Page 0"
    assert nav_title(project / "docs" / f"p{MAX_ENTRIES + 4}.md") is None
    # TOML nests arrays as deep as it is written; the navigation is read 32 levels deep.
    for levels, expected in ((20, "Deep"), (MAX_DEPTH + 8, None)):
        project = tmp_path / f"deep{levels}"
        (project / "docs").mkdir(parents=True)
        nav = "[" * levels + '{ "Deep" = "deep.md" }' + "]" * levels
        (project / "zensical.toml").write_text(
            f'[project]\nsite_name = "Demo"\nnav = {nav}\n', "utf-8"
        )
        assert nav_title(project / "docs" / "deep.md") == expected


def test_a_zensical_toml_navigation_titles_its_pages(tmp_path: Path) -> None:
    project = tmp_path / "toml"
    (project / "docs").mkdir(parents=True)
    (project / "zensical.toml").write_text(
        '[project]\nsite_name = "Demo"\nnav = [{ "Guide" = [{ "Loading" = "load.md" }] }]\n',
        "utf-8",
    )
    assert _titles(project, "load.md", "Load it.\n") == {"load": "Loading"}
