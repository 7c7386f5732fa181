"""The plain data the corpus layer hands across its boundary: documents, passages and hits.

Frozen dataclasses only; parsing lives in ``formats``, storage in ``stores``, and nothing
here knows how a document was read or where it is kept.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any
from urllib.parse import urlsplit

# The separator of a title's heading path: "Sorting HOW TO › Key Functions". Readers write
# it (``formats.sections``); search and the server's example questions read titles by it.
TITLE_SEPARATOR = " › "

_EMPTY: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Document:
    """One source document: ``id`` is taken from the source, never invented."""

    id: str
    title: str
    text: str
    url: str | None = None
    # Excluded from hashing: a mapping is not hashable, and the id already identifies.
    metadata: Mapping[str, Any] = field(default_factory=lambda: _EMPTY, hash=False)


def web_address(url: str | None) -> str | None:
    """``url`` when it is an http(s) address with a host, else None: what a document's url
    may be. A reader follows it from a citation and the model is told to cite it, so a
    ``javascript:``, ``data:`` or ``vbscript:`` url (probed: from front matter, a canonical
    link, ``og:url`` and JSONL alike, served by ``GET /v1/search``) is never one."""
    if url is None:
        return None
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    if parts.scheme.lower() not in {"http", "https"} or not parts.hostname:
        return None
    return url.strip()


@dataclass(frozen=True, slots=True)
class Passage:
    """A span of a document's text: ``document.text[start:end] == text``."""

    start: int
    end: int
    text: str


@dataclass(frozen=True, slots=True)
class Hit:
    """One retrieved passage, with what a citation needs to name its document.

    ``start`` and ``end`` index the document's text exactly, so a quote found in ``text`` can
    be located in ``Corpus.get(doc_id).text``.
    """

    doc_id: str
    url: str | None
    title: str
    score: float
    text: str
    start: int
    end: int
