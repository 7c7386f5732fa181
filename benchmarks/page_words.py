"""Independent readings of a documentation site's pages, for ``ingest_coverage.py``.

Each reading gives a page's words as its author wrote them, from what the generator
shipped beside the HTML, never from citeline's extractor: Sphinx's ``_sources`` copies
(reST or MyST Markdown), the AsciiDoc source beside each page (git's manual), the text
mdBook and MkDocs put in their own search index, the Markdown sources of a Markdown tree
(less the pages its ``mkdocs.yml`` leaves out of the build), and, where a generator ships
none of these (DocBook XSL), the page's whole body less the navigation DocBook itself
marks (``navheader``, ``navfooter``, ``toc``). Markup is
stripped conservatively: a construct whose rendering the source does not say (a bare
``:ref:`label``` renders its target's title) gives no words rather than wrong ones. For a
built site, a word is kept only as often as the page shows it anywhere in its body (chrome
included): what a site's build left unrendered is no word an index of the site could hold.

A reading is a list of ``PageReading``: the page's path under the site (``a/b.html``) and
its sections, each a heading and the words under it.
"""

from __future__ import annotations

import gzip
import json
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import yaml
from pathspec import GitIgnoreSpec
from selectolax.lexbor import LexborHTMLParser

WORD = re.compile(r"\w+")


def words(text: str) -> list[str]:
    return [word.lower() for word in WORD.findall(text)]


@dataclass
class PageReading:
    page: str  # the HTML page's path under the site, "library/json.html"
    sections: list[tuple[str, list[str]]]  # (heading, its own words), the first may be ""

    @property
    def all_words(self) -> list[str]:
        return [word for _, found in self.sections for word in found]


def reading_kind(site: Path) -> str:
    """Which independent reading the site at ``site`` ships."""
    if (site / "_sources").is_dir():
        return "sphinx"
    if (site / "search" / "search_index.json").is_file():
        return "mkdocs"
    if any((site / name).is_file() for name in ("searchindex.json", "searchindex.json.gz")):
        return "mdbook"
    if sum(1 for _ in site.rglob("*.md")) > sum(1 for _ in site.rglob("*.html")):
        return "markdown"
    pages = list(site.glob("*.html"))
    if pages and sum(page.with_suffix(".txt").is_file() for page in pages) > len(pages) / 2:
        return "asciidoc"
    return "body"


def read_site(site: Path) -> Iterator[PageReading]:
    kind = reading_kind(site)
    readings = _readings(site, kind)
    if kind == "markdown":
        yield from readings
        return
    for reading in readings:
        yield _as_shown(site, reading)


def _as_shown(site: Path, reading: PageReading) -> PageReading:
    """``reading`` less the words its HTML page does not show anywhere (all of its body's
    text, chrome included): a directive the site's build could not render (Debian's
    aiohttp docs lack the extension behind ``comethod``) is no word the index could hold."""
    tree = LexborHTMLParser((site / reading.page).read_bytes().decode("utf-8", "replace"))
    body = tree.body
    if body is None:
        return PageReading(reading.page, [])
    for node in body.css("script, style, template"):
        node.decompose()
    shown = Counter(words(str(body.text(separator=" "))))
    sections = []
    for heading, found in reading.sections:
        kept = []
        for word in found:
            if shown[word] > 0:
                shown[word] -= 1
                kept.append(word)
        sections.append((heading, kept))
    return PageReading(reading.page, sections)


def _readings(site: Path, kind: str) -> Iterator[PageReading]:
    if kind == "sphinx":
        yield from _sphinx(site)
    elif kind == "mkdocs":
        yield from _mkdocs(site)
    elif kind == "mdbook":
        yield from _mdbook(site)
    elif kind == "markdown":
        yield from _markdown_tree(site)
    elif kind == "asciidoc":
        yield from _asciidoc(site)
    else:
        yield from _docbook_body(site)


