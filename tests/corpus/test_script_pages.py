"""A page whose scripts write all it shows (a client-rendered site's shell) is counted
under its own name, not read as an empty page; a page of text with scripts beside it is
read as before. The shell is the ``index.html`` Docsify 5.0 (docsify-cli 5.0) writes."""

from __future__ import annotations

from pathlib import Path

from citeline.corpus import Document
from citeline.corpus.formats import html
from citeline.corpus.formats.origin import SourceFile
from citeline.corpus.formats.rejected import Omitted
from citeline.corpus.formats.script_pages import SCRIPT_PAGES

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
