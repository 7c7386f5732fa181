"""Search returns passages that name their document and index back into its text."""

from __future__ import annotations

import threading
from pathlib import Path

from citeline.corpus import Corpus, Document


def test_hits_carry_id_url_title_and_offsets_into_the_document_text(
    corpus: Corpus, collection: Path
) -> None:
    corpus.ingest(collection)
    [hit, *_] = corpus.search("programmed cell death")
    assert hit.doc_id == "pages/apoptosis"
    assert hit.url == "https://kb.example.org/R-HSA-109581"
    assert hit.title == "Apoptosis"
    assert hit.score > 0
    document = corpus.get(hit.doc_id)
    assert document is not None
    assert document.text[hit.start : hit.end] == hit.text


def test_every_hit_indexes_back_into_its_document_across_long_documents(
    corpus: Corpus, tmp_path: Path
) -> None:
    sentences = [f"Sentence {n} talks about kinase number {n} in detail." for n in range(400)]
    (tmp_path / "long.md").write_text("# Long\n\n" + " ".join(sentences) + "\n", "utf-8")
    corpus.ingest(tmp_path / "long.md")
    hits = corpus.search("kinase detail", k=50)
    assert len(hits) > 5
    text = corpus.get("long")
    assert text is not None
    for hit in hits:
        assert text.text[hit.start : hit.end] == hit.text
        assert len(hit.text) <= 2000
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_search_folds_case_diacritics_and_word_endings(corpus: Corpus, collection: Path) -> None:
    corpus.ingest(collection)
    assert corpus.search("CAFE NAIVE")[0].doc_id == "KB-0042"
    assert corpus.search("installers finished")[0].doc_id == "KB-0042"


def test_a_title_word_finds_its_document(corpus: Corpus, collection: Path) -> None:
    corpus.ingest(collection)
    assert corpus.search("myelodysplasia")[0].doc_id == "5836"


def test_a_query_of_stop_words_or_punctuation_finds_nothing_rather_than_failing(
    corpus: Corpus, collection: Path
) -> None:
    corpus.ingest(collection)
    assert corpus.search("the of and") == []
    assert corpus.search('"*) OR NEAR(') == []
    assert corpus.search("") == []


def test_k_bounds_the_number_of_hits(corpus: Corpus, collection: Path) -> None:
    corpus.ingest(collection)
    assert len(corpus.search("the installer caspase cell", k=2)) == 2
    assert corpus.search("caspase", k=0) == []


def test_get_returns_none_for_an_unknown_id(corpus: Corpus) -> None:
    assert corpus.get("no-such-document") is None


def test_searches_from_several_threads_at_once_all_succeed(
    corpus: Corpus, collection: Path
) -> None:
    corpus.ingest(collection)
    expected = [h.doc_id for h in corpus.search("caspase")]
    results: list[list[str]] = []
    errors: list[BaseException] = []

    def search_many() -> None:
        try:
            for _ in range(20):
                results.append([h.doc_id for h in corpus.search("caspase")])
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=search_many) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert results == [expected] * 80


def test_documents_lists_every_document_with_its_full_text(
    corpus: Corpus, collection: Path
) -> None:
    corpus.ingest(collection)
    documents = list(corpus.documents())
    assert len(documents) == len(corpus) == 8
    assert all(isinstance(d, Document) and d.text for d in documents)


def test_searches_keep_working_while_another_thread_ingests(
    corpus: Corpus, collection: Path, tmp_path: Path
) -> None:
    corpus.ingest(collection)
    export = tmp_path / "more.jsonl"
    export.write_text(
        "".join(
            f'{{"_id": "extra-{n}", "title": "Extra {n}", "text": "caspase note {n}"}}\n'
            for n in range(300)
        ),
        "utf-8",
    )
    errors: list[BaseException] = []
    writer = threading.Thread(target=lambda: corpus.ingest(export))
    writer.start()
    while writer.is_alive():
        try:
            assert corpus.search("caspase", k=5)
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)
            break
    writer.join()
    assert not errors
    assert len(corpus) == 308


def test_words_find_the_api_that_spells_them_as_one_name(corpus: Corpus, tmp_path: Path) -> None:
    pages = {
        "prefix.md": "# Prefixes\n\nCall `str.startswith(prefix)` on the text.\n",
        "cache.md": "# Caching\n\nUse `cache.find_or_insert(key)` to read through.\n",
        "reply.md": "# Replies\n\nReturn an `HtmlResponse` from the view.\n",
        "other.md": "# Other\n\nThe text starts here, with a prefix and a reply to find.\n",
    }
    for name, text in pages.items():
        (tmp_path / name).write_text(text, "utf-8")
    corpus.ingest(tmp_path)
    assert corpus.search("check that a string startswith a prefix")[0].doc_id == "prefix"
    assert corpus.search("how do I check a string starts with something")[0].doc_id == "prefix"
    assert corpus.search("insert a key")[0].doc_id == "cache"
    assert corpus.search("html response")[0].doc_id == "reply"
