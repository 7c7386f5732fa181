"""``citeline ingest`` and ``citeline search`` from a user's side: output and exit status."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from citeline.cli import app

runner = CliRunner()


def test_ingest_prints_a_summary_and_search_finds_the_passage(
    tmp_path: Path, collection: Path
) -> None:
    db = tmp_path / "index.sqlite"
    result = runner.invoke(app, ["ingest", str(collection), "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert "added 8, updated 0, unchanged 0, removed 0, skipped 0" in result.stdout
    found = runner.invoke(app, ["search", "programmed cell death", "--db", str(db), "-k", "1"])
    assert found.exit_code == 0
    assert "1. Apoptosis  [pages/apoptosis]" in found.stdout
    assert "https://kb.example.org/R-HSA-109581" in found.stdout


def test_search_as_json_gives_every_hit_field(tmp_path: Path, collection: Path) -> None:
    db = tmp_path / "index.sqlite"
    runner.invoke(app, ["ingest", str(collection), "--db", str(db)])
    result = runner.invoke(app, ["search", "caspase", "--db", str(db), "--json"])
    hits = json.loads(result.stdout)
    assert hits and set(hits[0]) == {"doc_id", "url", "title", "score", "text", "start", "end"}


def test_ingest_exits_non_zero_and_names_each_skipped_file(
    tmp_path: Path, collection: Path
) -> None:
    (collection / "bad.jsonl").write_text('{"title": "no id", "text": "x"}\n', "utf-8")
    result = runner.invoke(
        app, ["ingest", str(collection), "--db", str(tmp_path / "i.sqlite"), "--prune"]
    )
    assert result.exit_code == 1
    assert "bad.jsonl" in result.stderr and "line 1 has no _id" in result.stderr
    assert "skipped 1" in result.stdout


def test_ingest_of_a_missing_path_says_so(tmp_path: Path) -> None:
    result = runner.invoke(app, ["ingest", str(tmp_path / "nowhere"), "--db", "x.sqlite"])
    assert result.exit_code == 2
    assert "does not exist" in result.stderr
    assert not Path("x.sqlite").exists()


def test_search_without_an_index_says_how_to_build_one(tmp_path: Path) -> None:
    result = runner.invoke(app, ["search", "q", "--db", str(tmp_path / "none.sqlite")])
    assert result.exit_code == 2
    assert "citeline ingest PATH --db" in result.stderr


def test_an_unreadable_index_is_a_sentence_not_a_traceback(
    tmp_path: Path, collection: Path
) -> None:
    db = tmp_path / "junk.sqlite"
    db.write_bytes(b"not a database at all " * 200)
    result = runner.invoke(app, ["ingest", str(collection), "--db", str(db)])
    assert result.exit_code == 2
    assert "cannot be opened as a citeline index" in result.stderr


def test_an_index_of_another_schema_version_says_what_to_do(
    tmp_path: Path, collection: Path
) -> None:
    db = tmp_path / "old.sqlite"
    runner.invoke(app, ["ingest", str(collection), "--db", str(db)])
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE corpus_meta SET value = '99' WHERE key = 'schema_version'")
    result = runner.invoke(app, ["search", "caspase", "--db", str(db)])
    assert result.exit_code == 2
    assert "Ingest your sources again into a new file" in result.stderr


@pytest.mark.usefixtures("searched_as_built")
def test_a_hybrid_ingest_embeds_and_search_ranks_by_meaning_unless_told_lexical(
    tmp_path: Path,
) -> None:
    pytest.importorskip("onnxruntime", reason="needs pip install 'citeline[dense]'")
    db = tmp_path / "index.sqlite"
    meaning = Path(__file__).parent / "fixtures" / "meaning"
    built = runner.invoke(app, ["ingest", str(meaning), "--db", str(db), "--retrieval", "hybrid"])
    assert built.exit_code == 0, built.output
    assert "3/3 passages embedded" in built.output
    assert "3/3 sections read for meaning" in built.output
    found = runner.invoke(app, ["search", "pause my script briefly", "--db", str(db), "--json"])
    assert json.loads(found.stdout)[0]["doc_id"] == "sleep"
    lexical = runner.invoke(
        app, ["search", "pause my script briefly", "--db", str(db), "--retrieval", "lexical"]
    )
    assert "No passage matches" in lexical.output


def test_an_unknown_retrieval_mode_is_refused_with_the_choices(
    tmp_path: Path, collection: Path
) -> None:
    db = tmp_path / "index.sqlite"
    runner.invoke(app, ["ingest", str(collection), "--db", str(db)])
    result = runner.invoke(app, ["search", "x", "--db", str(db), "--retrieval", "fuzzy"])
    assert result.exit_code == 2
    assert "is not one of lexical, dense, hybrid" in result.output


@pytest.mark.parametrize("module", ["faiss", "onnx"])
def test_a_hybrid_ingest_on_a_partial_dense_install_prints_the_install_command(
    tmp_path: Path, collection: Path, module: str
) -> None:
    # Issue 29: with faiss or onnx missing the ingest crashed; here a fresh process whose
    # import of that one module fails, as on such an install.
    launch = (
        f"import sys; sys.modules[{module!r}] = None; sys.argv[0] = 'citeline';"
        " from citeline.cli import main; main()"
    )
    db = tmp_path / "index.sqlite"
    run = subprocess.run(
        [sys.executable, "-c", launch, "ingest", str(collection), "--db", str(db),
         "--retrieval", "hybrid"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 2, run.stderr
    assert "Traceback" not in run.stderr
    assert f"{module} cannot be imported" in run.stderr
    assert "pip install 'citeline[dense]'" in run.stderr
