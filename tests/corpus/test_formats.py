"""Each source format becomes the documents a reader would expect."""

from __future__ import annotations

from pathlib import Path

from citeline.corpus import Corpus, Document


def _by_id(corpus: Corpus) -> dict[str, Document]:
    return {document.id: document for document in corpus.documents()}


def test_markdown_front_matter_names_the_id_url_title_and_metadata(
    corpus: Corpus, collection: Path
) -> None:
    corpus.ingest(collection)
    document = _by_id(corpus)["KB-0042"]
    assert document.url == "https://docs.example.org/install"
    assert document.title == "Installing the pathway browser"
    assert document.metadata == {"audience": "admins", "updated": "2024-05-01"}
    # Rendered to the text a reader sees: the heading without its Markdown marker.
    assert document.text.startswith("Install\n\nDownload the installer")
    assert "---" not in document.text


def test_markdown_without_front_matter_takes_its_id_from_the_path_and_title_from_its_heading(
    corpus: Corpus, collection: Path
) -> None:
    corpus.ingest(collection)
    document = _by_id(corpus)["guides/upgrade"]
    assert document.title == "Upgrading between releases"
    assert document.url is None


def test_html_keeps_the_visible_text_and_drops_scripts_styles_and_navigation(
    corpus: Corpus, collection: Path
) -> None:
    corpus.ingest(collection)
    document = _by_id(corpus)["pages/apoptosis"]
    # The page's own heading, not <title>, which carries the site's name on every page.
    assert document.title == "Apoptosis"
    assert document.url == "https://kb.example.org/R-HSA-109581"
    assert "Apoptosis is a programmed form of cell death." in document.text
    assert "Caspases execute the program." in document.text
    for noise in ("tracker", "color: red", "About us", "Site banner", "Copyright"):
        assert noise not in document.text


def test_html_without_a_title_element_is_named_by_its_first_heading(
    corpus: Corpus, collection: Path
) -> None:
    corpus.ingest(collection)
    document = _by_id(corpus)["pages/untitled"]
    assert document.title == "Mitochondrial permeability"
    assert document.text == "Mitochondrial permeability\n\nCytochrome c leaves the mitochondria."


def test_plain_text_is_named_by_its_first_line(corpus: Corpus, collection: Path) -> None:
    corpus.ingest(collection)
    document = _by_id(corpus)["notes/lab-notes"]
    assert document.title == "Lab notes, week 12"
    assert "cleaved caspase-3" in document.text


def test_beir_jsonl_records_keep_their_ids_titles_and_metadata(
    corpus: Corpus, collection: Path
) -> None:
    corpus.ingest(collection)
    documents = _by_id(corpus)
    assert documents["4983"].title.startswith("Microstructural development")
    assert documents["5836"].url == "https://example.org/5836"
    assert documents["5836"].metadata == {"url": "https://example.org/5836", "year": 2013}
    assert documents["7912"].title == "7912"


def test_hidden_files_and_other_formats_in_a_folder_are_passed_over(
    corpus: Corpus, collection: Path
) -> None:
    report = corpus.ingest(collection)
    assert report.ok
    assert len(corpus) == 8
    assert not any("hidden" in d.id or "table" in d.id for d in corpus.documents())


def test_a_single_file_is_ingested_with_its_name_as_id(corpus: Corpus, collection: Path) -> None:
    corpus.ingest(collection / "guides" / "upgrade.md")
    assert [d.id for d in corpus.documents()] == ["upgrade"]
