"""From the model's anchors to ``citation`` events: only sources a tool returned in this turn.

An anchor's href matches a returned source exactly: by its href (its url, or
``cite:<id>``), its url without a trailing slash, ``cite:<id>`` even when the source has
a url, or its id as written; or, on the source's own host only, by the id standing as a
whole component of the url (last path segment, a query value or the fragment), as a
site's other views of the same record write it. Never on another host: there
``https://evil.example/merge-dicts`` resolved to the real ``merge-dicts`` section.
A matched source is cited once, numbered by first appearance; an anchor that
matches nothing is dropped from the events and counted (its display text stays in
the prose). A citation's ``href`` is its source's url when that is an http(s) address
(the section's anchor on the owner's site), so every consumer links it without a
template. A verified quote block is a citation of its own (each quote is its own
evidence), numbered with its source. An answer carries at most ``max_citations``
citation events (``CITELINE_MAX_CITATIONS``, default 12, for every profile and wire);
a source or quote past the cap is dropped and counted like an unresolved anchor. This
module reads anchors and quote outcomes, never prose.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Literal
from urllib.parse import parse_qsl, urlsplit

from citeline.agent.tools import Source
from citeline.events import DEFAULT_MAX_CITATIONS, MAX_CITATIONS_ENV, Citation, web_address
from citeline.stream import Anchor
from citeline.stream.quotes import QuoteMatch


def max_citations_from_env(environ: Mapping[str, str] | None = None) -> int:
    """The citation cap set by ``CITELINE_MAX_CITATIONS``, else `DEFAULT_MAX_CITATIONS`."""
    raw = (os.environ if environ is None else environ).get(MAX_CITATIONS_ENV, "").strip()
    if not raw:
        return DEFAULT_MAX_CITATIONS
    try:
        value = int(raw)
    except ValueError:
        value = 0
    if value < 1:
        raise ValueError(
            f"{MAX_CITATIONS_ENV}={raw!r} cannot be used: set it to a whole number of at "
            f"least 1, or unset it for the default of {DEFAULT_MAX_CITATIONS}."
        )
    return value


class CitationResolver:
    """Numbers, deduplicates and caps the citations of one answer. Never shared."""

    def __init__(
        self, sources: Mapping[str, Source], max_citations: int = DEFAULT_MAX_CITATIONS
    ) -> None:
        # A live view of the toolbox's record: a source returned later in the turn counts
        # for anchors decided after it.
        self._sources = sources
        self._cited: dict[str, int] = {}
        # Numbers by first appearance, shared by anchors and quotes: a document cited by an
        # anchor and quoted keeps one number.
        self._numbers: dict[str, int] = {}
        self._max_citations = max_citations
        self._events = 0
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
        return self._cite(source, anchor.start, anchor.end)

    def resolve_found(self, source_id: str, start: int, end: int) -> Citation | None:
        """The citation of a source the server found supporting the text at ``start:end``
        (``found_by: server``), or ``None`` when it is already cited, unknown or past the
        cap. A found citation past the cap is not counted as dropped: the model wrote
        no link that was lost."""
        source = next((s for s in self._sources.values() if s.id == source_id), None)
        if source is None:
            return None
        return self._cite(source, start, end, found_by="server")

    def resolve_quote(self, match: QuoteMatch) -> Citation | None:
        """The citation of a verified quote: its source's id and kind, the passage as the
        trusted text writes it, and null offsets (the quote never reaches the prose);
        ``None`` past the cap."""
        if not self._within_cap(lost=True):
            return None
        source = None
        if match.kind in ("document", "result"):
            source = next((s for s in self._sources.values() if s.id == match.id), None)
        return Citation(
            n=self._number(match.id if source is None else source.href),
            display_name=match.display_name,
            id=match.id,
            quote=match.text,
            verified=True,
            kind=match.kind,
            href=None if source is None else web_address(source.url),
        )

    def _cite(
        self,
        source: Source,
        start: int | None,
        end: int | None,
        found_by: Literal["server"] | None = None,
    ) -> Citation | None:
        """The one citation of ``source``, with the address a reader follows, however it was
        found; ``None`` when it is already cited or past the cap. One builder, so a field
        added for one way of citing reaches every way: a found citation once lacked the
        ``href`` an anchor's had, and its chip did not link."""
        if source.href in self._cited:
            return None
        # The model's link past the cap is lost, and counted; a found one was never written.
        if not self._within_cap(lost=found_by is None):
            return None
        n = self._cited[source.href] = self._number(source.href)
        return Citation(
            n=n,
            display_name=source.display_name,
            id=source.id or None,
            url=None if source.id else source.url,
            start=start,
            end=end,
            href=web_address(source.url),
            found_by=found_by,
        )

    def _within_cap(self, *, lost: bool) -> bool:
        """Whether one more citation event fits under the cap (counting it if so); one that
        does not is counted as dropped when ``lost``."""
        if self._events >= self._max_citations:
            if lost:
                self.dropped += 1
            return False
        self._events += 1
        return True

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
        host = _host(href)
        components = _url_components(href) if host else frozenset()
        for source in self._sources.values():
            if source.url and _without_slash(source.url) == wanted:
                return source
            if source.id and href in (f"cite:{source.id}", source.id):
                return source
            if (
                source.id
                and source.url
                and host
                and _host(source.url) == host
                and source.id in components
            ):
                return source
        return None


def _host(url: str) -> str:
    """The host of an absolute http(s) url, lower-cased; ``""`` for anything else."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return ""
    if parts.scheme.lower() not in ("http", "https"):
        return ""
    return (parts.hostname or "").lower()


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