# --- Sphinx: _sources/PAGE.rst.txt (reST) or PAGE.md.txt (MyST) ---------------------------

# Directives whose arguments and body are not shown as text on the page.
_HIDDEN_DIRECTIVES = {
    "index",
    "toctree",
    "highlight",
    "literalinclude",
    "include",
    "image",
    "raw",
    "testsetup",
    "testcleanup",
    "currentmodule",
    "module",
    "py:module",
    "py:currentmodule",
    "sectionauthor",
    "moduleauthor",
    "codeauthor",
    "tabularcolumns",
    "meta",
    "default-role",
    "role",
    "default-domain",
    "only",
    "ifconfig",
    "autosummary",
    "automodule",
    "autoclass",
    "autofunction",
    "automethod",
    "autoexception",
    "autodata",
    "autoattribute",
    "click:example",
    "click:run",
    "program",
    "option-list",
    "contents",
    "sidebar",
    "rst-class",
    "cssclass",
    "container",
    "graphviz",
    "digraph",
    "figure",
    "spelling:word-list",
    "doctest-skip",
    "productionlist",
    "todo",
    "jinja",
    "mermaid",
    "plot",
    "inheritance-diagram",
    "extlinks",
}
# Directives whose arguments are shown but whose body is shown too (the default); those
# whose argument is only a language or an option (``code-block:: python``).
_ARGUMENT_HIDDEN = {
    "code-block",
    "sourcecode",
    "code",
    "doctest",
    "testcode",
    "testoutput",
    "parsed-literal",
    "only",
    "tab",
    "versionadded",
    "versionchanged",
    "deprecated",
    "deprecated-removed",
    "note",
    "warning",
    "tip",
    "seealso",
    "hint",
    "important",
    "caution",
    "attention",
    "danger",
    "error",
    "admonition",
    "topic",
    "rubric",
    "centered",
    "hlist",
    "table",
    "csv-table",
    "list-table",
    "glossary",
    "epigraph",
    "highlights",
    "pull-quote",
    "compound",
    "line-block",
    "impl-detail",
    "audit-event",
    "audit-event-table",
}
_DIRECTIVE = re.compile(r"^(\s*)\.\.\s+([\w:.-]+)::\s*(.*)$")
_EXPLICIT = re.compile(r"^(\s*)\.\.(?:\s|$)")  # a comment, target, footnote or substitution
_OPTION = re.compile(r"^\s*:[\w -]+:(?:\s.*)?$")
_ROLE = re.compile(r":(?:[\w-]+:)*([\w-]+):`([^`]*)`")
_LINK = re.compile(r"`([^`<]*?)\s*<[^>`]*>`__?")
_NAMED = re.compile(r"`([^`]+)`__?")
_FOOTNOTE_REF = re.compile(r"\[(?:#[\w-]*|\*|\d+|[\w-]+)\]_")
_SUBSTITUTION = re.compile(r"\|[^|\s][^|]*\|_{0,2}")
# A link's target written on its own line (`text\n<https://...>`_) shows nothing.
_HIDDEN_TARGET = re.compile(r"<[^<>\s]+>`__?")
_FIELD = re.compile(r"^(\s*):([^:`]+):(\s|$)")
_ROLES_WITHOUT_TEXT = {"ref", "doc", "numref", "envvar_ref", "any"}


def _role_text(name: str, content: str) -> str:
    explicit = re.match(r"^(.*?)\s*<[^>]*>$", content, re.DOTALL)
    if explicit:
        return explicit.group(1)
    if name in _ROLES_WITHOUT_TEXT:
        return ""  # the page shows its target's title, which the source does not hold
    content = content.lstrip("!")
    if content.startswith("~"):
        content = content[1:].rsplit(".", 1)[-1]
    if name in {"rfc", "pep"}:
        return f"{name} {content}"
    if name in {"kbd", "menuselection", "guilabel"}:
        return content.replace("-->", " ")
    return content


