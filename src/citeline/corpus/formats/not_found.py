"""The page a published site answers a missing address with ("Page not found"), which is
no page of the site's subject.

Static hosts (GitHub Pages, Netlify, Read the Docs) serve the file ``404.html`` at the
site's root for any address they do not hold, so generators write one there: MkDocs always
does, Sphinx with sphinx-notfound-page and furo's builds do. Indexed, it was a document in
each of the 4 surveyed sites that ship one and in 3 development sites ("Page Not Found: The
page you requested does not exist. You may have followed a bad link", pytest's and Flask's;
"404 Page not found", MkDocs'). This module says whether a page is that one; it
deliberately leaves a page of that name anywhere but the root, and one whose text is a
page's worth (``MAX_WORDS``): a site may document its own 404 handling at that address.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePosixPath

from citeline.corpus.formats.sections import Section

# What the ingest report calls such a page: counted, not indexed.
NOT_FOUND_PAGES = "pages for a missing address"
_NAMES = frozenset({"404.html", "404.htm"})
# The most words a not-found page's sections hold, headings included. Measured on the
# seven that were read: 4 in MkDocs' and its themes' ("404 Page not found"), 13 in furo's
# (structlog), 32 in pytest's and Flask's ("Go to the overview or search."); a page that
# says more is read.
MAX_WORDS = 60


def not_found_page(relative: str, sections: Sequence[Section]) -> bool:
    """Whether the page at ``relative`` (its path under the site's root), read as
    ``sections``, is the site's page for a missing address: named ``404.html`` at the
    root, with at most ``MAX_WORDS`` words."""
    path = PurePosixPath(relative)
    if path.name.lower() not in _NAMES or len(path.parts) != 1:
        return False
    return sum(len(section.text.split()) for section in sections) <= MAX_WORDS
