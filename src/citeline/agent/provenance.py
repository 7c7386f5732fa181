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
from citeline.stream.quotes import QuoteMatch, TrustedKind

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


# The trusted text whose quote can back an ad-hoc figure: values a tool returned (a measure's or
# a query's rows) and curated documents. Never a description: found by attack, quoting ten
# characters of a table's description ("Body mass in grams.") earned ``cited`` for a made-up
# figure, since a description says what a column means, not what any value is.
VALUE_KINDS: frozenset[TrustedKind] = frozenset({"result", "document"})


def backs_figures(quotes: Collection[QuoteMatch]) -> bool:
    """Whether any verified quote is a quote of values, the only kind that earns ``cited``."""
    return any(quote.kind in VALUE_KINDS for quote in quotes)


def tagged_reply(
    provenance: ProvenanceTag, *, value: object = None, error: str | None = None
) -> ToolReply:
    """A tool result for the model, its provenance stamped in metadata the model never sees."""
    return ToolReply(value=value, metadata={PROVENANCE_KEY: provenance.value}, error=error)


def answer_provenance(
    tags: Collection[ProvenanceTag], *, cited_sources: int, quote_verified: bool = False
) -> Provenance:
    """The answer's label from this turn's successful results, in this order: any ad-hoc
    result gives ``cited`` when a quote of values verified (``backs_figures``), else
    ``untrusted``; else any governed
    result gives ``verified``; else a cited corpus source gives ``sourced``; else ``none``.
    Pinned as data in ``contracts/fixtures/provenance.json``."""
    if ProvenanceTag.AD_HOC in tags:
        return "cited" if quote_verified else "untrusted"
    if ProvenanceTag.GOVERNED in tags:
        return "verified"
    return "sourced" if cited_sources and ProvenanceTag.CORPUS in tags else "none"