def _rst_inline(line: str) -> str:
    line = _HIDDEN_TARGET.sub("", line)
    line = _ROLE.sub(lambda m: _role_text(m.group(1), m.group(2)), line)
    line = _LINK.sub(lambda m: m.group(1), line)
    line = _NAMED.sub(lambda m: m.group(1), line)
    line = _FOOTNOTE_REF.sub("", line)
    return _SUBSTITUTION.sub("", line)


def _rst_sections(source: str) -> list[tuple[str, list[str]]]:
    lines = source.splitlines()
    sections: list[tuple[str, list[str]]] = [("", [])]
    skip_indent: int | None = None  # skipping a hidden block deeper than this indent
    in_head: int | None = None  # inside a directive's option lines at this indent
    index = 0
    while index < len(lines):
        line = lines[index]
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if skip_indent is not None:
            if stripped and indent <= skip_indent:
                skip_indent = None
            else:
                index += 1
                continue
        if in_head is not None:
            if stripped and indent > in_head and _OPTION.match(line):
                index += 1
                continue
            in_head = None
        # A section title: a line followed by an underline of punctuation as long.
        following = lines[index + 1] if index + 1 < len(lines) else ""
        if (
            stripped
            and re.fullmatch(r"([=\-`:'\"~^_*+#<>.])\1{2,}", following.strip())
            and indent == 0
            and not re.fullmatch(r"([=\-`:'\"~^_*+#<>.])\1{2,}", stripped)
        ):
            heading = _rst_inline(stripped)
            sections.append((heading, words(heading)))
            index += 2
            continue
        if not any(found for _, found in sections) and _FIELD.match(line) and len(sections) == 1:
            index += 1  # a field list before anything else is the page's metadata
            continue
        directive = _DIRECTIVE.match(line)
        if directive:
            name = directive.group(2).lower()
            bare = name.split(":")[-1]
            options = []
            for following_line in lines[index + 1 : index + 12]:
                if not _OPTION.match(following_line):
                    break
                options.append(following_line.strip())
            if name in _HIDDEN_DIRECTIVES or bare in _HIDDEN_DIRECTIVES or ":hide:" in options:
                skip_indent = indent
            else:
                if name not in _ARGUMENT_HIDDEN and bare not in _ARGUMENT_HIDDEN:
                    sections[-1][1].extend(words(_rst_inline(directive.group(3))))
                in_head = indent
            index += 1
            continue
        if _EXPLICIT.match(line):
            skip_indent = indent  # a comment, link target, footnote label or substitution
            if re.match(r"^\s*\.\.\s+\[[^\]]+\]\s+(.*)$", line):
                # A footnote's or citation's body is shown (at the page's foot).
                skip_indent = None
                sections[-1][1].extend(words(_rst_inline(line.split("]", 1)[1])))
            index += 1
            continue
        field = _FIELD.match(line)
        if field:
            # ":param x: text" shows "x" and the text, not the field's kind.
            parts = field.group(2).split()
            shown = " ".join(parts[1:]) if len(parts) > 1 else parts[0]
            line = field.group(1) + shown + " " + line[field.end() :]
        sections[-1][1].extend(words(_rst_inline(line)))
        index += 1
    return sections


def _sphinx(site: Path) -> Iterator[PageReading]:
    sources = site / "_sources"
    for source in sorted(path for path in sources.rglob("*") if path.is_file()):
        relative = source.relative_to(sources).as_posix()
        if relative.startswith("_") or "/_" in relative:
            continue  # a generator's snippet, not a page ingest reads
        # "page.rst.txt", or "page.rst" where the theme sets no source suffix.
        name = relative[: -len(".txt")] if relative.endswith(".txt") else relative
        stem, markdown = name, False
        for suffix in (".rst", ".md", ".txt", ".ipynb"):
            if name.endswith(suffix):
                stem, markdown = name[: -len(suffix)], suffix == ".md"
                break
        page = _existing(site, [f"{stem}.html", f"{stem}/index.html"])
        if page is None:
            continue
        text = source.read_text("utf-8", errors="replace")
        sections = _markdown_sections(text) if markdown else _rst_sections(text)
        yield PageReading(page, sections)


