"""Ingesting a whole built documentation site, and how clean its sections come out.

Run: ``.venv/bin/python benchmarks/ingest_site.py`` (``--site DIR --base-url URL`` for
another site; the default is Debian's python3.11-doc, ``/usr/share/doc/python3.11/html``).
It runs the real ingest (``Corpus.ingest`` into a fresh SQLite index in a temporary
folder) and prints one table: pages read, sections indexed, wall and CPU seconds, and the
share of sections whose text still holds a navigation string (a line that is only
"Previous topic" or "Show Source", two of "index", "modules", "Prev", "Up"..., or one of
the sites' chrome phrases). The target for that share is 0.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from citeline.corpus import Corpus
from citeline.corpus.formats import source_files

PYTHON_DOCS = Path("/usr/share/doc/python3.11/html")
# Whole lines that are the chrome of Sphinx's python-docs theme, of DocBook's PostgreSQL
# manual, and of MkDocs and Docusaurus pages: none is a sentence a section would hold alone.
NAVIGATION_LINES = frozenset(
    {
        "Table of Contents",
        "Previous topic",
        "Next topic",
        "This Page",
        "Report a Bug",
        "Show Source",
        "Quick search",
        "Edit this page",
        "Skip to content",
    }
)
# Single words that a navigation bar holds together ("index | modules | next | previous",
# "Prev Up Home Next"), but a table cell may hold one of alone: two or more in one section
# count as navigation.
NAVIGATION_WORDS = frozenset({"index", "modules", "next", "previous", "Prev", "Up", "Home", "Next"})
NAVIGATION_PHRASES = (
    "Found a bug?",
    "Created using Sphinx",
    "Python Software Foundation is a non-profit",
    "Permalink to this heading",
    "¶",
)


def has_navigation(text: str) -> bool:
    if any(phrase in text for phrase in NAVIGATION_PHRASES):
        return True
    lines = {line.strip() for line in text.splitlines()}
    return bool(lines & NAVIGATION_LINES) or len(lines & NAVIGATION_WORDS) >= 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=PYTHON_DOCS)
    parser.add_argument("--base-url", default="https://docs.python.org/3.11/")
    arguments = parser.parse_args()
    if not arguments.site.is_dir():
        sys.exit(f"{arguments.site} is not there; install Debian's python3.11-doc or give --site.")
    pages = sum(
        1
        for source in source_files(arguments.site, base_url=arguments.base_url)
        if source.path.suffix in {".html", ".htm"}
    )
    with tempfile.TemporaryDirectory() as folder:
        wall, cpu = time.perf_counter(), time.process_time()
        with Corpus.open(Path(folder) / "site.sqlite") as corpus:
            report = corpus.ingest(arguments.site, base_url=arguments.base_url)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            documents = list(corpus.documents())
    noisy = [document for document in documents if has_navigation(document.text)]
    table = Table(title=f"Ingest of {arguments.site} ({report.summary()})")
    for column in ("pages", "sections", "wall s", "CPU s", "sections with navigation"):
        table.add_column(column, justify="right")
    table.add_row(
        str(pages),
        str(len(documents)),
        f"{wall:.1f}",
        f"{cpu:.1f}",
        f"{len(noisy)} ({len(noisy) / max(1, len(documents)):.2%})",
    )
    console = Console()
    console.print(table)
    for document in noisy[:5]:
        console.print(f"  with navigation: {document.id}", markup=False)


if __name__ == "__main__":
    main()
