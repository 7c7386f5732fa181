"""From the model's anchors to ``citation`` events: only sources a tool returned in this turn.

An anchor's href matches a returned source by its href (its url, or ``cite:<id>``),
by ``cite:<id>`` even when the source has a url, or by the source's id standing as
a whole component of the url (last path segment, a query value or the fragment).
A matched source is cited once, numbered by first appearance; an anchor that
matches nothing is dropped from the events and counted (its display text stays in
the prose). A verified quote block is a citation of its own (each quote is its own
evidence), numbered with its source. This module reads anchors and quote outcomes,
never prose.
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import parse_qsl, urlsplit

from citeline.agent.tools import Source
from citeline.events import Citation
from citeline.stream import Anchor
from citeline.stream.quotes import QuoteMatch


class CitationResolver:
    """Numbers and deduplicates the citations of one answer. Never shared."""

    def __init__(self, sources: Mapping[str, Source]) -> None:
        # A live view of the toolbox's record: a source returned later in the turn counts
        # for anchors decided after it.
        self._sources = sources
        self._cited: dict[str, int] = {}
        # Numbers by first appearance, shared by anchors and quotes: a document cited by an
        # anchor and quoted keeps one number.
        self._numbers: dict[str, int] = {}
        self.dropped = 0

    @property
    def cited(self) -> int:
        return len(self._cited)

    def resolve(self, anchor: Anchor) -> Citation | None:
        """The citation for ``anchor``, or ``None`` when its source is already cited or unknown."""
        source = self.match(anchor.href)
        if source is None:
            self.dropped += 1
            return None
        if source.href in self._cited:
            return None
        n = self._cited[source.href] = self._number(source.href)
        return Citation(
            n=n,
            display_name=source.display_name,
            id=source.id or None,
            url=None if source.id else source.url,
            start=anchor.start,
            end=anchor.end,
        )

    def resolve_quote(self, match: QuoteMatch) -> Citation:
        """The citation of a verified quote: its source's id and kind, the passage as the
        trusted text writes it, and null offsets (the quote never reaches the prose)."""
        key = match.id
        if match.kind in ("document", "result"):
            key = next((s.href for s in self._sources.values() if s.id == match.id), match.id)
        return Citation(
            n=self._number(key),
            display_name=match.display_name,
            id=match.id,
            quote=match.text,
            verified=True,
            kind=match.kind,
        )

    def _number(self, key: str) -> int:
        return self._numbers.setdefault(key, len(self._numbers) + 1)

    def match(self, href: str) -> Source | None:
        href = href.strip()
        if not href:
            return None
        exact = self._sources.get(href)
        if exact is not None:
            return exact
        wanted = _without_slash(href)
        components = _url_components(href)
        for source in self._sources.values():
            if source.url and _without_slash(source.url) == wanted:
                return source
            if source.id and (href == f"cite:{source.id}" or source.id in components):
                return source
        return None


def _without_slash(url: str) -> str:
    return url.rstrip("/")


def _url_components(href: str) -> frozenset[str]:
    """The parts of a url that can stand for an identifier: last path segment, query, fragment.

    Deliberately not any substring: a numeric id such as ``4983`` must not match a
    year in an unrelated url's path.
    """
    try:
        parts = urlsplit(href)
    except ValueError:
        return frozenset()
    found = {value for _, value in parse_qsl(parts.query)}
    segments = [s for s in parts.path.split("/") if s]
    if segments:
        last = segments[-1]
        found.add(last)
        found.add(last.rsplit(".", 1)[0])
    if parts.fragment:
        found.add(parts.fragment)
    return frozenset(v for v in found if v)