def _existing(site: Path, candidates: list[str]) -> str | None:
    for candidate in candidates:
        if (site / candidate).is_file():
            return candidate
    return None


# --- Markdown: a source tree, or MyST pages in _sources -----------------------------------

_MD_HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_MD_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_MD_REF_LINK = re.compile(r"!?\[([^\]]*)\]\[[^\]]*\]")
_MD_LINK_DEF = re.compile(r"^\s*\[[^\]]+\]:\s*\S+.*$")
_MD_TAG = re.compile(r"</?[A-Za-z][^>]*>")
_MD_ATTRIBUTES = re.compile(r"\{[:#.][^}]*\}")
_MD_FENCE = re.compile(r"^\s*(`{3,}|~{3,})\s*(\{[^}]*\}|[\w+-]*)?(.*)$")
_MD_INCLUDE = re.compile(
    r"\{\*.*?\*\}|\{!.*?!\}|-{2}8<-{2}.*$|\{%-?\s*include.*?%\}|\{\{[<%].*?[>%]\}\}"
)
_MYST_ROLE = re.compile(r"\{([\w:-]+)\}`([^`]*)`")
_MD_FRONT = re.compile(r"\A---\s*\n.*?\n---\s*\n", re.DOTALL)


def _markdown_sections(text: str) -> list[tuple[str, list[str]]]:
    text = _MD_FRONT.sub("", text)
    sections: list[tuple[str, list[str]]] = [("", [])]
    fence: str | None = None
    hidden_fence = False
    in_directive = False
    for line in text.splitlines():
        # A ``:::`` directive's indented options block (mkdocstrings' ``options:``) configures
        # what the build renders there; the site shows none of its words.
        if in_directive and line.strip() and line[:1] in {" ", "\t"}:
            continue
        in_directive = False
        opened = _MD_FENCE.match(line)
        if fence is not None:
            if opened and opened.group(1).startswith(fence) and not opened.group(2):
                fence = None
            elif not hidden_fence:
                # An include directive inside a fence shows the file, not its own words.
                sections[-1][1].extend(words(_MD_INCLUDE.sub("", line)))
            continue
        if opened:
            fence = opened.group(1)
            directive = (opened.group(2) or "").strip("{}").lower()
            # MyST directive fences: {toctree}, {eval-rst}, {include} ... show no text.
            hidden_fence = directive in _HIDDEN_DIRECTIVES or directive.startswith(
                ("toctree", "include", "literalinclude", "eval-rst", "automodule", "autoclass")
            )
            continue
        if _MD_LINK_DEF.match(line) or line.strip().startswith((":::", "///")):
            in_directive = line.startswith(":::")
            continue
        if re.match(r"^\s*:[\w-]+:", line):
            continue  # a MyST directive's option
        line = _MD_INCLUDE.sub("", line)
        line = _MYST_ROLE.sub(lambda m: _role_text(m.group(1), m.group(2)), line)
        line = _MD_LINK.sub(lambda m: m.group(1), line)
        line = _MD_REF_LINK.sub(lambda m: m.group(1), line)
        line = _MD_ATTRIBUTES.sub("", line)
        line = _MD_TAG.sub(" ", line)
        line = re.sub(r"^\s*(?:!!!|\?\?\?\+?)\s*\w*", "", line)
        line = re.sub(r"https?://\S+", "", line)
        heading = _MD_HEADING.match(line)
        if heading:
            sections.append((heading.group(2), words(heading.group(2))))
            continue
        sections[-1][1].extend(words(line))
    return sections


