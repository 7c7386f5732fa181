"""A page whose scripts write all it shows: an application's shell, whose HTML holds no
text, only the place a script fills and the script.

Client-rendered documentation sites ship one such page for every address (Docsify 5's
``index.html``, ``<div id="app"></div>`` and a script that fetches the Markdown beside it;
a single-page application built with no pre-rendering, its ``<div id="root">``). citeline
runs no script, so it reads nothing there; the report counted the Docsify shell with
"pages with headings only" (its ``<title>``), which sent a reader looking for lost text.
It is counted under its own name, which says why: where the site's Markdown lies beside
it (Docsify's), that Markdown is read as the site's pages.

A page is one when its body holds a script and not a word outside scripts, style sheets,
templates and ``noscript`` (whose words only say that the page needs scripts). The walk
stops at the first word, which a page of any text reaches within its first elements.
"""

from __future__ import annotations

from selectolax.lexbor import LexborHTMLParser

from citeline.corpus.formats.nodes import written

# What the ingest report calls such a page: counted, not indexed.
SCRIPT_PAGES = "pages a script writes (no text in the HTML)"
# Where a page's words are no words it shows without scripts.
_UNSHOWN = frozenset({"script", "style", "template", "noscript"})


def written_by_script(tree: LexborHTMLParser) -> bool:
    """Whether ``tree``'s body holds a script and no word outside the elements that show
    none (see the module)."""
    body = tree.body
    if body is None:
        return False
    for node in body.traverse(include_text=True):
        if node.tag != "-text" or not written(node):
            continue
        parent = node.parent
        if parent is None or parent.tag not in _UNSHOWN:
            return False
    return body.css_first("script") is not None
