"""Fixtures for the agent tests: a small real corpus. The scripted OpenAI-protocol server
(``openai_server``) is shared by every test folder, from ``tests/conftest.py``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from citeline.corpus import Corpus

DOCUMENTS = {
    "apoptosis.md": (
        "---\nid: R-HSA-109581\nurl: https://reactome.org/content/detail/R-HSA-109581\n"
        "title: Apoptosis\n---\n# Apoptosis\n\n"
        "Apoptosis is a form of programmed cell death that removes damaged cells. "
        "Caspases cleave hundreds of proteins during apoptosis. "
        "CDK5 acts in apoptosis of neurons when it is hyperactivated.\n"
    ),
    "autophagy.md": (
        "---\nid: R-HSA-9612973\nurl: https://reactome.org/content/detail/R-HSA-9612973\n"
        "title: Autophagy\n---\n# Autophagy\n\n"
        "Autophagy delivers cytoplasmic components to lysosomes for degradation. "
        "Starvation induces autophagy through the inhibition of mTOR signalling.\n"
    ),
    "glycolysis.md": (
        "---\nid: R-HSA-70171\ntitle: Glycolysis\n---\n# Glycolysis\n\n"
        "Glycolysis converts glucose into pyruvate and yields two molecules of ATP. "
        "Hexokinase phosphorylates glucose in the first step of glycolysis.\n"
    ),
}


@pytest.fixture
def corpus(tmp_path: Path) -> Iterator[Corpus]:
    """A real SQLite index of three small Markdown documents (one without a url)."""
    folder = tmp_path / "docs"
    folder.mkdir()
    for name, text in DOCUMENTS.items():
        (folder / name).write_text(text, encoding="utf-8")
    index = Corpus.open(tmp_path / "index.db")
    index.ingest(folder)
    try:
        yield index
    finally:
        close = getattr(index, "close", None)
        if close is not None:
            close()