def _markdown_tree(site: Path) -> Iterator[PageReading]:
    left_out = _left_out_of_build(site)
    for source in sorted(site.rglob("*.md")):
        relative = source.relative_to(site)
        if any(part.startswith(".") for part in relative.parts):
            continue
        if left_out is not None and left_out.match_file(relative.as_posix()):
            continue  # no page of the site: its mkdocs.yml leaves it out of the build
        text = source.read_text("utf-8", errors="replace")
        yield PageReading(relative.as_posix(), _markdown_sections(text))


class _AnyTag(yaml.SafeLoader):
    """YAML with an mkdocs.yml's ``!!python/name:`` and ``!ENV`` tags read as nothing."""


_AnyTag.add_multi_constructor("", lambda loader, suffix, node: None)


def _left_out_of_build(site: Path) -> GitIgnoreSpec | None:
    """What the ``mkdocs.yml`` beside or above a docs folder ``site`` leaves out of its build
    (MkDocs 1.5's ``exclude_docs`` after its ``.*`` and ``/templates/``, 1.6's ``draft_docs``),
    read as MkDocs reads them; None when no ``mkdocs.yml`` names ``site`` its docs folder."""
    for config in (site / "mkdocs.yml", site.parent / "mkdocs.yml"):
        if not config.is_file():
            continue
        settings = yaml.load(config.read_text("utf-8"), Loader=_AnyTag) or {}
        if (config.parent / str(settings.get("docs_dir", "docs"))).resolve() != site.resolve():
            continue
        lines = [".*", "/templates/"]
        for name in ("exclude_docs", "draft_docs"):
            if isinstance(settings.get(name), str):
                lines.extend(settings[name].splitlines())
        return GitIgnoreSpec.from_lines(lines)
    return None


# --- AsciiDoc: git's PAGE.txt beside PAGE.html ----------------------------------------------

_ADOC_SKIP = re.compile(
    r"^(?:include::|ifdef::|ifndef::|endif::|ifeval::|:[\w-]+:|\[\[.*\]\]$|\[[\w\s,=\"'-]*\]$"
    r"|//|'''|<<<|image::|:toc)"
)
_ADOC_DELIMITER = re.compile(r"^(?:-{4,}|={4,}|\.{4,}|\*{4,}|\+{4,}|_{4,}|/{4,}|\|={3,})\s*$")
_ADOC_MACRO = re.compile(r"\b(?:linkgit|link|https?|mailto|xref|footnote):(\S*?)\[([^\]]*)\]")
_ADOC_XREF = re.compile(r"<<([^,>]*)(?:,([^>]*))?>>")
_ADOC_ATTRIBUTE = re.compile(r"\{[\w-]+\}")
_ADOC_UNDERLINE = re.compile(r"^([=\-~^+])\1+\s*$")


def _asciidoc_sections(text: str) -> list[tuple[str, list[str]]]:
    sections: list[tuple[str, list[str]]] = [("", [])]
    lines = text.splitlines()
    if lines and re.match(r"^[A-Z][\w-]*: ", lines[0]):
        # git's howtos open with a mail's header (From:, Date:, Abstract:), which its build
        # reads as metadata, not text: up to the first blank line.
        blank = next((i for i, line in enumerate(lines) if not line.strip()), len(lines))
        lines = lines[blank:]
    comment_block = False
    for index, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith("////"):
            comment_block = not comment_block
            continue
        if comment_block or _ADOC_SKIP.match(stripped) or _ADOC_DELIMITER.match(stripped):
            continue
        if _ADOC_UNDERLINE.match(stripped) and index > 0 and lines[index - 1].strip():
            continue  # a two-line title's underline (its title was read as a heading)
        following = lines[index + 1].strip() if index + 1 < len(lines) else ""
        line = _ADOC_MACRO.sub(
            lambda m: m.group(2) or (m.group(1) if not m.group(1).startswith("/") else ""),
            line,
        )
        line = re.sub(r"linkgit:([\w-]+)\[(\d)\]", r"\1(\2)", line)
        line = _ADOC_XREF.sub(lambda m: m.group(2) or "", line)
        line = _ADOC_ATTRIBUTE.sub("", line)
        line = re.sub(r"^=+\s+", "", line)
        if (
            stripped
            and _ADOC_UNDERLINE.match(following)
            and abs(len(following) - len(stripped)) <= 2
        ) or re.match(r"^=+\s+\S", stripped):
            sections.append((line.strip(), words(line)))
            continue
        sections[-1][1].extend(words(line))
    return sections


