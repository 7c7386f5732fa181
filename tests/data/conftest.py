"""Fixtures for the data tests: the scripted OpenAI-protocol server of the agent tests (the
same fixture, imported from there rather than copied) and the bundled sample, opened per test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from citeline.data import DataCatalog, load_project

from ..agent.conftest import openai_server

__all__ = ["openai_server", "sample"]


@pytest.fixture
def sample() -> Iterator[DataCatalog]:
    with DataCatalog.open(load_project("sample")) as catalog:
        yield catalog
