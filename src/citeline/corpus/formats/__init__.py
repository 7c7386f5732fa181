"""Reading source files into documents: which files a path holds, and each format's reader.

One module per format (``markdown``, ``html``, ``text``, ``jsonl``); this module picks the
reader by file extension, decides which files under a folder may be read at all (links that
lead out of the folder may not), and turns I/O, decoding and any other failure of one file
into a ``Rejected`` reason, so that one hostile file never stops an ingest. It deliberately
knows nothing about hashing, passages or storage.
"""

from __future__ import annotations

import logging
import os
import stat
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

from citeline.corpus.documents import Document
from citeline.corpus.formats import html, jsonl, markdown, text
from citeline.corpus.formats.api_docs import ParseBudget
from citeline.corpus.formats.decoding import decoded
from citeline.corpus.formats.includes import default_include_root, mkdocs_theme_folder
from citeline.corpus.formats.limits import MAX_PAGE_BYTES, RefusedFileError, read_bytes
from citeline.corpus.formats.mkdocs_files import DocsFolder, docs_folder, is_page, is_static
from citeline.corpus.formats.origin import SourceFile
from citeline.corpus.formats.rejected import Omitted, Rejected, SiteName
from citeline.corpus.formats.script_pages import NAVIGATION_FILES, navigation_files
from citeline.corpus.formats.site import Site
from citeline.corpus.formats.site_urls import page_url

logger = logging.getLogger(__name__)

Item = Document | Rejected | Omitted | SiteName
Reader = Callable[[str, SourceFile], Iterator[Item]]

READERS: dict[str, Reader] = {
    ".md": markdown.read,
    ".markdown": markdown.read,
    ".html": html.read,
    ".htm": html.read,
    ".txt": text.read,
    ".jsonl": jsonl.read,
}


# The most bytes a file of each format may hold (``limits``): a JSONL export is one
# document a line and may be any size.
_LIMITS: dict[str, int | None] = {suffix: MAX_PAGE_BYTES for suffix in READERS}
_LIMITS[".jsonl"] = None

_PAGE_SUFFIXES = (".html", ".htm")
# The page a client-rendered site serves at every address (``script_pages``).
_SHELL = "index.html"
# A text or Markdown file beside an HTML page of the same name is that page's source (git's
# documentation ships each manual page's AsciiDoc as ``git-commit.txt`` beside
# ``git-commit.html``): read, every page would be found twice.
_SOURCE_SUFFIXES = (".txt", ".md", ".markdown")


def source_files(
    path: Path, *, base_url: str | None = None, include_root: Path | None = None
) -> list[SourceFile]:
    """The files under ``path`` (or ``path`` itself), sorted, that citeline can read.

    In a folder, hidden files and folders (a name starting with ``.``) and files of other
    formats are passed over; so are folders starting with ``_`` in a published site (with
    ``base_url``, or a folder holding HTML pages), which hold a generator's sources and
    assets, not pages: Debian's python3.11-doc ingested without a base URL held 497 of
    Sphinx's ``_sources``, every page again as reST, beside the pages themselves. A symbolic
    link is followed only when its target lies inside the folder, or for a file inside the
    project the folder lies in (``include_root``, as for includes): measured, ``passwd.md ->
    /etc/passwd`` became a public search result, so a link out of them is listed with the
    reason it is refused and never opened. A link to a file read at its own name too is
    passed over (``_once_each``). A link to a folder is not descended into (its
    target, when inside, is read under its own name; when outside, it is refused), which also
    rules out link loops. A single file is always returned, so that an unsupported one is
    reported rather than silently ignored; so is a named pipe, socket or device under a
    readable name, whose read (``limits``, without blocking) refuses it with its reason. A
    text or Markdown file beside an HTML page of the same name is passed over as that page's
    source. In an MkDocs project's docs folder the files are those its build publishes as
    pages (``mkdocs_files``): what ``exclude_docs`` and ``draft_docs`` leave out is passed
    over, and so is every static file but an HTML one, while folders starting with ``_``
    are read; settings beyond its bounds are listed as refused, with the reason.

    The HTML pages found share one ``Site``, which compares them to learn what every page
    repeats; Markdown include directives may reach files under ``include_root`` (by default
    the project the folder lies in, ``includes.default_include_root``).
    """
    root_of_includes = (include_root or default_include_root(path)).resolve()
    if path.is_file() or _special(path):
        url = page_url(base_url, path.name)
        return [SourceFile(path, path.stem, path.name, url, include_root=root_of_includes)]
    docs = _docs_folder(path)
    files = _folder_files(path, base_url, root_of_includes, docs)
    if docs is not None and docs.refused is not None:
        # Its settings could not be applied: said once, on the file that holds them.
        config = docs.config
        files.append(SourceFile(config, config.stem, config.name, None, refused=docs.refused))
    return _in_one_site(files, root_of_includes)


def _docs_folder(path: Path) -> DocsFolder | None:
    """The docs folder of an MkDocs project that the folder ``path`` lies in or holds: what
    lies in it is what its build publishes (``mkdocs_files``), whatever a built site's rules
    would say."""
    docs = docs_folder(path)
    root = path.resolve()
    if docs is None or not (docs.holds(root) or docs.root.is_relative_to(root)):
        return None
    return docs