def _asciidoc(site: Path) -> Iterator[PageReading]:
    for source in sorted(site.rglob("*.txt")):
        page = source.with_suffix(".html")
        if not page.is_file():
            continue
        text = source.read_text("utf-8", errors="replace")
        yield PageReading(page.relative_to(site).as_posix(), _asciidoc_sections(text))


# --- mdBook and MkDocs: the text the generator put in its own search index ---------------


def _mdbook(site: Path) -> Iterator[PageReading]:
    plain = site / "searchindex.json"
    data = json.loads(
        plain.read_text("utf-8")
        if plain.is_file()
        else gzip.decompress((site / "searchindex.json.gz").read_bytes()).decode("utf-8")
    )
    documents = data["index"]["documentStore"]["docs"]
    pages: dict[str, list[tuple[str, list[str]]]] = {}
    for number, url in enumerate(data["doc_urls"]):
        entry = documents.get(str(number))
        if entry is None:
            continue
        page = url.split("#", 1)[0]
        pages.setdefault(page, []).append(
            (entry.get("title", ""), words(entry.get("title", "") + " " + entry.get("body", "")))
        )
    for page, sections in sorted(pages.items()):
        if (site / page).is_file():
            yield PageReading(page, sections)


def _mkdocs(site: Path) -> Iterator[PageReading]:
    data = json.loads((site / "search" / "search_index.json").read_text("utf-8"))
    pages: dict[str, list[tuple[str, list[str]]]] = {}
    for entry in data["docs"]:
        location = entry["location"]
        page, _, anchor = location.partition("#")
        if not anchor:
            continue  # the page's own entry repeats its sections' text
        page = page or "index.html"
        if page.endswith("/"):
            page += "index.html"
        pages.setdefault(page, []).append(
            (entry.get("title", ""), words(entry.get("title", "") + " " + entry.get("text", "")))
        )
    for page, sections in sorted(pages.items()):
        if (site / page).is_file():
            yield PageReading(page, sections)


# --- DocBook and anything else: the body less the navigation the generator marks ---------

_GENERATOR_NAVIGATION = (
    "script, style, noscript, template, .navheader, .navfooter, .toc, .list-of-tables, "
    ".list-of-figures, .list-of-examples, #footer, #toc"
)
_HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}


def _docbook_body(site: Path) -> Iterator[PageReading]:
    for page in sorted(site.rglob("*.html")):
        relative = page.relative_to(site)
        if any(part.startswith(("_", ".")) for part in relative.parts):
            continue
        tree = LexborHTMLParser(page.read_bytes().decode("utf-8", errors="replace"))
        body = tree.body
        if body is None:
            continue
        for node in body.css(_GENERATOR_NAVIGATION):
            node.decompose()
        sections: list[tuple[str, list[str]]] = [("", [])]
        for heading in body.css("h1, h2, h3, h4, h5, h6"):
            heading.insert_before("\x00")
            heading.insert_after("\x00")
        parts = str(body.text(separator=" ")).split("\x00")
        sections[0][1].extend(words(parts[0]))
        for index in range(1, len(parts) - 1, 2):
            sections.append((parts[index].strip(), words(parts[index] + " " + parts[index + 1])))
        yield PageReading(relative.as_posix(), sections)
