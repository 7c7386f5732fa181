"""Ingestion is incremental, transactional per document, and loses nothing on bad input."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from citeline.corpus import Corpus, IngestProgress, SourcePathError
from citeline.corpus.documents import Document
from citeline.corpus.ingest import content_hash
from citeline.corpus.passages import MAX_PASSAGE_CHARS
from citeline.corpus.stores.sql import SQLCorpusStore


def _write_jsonl(path: Path, records: list[dict[str, object]]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def test_a_first_ingest_adds_every_document(corpus: Corpus, collection: Path) -> None:
    report = corpus.ingest(collection)
    assert (report.added, report.updated, report.unchanged, report.removed) == (8, 0, 0, 0)
    assert report.summary() == "added 8, updated 0, unchanged 0, removed 0, skipped 0"


def test_re_ingesting_an_unchanged_folder_writes_nothing(
    corpus: Corpus, collection: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus.ingest(collection)
    release = corpus.release

    def no_writes(*args: object, **kwargs: object) -> None:
        raise AssertionError("an unchanged document was written again")

    monkeypatch.setattr(SQLCorpusStore, "put_many", no_writes)
    monkeypatch.setattr(SQLCorpusStore, "delete", no_writes)
    report = corpus.ingest(collection, prune=True)
    assert (report.added, report.updated, report.unchanged, report.removed) == (0, 0, 8, 0)
    assert corpus.release == release


def test_an_edited_document_is_updated_and_its_old_words_no_longer_match(
    corpus: Corpus, collection: Path
) -> None:
    corpus.ingest(collection)
    note = collection / "notes" / "lab-notes.txt"
    note.write_text("Lab notes, week 13\n\nThe flow cytometry run failed.\n", encoding="utf-8")
    report = corpus.ingest(collection)
    assert (report.added, report.updated, report.unchanged) == (0, 1, 7)
    assert [h.doc_id for h in corpus.search("cytometry")] == ["notes/lab-notes"]
    assert "notes/lab-notes" not in {h.doc_id for h in corpus.search("western blot band")}


def test_a_bad_file_among_good_ones_is_skipped_with_its_reason(
    corpus: Corpus, collection: Path
) -> None:
    (collection / "notes" / "latin1.txt").write_bytes("caf\xe9 au lait".encode("latin-1"))
    report = corpus.ingest(collection)
    assert not report.ok
    assert report.added == 8
    [problem] = report.skipped
    assert problem.path.endswith("latin1.txt")
    assert "not UTF-8" in problem.reason
    assert corpus.get("notes/latin1") is None


def test_bad_front_matter_is_reported_and_the_file_skipped(
    corpus: Corpus, collection: Path
) -> None:
    (collection / "broken.md").write_text("---\nid: [unclosed\n---\nBody\n", encoding="utf-8")
    report = corpus.ingest(collection)
    [problem] = report.skipped
    assert "front matter is not valid YAML" in problem.reason
    assert report.added == 8


def test_a_jsonl_record_without_an_id_is_skipped_and_the_rest_indexed(
    corpus: Corpus, tmp_path: Path
) -> None:
    export = tmp_path / "export.jsonl"
    _write_jsonl(
        export,
        [
            {"_id": "a", "title": "A", "text": "alpha text"},
            {"title": "No id", "text": "this record has no id"},
            {"_id": "c", "title": "C", "text": "gamma text"},
        ],
    )
    report = corpus.ingest(export)
    [problem] = report.skipped
    assert "line 2 has no _id" in problem.reason
    assert sorted(d.id for d in corpus.documents()) == ["a", "c"]


def test_a_line_that_is_not_json_is_skipped_on_its_own(corpus: Corpus, tmp_path: Path) -> None:
    export = tmp_path / "export.jsonl"
    export.write_text('{"_id": "a", "text": "alpha"}\n{not json\n', encoding="utf-8")
    report = corpus.ingest(export)
    [problem] = report.skipped
    assert "line 2 is not valid JSON" in problem.reason
    assert len(corpus) == 1


def test_a_duplicate_id_is_skipped_and_the_first_document_kept(
    corpus: Corpus, tmp_path: Path
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.md").write_text("---\nid: shared\n---\n# First\n\nfirst body\n", encoding="utf-8")
    (folder / "b.md").write_text(
        "---\nid: shared\n---\n# Second\n\nsecond body\n", encoding="utf-8"
    )
    report = corpus.ingest(folder)
    [problem] = report.skipped
    assert problem.doc_id == "shared"
    assert problem.path.endswith("b.md")
    assert "already used by" in problem.reason and "a.md" in problem.reason
    document = corpus.get("shared")
    assert document is not None and document.title == "First"


def test_a_crash_mid_ingest_leaves_the_index_as_it_was_before_that_batch(
    corpus: Corpus, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    export = tmp_path / "export.jsonl"
    records: list[dict[str, object]] = [
        {"_id": str(n), "title": f"Doc {n}", "text": f"original text {n}"} for n in range(4)
    ]
    _write_jsonl(export, records)
    corpus.ingest(export)
    records = [{**r, "text": f"revised wording {r['_id']}"} for r in records]
    _write_jsonl(export, records)

    import citeline.corpus.ingest as ingest_module

    # Two documents per transaction: the crash falls in the second batch, after all of its
    # documents were written, at the content digest every store writes last in the
    # transaction (once per batch); that batch is lost whole, and the first stays whole.
    monkeypatch.setattr(ingest_module, "INGEST_BATCH", 2)
    batches_written = 0
    real_changed = SQLCorpusStore._changed

    def crash_at_second_batch_end(self: SQLCorpusStore, *args: Any) -> None:
        nonlocal batches_written
        batches_written += 1
        if batches_written == 2:
            raise RuntimeError("simulated crash")
        real_changed(self, *args)

    monkeypatch.setattr(SQLCorpusStore, "_changed", crash_at_second_batch_end)
    with pytest.raises(RuntimeError, match="simulated crash"):
        corpus.ingest(export)
    monkeypatch.undo()

    texts = {d.id: d.text for d in corpus.documents()}
    assert texts == {
        "0": "revised wording 0",
        "1": "revised wording 1",
        "2": "original text 2",
        "3": "original text 3",
    }
    assert {h.doc_id for h in corpus.search("original")} == {"2", "3"}
    assert {h.doc_id for h in corpus.search("revised")} == {"0", "1"}
    report = corpus.ingest(export)
    assert (report.updated, report.unchanged) == (2, 2)


def test_prune_removes_documents_deleted_from_the_folder(corpus: Corpus, collection: Path) -> None:
    corpus.ingest(collection)
    (collection / "guides" / "upgrade.md").unlink()
    kept = corpus.ingest(collection)
    assert kept.removed == 0 and corpus.get("guides/upgrade") is not None
    pruned = corpus.ingest(collection, prune=True)
    assert pruned.removed == 1
    assert corpus.get("guides/upgrade") is None
    assert corpus.search("binaries") == []


def test_prune_keeps_documents_whose_file_failed_to_read_this_time(
    corpus: Corpus, collection: Path
) -> None:
    corpus.ingest(collection)
    (collection / "notes" / "lab-notes.txt").write_bytes(b"\xff\xfe broken")
    report = corpus.ingest(collection, prune=True)
    assert report.removed == 0 and len(report.skipped) == 1
    assert corpus.get("notes/lab-notes") is not None


def test_a_missing_path_is_a_clear_error(corpus: Corpus, tmp_path: Path) -> None:
    with pytest.raises(SourcePathError, match="does not exist"):
        corpus.ingest(tmp_path / "nowhere")


def test_progress_is_reported_after_each_file(corpus: Corpus, collection: Path) -> None:
    seen: list[IngestProgress] = []
    corpus.ingest(collection, progress=seen.append)
    assert [p.files_done for p in seen] == list(range(1, 7))
    assert seen[-1].documents_done == 8
    assert {p.files_total for p in seen} == {6}


def test_a_release_label_names_the_collection_until_it_changes(
    open_corpus: Callable[[], Corpus], collection: Path
) -> None:
    corpus = open_corpus()
    assert corpus.release is None
    corpus.ingest(collection, release="2024-06")
    assert corpus.release == "2024-06"
    corpus.ingest(collection)
    assert corpus.release == "2024-06"
    (collection / "guides" / "upgrade.md").write_text("# Upgrading\n\nNew text.\n", "utf-8")
    corpus.ingest(collection)
    digest = corpus.release
    assert digest is not None and digest != "2024-06" and len(digest) == 12
    assert open_corpus().release == digest


def test_the_content_release_changes_whenever_a_document_does(
    corpus: Corpus, collection: Path
) -> None:
    corpus.ingest(collection)
    first = corpus.release
    note = collection / "notes" / "lab-notes.txt"
    original = note.read_text("utf-8")
    note.write_text(original + "\nOne more line.\n", "utf-8")
    corpus.ingest(collection)
    assert corpus.release != first
    note.write_text(original, "utf-8")
    corpus.ingest(collection)
    assert corpus.release == first


@pytest.mark.parametrize(
    "document",
    [
        Document("plain", "Title", "Text."),
        Document(
            'q"\\\n\t\x00\u2028é😀',
            "Guide › Ünïcode",
            'text\r\n"quoted"',
            'https://example.org/ü?a="b"',
            {"z": [1, 2.5, None, True], "a": {"b": "ü"}},
        ),
        Document("empty", "", " ", None, {}),
    ],
)
def test_a_content_hash_is_the_digest_of_the_documents_canonical_json(document: Document) -> None:
    # A collection ingested before keeps its documents unchanged only while the digest
    # of each is what it was: written out field by field, it must equal the encoder's.
    canonical = json.dumps(
        [
            document.id,
            document.title,
            document.url,
            document.text,
            dict(document.metadata),
            MAX_PASSAGE_CHARS,
        ],
        ensure_ascii=False,
        sort_keys=True,
    )
    assert content_hash(document) == hashlib.sha256(canonical.encode()).hexdigest()
