"""When a list of links is no text: the measure the HTML and Markdown readers share.

A page or a section that only lists where the text is (an index, a table of contents, a
chapter's list of its pages) repeats the titles of the pages it points at: indexed as
text, it is found for any word of them and stands in for the pages themselves. Each reader
finds such lists by its own structure (``html``: words inside links; ``markdown``: lists
whose items are nothing but links to the tree's own pages) and drops them by this measure.
"""

from __future__ import annotations

# What the ingest report calls a page that lost every line to its lists of links: counted,
# not indexed and not reported as a bad file.
LINK_LISTS = "pages of links"
# A page, or a section, whose words lie at least this much inside links, with at least
# ``LINK_LIST_LINKS`` links, lists where the text is rather than holding it.
# Measured over the 29 Debian sites of the development and held-out collections: every
# Sphinx index page lies between 0.857 (Sphinx's own genindex, whose entries' kinds,
# "[configuration value]", stand outside the links) and 1.0, the Texinfo indexes (GNU
# gettext's, the Z Shell Manual's, Bash's, the R manuals') between 0.857 and 1.0; the
# landing pages with an intro that stay whole, Flask's index.html (0.83) and Tornado's
# (0.41), under it.
LINK_LIST_SHARE = 0.85
# The fewest links such a list holds: a "See also" of a few links (Apache's RLimitCPU
# names two directives, PostgreSQL's CREATE TABLE five commands) is the text of its section.
LINK_LIST_LINKS = 10


def a_link_list(words: int, inside: int, links: int) -> bool:
    """Whether text of ``words`` words, ``inside`` of them inside its ``links`` links, is a
    list of links by the measure above."""
    return links >= LINK_LIST_LINKS and inside >= LINK_LIST_SHARE * words
