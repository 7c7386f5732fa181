"""How much of each page of a documentation site the index holds at the page's address.

Run: ``.venv/bin/python benchmarks/ingest_coverage.py SITE...`` (each SITE a built site's
folder or a Markdown source tree; ``--include-root DIR`` as for ``citeline ingest``). Each
site is ingested for real (``Corpus.ingest`` into a fresh SQLite index in a temporary
folder, with a base URL), then every page's words, read independently of citeline's
extractor (``page_words``: Sphinx's ``_sources``, the AsciiDoc or Markdown sources, mdBook's
and MkDocs' own search text, DocBook's body less its marked navigation), are looked for
among the words of the documents linked at that page (the page's address and its
``#anchor``s). A page's coverage is the share of its words the index holds there, counted
with multiplicity. The table gives, per site, the median and tenth percentile of page
coverage, the share of pages at 0.95 or more, the sections of the reading (a heading and
the words under it, three or more) whose words the index holds under half of, the indexed
titles that still carry the part of ``<title>`` every page shares, and the ingest's CPU
seconds; then each site's worst pages. Targets (issue 26): median >= 0.97, tenth
percentile >= 0.90, no section without text, no title with the shared suffix.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from page_words import PageReading, read_site, reading_kind, words
from rich.console import Console
from rich.table import Table
from selectolax.lexbor import LexborHTMLParser

from citeline.corpus import Corpus
from citeline.corpus.formats.site_urls import page_url

BASE_URL = "https://docs.invalid/"
# Separators between a page's title and the site's name, read here apart from citeline's.
_TITLE_SEPARATORS = re.compile(r"\s+(?:[\u2014\u2013|\u00b7\u2022:\u00bb\u00ab-]|::)\s+")


@dataclass
class SiteCoverage:
    site: Path
    kind: str
    pages: list[tuple[str, float]] = field(default_factory=list)
    sections: int = 0
    sections_without_text: list[str] = field(default_factory=list)
    titles: int = 0
    titles_with_suffix: list[str] = field(default_factory=list)
    shared_title: str = ""
    includes_dropped: int = 0
    cpu: float = 0.0
    wall: float = 0.0
    summary: str = ""

    def percentile(self, share: float) -> float:
        values = sorted(coverage for _, coverage in self.pages)
        if not values:
            return 0.0
        return values[min(len(values) - 1, int(share * len(values)))]


def shared_title_part(site: Path, limit: int = 400) -> str:
    """The part of ``<title>`` (after a separator) that most of the site's pages share."""
    endings: Counter[str] = Counter()
    pages = [p for p in sorted(site.rglob("*.html")) if "_" not in p.relative_to(site).parts[0][:1]]
    step = max(1, len(pages) // limit)
    seen = 0
    for page in pages[::step]:
        head = page.read_bytes()[:20_000].decode("utf-8", errors="replace")
        match = re.search(r"<title[^>]*>(.*?)</title>", head, re.DOTALL | re.IGNORECASE)
        if not match:
            continue
        title = " ".join(LexborHTMLParser(match.group(1)).text().split())
        seen += 1
        cuts = [m.end() for m in _TITLE_SEPARATORS.finditer(title)]
        for cut in cuts:
            endings[title[cut:]] += 1
    if not endings or not seen:
        return ""
    ending, count = endings.most_common(1)[0]
    return ending if count >= max(3, seen // 2) else ""


def carries(title: str, shared: str) -> bool:
    """Whether ``title`` still holds the site's shared title part beside a separator."""
    if not shared:
        return False
    escaped = re.escape(shared)
    return bool(
        re.search(rf"{_TITLE_SEPARATORS.pattern}{escaped}$", title)
        or re.search(rf"^{escaped}{_TITLE_SEPARATORS.pattern}", title)
    )


def measure(site: Path, include_root: Path | None) -> SiteCoverage:
    kind = reading_kind(site)
    result = SiteCoverage(site, kind, shared_title=shared_title_part(site))
    with (
        tempfile.TemporaryDirectory() as folder,
        Corpus.open(Path(folder) / "site.sqlite") as corpus,
    ):
        wall, cpu = time.perf_counter(), time.process_time()
        options = {"include_root": include_root} if include_root is not None else {}
        report = corpus.ingest(site, base_url=BASE_URL, **options)
        result.wall, result.cpu = time.perf_counter() - wall, time.process_time() - cpu
        result.summary = report.summary()
        result.includes_dropped = report.omitted.get("include directives", 0)
        by_page: dict[str, Counter[str]] = {}
        titles_by_page: dict[str, set[str]] = {}
        for document in corpus.documents():
            result.titles += 1
            if carries(document.title, result.shared_title):
                result.titles_with_suffix.append(document.title)
            if document.url is None:
                continue
            address = document.url.split("#", 1)[0]
            by_page.setdefault(address, Counter()).update(words(document.text))
            # A heading with no text of its own is folded into the titles of the sections
            # under it: its words are held there, once each per page.
            for heading in document.title.split(" \u203a "):
                titles_by_page.setdefault(address, set()).add(heading)
    for address, headings in titles_by_page.items():
        held = by_page.setdefault(address, Counter())
        for heading in headings:
            for word, count in Counter(words(heading)).items():
                held[word] = max(held[word], count)
    for reading in read_site(site):
        if not _read_at_its_target(site, reading.page):
            _measure_page(result, reading, by_page)
    return result


def _read_at_its_target(site: Path, page: str) -> bool:
    """Whether ``page`` is a link to another page of the site, which the ingest reads once,
    at the page linked to (exim4-doc-html's ``chNN.html``): measured there, not here."""
    path = site / page
    if not path.is_symlink():
        return False
    target = path.resolve()
    return target.is_file() and target.is_relative_to(site.resolve())


def _measure_page(
    result: SiteCoverage, reading: PageReading, by_page: dict[str, Counter[str]]
) -> None:
    wanted = Counter(reading.all_words)
    own = sum(len(found) - len(words(heading)) for heading, found in reading.sections)
    if not wanted or own <= 0:
        return  # headings only (a part's title over its table of contents): nothing to hold
    address = page_url(BASE_URL, reading.page) or ""
    held = by_page.get(address, Counter())
    found = sum(min(count, held[word]) for word, count in wanted.items())
    result.pages.append((reading.page, found / sum(wanted.values())))
    for heading, own in reading.sections:
        body = Counter(own) - Counter(words(heading))
        if body.total() < 3:
            continue  # a heading over its subsections: nothing of its own to hold
        result.sections += 1
        kept = sum(min(count, held[word]) for word, count in body.items())
        if kept < body.total() / 2:
            result.sections_without_text.append(f"{reading.page} § {heading or '(top)'}")


def _short(site: Path) -> str:
    parts = [part for part in site.parts if part not in {"html", "usr", "share", "doc", "/"}]
    return "/".join(parts[-2:])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sites", nargs="+", type=Path)
    parser.add_argument("--include-root", type=Path, default=None)
    parser.add_argument("--worst", type=int, default=3, help="worst pages shown per site")
    parser.add_argument("--json", type=Path, default=None, help="write every page's figure")
    arguments = parser.parse_args()
    console = Console(width=160)
    results = []
    for site in arguments.sites:
        if not site.is_dir():
            sys.exit(f"{site} is not a folder; give a built site's folder or a Markdown tree.")
        console.print(f"measuring {site} ...", markup=False)
        results.append(measure(site, arguments.include_root))
    table = Table(title="Ingest coverage: each page's words the index holds at its address")
    for column in (
        "site",
        "reading",
        "pages",
        "median",
        "p10",
        ">= 0.95",
        "sections without text",
        "titles with shared suffix",
        "includes dropped",
        "CPU s",
    ):
        table.add_column(column, justify="left" if column in {"site", "reading"} else "right")
    for result in results:
        values = [coverage for _, coverage in result.pages]
        share = sum(value >= 0.95 for value in values) / max(1, len(values))
        table.add_row(
            _short(result.site),
            result.kind,
            str(len(values)),
            f"{statistics.median(values):.3f}" if values else "-",
            f"{result.percentile(0.1):.3f}",
            f"{share:.0%}",
            f"{len(result.sections_without_text)} / {result.sections}",
            f"{len(result.titles_with_suffix)} / {result.titles}",
            str(result.includes_dropped),
            f"{result.cpu:.1f}",
        )
    console.print(table)
    for result in results:
        worst = sorted(result.pages, key=lambda item: item[1])[: arguments.worst]
        shown = ", ".join(f"{page} {coverage:.2f}" for page, coverage in worst)
        console.print(f"{result.site}: worst {shown}", markup=False)
        for section in result.sections_without_text[: arguments.worst]:
            console.print(f"  without text: {section}", markup=False)
        for title in result.titles_with_suffix[:2]:
            console.print(f"  title with {result.shared_title!r}: {title}", markup=False)
    if arguments.json is not None:
        arguments.json.write_text(
            json.dumps(
                {
                    str(r.site): {
                        "pages": dict(r.pages),
                        "sections_without_text": r.sections_without_text,
                        "titles_with_suffix": r.titles_with_suffix,
                        "shared_title": r.shared_title,
                        "cpu": r.cpu,
                        "summary": r.summary,
                    }
                    for r in results
                },
                indent=1,
            )
        )


if __name__ == "__main__":
    main()
