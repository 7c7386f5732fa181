"""A hostile document author costs only their own file: links out of the folder are not
followed, and front matter or JSONL built to exhaust the parser is a skipped file with its
reason, never a crash or a hang."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from citeline.corpus import Corpus

RECURSIVE_ALIAS = "---\nloop: &a [*a]\n---\n# Loop\n\nbody\n"
# The 450-byte "billion laughs": nine levels of nine aliases each, 10^9 strings if expanded.
BILLION_LAUGHS = (
    "---\n"
    'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    + "".join(
        f"{name}: &{name} [{','.join(['*' + previous] * 9)}]\n"
        for previous, name in zip("abcdefgh", "bcdefghi", strict=True)
    )
    + "---\n# Laughs\n\nbody\n"
)


def _good_page(folder: Path) -> None:
    (folder / "good.md").write_text("# Good\n\nA page that is fine.\n", "utf-8")


def test_a_link_to_a_file_outside_the_folder_is_skipped_with_its_reason(
    corpus: Corpus, tmp_path: Path
) -> None:
    secret = tmp_path / "secret.md"
    secret.write_text("# Secret\n\nroot:x:0:0:the outside world\n", "utf-8")
    folder = tmp_path / "docs"
    folder.mkdir()
    _good_page(folder)
    (folder / "passwd.md").symlink_to(secret)
    report = corpus.ingest(folder)
    [problem] = report.skipped
    assert problem.path.endswith("passwd.md")
    assert "a link to a file outside" in problem.reason
    assert [document.id for document in corpus.documents()] == ["good"]
    assert corpus.search("root outside world") == []


def test_a_link_to_a_folder_outside_is_skipped_and_one_inside_is_read_once(
    corpus: Corpus, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "private.md").write_text("# Private\n\nnot for the index\n", "utf-8")
    folder = tmp_path / "docs"
    (folder / "real").mkdir(parents=True)
    (folder / "real" / "page.md").write_text("# Page\n\nshared words\n", "utf-8")
    (folder / "escape").symlink_to(outside, target_is_directory=True)
    (folder / "alias").symlink_to(folder / "real", target_is_directory=True)
    (folder / "real" / "again.md").symlink_to(folder / "real" / "page.md")
    report = corpus.ingest(folder)
    [problem] = report.skipped
    assert problem.path.endswith("escape") and "a link to a folder outside" in problem.reason
    # The file linked as again.md is read once, at its own name (below).
    assert sorted(document.id for document in corpus.documents()) == ["real/page"]


def test_a_page_linked_from_its_project_is_read_and_one_beyond_it_refused(
    corpus: Corpus, tmp_path: Path
) -> None:
    # Schemathesis' sdist: docs/migration.md -> ../MIGRATION.md, a page MkDocs publishes.
    (tmp_path / "secret.md").write_text("# Secret\n\nroot:x:0:0\n", "utf-8")
    project = tmp_path / "project"
    docs = project / "docs"
    docs.mkdir(parents=True)
    (project / "pyproject.toml").write_text("[project]\nname = 'p'\n", "utf-8")
    (project / "MIGRATION.md").write_text("# Migrating\n\nThe base URL moved.\n", "utf-8")
    _good_page(docs)
    (docs / "migration.md").symlink_to(Path("..") / "MIGRATION.md")
    (docs / "passwd.md").symlink_to(tmp_path / "secret.md")
    report = corpus.ingest(docs)
    [problem] = report.skipped
    assert problem.path.endswith("passwd.md") and "a link to a file outside" in problem.reason
    assert sorted(document.id for document in corpus.documents()) == ["good", "migration"]
    assert corpus.search("root") == []


def test_a_page_linked_under_a_second_name_is_read_once_at_its_own(
    corpus: Corpus, tmp_path: Path
) -> None:
    # Debian's exim4-doc-html: ch31.html beside ch-address_rewriting.html, the same chapter.
    folder = tmp_path / "site"
    folder.mkdir()
    (folder / "ch-rewriting.html").write_text(
        "<html><body><h1>Address rewriting</h1><p>Rewrite rules change addresses.</p>"
        "</body></html>",
        "utf-8",
    )
    (folder / "ch31.html").symlink_to("ch-rewriting.html")
    hidden = folder / ".pages"
    hidden.mkdir()
    (hidden / "only.md").write_text("# Only here\n\nReached through its link alone.\n", "utf-8")
    (folder / "only.md").symlink_to(hidden / "only.md")
    corpus.ingest(folder, base_url="https://example.org/doc/")
    assert sorted(document.id for document in corpus.documents()) == ["ch-rewriting", "only"]


@pytest.mark.parametrize(
    ("front_matter", "reason"),
    [
        (RECURSIVE_ALIAS, "uses a YAML alias"),
        (BILLION_LAUGHS, "uses a YAML alias"),
        (
            "---\n" + "a:\n" + "".join("  " * n + " b:\n" for n in range(1, 60)) + "---\nx\n",
            "nests",
        ),
        ("---\nkey: " + "[" * 5000 + "]" * 5000 + "\n---\nx\n", "nests"),
        # PyYAML refuses a control character as its loader is made, before the bounded load
        # began: its ReaderError was the whole file's unforeseen failure, not this reason.
        ("---\ntitle: a\x01b\n---\nx\n", "is not valid YAML (unacceptable character #x0001"),
    ],
    ids=["recursive-alias", "billion-laughs", "deep-mapping", "deep-flow", "control-character"],
)
def test_hostile_front_matter_is_a_skipped_file_and_the_rest_is_indexed(
    corpus: Corpus, tmp_path: Path, front_matter: str, reason: str
) -> None:
    assert len(BILLION_LAUGHS.encode()) < 500
    folder = tmp_path / "docs"
    folder.mkdir()
    _good_page(folder)
    (folder / "hostile.md").write_text(front_matter, "utf-8")
    report = corpus.ingest(folder)
    [problem] = report.skipped
    assert problem.path.endswith("hostile.md")
    assert reason in problem.reason and "front matter" in problem.reason
    assert [document.id for document in corpus.documents()] == ["good"]


def test_a_deeply_nested_jsonl_line_is_skipped_and_its_neighbours_indexed(
    corpus: Corpus, tmp_path: Path
) -> None:
    export = tmp_path / "export.jsonl"
    deep = '{"_id": "deep", "text": "x", "metadata": {"m": ' + "[" * 100_000 + "]" * 100_000
    lines = [
        json.dumps({"_id": "a", "text": "alpha"}),
        deep + "}}",
        json.dumps({"_id": "c", "text": "gamma"}),
    ]
    export.write_text("\n".join(lines) + "\n", "utf-8")
    report = corpus.ingest(export)
    [problem] = report.skipped
    assert "line 2 nests deeper than" in problem.reason
    assert sorted(document.id for document in corpus.documents()) == ["a", "c"]


def test_any_unforeseen_failure_reading_one_file_costs_only_that_file(
    corpus: Corpus, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from citeline.corpus import formats

    def explode(source: str, origin: object) -> object:
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setitem(formats.READERS, ".txt", explode)
    folder = tmp_path / "docs"
    folder.mkdir()
    _good_page(folder)
    (folder / "notes.txt").write_text("anything", "utf-8")
    report = corpus.ingest(folder)
    [problem] = report.skipped
    assert problem.path.endswith("notes.txt") and "RecursionError" in problem.reason
    assert [document.id for document in corpus.documents()] == ["good"]


def test_symlinks_are_not_needed_to_read_an_ordinary_folder(tmp_path: Path) -> None:
    # Guard for the listing rewrite: a plain tree is read in sorted order, hidden parts skipped.
    from citeline.corpus.formats import source_files

    (tmp_path / "b").mkdir()
    (tmp_path / ".git").mkdir()
    for name in ("b/z.md", "a.md", ".git/x.md", ".hidden.md", "c.csv"):
        (tmp_path / name).write_text("x", "utf-8")
    assert [source.relative for source in source_files(tmp_path)] == ["a.md", "b/z.md"]
    assert os.path.isdir(tmp_path / ".git")
