"""A development collection's manifest is read one way for the benchmarks and the tests:
paths made absolute beside it, a claims collection's data named, a broken one refused with
a sentence that says what to fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from citeline.evaluation.collections import (
    MAX_MANIFEST_BYTES,
    ManifestError,
    find_collections,
    prepared_folder,
    read_collection,
)

SITE = (
    'name = "example"\ngenerator = "sphinx"\nsite = "/srv/site"\n'
    'base_url = "https://example.org/"\nquestions = "q.jsonl"\noff_topic = "../o.jsonl"\n'
)


def _write(folder: Path, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "collection.toml").write_text(text, encoding="utf-8")
    return folder


def test_a_site_manifest_reads_its_paths_beside_it_and_its_site_as_written(tmp_path: Path) -> None:
    collection = read_collection(_write(tmp_path / "example", SITE))
    assert collection.kind == "site" and collection.name == "example"
    assert collection.questions == tmp_path / "example" / "q.jsonl"
    assert collection.off_topic == tmp_path / "o.jsonl"
    assert collection.followups is None and collection.prepare is None
    assert collection.site == Path("/srv/site") and collection.fetched
    assert prepared_folder(collection, cwd=tmp_path) == Path("/srv/site")


def test_a_claims_manifest_names_its_shared_data_and_no_site(tmp_path: Path) -> None:
    text = 'kind = "claims"\ncorpus = "beir/corpus.jsonl"\nclaims = "c.jsonl"\ntrain_every = 5\n'
    collection = read_collection(_write(tmp_path / "claims", text))
    assert (collection.name, collection.kind, collection.train_every) == ("claims", "claims", 5)
    assert (collection.corpus, collection.claims) == ("beir/corpus.jsonl", "c.jsonl")
    assert collection.site is None and not collection.fetched


def test_every_manifest_under_a_folder_is_found_by_its_name(tmp_path: Path) -> None:
    _write(tmp_path / "one", SITE)
    _write(tmp_path / "two", SITE.replace('"example"', '"second"'))
    (tmp_path / "three").mkdir()
    assert sorted(find_collections(tmp_path)) == ["example", "second"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (SITE.replace('base_url = "https://example.org/"\n', ""), "has no base_url; add it"),
        (SITE.replace('questions = "q.jsonl"\n', ""), "has no questions; add it"),
        ('kind = "claims"\ncorpus = "c.jsonl"\n', "has no claims; add it"),
        ('kind = "tables"\n', "use site or claims"),
        ("name = \n", "is not TOML"),
    ],
)
def test_a_broken_manifest_says_what_to_fix(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ManifestError, match=message):
        read_collection(_write(tmp_path / "broken", text))


def test_a_huge_file_is_not_read_as_a_manifest(tmp_path: Path) -> None:
    text = SITE + "# " + "x" * MAX_MANIFEST_BYTES + "\n"
    with pytest.raises(ManifestError, match="is over"):
        read_collection(_write(tmp_path / "huge", text))


def test_a_prepare_script_gives_the_folder_it_prints_last(tmp_path: Path) -> None:
    folder = _write(
        tmp_path / "prepared", SITE.replace('site = "/srv/site"\n', 'prepare = "p.sh"\n')
    )
    script = folder / "p.sh"
    script.write_text('#!/bin/sh\necho fetching\necho "$CITELINE_COLLECTIONS_CACHE/out"\n')
    script.chmod(0o755)
    collection = read_collection(folder)
    assert prepared_folder(collection, cwd=tmp_path, cache=tmp_path / "c") == tmp_path / "c" / "out"
    script.write_text("#!/bin/sh\n")
    with pytest.raises(ManifestError, match="printed no folder"):
        prepared_folder(collection, cwd=tmp_path)
