"""What one hostile file costs an ingest: the nesting, repetition and size attacks.

Run: ``.venv/bin/python benchmarks/hostile_files.py``. Each attack is one page written
into a fresh folder beside one good page and ingested for real (``Corpus.ingest`` into a
fresh SQLite index); the table gives the page's size, the ingest's CPU and wall seconds,
seconds per MB, and what became of the page (indexed as N sections, or skipped with its
reason). Target (issue 29): under 2 s per MB, or skipped with a reason; the good page is
always indexed. The large page is written sparse, so it costs no disk.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.table import Table

from citeline.corpus import Corpus


def _nested_divs(path: Path) -> None:
    path.write_text("<div>" * 1_000_000 + "x" + "</div>" * 1_000_000, "utf-8")


def _nested_sections(path: Path) -> None:
    sections = "".join(f"<section id=s{i}><h2>H{i}</h2><p>t</p>" for i in range(20_000))
    path.write_text(f"<main>{sections}</main>", "utf-8")


def _shared_id(path: Path) -> None:
    headings = "".join(f"<h2 id=a>Same</h2><p>text {i}</p>" for i in range(20_000))
    path.write_text(f"<main>{headings}</main>", "utf-8")


def _glossary(path: Path) -> None:
    terms = "".join(
        f"<dt id=term-{i}>term {i}</dt><dd><p>meaning {i}</p></dd>" for i in range(30_000)
    )
    path.write_text(f"<main><h1>Glossary</h1><dl class=glossary>{terms}</dl></main>", "utf-8")


def _flat_headings(path: Path) -> None:
    body = "".join(f"<h2 id=h{i}>H{i}</h2><p>words of section {i}</p>" for i in range(50_000))
    path.write_text(f"<body>{body}</body>", "utf-8")


def _large(path: Path) -> None:
    with path.open("wb") as file:
        file.truncate(200 * 1024 * 1024)


ATTACKS: list[tuple[str, Callable[[Path], None]]] = [
    ("1,000,000 nested div", _nested_divs),
    ("20,000 nested sections", _nested_sections),
    ("20,000 headings sharing one id", _shared_id),
    ("30,000 glossary terms", _glossary),
    ("50,000 headings, no content marker", _flat_headings),
    ("a 200 MB page", _large),
]


def main() -> None:
    table = Table(title="One hostile HTML page beside a good one, ingested")
    for column in ("attack", "MB", "CPU s", "wall s", "s per MB", "the page"):
        table.add_column(column, justify="left" if column in {"attack", "the page"} else "right")
    for name, write in ATTACKS:
        with tempfile.TemporaryDirectory() as folder:
            site = Path(folder) / "site"
            site.mkdir()
            (site / "good.html").write_text("<main><h1>Good</h1><p>Fine.</p></main>", "utf-8")
            write(site / "hostile.html")
            megabytes = (site / "hostile.html").stat().st_size / 1e6
            with Corpus.open(Path(folder) / "index.sqlite") as corpus:
                wall, cpu = time.perf_counter(), time.process_time()
                report = corpus.ingest(site)
                wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
                sections = sum(1 for d in corpus.documents() if d.id.startswith("hostile"))
                assert corpus.get("good") is not None, "the good page was not indexed"
            outcome = (
                f"skipped: {report.skipped[0].reason[:60]}..."
                if report.skipped
                else f"{sections} sections"
            )
            table.add_row(
                name,
                f"{megabytes:.1f}",
                f"{cpu:.2f}",
                f"{wall:.2f}",
                f"{cpu / max(megabytes, 0.001):.2f}",
                outcome,
            )
    Console(width=160).print(table)


if __name__ == "__main__":
    main()
