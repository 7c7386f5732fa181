"""Provenance: the tag every tool result carries, and the label an answer gets from them.

A tag says what kind of output a tool result holds and whether the model must
cite it. It travels in the result's metadata, which the model is never sent, and
is stamped by ``tagged_reply``, the one function every tool result is built by.
Beside the corpus, the data tools add governed measures (trusted, no citation
needed) and ad-hoc SQL (must be backed by a quote). This module does not decide
what a tool returns, only how its result is labelled.
"""

from __future__ import annotations

from collections.abc import Collection
from enum import StrEnum

from citeline.events import Provenance
from citeline.models import ToolReply

PROVENANCE_KEY = "provenance"


class ProvenanceTag(StrEnum):
    """What a tool result holds."""

    CORPUS = "corpus"  # passages and documents of the curated collection
    GOVERNED = "governed"  # a measure the data owner defined: trusted, needs no citation
    AD_HOC = "ad_hoc"  # SQL the model wrote: must be backed by a verified quote

    @property
    def needs_citation(self) -> bool:
        """Whether the model must cite this output, so the citation request may ride on it."""
        return self in _NEEDS_CITATION


_NEEDS_CITATION: frozenset[ProvenanceTag] = frozenset({ProvenanceTag.CORPUS, ProvenanceTag.AD_HOC})


def tagged_reply(
    provenance: ProvenanceTag, *, value: object = None, error: str | None = None
) -> ToolReply:
    """A tool result for the model, its provenance stamped in metadata the model never sees."""
    return ToolReply(value=value, metadata={PROVENANCE_KEY: provenance.value}, error=error)


def answer_provenance(
    tags: Collection[ProvenanceTag], *, cited_sources: int, quote_verified: bool = False
) -> Provenance:
    """The answer's label from this turn's successful results, in this order: any ad-hoc
    result gives ``cited`` when a quote verified, else ``untrusted``; else any governed
    result gives ``verified``; else a cited corpus source gives ``sourced``; else ``none``.
    Pinned as data in ``contracts/fixtures/provenance.json``."""
    if ProvenanceTag.AD_HOC in tags:
        return "cited" if quote_verified else "untrusted"
    if ProvenanceTag.GOVERNED in tags:
        return "verified"
    return "sourced" if cited_sources and ProvenanceTag.CORPUS in tags else "none"