def _folder_files(
    path: Path, base_url: str | None, project: Path, docs: DocsFolder | None
) -> list[SourceFile]:
    """The readable files under the folder ``path``, and its refused links, sorted. A link
    to a file may reach into ``project`` (the include root, which includes may read from
    too): MkDocs follows a page linked from the project, as Schemathesis' ``docs/migration.md
    -> ../MIGRATION.md``, a page of its site's navigation. What lies in ``docs`` is what
    its build publishes."""
    root = path.resolve()
    linked_root = project if root.is_relative_to(project) else root
    # Whether a folder without a base URL is a site is known only once an HTML page is seen,
    # which may be deeper than its ``_`` folders: files under them are kept aside until then,
    # so the tree is walked once.
    site = bool(base_url)
    pages_seen = False
    # An MkDocs project's theme overrides may lie among its pages (docs/overrides): their
    # partials are HTML with Jinja in it that no template marker opens (a comment first).
    theme = mkdocs_theme_folder(path)
    if theme is not None and root.is_relative_to(theme):
        # A custom_dir naming the pages' own folder (or one above it) would leave no page.
        theme = None
    found: list[tuple[bool, SourceFile]] = []
    # Each script shell's folder and the navigation files it loads from there and below
    # (Docsify looks for its sidebar in a page's folder, then in those above it).
    shells: list[tuple[Path, frozenset[str]]] = []
    for folder, folder_names, file_names in os.walk(path, followlinks=False):
        folder_path = Path(folder)
        relative = folder_path.relative_to(path)
        published = _holds(docs, root / relative)
        generated = not published and any(part.startswith("_") for part in relative.parts)
        folder_names[:] = sorted(
            name
            for name in folder_names
            if not name.startswith(".")
            and not (site and name.startswith("_") and not _holds(docs, root / relative / name))
        )
        for name, refused in _folder_links(folder_path, folder_names, path, root):
            found.append((generated or (name.startswith("_") and not published), refused))
        pages = {Path(n).stem for n in file_names if Path(n).suffix.lower() in _PAGE_SUFFIXES}
        pages_seen = pages_seen or (bool(pages) and not generated)
        themed = theme is not None and folder_path.resolve().is_relative_to(theme)
        if _SHELL in file_names:
            loaded = navigation_files(folder_path / _SHELL)
            if loaded:
                shells.append((folder_path, loaded))
        # MkDocs renders a Markdown page beside an HTML file of the same name and copies
        # the HTML file too: neither is the other's source.
        sources = _folder_sources(
            folder_path, file_names, set() if published else pages, path, linked_root, base_url
        )
        for listed in sources:
            source = _as_published(listed, docs, root) if published else listed
            if source is not None and _navigation(source.path, shells):
                source = replace(source, navigation=True)
            if source is not None:
                found.append((generated, replace(source, theme=True) if themed else source))
    files = [source for generated, source in found if not (generated and pages_seen)]
    files.sort(key=lambda source: source.relative)
    return _once_each(files)


def _navigation(path: Path, shells: list[tuple[Path, frozenset[str]]]) -> bool:
    """Whether the file ``path`` is one a script shell above it loads as navigation."""
    return path.suffix.lower() in _SOURCE_SUFFIXES and any(
        path.name in names and path.is_relative_to(folder) for folder, names in shells
    )


def _holds(docs: DocsFolder | None, folder: Path) -> bool:
    return docs is not None and docs.holds(folder)


def _as_published(source: SourceFile, docs: DocsFolder | None, root: Path) -> SourceFile | None:
    """``source``, a file of the docs folder ``docs`` (``root`` is the ingested folder,
    resolved), as its build publishes it: None when the build leaves it out or copies it as
    a file that is no page, marked ``static`` when it is an HTML file copied as it is. A
    refused link stays refused."""
    if docs is None or source.refused is not None:
        return source
    where = root / source.relative
    if not docs.publishes(where) or not is_page(where):
        return None
    return replace(source, static=True) if is_static(where) else source


def _once_each(files: list[SourceFile]) -> list[SourceFile]:
    """``files`` less each link to a file that is read at its own name too: the page is read
    once, where it lives. Debian's exim4-doc-html links every chapter under its number beside
    its name (68 ``chNN.html`` of 138 files): read twice, every section had two addresses,
    and a citation of one missed the other."""
    real = {
        source.path.resolve()
        for source in files
        if source.refused is None and not source.path.is_symlink()
    }
    return [
        source
        for source in files
        if source.refused is not None
        or not source.path.is_symlink()
        or source.path.resolve() not in real
    ]


def _folder_links(
    folder: Path, folder_names: list[str], path: Path, root: Path
) -> Iterator[tuple[str, SourceFile]]:
    """Takes the links to folders out of ``folder_names`` (never descended into), and
    yields each one pointing outside ``root``, refused."""
    for name in list(folder_names):
        candidate = folder / name
        if candidate.is_symlink():
            folder_names.remove(name)
            if not _inside(candidate, root):
                yield name, _refused(candidate, path, "a link to a folder outside")


