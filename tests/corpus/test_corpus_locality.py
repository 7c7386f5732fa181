"""``Corpus.local``: whether a search is this process's own work on a file, or a round trip to
a database server (which the agent's tools must wait for off the event loop)."""

from __future__ import annotations

import pytest

from citeline.corpus import Corpus


def test_only_a_file_corpus_is_local(corpus: Corpus, request: pytest.FixtureRequest) -> None:
    store = request.node.callspec.params["open_corpus"]
    assert corpus.local is (store == "sqlite")
