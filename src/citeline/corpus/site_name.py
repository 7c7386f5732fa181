"""The name a collection's owner calls it, read from what they ingest.

A search page opened on an owner's own collection must greet it by a name they recognise,
never by the content digest its release label falls back to ("Ask 643e583a91d4", measured
on a first try with a framework's documentation). In order, the first that is found:

1. an MkDocs project's ``site_name``, from the ``mkdocs.yml`` in the folder or beside it
   (a built ``site/`` or a ``docs/`` source folder sits next to it);
2. a built site's shared title part: generators title every page "Page — Site"
   (Sphinx: "Sorting HOW TO — Python 3.11.2 documentation"; MkDocs "Page - Site";
   Docusaurus "Page | Site"), so the part most of its pages share is the site's name;
3. the title of the site's own front page (``index.html``), which DocBook writes alone
   ("PostgreSQL 15.20 Documentation");
4. the folder's name, or its parent's when the folder is only the generator's output
   (``html``, ``site``, ``_build``...): ``/usr/share/doc/postgresql-doc-15/html`` is
   ``postgresql-doc-15``.

Reading is bounded: at most ``MAX_PAGES`` pages, ``HEAD_BYTES`` of each, each opened as
ingest opens a file (``limits``: a named pipe among the pages is passed over, not waited
on, as it blocked an ingest forever here once the ingest itself no longer read it). It
deliberately
reads nothing the ingest itself keeps, and decides nothing about the documents.
"""

from __future__ import annotations

import html
import os
import re
from collections import Counter
from pathlib import Path

from selectolax.lexbor import LexborHTMLParser

from citeline.corpus.formats.front_matter import FrontMatterError, load_front_matter
from citeline.corpus.formats.limits import RefusedFileError, read_bytes, read_head

# Titles read to find the shared part: 64 pages tell a site's suffix from a page's own
# title (a site's pages all carry it), and reading them costs milliseconds.
MAX_PAGES = 64
# A page's <title> is in its head; 64 KiB holds the head of every page of the Python, Flask,
# PostgreSQL and git manuals (their largest heads are under 8 KiB).
HEAD_BYTES = 64 * 1024
# Longer is a sentence, not a name; the page shows it in a heading.
MAX_NAME_CHARS = 120
# The shared part must title at least this share of the pages read (and two of them): the
# Python manual's 64 first pages share theirs in all 64, a page's own title in one.
SHARED_TITLE_SHARE = 0.5
# mkdocs.yml is a few KiB; one larger is not a project file worth reading here.
MAX_PROJECT_FILE_BYTES = 256 * 1024
# What generators call their output folder: the project is named by the folder above it.
_OUTPUT_FOLDERS = frozenset({"html", "site", "build", "_build", "public", "out", "dist", "docs"})
# The separators generators put between a page's own title and the site's: an em or en
# dash, a bar, a middle dot, a guillemet, one or two hyphens, a double colon.
_TITLE_PARTS = re.compile(r"\s+(?:[\u2014\u2013|\u00b7\u00bb]|-{1,2}|::)\s+")
_SITE_NAME_LINE = re.compile(r"^site_name\s*:.*$", re.MULTILINE)
_PAGE_SUFFIXES = (".html", ".htm")


def site_name(path: Path) -> str | None:
    """What the site under ``path`` calls itself (rules 1 to 3 above), or None."""
    folder = path if path.is_dir() else path.parent
    return _mkdocs_site_name(folder) or _title_name(folder)


def folder_name(path: Path) -> str | None:
    """Rule 4: the name of the folder ``path`` is (or is in), or of its parent when the
    folder is a generator's output; None only for a folder without a name (``/``)."""
    folder = (path if path.is_dir() else path.parent).resolve()
    if folder.name.lower() in _OUTPUT_FOLDERS and folder.parent.name:
        folder = folder.parent
    return _name(folder.name)


def _mkdocs_site_name(folder: Path) -> str | None:
    for candidate in (folder, folder.parent):
        for name in ("mkdocs.yml", "mkdocs.yaml"):
            project = candidate / name
            if not project.is_file():
                continue
            try:
                text = read_bytes(project, MAX_PROJECT_FILE_BYTES).decode("utf-8")
            except (RefusedFileError, UnicodeDecodeError):
                continue
            # Only the one top-level line: the rest of an mkdocs.yml may hold tags that only
            # MkDocs can load (``!ENV``, ``!!python/name:``), which a safe loader refuses.
            line = _SITE_NAME_LINE.search(text)
            if line is None:
                continue
            try:
                value = load_front_matter(line.group(0))
            except FrontMatterError:
                continue
            if isinstance(value, dict):
                return _name(str(value.get("site_name") or ""))
    return None


def _title_name(folder: Path) -> str | None:
    """The shared title part, else the front page's own title, from the pages' <title>s."""
    titles = [title for title in map(_title, _pages(folder)) if title is not None]
    front_page = next(
        (
            _title(folder / name)
            for name in ("index.html", "index.htm")
            # A link may lead out of the folder, which ingest never reads either.
            if (folder / name).is_file() and not (folder / name).is_symlink()
        ),
        None,
    )
    return _shared_part(titles) or _name(front_page or "")


def _pages(folder: Path) -> list[Path]:
    """Up to ``MAX_PAGES`` HTML pages, those nearest the top first, in a stable order;
    hidden and generator folders (``_static``) and links are passed over."""
    found: list[Path] = []
    for current, folders, files in os.walk(folder, followlinks=False):
        folders[:] = sorted(name for name in folders if not name.startswith((".", "_")))
        for name in sorted(files):
            page = Path(current) / name
            if page.suffix.lower() in _PAGE_SUFFIXES and not page.is_symlink():
                found.append(page)
                if len(found) == MAX_PAGES:
                    return found
    return found


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
    title = " ".join(html.unescape(node.text()).split())
    return title or None


def _shared_part(titles: list[str]) -> str | None:
    """The first or last part of a title that most titles share, if any does."""
    counts: Counter[str] = Counter()
    for title in titles:
        parts = _TITLE_PARTS.split(title)
        if len(parts) > 1:
            counts.update({parts[0], parts[-1]})
    if not counts:
        return None
    part, seen = counts.most_common(1)[0]
    if seen < 2 or seen < SHARED_TITLE_SHARE * len(titles):
        return None
    return _name(part)


def _name(text: str) -> str | None:
    cleaned = " ".join(text.split())
    if not cleaned:
        return None
    if len(cleaned) > MAX_NAME_CHARS:
        return cleaned[: MAX_NAME_CHARS - 1].rstrip() + "…"
    return cleaned
