"""Fixtures for the data tests: the bundled sample, opened per test (the scripted
OpenAI-protocol server, ``openai_server``, comes from ``tests/conftest.py``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from citeline.data import DataCatalog, load_project


@pytest.fixture
def sample() -> Iterator[DataCatalog]:
    with DataCatalog.open(load_project("sample")) as catalog:
        yield catalog
