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

Such a shell may also say which Markdown files beside it are no pages but the navigation
its script draws around every page: Docsify's settings (``window.$docsify``) name the
sidebar, navbar and cover page it loads (``navigation_files``). Read as pages, a Docsify
site's ``_sidebar.md`` was a document of its links' titles ("• Getting started • The
basics • FAQ"), found for any of them.
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

from selectolax.lexbor import LexborHTMLParser

from citeline.corpus.formats.limits import RefusedFileError, read_head
from citeline.corpus.formats.nodes import written

# What the ingest report calls such a page: counted, not indexed.
SCRIPT_PAGES = "pages a script writes (no text in the HTML)"
# What the ingest report calls the Markdown files a shell loads as its navigation.
NAVIGATION_FILES = "navigation files a script shell loads (a sidebar, a navbar, a cover)"
# Where a page's words are no words it shows without scripts.
_UNSHOWN = frozenset({"script", "style", "template", "noscript"})
# The most of an ``index.html`` read to learn whether it is a Docsify shell: Docsify 5's
# is 800 bytes, and a shell holds no text; a page past this is a page of its own.
_SHELL_BYTES = 65_536
# Docsify's settings that load navigation, and the file each loads when set to ``true``
# (or, for the cover, to a list or a map of the folders that have one): its documented
# defaults. A string names the file itself.
_DOCSIFY_DEFAULTS = {
    "loadSidebar": "_sidebar.md",
    "loadNavbar": "_navbar.md",
    "coverpage": "_coverpage.md",
}
_DOCSIFY_SETTING = re.compile(
    r"\b(loadSidebar|loadNavbar|coverpage)\s*:\s*(?:(true\b|[\[{])|[\"']([^\"'\n]+)[\"'])"
)


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


def navigation_files(index: Path) -> frozenset[str]:
    """The names of the Markdown files that the page ``index``, when it is a Docsify shell
    (a page a script writes, whose script sets ``$docsify``), loads as its navigation
    (``_DOCSIFY_DEFAULTS``); none for any other page, or one that cannot be read."""
    try:
        head = read_head(index, _SHELL_BYTES + 1)
    except RefusedFileError:
        return frozenset()
    if len(head) > _SHELL_BYTES or b"$docsify" not in head:
        return frozenset()
    tree = LexborHTMLParser(head.decode("utf-8", errors="replace"))
    if not written_by_script(tree):
        return frozenset()
    scripts = " ".join(str(script.text(deep=True)) for script in tree.css("script"))
    names = set()
    for setting in _DOCSIFY_SETTING.finditer(scripts):
        key, default, named = setting.groups()
        names.add(_DOCSIFY_DEFAULTS[key] if default else PurePosixPath(named).name)
    return frozenset(names)
