"""The name a collection's owner calls it, read from what they ingest.

A search page opened on an owner's own collection must greet it by a name they recognise,
never by the content digest its release label falls back to ("Ask 643e583a91d4", measured
on a first try with a framework's documentation). In order, the first that is found:

1. an MkDocs project's ``site_name``, from the settings file governing the folder
   (``formats.docs_config``: the nearest ``mkdocs.yml`` above it, as beside a built
   ``site/`` or a ``docs/`` source folder, or another generator's file of the same
   settings, Zensical's and ProperDocs');
2. a built site's shared title part: generators title every page "Page — Site"
   (Sphinx: "Sorting HOW TO — Python 3.11.2 documentation"; MkDocs "Page - Site";
   Docusaurus "Page | Site"), so the part most of its pages share is the site's name. The
   ingest learns it while it reads the pages (``formats.site``, ``IngestReport.site_name``)
   and hands it in: it is not learned twice;
3. the title of the site's own front page (``index.html``), which DocBook writes alone
   ("PostgreSQL 15.20 Documentation"), less a separator it opens with (": Overview");
4. the folder's name, or its parent's when the folder is only the generator's output
   (``html``, ``site``, ``_build``...): ``/usr/share/doc/postgresql-doc-15/html`` is
   ``postgresql-doc-15``.

Reading is bounded: the settings file as ``docs_config`` reads it, the front page's first
``HEAD_BYTES``, each opened as ingest opens a file (``limits``: a named pipe in their place is
passed over, not waited on, as it once blocked an ingest forever here). It deliberately reads
nothing the ingest itself keeps, and decides nothing about the documents.
"""

from __future__ import annotations

import html
from pathlib import Path

from selectolax.lexbor import LexborHTMLParser

from citeline.corpus.formats.docs_config import find_config, settings_of
from citeline.corpus.formats.limits import RefusedFileError, read_head
from citeline.corpus.formats.site import without_leading_separator

# A page's <title> is in its head; 64 KiB holds the head of every page of the Python, Flask,
# PostgreSQL and git manuals (their largest heads are under 8 KiB).
HEAD_BYTES = 64 * 1024
# Longer is a sentence, not a name; the page shows it in a heading.
MAX_NAME_CHARS = 120
# What generators call their output folder: the project is named by the folder above it.
_OUTPUT_FOLDERS = frozenset({"html", "site", "build", "_build", "public", "out", "dist", "docs"})


def site_name(path: Path, shared_title: str | None) -> str | None:
    """What the site under ``path`` calls itself (rules 1 to 3 above), or None;
    ``shared_title`` is the title part its pages share, as the ingest learned it."""
    folder = path if path.is_dir() else path.parent
    return _mkdocs_site_name(folder) or _name(shared_title or "") or _front_page_name(folder)


def folder_name(path: Path) -> str | None:
    """Rule 4: the name of the folder ``path`` is (or is in), or of its parent when the
    folder is a generator's output; None only for a folder without a name (``/``)."""
    folder = (path if path.is_dir() else path.parent).resolve()
    if folder.name.lower() in _OUTPUT_FOLDERS and folder.parent.name:
        folder = folder.parent
    return _name(folder.name)


def _mkdocs_site_name(folder: Path) -> str | None:
    config = find_config(folder)
    if config is None:
        return None
    value = settings_of(config).get("site_name")
    return _name(value) if isinstance(value, str) else None


def _front_page_name(folder: Path) -> str | None:
    for name in ("index.html", "index.htm"):
        front_page = folder / name
        # A link may lead out of the folder, which ingest never reads either.
        if front_page.is_file() and not front_page.is_symlink():
            return _name(_title(front_page) or "")
    return None


def _title(page: Path) -> str | None:
    try:
        head = read_head(page, HEAD_BYTES)
    except RefusedFileError:
        return None
    cut = head.lower().find(b"</head")
    text = head[: cut if cut >= 0 else len(head)].decode("utf-8", errors="replace")
    node = LexborHTMLParser(text).css_first("title")
    if node is None:
        return None
    title = without_leading_separator(" ".join(html.unescape(node.text()).split()))
    return title or None


def _name(text: str) -> str | None:
    cleaned = " ".join(text.split())
    if not cleaned:
        return None
    if len(cleaned) > MAX_NAME_CHARS:
        return cleaned[: MAX_NAME_CHARS - 1].rstrip() + "…"
    return cleaned