def _folder_sources(
    folder: Path,
    file_names: list[str],
    pages: set[str],
    path: Path,
    root: Path,
    base_url: str | None,
) -> Iterator[SourceFile]:
    """The files of one folder that citeline reads, and its links out of ``root``, refused;
    a source beside its own page (``pages`` by stem) is passed over."""
    names = frozenset(file_names)
    for name in file_names:
        candidate = folder / name
        if name.startswith(".") or candidate.suffix.lower() not in READERS:
            continue
        if candidate.suffix.lower() in _SOURCE_SUFFIXES and candidate.stem in pages:
            continue
        if candidate.suffix.lower() == ".txt" and _annex(name, names):
            continue
        if candidate.is_symlink() and not _inside(candidate, root):
            yield _refused(candidate, path, "a link to a file outside")
        elif candidate.is_file() or _special(candidate):
            relative = candidate.relative_to(path).as_posix()
            default_id = candidate.relative_to(path).with_suffix("").as_posix()
            yield SourceFile(candidate, default_id, relative, page_url(base_url, relative))


def _annex(name: str, file_names: frozenset[str]) -> bool:
    """Whether the text file ``name`` is named after a file beside it that is no text of
    citeline's (its name, then more suffixes): about that file, not a page. Webpack writes
    a bundle's license comments beside it so (``main.a5f3f386.js.LICENSE.txt`` beside
    ``main.a5f3f386.js``): a Docusaurus 3.10 site read two of them as pages of its own."""
    stem = name
    while "." in stem:
        stem = stem.rsplit(".", 1)[0]
        suffix = Path(stem).suffix.lower()
        if suffix and suffix not in READERS and stem in file_names:
            return True
    return False


def _in_one_site(files: list[SourceFile], root_of_includes: Path) -> list[SourceFile]:
    """``files`` with their HTML pages sharing one ``Site`` and every file its include root."""
    site_pages = [
        source.path
        for source in files
        if source.refused is None
        and not source.theme
        and source.path.suffix.lower() in _PAGE_SUFFIXES
    ]
    built = Site(site_pages) if site_pages else None
    in_site = set(site_pages)
    budget = ParseBudget()
    return [
        replace(
            source,
            site=built if source.path in in_site else None,
            include_root=root_of_includes,
            parse_budget=budget,
        )
        for source in files
    ]


def _inside(link: Path, root: Path) -> bool:
    try:
        return link.resolve().is_relative_to(root)
    except (OSError, RuntimeError):  # a dangling link or a loop
        return False


def _special(candidate: Path) -> bool:
    """Whether ``candidate`` is a named pipe, socket or device (``stat`` never blocks on
    one, as an open may)."""
    try:
        mode = candidate.stat().st_mode
    except OSError:  # a dangling link or a file gone since the listing
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or stat.S_ISCHR(mode) or stat.S_ISBLK(mode)


def _refused(candidate: Path, root: Path, what: str) -> SourceFile:
    relative = candidate.relative_to(root).as_posix()
    reason = (
        f"it is {what} {root}, and only files inside the folder, or the project it lies "
        "in, are read; copy the file into the folder if it belongs in the index"
    )
    return SourceFile(candidate, relative, relative, None, refused=reason)


def read_source(source: SourceFile) -> Iterator[Item]:
    """The documents in one file, with a ``Rejected`` for each part that could not be read.

    A file is read only when it is a regular file within its format's size (``limits``),
    and as text when it is UTF-8 or, for an HTML page, in the encoding it declares
    (``decoding``).
    A reader that fails in a way nobody foresaw (a parser's ``RecursionError`` on a deeply
    nested record, or its own error when it cannot allocate) costs only its file: the
    failure, whatever its type, becomes that file's reason.
    """
    if source.refused is not None:
        yield Rejected(source.refused)
        return
    if source.navigation:
        yield Omitted(NAVIGATION_FILES, 1)
        return
    reader = READERS.get(source.path.suffix.lower())
    if reader is None:
        supported = ", ".join(sorted(READERS))
        yield Rejected(f"its format is not supported; use one of {supported}")
        return
    suffix = source.path.suffix.lower()
    try:
        text = decoded(read_bytes(source.path, _LIMITS.get(suffix)), html=suffix in _PAGE_SUFFIXES)
    except RefusedFileError as refused:
        yield Rejected(str(refused))
        return
    try:
        items = reader(text, source)
        # The reader holds the page's text alone, and lets it go once it needs it no more
        # (``html``: once parsed).
        del text
        yield from items
    except Exception as error:  # any failure costs only its file
        logger.warning("reading %s failed", source.path, exc_info=True)
        yield Rejected(
            f"it could not be read ({type(error).__name__}: {_first_line(error)}); "
            "check that it is a well-formed file of its kind"
        )


def _first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return lines[0][:200] if lines else "no detail"


__all__ = [
    "READERS",
    "Omitted",
    "Rejected",
    "SiteName",
    "SourceFile",
    "read_source",
    "source_files",
]
