"""A page whose scripts write all it shows (a client-rendered site's shell) is counted
under its own name, not read as an empty page, and so are the Markdown files it loads as
its navigation; a page of text with scripts beside it is read as before. The shell is the
``index.html`` Docsify 5.0 (docsify-cli 5.0) writes."""

from __future__ import annotations

from pathlib import Path

from citeline.corpus import Document
from citeline.corpus.formats import html, read_source, source_files
from citeline.corpus.formats.link_lists import LINK_LISTS
from citeline.corpus.formats.origin import SourceFile
from citeline.corpus.formats.rejected import Omitted
from citeline.corpus.formats.script_pages import NAVIGATION_FILES, SCRIPT_PAGES

DOCSIFY = """<!DOCTYPE html>
<html>
<head>
  <meta charset="utf-8">
  <title>Document</title>
  <link rel="stylesheet" href="//cdn.jsdelivr.net/npm/docsify@5/dist/themes/core.min.css">
</head>
<body>
  <div id="app"></div>
  <script>
    window.$docsify = { loadSidebar: true, name: '', repo: '' }
  </script>
  <!-- Docsify resource -->
  <script src="//cdn.jsdelivr.net/npm/docsify@5"></script>
  <noscript>You need to enable JavaScript to read this site.</noscript>
</body>
</html>"""


def _read(page: str) -> list[object]:
    origin = SourceFile(Path("index.html"), "index", "index.html")
    return list(html.read(page, origin))


def test_a_shell_a_script_fills_is_counted_as_a_page_a_script_writes() -> None:
    assert _read(DOCSIFY) == [Omitted(SCRIPT_PAGES, 1)]


def test_a_page_of_text_with_scripts_is_read() -> None:
    page = DOCSIFY.replace('<div id="app"></div>', "<main><h1>Black</h1><p>A formatter.</p></main>")
    [document] = [d for d in _read(page) if isinstance(d, Document)]
    assert document.text == "Black\n\nA formatter."


def test_an_empty_page_without_a_script_is_no_script_page() -> None:
    page = "<html><head><title>Document</title></head><body><div></div></body></html>"
    assert Omitted(SCRIPT_PAGES, 1) not in _read(page)


def _site_documents(folder: Path, what: str = NAVIGATION_FILES) -> tuple[list[str], int]:
    """The ids of the documents read from ``folder``, and how many files were counted as
    ``what`` (by default, a shell's navigation)."""
    ids: list[str] = []
    counted = 0
    for source in source_files(folder):
        for item in read_source(source):
            if isinstance(item, Document):
                ids.append(item.id)
            elif isinstance(item, Omitted) and item.what == what:
                counted += item.count
    return sorted(ids), counted


def _docsify_site(folder: Path, shell: str) -> Path:
    (folder / "guide").mkdir(parents=True)
    (folder / "index.html").write_text(shell, "utf-8")
    (folder / "README.md").write_text("# Black\n\nThe uncompromising formatter.\n", "utf-8")
    (folder / "guide" / "setup.md").write_text("# Setup\n\nInstall it.\n", "utf-8")
    sidebar = "- [Getting started](getting_started.md)\n- [FAQ](faq.md)\n"
    (folder / "_sidebar.md").write_text(sidebar, "utf-8")
    (folder / "guide" / "_sidebar.md").write_text(sidebar, "utf-8")
    (folder / "cover.md").write_text("# Black\n\n[Start](#/README)\n", "utf-8")
    (folder / "_navbar.md").write_text("[Home](/), the project's start page.\n", "utf-8")
    return folder


def test_the_navigation_files_a_docsify_shell_loads_are_counted_not_read(tmp_path: Path) -> None:
    shell = DOCSIFY.replace("loadSidebar: true,", "loadSidebar: true, coverpage: 'cover.md',")
    ids, navigation = _site_documents(_docsify_site(tmp_path, shell))
    # The sidebar of each folder and the cover it names; a navbar it does not load is a
    # file like any other.
    assert navigation == 3
    assert ids == ["README", "_navbar", "guide/setup"]


def test_a_sidebar_beside_a_page_of_text_is_read_as_a_page(tmp_path: Path) -> None:
    page = DOCSIFY.replace('<div id="app"></div>', "<main><h1>Black</h1><p>A formatter.</p></main>")
    folder = _docsify_site(tmp_path, page)
    navigation = _site_documents(folder)[1]
    assert navigation == 0
    # Read as any Markdown page, each sidebar is what its text is: a list of links.
    assert _site_documents(folder, LINK_LISTS)[1] == 2
