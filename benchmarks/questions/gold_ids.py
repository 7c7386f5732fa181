"""Turn a question file's gold URLs into the ids an index gives those sections.

Run: ``.venv/bin/python benchmarks/questions/gold_ids.py --db INDEX --base-url URL QUESTIONS OUT``
(``postgresql/run.sh`` and ``flask/run.sh`` beside this file do it for their files). Those files
name each gold section by the address the published site gives it
(``https://www.postgresql.org/docs/15/sql-createindex.html#SQL-CREATEINDEX-CONCURRENTLY``),
which does not depend on how citeline names documents. ``citeline eval citations`` compares
gold against what a citation names, and a citation names a document's id (its url only when
it has none), so this writes a copy of the file whose ``gold_ids`` are the ids of the indexed
documents at those addresses. Every document at a gold address counts: where a page's first
section and a section without an anchor of its own (a reference page's Synopsis) share the
page's address, both are gold.

A gold address naming a folder (``user-guide/configuration/#site_name``, the form a site built
with directory URLs publishes) is the folder's ``index.html``, as a web server answers it.

A gold address that no indexed document has stops the run (exit 1, naming each one): the
index was built without the ``--base-url`` the file's addresses start with, or names sections
otherwise, and scores against it would be meaningless. It also reports, without stopping,
each question none of whose answer terms occurs in the text of its gold documents, which
means the index keeps a section's text differently from the site.

It does not answer or score anything, and it never edits the question files themselves.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from citeline.corpus import Corpus
from citeline.evaluation.answer_checks import contains_expected_term
from citeline.evaluation.questions import read_jsonl


@dataclass(frozen=True, slots=True)
class IndexedSection:
    """What this script needs of one indexed document."""

    id: str
    url: str | None
    text: str


@dataclass(frozen=True, slots=True)
class Rewritten:
    """One question line with ids for gold, and what could not be matched."""

    record: dict[str, Any]
    missing_urls: tuple[str, ...]
    terms_absent: bool


def sections_by_url(sections: Iterable[IndexedSection]) -> dict[str, list[IndexedSection]]:
    """Every indexed section under its address, in index order; those without one are left out."""
    found: dict[str, list[IndexedSection]] = {}
    for section in sections:
        if section.url:
            found.setdefault(section.url, []).append(section)
    return found


def sections_at(by_url: Mapping[str, list[IndexedSection]], url: str) -> list[IndexedSection]:
    """The indexed sections at ``url``. An address naming a folder (``a/b/``, ``a/b/#id``) is
    answered by the folder's ``index.html``, as a web server answers it: a site built with
    directory URLs (MkDocs's default) publishes ``a/b/index.html`` at ``a/b/``, and its files
    are ingested under their file names."""
    found = by_url.get(url)
    if found:
        return found
    page, hash_mark, anchor = url.partition("#")
    if page.endswith("/"):
        return by_url.get(f"{page}index.html{hash_mark}{anchor}", [])
    return []


def rewrite(
    record: Mapping[str, Any],
    by_url: Mapping[str, list[IndexedSection]],
    *,
    prefix: str = "",
    within_page: bool = False,
) -> Rewritten:
    """``record`` with each gold address (after ``prefix``) replaced by the ids of the sections
    at it; with ``within_page``, an anchor that is no section's (a glossary entry's term inside
    the glossary's one section) names its page's own section."""
    ids: list[str] = []
    missing: list[str] = []
    texts: list[str] = []
    for gold in record.get("gold_ids", []):
        url = prefix + str(gold)
        sections = sections_at(by_url, url)
        if not sections and within_page:
            sections = sections_at(by_url, url.partition("#")[0])
        if not sections:
            missing.append(str(url))
            continue
        for section in sections:
            if section.id not in ids:
                ids.append(section.id)
                texts.append(section.text)
    terms = [str(term) for term in record.get("answer_terms", [])]
    absent = bool(terms) and not any(contains_expected_term(text, terms) for text in texts)
    return Rewritten({**record, "gold_ids": ids}, tuple(missing), absent)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("questions", type=Path, help="A question file with gold URLs.")
    parser.add_argument("out", type=Path, help="Where to write the copy with gold ids.")
    parser.add_argument("--db", required=True, help="The index the questions are asked of.")
    parser.add_argument(
        "--base-url",
        required=True,
        help="The address the site was ingested under (ingest's --base-url), named when a "
        "gold address is missing.",
    )
    parser.add_argument(
        "--relative",
        action="store_true",
        help="The gold addresses are relative to the base URL (the Python-docs sample's ids, "
        "asked of the whole python3.11-doc site).",
    )
    parser.add_argument(
        "--within-page",
        action="store_true",
        help="A gold anchor that is no section's names its page's own section.",
    )
    options = parser.parse_args(argv)
    with Corpus.open(options.db) as corpus:
        by_url = sections_by_url(
            IndexedSection(document.id, document.url, document.text)
            for document in corpus.documents()
        )
    prefix = options.base_url if options.relative else ""
    results = [
        rewrite(record, by_url, prefix=prefix, within_page=options.within_page)
        for _, record in read_jsonl(options.questions)
    ]
    missing = sorted({url for result in results for url in result.missing_urls})
    if missing:
        print(
            f"{len(missing)} gold addresses of {options.questions} are not in the index "
            f"{options.db}; ingest the site with --base-url {options.base_url} "
            "and check that each section keeps the site's own anchor:",
            *missing,
            sep="\n  ",
            file=sys.stderr,
        )
        return 1
    for result in results:
        if result.terms_absent:
            print(
                f"note: no answer term of {result.record.get('id')} occurs in its gold "
                "sections as indexed",
                file=sys.stderr,
            )
    with options.out.open("w", encoding="utf-8") as handle:
        for result in results:
            handle.write(json.dumps(result.record, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
