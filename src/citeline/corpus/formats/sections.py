"""A page's sections as documents: one per heading, titled by its heading path.

A reader (``html``, ``markdown``) finds the sections of one page, each with its heading
path from the page title down and the anchor the site gives it; this module names and
links them. The first section keeps the page's own id and address, so a page of one
section is one document exactly as before; every later section is ``ID#anchor`` at
``URL#anchor``. A section with no text beyond its heading (a chapter heading followed at
once by its first subsection) is left out rather than indexed as an empty passage. It
deliberately knows nothing about markup.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from citeline.corpus.documents import TITLE_SEPARATOR, Document
from citeline.corpus.formats.heading_bound import bounded_heading
from citeline.corpus.formats.site_urls import with_anchor

_NOT_SLUG = re.compile(r"[^\w\s-]+")
_SLUG_SEPARATORS = re.compile(r"[-\s]+")


@dataclass(frozen=True, slots=True)
class Section:
    """One heading's part of a page: ``headings`` from the page's title down to this
    section's own (empty for text before the first heading), the element id the site
    gives it (None when it gives none) and its plain text, the heading line first."""

    headings: tuple[str, ...]
    anchor: str | None
    text: str


def slug(heading: str) -> str:
    """The anchor MkDocs and Python-Markdown give a heading that names none: their
    ``toc.slugify``, letters folded to ASCII, what is not a word character, space or hyphen
    dropped, and each run of spaces and hyphens one hyphen ("Only `--force`" is
    ``only-force``, as the published page links it)."""
    folded = unicodedata.normalize("NFKD", heading).encode("ascii", "ignore").decode("ascii")
    return _SLUG_SEPARATORS.sub("-", _NOT_SLUG.sub("", folded).strip().lower())


def section_documents(
    sections: list[Section],
    *,
    doc_id: str,
    title: str | None,
    url: str | None,
    metadata: Mapping[str, Any],
    untitled: str | None = None,
) -> Iterator[Document]:
    """The documents of one page. ``title`` (front matter's, say) replaces the page's
    top heading in every title path; ``doc_id`` and ``url`` are the page's. A section under
    no heading of a page of no title is titled ``untitled``, by default the last part of
    ``doc_id``."""
    untitled = untitled or doc_id.rsplit("/", 1)[-1]
    kept = [section for section in sections if has_body(section)]
    if not kept:
        # Nothing but headings: one document, so that ingest reports it as having no text.
        text = "\n\n".join(section.text for section in sections).strip()
        fallback = title or (sections[0].headings[-1] if sections and sections[0].headings else "")
        yield Document(doc_id, bounded_heading(fallback or untitled), text, url, metadata)
        return
    top = sections[0].headings[:1] if sections and sections[0].headings else ()
    used: dict[str, int] = {}
    for position, section in enumerate(kept):
        headings = section.headings
        if title:
            headings = (title, *headings[1:]) if headings[:1] == top and top else (title, *headings)
        # Each heading of the path bounded (``heading_bound``); the text keeps it whole.
        shown = TITLE_SEPARATOR.join(map(bounded_heading, headings)) or untitled
        if position == 0 and section is sections[0]:
            yield Document(doc_id, shown, section.text, url, metadata)
            used[doc_id] = 1
            continue
        anchor = section.anchor or slug(section.headings[-1] if section.headings else "")
        section_id = _unique(f"{doc_id}#{anchor or position}", used)
        section_url = with_anchor(url, section.anchor) if section.anchor else url
        yield Document(section_id, shown, section.text, section_url, metadata)


def has_body(section: Section) -> bool:
    """Whether ``section`` holds text beyond its own heading."""
    return bool(body_text(section))


def body_text(section: Section) -> str:
    """``section``'s text beyond its own heading."""
    heading = section.headings[-1] if section.headings else ""
    text = section.text.strip()
    if heading and text.startswith(heading):
        text = text[len(heading) :]
    return text.strip()


def _unique(candidate: str, used: dict[str, int]) -> str:
    """``candidate``, else ``candidate-2``, ``-3``...: ``used`` remembers how far each name
    has counted, so 20,000 sections sharing one anchor cost 20,000 steps, not 200 million
    (a page of them took 148 s counting up from 2 each time)."""
    if candidate not in used:
        used[candidate] = 1
        return candidate
    n = used[candidate]
    while True:
        n += 1
        chosen = f"{candidate}-{n}"
        if chosen not in used:
            used[candidate] = n
            used[chosen] = 1
            return chosen
