"""An MkDocs project's docs folder is indexed as its build publishes it: the pages
``exclude_docs`` and ``draft_docs`` leave out are not indexed, nor are the static files the
build copies unchanged, but for an HTML page a reader would read. The cases are Ansible Lint
26.10.1's (its PyPI sdist's docs/), and MkDocs' own documented examples."""

from __future__ import annotations

import os
from pathlib import Path

from citeline.corpus import Corpus
from citeline.corpus.formats import source_files
from citeline.corpus.formats.mkdocs_files import MAX_PATTERNS

BASE = "https://docs.example.org/"


def _project(tmp_path: Path, settings: str = "") -> Path:
    """A project whose ``mkdocs.yml`` holds ``settings`` after its site name; its docs/."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'demo'\n", "utf-8")
    (tmp_path / "mkdocs.yml").write_text("site_name: Demo\n" + settings, "utf-8")
    docs = tmp_path / "docs"
    docs.mkdir()
    return docs


def _write(docs: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (docs / name).parent.mkdir(parents=True, exist_ok=True)
        (docs / name).write_text(text, "utf-8")


def _listed(docs: Path) -> list[str]:
    return [source.relative for source in source_files(docs, base_url=BASE)]


# What the build leaves out


def test_a_page_exclude_docs_names_is_no_page_but_its_include_still_is_text(
    corpus: Corpus, tmp_path: Path
) -> None:
    # Ansible Lint's mkdocs.yml: "exclude_docs: |\n  _autofix_rules.md"; autofix.md pulls
    # the file in with {!_autofix_rules.md!}, so the list is on autofix/ and nowhere else.
    docs = _project(tmp_path, "exclude_docs: |\n  _autofix_rules.md\n")
    _write(
        docs,
        {
            "autofix.md": "# Autofix\n\nThe rules it fixes:\n\n{!_autofix_rules.md!}\n",
            "_autofix_rules.md": "- [fqcn](rules/fqcn.md)\n- [key-order](rules/key-order.md)\n",
        },
    )
    report = corpus.ingest(docs, base_url=BASE)
    assert report.ok
    documents = {d.url: d for d in corpus.documents()}
    assert set(documents) == {BASE + "autofix/"}
    assert "• key-order" in documents[BASE + "autofix/"].text


def test_what_mkdocs_always_excludes_and_what_it_publishes_under_an_underscore(
    tmp_path: Path,
) -> None:
    # MkDocs puts ".*" and "/templates/" before every site's own patterns: a top-level
    # templates folder is the theme's, a nested one a section like any other. A folder
    # starting with "_" is published (a built site's _static and _sources are not).
    docs = _project(tmp_path)
    _write(
        docs,
        {
            "index.md": "# Home\n\nText.\n",
            "templates/page.md": "# Template\n\nText.\n",
            "guide/templates/jinja.md": "# Jinja templates\n\nText.\n",
            "_partials/intro.md": "# Intro\n\nText.\n",
        },
    )
    assert _listed(docs) == ["_partials/intro.md", "guide/templates/jinja.md", "index.md"]


def test_drafts_and_gitignore_negations_are_read_as_mkdocs_reads_them(tmp_path: Path) -> None:
    # MkDocs 1.6's documented example of each: drafts are left out of "mkdocs build". Its
    # "# A file with this name anywhere." after a pattern is no comment to pathspec (nor to
    # git), so MkDocs reads "old.md    # a comment" as a pattern that names no file.
    docs = _project(
        tmp_path,
        "exclude_docs: |\n  old.md    # a comment\n  *.py\n  /requirements.txt\n"
        "draft_docs: |\n  drafts/\n  *_unpublished.md\n  !/foo_unpublished.md\n",
    )
    _write(
        docs,
        {
            "index.md": "# Home\n\nText.\n",
            "old.md": "# Old\n\nText.\n",
            "drafts/next.md": "# Next\n\nText.\n",
            "guide/bar_unpublished.md": "# Bar\n\nText.\n",
            "foo_unpublished.md": "# Foo\n\nText.\n",
        },
    )
    assert _listed(docs) == ["foo_unpublished.md", "index.md", "old.md"]


def test_excluded_pages_count_from_the_docs_folder_whatever_folder_is_ingested(
    tmp_path: Path,
) -> None:
    docs = _project(tmp_path, "docs_dir: source\nexclude_docs: |\n  /guide/old.md\n")
    docs.rmdir()
    source = tmp_path / "source"
    _write(source, {"guide/old.md": "# Old\n\nText.\n", "guide/new.md": "# New\n\nText.\n"})
    assert _listed(source) == ["guide/new.md"]
    assert _listed(source / "guide") == ["new.md"]


def test_a_page_excluded_since_the_last_ingest_is_pruned(corpus: Corpus, tmp_path: Path) -> None:
    docs = _project(tmp_path)
    _write(docs, {"index.md": "# Home\n\nText.\n", "old.md": "# Old\n\nText.\n"})
    corpus.ingest(docs, base_url=BASE)
    config = tmp_path / "mkdocs.yml"
    written = config.stat().st_mtime_ns
    config.write_text("site_name: Demo\nexclude_docs: old.md\n", "utf-8")
    os.utime(config, ns=(written + 10**9, written + 10**9))  # settings are cached by mtime
    report = corpus.ingest(docs, base_url=BASE, prune=True)
    assert report.removed == 1 and [d.url for d in corpus.documents()] == [BASE]


# Hostile settings: every file is matched against every pattern, by backtracking


def test_a_pattern_list_of_thousands_of_lines_is_refused_and_loses_no_page(
    corpus: Corpus, tmp_path: Path
) -> None:
    # What it costs is a row of benchmarks/hostile_files.py, not a timing here.
    # 5,000 lines (118 KiB, within the 256 KiB of mkdocs.yml read): matched against every
    # file, 30,000 took 8.1 s over 1,000 paths.
    patterns = "".join(f"  section{n}/page{n}-*.md\n" for n in range(5_000))
    docs = _project(tmp_path, "exclude_docs: |\n" + patterns)
    _write(docs, {f"page{n}.md": f"# Page {n}\n\nText.\n" for n in range(200)})
    report = corpus.ingest(docs, base_url=BASE)
    assert len(list(corpus.documents())) == 200
    (refused,) = report.skipped
    assert refused.path.endswith("mkdocs.yml")
    assert f"5,000 patterns, more than the {MAX_PATTERNS} read" in refused.reason


def test_a_pattern_that_backtracks_without_end_is_refused_before_it_is_matched(
    tmp_path: Path,
) -> None:
    # What it costs is a row of benchmarks/hostile_files.py, not a timing here.
    # Fifteen runs of "*" took 12 s to fail on one 30-character name, and two "**" 6 s on
    # a path 1,000 folders deep; each would be matched against every file.
    docs = _project(tmp_path, "exclude_docs: |\n  " + "*a" * 15 + "b\n  a/**/a/**/b\n")
    _write(docs, {"a" * 120 + ".md": "# Long\n\nText.\n"})
    deep = docs.joinpath(*["a"] * 60)
    deep.mkdir(parents=True)
    (deep / "c.md").write_text("# Deep\n\nText.\n", "utf-8")
    listed = source_files(docs, base_url=BASE)
    *pages, config = listed
    assert len(pages) == 2 and config.path.name == "mkdocs.yml"
    assert config.refused is not None and "more wildcards than the 2" in config.refused


def test_the_patterns_mkdocs_documents_are_within_the_bounds(tmp_path: Path) -> None:
    docs = _project(
        tmp_path,
        "exclude_docs: |\n  drafts/\n  **/secret-*.md\n  drafts/**/*.md\n  _*.md\n"
        "  /requirements.txt\n  !/foo/example.py\n  # a comment, with *** in it\n",
    )
    _write(docs, {"guide/secret-plan.md": "# Plan\n\nText.\n", "guide/plan.md": "# P\n\nT.\n"})
    assert [source.relative for source in source_files(docs, base_url=BASE)] == ["guide/plan.md"]


def test_a_pattern_mkdocs_would_refuse_is_refused_with_pathspecs_reason(tmp_path: Path) -> None:
    docs = _project(tmp_path, "exclude_docs: |\n  [z-a].md\n")
    _write(docs, {"index.md": "# Home\n\nText.\n"})
    *pages, config = source_files(docs, base_url=BASE)
    assert [p.relative for p in pages] == ["index.md"]
    assert config.refused is not None and "is not a gitignore pattern" in config.refused


# Static files


def test_static_files_are_no_pages_but_an_html_page_copied_in_is(
    corpus: Corpus, tmp_path: Path
) -> None:
    # Ansible Lint's docs/ hold the MIT licence of its first code as licenses/LICENSE.mit.txt
    # and Google's site verification as google04e29a42ae6e6cbc.html (one line); MkDocs copies
    # both to the site unchanged. The licence was indexed titled "Copyright (c) 2013-2018
    # Will Thames ...", the verification file as a page of its own.
    docs = _project(tmp_path)
    _write(
        docs,
        {
            "index.md": "# Ansible Lint\n\nChecks playbooks.\n",
            "licenses/LICENSE.mit.txt": "Copyright (c) 2013-2018 Will Thames\n\nPermission...\n",
            "google04e29a42ae6e6cbc.html": (
                "google-site-verification: google04e29a42ae6e6cbc.html\n"
            ),
            "yandex_0123.html": '<html><head><meta charset="UTF-8"></head>'
            "<body>Verification: 0123</body></html>\n",
            "reference/api.html": "<html><head><title>API reference</title></head>"
            "<body><p>Every class the package exports.</p></body></html>\n",
        },
    )
    report = corpus.ingest(docs, base_url=BASE)
    assert report.ok and "dropped 2 static files that are no page" in report.summary()
    assert sorted(d.url for d in corpus.documents()) == [BASE, BASE + "reference/api.html"]


def test_outside_an_mkdocs_project_a_text_file_is_still_a_document(tmp_path: Path) -> None:
    _write(tmp_path, {"notes.txt": "Release notes\n\nText.\n", "guide.md": "# Guide\n\nText.\n"})
    assert _listed(tmp_path) == ["guide.md", "notes.txt"]
