"""How much of a heading titles its section: a bound on a heading no documentation writes.

A section's title is written into every one of its passages' rows of the search index, its
terms ``TITLE_WEIGHT`` times, and a heading's words stay in its section's text too: so a
section whose heading is as long as its page costs the page's passages times the page, not
the page. One Markdown heading of 20,000 links (209,000 characters, 105 passages) took
2.2 s of CPU and 167 MB to ingest, 40,000 took 7.4 s and 535 MB, 80,000 23 s and 1.9 GB;
an HTML heading of 40,000 links 5.8 s and 631 MB (7 December, load 6): tantivy's commit of
rows each holding the whole title, and the rows themselves. So each heading of a section's
title path is cut to ``MAX_HEADING_CHARS`` where ``sections`` names the section, for both
readers; the whole heading stays the first line of the section's text, every word of it
indexed once, and its anchor is still the reader's, made from all of it as the site makes it.
"""

from __future__ import annotations

# Measured on the six Markdown trees of the development sites (FastAPI Users, Hatch,
# Python-Markdown, Schemathesis, Starlette, Typer): the longest heading line is 124
# characters of Markdown, its plain text shorter; no title of the 24 HTML sites changes
# under the bound. At 1,000 a title costs a passage's row at most as much again as the
# passage's own 2,000 characters (``MAX_PASSAGE_CHARS``).
MAX_HEADING_CHARS = 1_000


def bounded_heading(heading: str) -> str:
    """``heading``, or its first ``MAX_HEADING_CHARS`` characters cut after its last whole
    word (a hard cut where they hold no space)."""
    if len(heading) <= MAX_HEADING_CHARS:
        return heading
    cut = heading[: MAX_HEADING_CHARS + 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > 0 else cut[:MAX_HEADING_CHARS]).rstrip()
