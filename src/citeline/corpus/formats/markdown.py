"""Markdown with optional YAML front matter, as docs generators write it, read as plain text.

Front matter keys ``id``, ``url`` and ``title`` fill the document's fields; every other key
becomes metadata. ``id`` defaults to the path relative to the ingest root without its
extension; ``url`` to the page's address under the ingest's base URL (``site_urls``).
The Markdown is rendered to plain text by markdown-it-py: emphasis, code spans, links and
inline HTML become their text, code blocks keep their lines, a list item opens with its
bullet, the number it is shown with, or its task checkbox. What the page's generator
renders of the syntax dialects disagree on (a list's first number, task lists, icon
shortcodes, Material's code annotations, whose notes are written into the lines they
annotate) is read from its ``mkdocs.yml`` (``dialect``). The docs generators'
conventions become text too: a heading's attribute list (``{ #id }``, ``{: #id .class }``)
becomes its section's anchor and leaves the title; admonitions (``!!! note``, ``??? tip``,
``/// warning``, ``:::info``) and content tabs (``=== "Label"``) become plain paragraphs
under their title or label, nested ones too, and a code block's title (``title="main.py"``)
a line above its code, where the generator shows it; pymdownx.keys' combinations
(``++ctrl+c++``, ``keys``) read as the keys shown and def_list's definitions as a paragraph
below their term; footnote markers show no word and their
definitions keep their text; the files the snippets settings append to every page are
appended, and a full or collapsed reference link no definition names (one mkdocs-autorefs
resolves across the site) reads as its text;
attr_list's lists, inline-highlight prefixes (```` `#!python x` ````), abbreviation
definitions and the tags of md_in_html leave no text; include directives
(``{* file *}``, ``{! file !}``, ``--8<-- "file"``, ``{% include "file" %}``,
```` ```{literalinclude} ````) are replaced by the file they name, code as code
(``includes``), and one that cannot be resolved is dropped, counted (``Omitted``) and
named with its reason. mkdocstrings' ``::: package.module`` directives become the API
reference they publish, read statically from the project's source (``api_docs``). Each
heading starts a section (``sections``), under the ``h1`` the page opens with, which titles
it; a table of contents, a list of nothing but links to the tree's own pages, is no text of
it (``markdown_link_lists``). A page whose blocks nest deeper than markdown-it reads is
counted (``TOO_DEEP``), and so is one of more short lines than its size allows, read up to
them (``line_bound``), one of more table cells (``cell_bound``), and one of more inline
elements than a parse may hold (``inline_bound``). It deliberately does not run a
generator's plugins or macros.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urljoin

from markdown_it import MarkdownIt
from markdown_it.common.utils import normalizeReference
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from selectolax.lexbor import LexborHTMLParser

from citeline.corpus.documents import Document
from citeline.corpus.formats.api_docs import expand_api_docs
from citeline.corpus.formats.cell_bound import (
    TOO_MANY_CELLS,
    bound_cells,
    bounded_table,
    cells_cut,
)
from citeline.corpus.formats.code_annotations import annotated, annotates
from citeline.corpus.formats.collection import collection_paused
from citeline.corpus.formats.dialect import COMMONMARK, Dialect, dialect_of
from citeline.corpus.formats.front_matter import FrontMatterError, load_front_matter
from citeline.corpus.formats.includes import FENCE, closes_fence, expand, opens_fence
from citeline.corpus.formats.inline_bound import (
    TOO_MANY_INLINE,
    bound_inline,
    bounded_inline,
    inline_cut,
    stop_past_bound,
)
from citeline.corpus.formats.jsonable import jsonable
from citeline.corpus.formats.keys import shown_keys
from citeline.corpus.formats.line_bound import TOO_MANY_LINES, within_lines
from citeline.corpus.formats.link_lists import LINK_LISTS
from citeline.corpus.formats.markdown_link_lists import Links, SectionLists, link_lists
from citeline.corpus.formats.origin import SourceFile
from citeline.corpus.formats.rejected import Omitted, Rejected
from citeline.corpus.formats.sections import Section, section_documents, slug
from citeline.corpus.formats.titles import file_title

INCLUDES = "include directives"
API_DIRECTIVES = "API reference directives"
TOO_DEEP = "parts of pages nested too deep"

_FRONT_MATTER = re.compile(
    r"\A---[ \t]*\r?\n(.*?\r?\n)?(?:---|\.\.\.)[ \t]*(?:\r?\n|\Z)", re.DOTALL
)
_INCLUDE = re.compile(
    r"\{\*.*?\*\}"  # FastAPI's docs: {* ../../docs_src/app.py hl[3] *}
    r"|\{!.*?!\}"  # markdown-include: {!../README.md!}
    # pymdownx.snippets: --8<-- "file", a line of its own (written in prose, it is text)
    r"|^\s*-{2}8<-{2}\s*(?:\"[^\"]*\"|'[^']*'|\S*)\s*$"
    r"|\{%-?\s*include(?:_relative)?\b.*?-?%\}"  # Jinja and mkdocs-macros
    r"|\{\{[<%]\s*(?:readfile|include)\b.*?[>%]\}\}"  # Hugo shortcodes
)
# "!!! note", "??? tip "Title"", "???+ warning", "!!! tip inline end": Python-Markdown's
# admonitions and pymdownx.details' collapsible ones; the first class names the kind. (No two
# parts may match the same spaces: "!!!" and 20,000 spaces took 12 s when they could.)
_BANG_ADMONITION = re.compile(
    r"^([ \t]*)(?:!!!|\?\?\?\+?)[ ]?([\w-]+)?(?:[ ]+[\w-]+)*(?:[ ]+\"(.*)\")?[ \t]*$"
)
# '=== "Label"' opens a content tab (pymdownx.tabbed; "===+" selects it, "===!" starts a new
# set of tabs): on Material sites each tab's body holds a variant of one example (Typer's
# docs hold 155 tabs, one per supported Python, Hatch's 39, nested three deep).
_CONTENT_TAB = re.compile(r"^([ \t]*)===[+!]{0,2}[ ]+\"(.*)\"[ ]*$")
# Python-Markdown's footnotes: a definition "[^label]: text" starts a line (up to 3 spaces
# in), and a marker "[^label]" whose label is defined shows as the footnote's number.
_FOOTNOTE = re.compile(r"^([ ]{0,3})\[\^([^\]]+)\]:[ ]*(.*)$")
_FOOTNOTE_MARKER = re.compile(r"(?<!!)\[\^([^\]]+)\](?!\s*:)")
_FOOTNOTES = "citeline_footnotes"  # where the page's footnote labels are kept in the env
_DIALECT = "citeline_dialect"  # and what its generator renders (``dialect``)
_INLINE_TAGS = "citeline_inline_tags"  # and the lines of md_in_html tags read inline
# md_in_html: a block tag with a "markdown" attribute, alone on its line ('<figure markdown>',
# Material's '<div class="grid cards" markdown>'), holds Markdown, which CommonMark would
# read as the HTML block's raw text up to the next blank line (5 of Hatch's 9 such tags).
# Python-Markdown reads a raw HTML block only where its tag starts within 3 spaces of the
# line's start, as written (its HTML preprocessor sees the page before any list or
# admonition): indented 4 or more, in a list item or an admonition, the tag is inline HTML
# of a paragraph whose Markdown is read (Hatch's VS Code page's two screenshots in list
# items, '     <figure markdown>' and '         ![Run file](...){ loading=lazy }': read as
# a block their markup was the text, and a block's lines indented 4 past it read as code).
_BLOCK_TAG = re.compile(
    r"^[ \t]*<[A-Za-z][\w-]*((?:\s+[^\s>=]+(?:=(?:\"[^\"]*\"|'[^']*'|[^\s>]+))?)*)\s*>\s*$"
)
_TAG_ATTRIBUTE_NAME = re.compile(r"\s+([^\s>=]+)(?:=(?:\"[^\"]*\"|'[^']*'|[^\s>]+))?")
# A definition list's definition, as def_list reads one: up to 3 spaces, a colon, 1 to 3
# spaces, then the definition's first line ("Apple\n:   Pomaceous fruit"); its body goes on
# in lines indented 4. Read as CommonMark the colon stayed and the definition ran onto its
# term ("Properties : default_kwargs: ...": 6 definitions of Python-Markdown's docs, on its
# test tools' and attr_list's pages).
_DEFINITION = re.compile(r"^([ ]{0,3}):[ ]{1,3}(\S.*)$")
# Python-Markdown's abbreviations: "*[HTML]: Hyper Text Markup Language" defines a tooltip.
_ABBREVIATION = re.compile(r"^\*\[[^\]\\]+\][ ]?:[ ]*(.*)$")
# "/// note | Title" opens a pymdownx block, a lone "///" closes it; ":::note Title" and
# ":::" are Docusaurus's.
_BLOCK_OPEN = re.compile(r"^\s*(?:/{3,}|:{3,})\s*([\w-]+)(?:\s*\|?\s*(.*?))?\s*$")
_BLOCK_CLOSE = re.compile(r"^\s*(?:/{3,}|:{3,})\s*$")
# The pymdownx.blocks that show no title (its documentation's "html", "define" and
# "caption" plugins): "/// html | div.result" names the element the block's Markdown is
# wrapped in (Python-Markdown's docs write it 11 times, pymdown-extensions' 119, each left
# as the words "div.result"); a definition list and a caption show their content only.
# pymdownx.fancylists' block ("/// fancylists | type=a start=9") takes options, no title.
_UNTITLED_BLOCKS = {"html", "define", "caption", "figure-caption", "table-caption", "fancylists"}
# An attribute list as attr_list reads one: "{: #id .class key=value }". (Its parts never
# match the same spaces: "(?:\s+[^{}]*)" did, and 20,000 spaces took 5 s.)
_ATTRIBUTE_LIST = r"\{:?\s*(?:[#.][\w:-]+|[\w-]+=\S+)(?:\s[^{}]*)?\}"
# A whole line that is only an attribute list, as Python-Markdown writes after a block.
_ATTRIBUTE_LINE = re.compile(rf"^\s*{_ATTRIBUTE_LIST}\s*$")
# An attribute list at a heading's end: "Query Parameters { #query-parameters }".
_HEADING_ATTRIBUTES = re.compile(r"(?<!\s)\s*\{:?([^{}]*)\}\s*$")
# attr_list's list after an inline element ("[First Steps](x.md){.internal-link}",
# "**`linenums`**{ #linenums }", "`bug`{ .label .bug }": 33 in Python-Markdown's docs), which
# it takes off the text that follows; only written right after the element, with no space.
_INLINE_ATTRIBUTES = re.compile(rf"\A{_ATTRIBUTE_LIST}")
# The same list glued to a word of text, where attr_list is on: an element that the parser
# here does not make, pymdownx's, ends there. MagicLink makes a link of a bare address or
# shorthand ("fake.email@email.com{.magiclink-ignore}", "#1{.magiclink-ignore}": 24 on
# pymdown-extensions' MagicLink page), Keys, Mark and Caret make theirs of "++ctrl++",
# "==text==", "^^text^^". A list after a space, or glued to a brace, stays.
_GLUED_ATTRIBUTES = re.compile(r"(?<=[^\s{}])\{:?[ ]*[#.][\w:-]+(?:[ ][^{}]*)?\}")
# The inline elements Python-Markdown makes, after which attr_list looks for a list.
_INLINE_ELEMENT_ENDS = {"link_close", "image", "code_inline", "strong_close", "em_close", "s_close"}
# An icon or emoji shortcode (pymdownx.emoji: ":material-clock:") is an inline element too;
# Material's grid cards write ":material-clock:{ .lg .middle }" (10 in Hatch's docs).
_SHORTCODE_ATTRIBUTES = re.compile(rf"(:[+\w-]+:){_ATTRIBUTE_LIST}")
# An icon's shortcode, as Material's emoji index names its bundled icon sets
# (":material-open-in-new:", ":octicons-arrow-right-24:"): pymdownx.emoji draws it as an
# SVG, no word of the page (FastAPI Users' "[Open :material-open-in-new:](...)" links read
# "Open"). An emoji's (":white_check_mark:") is left as written: it shows as a character
# (Hatch's tables of supported shells mark each one so) that only the emoji index can name.
# A run of them goes with the spaces around it, one space left where both sides had some
# ("Click :material-github: GitHub" reads as two words; "**:material-play: Run**" as
# "Run"). A run of spaces is matched from its start only, so the pattern stays linear.
_ICONS = re.compile(
    r"(?<![ \t])(?P<before>[ \t]*)(?::(?:material|fontawesome|octicons|simple)-[\w-]+:)+"
    r"(?P<after>[ \t]*)"
)


def _icons_out(text: str) -> str:
    return _ICONS.sub(lambda run: " " if run["before"] and run["after"] else "", text)


# attr_list's list at the end of a table cell, after a space: "| *a* { .foo } |".
_CELL_ATTRIBUTES = re.compile(rf"(?<![ ])[ ]+{_ATTRIBUTE_LIST}[ ]*\Z")
_ATTRIBUTE = re.compile(r"#([\w:.-]+)|\.[\w-]+|[\w-]+=(?:\"[^\"]*\"|'[^']*'|\S+)")
# Where attr_list's list at a heading's end opens: a run of spaces (matched from its start
# only, so the search stays linear), a brace, an optional colon and spaces, then a character
# that is neither "}" nor a space.
_ATTR_LIST_OPENS = re.compile(r"(?<![ ])[ ]+\{:?[ ]*(?=[^}\n ])")
# One item of the list, as attr_list's scanner reads it: key="value", key='value',
# key=value, or a word (#id, .class, or a valueless attribute).
_ATTR_LIST_ITEM = re.compile(r"[^ =}]+=\"[^\"]*\"|[^ =}]+='[^']*'|[^ =}]+=[^ =}]+|[^ =}]+")
# A heading's closing sequence, as CommonMark reads it: a run of "#"s after a space, alone at
# the line's end. An attribute list after it ("## Name (*required*) ## {: #name }", 116
# headings of Hatch's docs) hides it from the parser, so it is taken off with the list.
# Python-Markdown's attr_list strips any trailing "#"s there, "C#" too; a word keeps its own.
_CLOSING_HASHES = re.compile(r"(?:^|(?<![ \t])[ \t]+)#+[ \t]*$")

# A full reference "[text][label]" or a collapsed one "[label][]". mkdocs-autorefs resolves
# a label that no definition on the page names to a heading or an API object of the whole
# site: Python-Markdown's docs link "[`Extension`][markdown.extensions.Extension]" so, and
# 117 such references stayed in its indexed text as brackets (Hatch's, 12, their definitions
# in a file its snippets append). Its label holds a letter: "matrix[0][1]" is no reference.
_FULL_REFERENCE = re.compile(r"\]\[((?:[^\[\]\\]|\\.){1,999})\]")
_COLLAPSED_REFERENCE = re.compile(r"\[((?:[^\[\]\\]|\\.){1,999})\]\[\]")
_LETTER = re.compile(r"[^\W\d_]")


def _references_elsewhere(state: StateCore) -> None:
    """Define, as a link to nowhere, each full or collapsed reference's label that the page
    leaves undefined, so that it reads as its text, as a site built with autorefs shows it.
    Runs between the block parse (which collects the page's definitions) and the inline one."""
    references = state.env.setdefault("references", {})
    for token in state.tokens:
        if token.type != "inline" or "][" not in token.content:
            continue
        labels = [found.group(1) for found in _FULL_REFERENCE.finditer(token.content)]
        labels += [found.group(1) for found in _COLLAPSED_REFERENCE.finditer(token.content)]
        for label in labels:
            if label.startswith("^") or not _LETTER.search(label):
                continue  # a footnote's marker, or brackets of numbers
            key = normalizeReference(label)
            if key and key not in references:
                references[key] = {"title": "", "href": ""}


# pymdownx.inlinehilite: "`#!python import os`" (or ":::python") is code highlighted as that
# language, shown without the prefix (Hatch's docs write 17). A prefix naming no language,
# "`#!/bin/sh`" or "`#!<EXE_PATH>`", is a shebang shown as written.
_INLINE_HIGHLIGHT = re.compile(r"\A(?:#!|:{3,})[\w#.+-]+\s+(?=\S)")

# A code block's title, shown above it: pymdownx.superfences reads it among a fence's
# options ('```yaml title=".ansible-lint-ignore"', Material's "Adding a title") or in its
# attribute list ('``` { .python title="main.py" }'), Docusaurus in the info string; quoted
# with either quote, as both write it.
_CODE_TITLE = re.compile(r"(?:^|[\s{])title=(?:\"([^\"]*)\"|'([^']*)')")

# A GitHub alert ("> [!NOTE]", "> [!WARNING]") or an Obsidian callout ("> [!tip]- Title",
# its "+" or "-" making it foldable): the marker alone on the blockquote's first line, a title
# after it (Obsidian's) at most. GitHub shows the kind as the alert's label; written anywhere
# else ("> See [!NOTE] below", or on the quote's second line) it is text. Read as written, the
# label leaked as "[!WARNING]" (mkdocs-manpage and mkdocs-llmstxt, whose README's alert
# their docs' index includes; 8 on mkdocs-github-admonitions-plugin's page, 24 on
# pymdown-extensions' pages, whose pymdownx.quotes reads them). pymdownx.quotes also takes
# classes after a bar ("[!warning | inline | end]") and a heading as the title
# ("> [!note] ### Header in Title"), shown as the heading's text.
_ALERT = re.compile(r"\[!([A-Za-z][\w-]*)(?:[ ]*\|[^\]]*)?\][+-]?(?:[ \t]+(?:#{1,6}[ \t]+)?(.*))?")


def _alerts(state: StateCore) -> None:
    """Make each alert's marker line a paragraph of its label (its title, else its kind
    capitalized), as an admonition's title is read, the rest of its first paragraph one of
    its own after it. Runs after the block parse, before the inline one."""
    tokens = state.tokens
    after: dict[int, list[Token]] = {}  # the paragraph to add after the token at each index
    for index in range(len(tokens) - 3):
        quote, opened, inline = tokens[index], tokens[index + 1], tokens[index + 2]
        if quote.type != "blockquote_open" or opened.type != "paragraph_open":
            continue
        first, _, rest = inline.content.partition("\n")
        alert = _ALERT.fullmatch(first.strip())
        if alert is None:
            continue
        inline.content = _admonition_title(alert.group(1), alert.group(2))
        if rest.strip():
            after[index + 3] = _paragraph(rest, inline.level)
    if after:
        state.tokens = [
            added for index, token in enumerate(tokens) for added in (token, *after.get(index, ()))
        ]


def _paragraph(content: str, level: int) -> list[Token]:
    """The tokens of a paragraph holding ``content``, its inline at ``level``."""
    inline = Token("inline", "", 0, content=content, level=level, block=True, children=[])
    return [
        Token("paragraph_open", "p", 1, level=level - 1, block=True),
        inline,
        Token("paragraph_close", "p", -1, level=level - 1, block=True),
    ]


# How many blocks deep markdown-it reads (its maxNesting counts a list as 2, its list and its
# item, a quote as 1; its CommonMark preset's 20), past which it drops the rest of the
# block without a word. Not raised: each level reads again every line the block holds,
# lazy continuation lines too, so the cost is lines times depth (a 1 MB page of one quote
# 200 deep and 500,000 lazy lines took 28 s and 416 MB at 20, 189 s and 1,659 MB at 100),
# and the 468 Markdown files of the development trees, mkdocstrings', pymdown-extensions'
# and Node.js's docs nest 11 at most. So a page whose blocks go deeper is counted in the
# ingest report (``TOO_DEEP``), the site owner told that its deepest words are left out.
MAX_NESTING = 20
_HOLDING_BLOCKS = {"blockquote_open", "list_item_open"}
_PARSER = MarkdownIt("commonmark", {"html": True, "maxNesting": MAX_NESTING}).enable("table")
_PARSER.block.ruler.at("table", bounded_table, {"alt": ["paragraph", "reference"]})
_PARSER.core.ruler.at("inline", bounded_inline)
_PARSER.inline.ruler.before("text", "stop_past_bound", stop_past_bound)
_PARSER.core.ruler.before("inline", "references_elsewhere", _references_elsewhere)
_PARSER.core.ruler.before("inline", "alerts", _alerts)


def read(source: str, origin: SourceFile) -> Iterator[Document | Rejected | Omitted]:
    front: dict[str, Any] = {}
    body = source
    match = _FRONT_MATTER.match(source)
    if match:
        try:
            loaded = load_front_matter(match.group(1) or "")
        except FrontMatterError as error:
            yield Rejected(f"its front matter {error}")
            return
        if loaded is not None and not isinstance(loaded, dict):
            yield Rejected("its front matter is not a mapping of keys to values; fix it")
            return
        front = loaded or {}
        body = source[match.end() :]
    doc_id = front.pop("id", None)
    if doc_id is None or str(doc_id).strip() == "":
        doc_id = origin.default_id
    title = front.pop("title", None)
    url = front.pop("url", None)
    body, dropped, problems, cut = _bounded_and_expanded(body, origin)
    yield from problems
    # The page's generator's dialect (a page read with no project around it, as includes
    # are, is read as CommonMark).
    dialect = COMMONMARK if origin.include_root is None else dialect_of(origin.path)
    tokens, sections, of_links, includes, bounds_cut = _parsed(body, dialect)
    first = next((token for token in tokens if token.type == "heading_open"), None)
    if first is not None and first.tag != "h1" and sections[0].headings:
        # A page that opens with a subheading ("## The simplest example") has no title
        # section: MkDocs links that section at its anchor, like every other, so the
        # page's own address is left to no section (an empty first one, never indexed).
        sections.insert(0, Section((), None, ""))
    if includes + dropped:
        yield Omitted(INCLUDES, includes + dropped)
    if any(_too_deep(token) for token in tokens):
        yield Omitted(TOO_DEEP, 1)
    if cut:
        yield Omitted(TOO_MANY_LINES, 1)
    for bound in bounds_cut:
        yield Omitted(bound, 1)
    if of_links:
        # A table of contents, an index page: every line of it was a link.
        yield Omitted(LINK_LISTS, 1)
        return
    yield from section_documents(
        sections,
        doc_id=str(doc_id).strip(),
        title=plain_text(str(title)) if title is not None and str(title).strip() else None,
        url=_front_matter_url(url, origin),
        metadata=jsonable(front),
        untitled=file_title(origin.relative),
    )


def _parsed(body: str, dialect: Dialect) -> tuple[list[Token], list[Section], bool, int, list[str]]:
    """``body``'s tokens, its sections, whether it is only lists of links, how many
    include directives were dropped from its lines, and the bounds past which its text was
    left out (``cell_bound``, ``inline_bound``), read with the cycle collector paused
    (``collection``)."""
    with collection_paused():
        opened = _plain_markdown(body, dialect)
        # The page's link reference definitions, which a heading's own parse reads too, and
        # the labels of its footnotes.
        env: dict[str, Any] = {
            _FOOTNOTES: opened.footnotes,
            _DIALECT: dialect,
            _INLINE_TAGS: opened.inline_tags,
        }
        text = "\n".join(opened.lines)
        bound_cells(env, text)
        bound_inline(env)
        tokens = _PARSER.parse(text, env)
        sections, of_links = _sections(tokens, env)
    bounds = [TOO_MANY_CELLS] * cells_cut(env) + [TOO_MANY_INLINE] * inline_cut(env)
    return tokens, sections, of_links, opened.includes, bounds


def _too_deep(token: Token) -> bool:
    """Whether ``token`` opens a block that holds blocks (a quote, a list item) at the
    deepest level markdown-it reads: what it holds was dropped (``MAX_NESTING``), and so
    was the rest of the block around it, its next items too."""
    return token.type in _HOLDING_BLOCKS and token.level >= MAX_NESTING - 1


def _bounded_and_expanded(
    body: str, origin: SourceFile
) -> tuple[str, int, list[Rejected | Omitted], bool]:
    """``body`` within the lines it may hold (``line_bound``) and expanded (``_expanded``),
    and whether it was cut: bounded before its includes are expanded, and again after where
    they changed its text (counting a page's lines costs 2 ms a MB, 40 ms the 18 MB page of
    nested tabs in ``hostile_files.py``, and comparing it with its expansion 4)."""
    page, cut = within_lines(body)
    expanded, dropped, problems = _expanded(page, origin)
    if expanded is not page and expanded != page:
        expanded, cut_again = within_lines(expanded)
        cut = cut or cut_again
    return expanded, dropped, problems, cut


def _expanded(body: str, origin: SourceFile) -> tuple[str, int, list[Rejected | Omitted]]:
    """``body`` with its include directives and mkdocstrings directives replaced (when the
    page has an include root), how many includes were dropped, and what to report."""
    if origin.include_root is None:
        return body, 0, []
    expansion = expand(
        body, origin.path, include_root=origin.include_root, ingest_folder=_ingest_folder(origin)
    )
    problems: list[Rejected | Omitted] = [Rejected(problem) for problem in expansion.problems]
    reference = expand_api_docs(
        expansion.text, origin.path, include_root=origin.include_root, budget=origin.parse_budget
    )
    problems += [Rejected(problem) for problem in reference.problems]
    if reference.dropped:
        problems.append(Omitted(API_DIRECTIVES, reference.dropped))
    return reference.text, expansion.dropped, problems


def _ingest_folder(origin: SourceFile) -> Path:
    """The folder ingest was given, of which ``origin`` is the file at ``origin.relative``."""
    depth = len(PurePosixPath(origin.relative).parts)
    return origin.path.parents[depth - 1] if depth >= 1 else origin.path.parent


def _front_matter_url(url: object, origin: SourceFile) -> str | None:
    if not url:
        return origin.url
    written = str(url).strip()
    # A site-relative url ("/guide/install/"), as Hugo's and Jekyll's front matter write
    # them, is resolved against the site's base URL when there is one. "//host/page" is a
    # path on that site too, not another site: joined as written it named any host a
    # page chose (issue 29).
    if origin.url is None:
        return written
    if written.startswith("//"):
        written = "/" + written.lstrip("/")
    return urljoin(origin.url, written)


def plain_text(markdown: str, env: dict[str, Any] | None = None) -> str:
    """One line of Markdown (a title, say) as the text a reader sees; ``env`` holds the
    page's link reference definitions, so ``[text][label]`` reads as its text."""
    tokens = _PARSER.parseInline(markdown.strip(), {} if env is None else env)
    return " ".join(_inline_text(tokens[0].children or [], env).split()) if tokens else ""


@dataclass
class _OpenedOut:
    """A page's lines with its containers opened out (``_plain_markdown``), how many include
    directives were dropped from them, and the labels its footnotes are defined under."""

    lines: list[str] = field(default_factory=list)
    includes: int = 0
    footnotes: set[str] = field(default_factory=set)
    # An abbreviation's definition whose title may be the next line, still to be read.
    title_next: bool = False
    # A pymdownx block has just opened: the indented lines that follow are its options.
    block_options: bool = False
    dialect: Dialect = COMMONMARK
    # The lines (of ``lines``) of md_in_html tags written indented 4 or more, read inline.
    inline_tags: set[int] = field(default_factory=set)


def _plain_markdown(body: str, dialect: Dialect = COMMONMARK) -> _OpenedOut:
    """``body``'s lines with admonitions, content tabs and footnotes opened out and include
    directives and abbreviation definitions dropped. Lines inside fenced code are left as
    written, less the indentation of the containers they lie in.

    A container (``!!! note``, ``??? tip``, ``=== "Tab"``) is Python-Markdown's: its body is
    the lines indented 4 spaces past its opening line (blank lines between them included), and
    the first line indented less ends it. Its title becomes a paragraph of its own at the
    opening line's place and its body moves out by those 4 spaces, so what the body holds
    (fences, lists, tables, the next container) is read as Markdown, as the site renders it.
    A footnote's definition (``[^1]: text``, its body indented 4 below) is one too, without a
    title: Python-Markdown moves it to the page's foot, its text is kept here where written.
    An abbreviation's definition (``*[HTML]: Hyper Text...``) shows nothing on the page.
    Under def_list, a definition (``:   text`` after its term, its body indented 4 below)
    is one too (``_definition``).
    """
    opened = _OpenedOut(dialect=dialect)
    lines = opened.lines
    fence: str | None = None  # the open code block's fence, its indentation first
    # The indentation (columns, as written) each open container's body lines have at least.
    containers: list[int] = []
    for written in body.splitlines():
        if written.strip() and containers and _indent(written) < containers[-1]:
            while containers and _indent(written) < containers[-1]:
                containers.pop()
            if fence is not None:
                # CommonMark closes a code block with the container holding it; once the
                # container's lines are moved out, only a closing fence can.
                lines.append(fence)
                fence = None
        line = _dedented(written, 4 * len(containers))
        opener = FENCE.match(line)
        if fence is not None:
            lines.append(line)
            if opener and closes_fence(opener, fence.lstrip(" \t")):
                fence = None
            continue
        if opener and opens_fence(opener):
            fence = opener.group(1) + opener.group(2)
            lines.append(line)
            continue
        _open_out(line, written, opened, containers)
    return opened


def _open_out(line: str, written: str, opened: _OpenedOut, containers: list[int]) -> None:
    """Add ``line`` (``written``, less its containers' indentation), outside any code block,
    to ``opened``: a container or footnote opened out (its body's indentation pushed on
    ``containers``), an include or abbreviation dropped, any other line as it is."""
    lines = opened.lines
    if opened.title_next:
        opened.title_next = False
        if line.strip():
            return
    if opened.block_options:
        # A pymdownx block's options: YAML indented 4 spaces right below its opening line
        # ("    type: warning", "    attrs: {class: x}"), read by the extension, not shown.
        if line.strip() and _indent(line) >= 4:
            return
        opened.block_options = False
    line, found = _INCLUDE.subn("", line)
    opened.includes += found
    if found and not line.strip():
        return
    abbreviation = _ABBREVIATION.match(line)
    if abbreviation:
        # Its title may be the next line: Python-Markdown's "[ ]*\n?[ ]*(?P<title>.*)$".
        opened.title_next = not abbreviation.group(1).strip()
        return
    footnote = _FOOTNOTE.match(line)
    if footnote:
        opened.footnotes.add(footnote.group(2))
        text = footnote.group(3)
        while again := _FOOTNOTE.match(text):  # "[^1]: [^2]: text" defines both
            opened.footnotes.add(again.group(2))
            text = again.group(3)
        if lines and lines[-1].strip():
            lines.append("")
        lines.append(footnote.group(1) + text)
        containers.append(_indent(written) + 4)
        return
    definition = _DEFINITION.match(line) if opened.dialect.definition_lists else None
    if definition and _definition(definition, written, opened, containers):
        return
    container = _BANG_ADMONITION.match(line) or _CONTENT_TAB.match(line)
    if container:
        title = _container_title(container)
        if lines and lines[-1].strip():
            lines.append("")  # a container starts a block of its own
        lines.extend([container.group(1) + title, ""] if title else [""])
        containers.append(_indent(written) + 4)
        return
    if _opens_markdown_in_html(line):
        _add_markdown_tag(line, written, opened)
        return
    if _BLOCK_CLOSE.match(line) or _ATTRIBUTE_LINE.match(line):
        lines.append("")
        return
    block = _BLOCK_OPEN.match(line)
    if block:
        title = _block_title(block.group(1), block.group(2))
        lines.extend([title, ""] if title else [""])
        opened.block_options = line.lstrip().startswith("/")
        return
    lines.append(line)


def _add_markdown_tag(line: str, written: str, opened: _OpenedOut) -> None:
    """Add ``line``, an md_in_html tag (``written``), as Python-Markdown reads it: a block
    where written within 3 spaces of the line's start, else inline HTML (``_BLOCK_TAG``)."""
    if _indent(written) >= 4:
        opened.inline_tags.add(len(opened.lines))
        opened.lines.append(line)
    else:
        opened.lines.extend([line, ""])  # a blank ends the HTML block: what follows is Markdown


def _definition(
    found: re.Match[str], written: str, opened: _OpenedOut, containers: list[int]
) -> bool:
    """Add the definition ``found`` (a line ``written``) as def_list shows it, a paragraph
    of its own below its terms, its body the lines indented 4 below; False where def_list
    reads no definition, a colon opening the page with nothing before it."""
    lines = opened.lines
    above = len(lines)
    while above and lines[above - 1].strip():
        above -= 1
    # From the end: the nearest text above is a few lines up, where a scan from the page's
    # start crossed every blank line before its first text for each definition (20,000 blank
    # lines and 20,000 definitions took 10.6 s of CPU).
    if not any(line.strip() for line in reversed(lines)):
        return False
    if opened.dialect.attribute_lists:
        # A term is a "dt", whose braces at its end attr_list reads as a heading's.
        for index in range(above, len(lines)):
            if (end := _attr_list_heading(lines[index])) is not None:
                lines[index] = lines[index][: end[0]]
    if lines[-1].strip():
        lines.append("")
    lines.append(found.group(1) + found.group(2))
    containers.append(_indent(written) + 4)
    return True


def _block_title(kind: str, argument: str | None) -> str:
    """The title a block (``/// kind | argument``, ``:::kind Title``) shows: none for the
    pymdownx.blocks whose argument is no text (``_UNTITLED_BLOCKS``), else its argument, else
    its kind capitalized, as an admonition's."""
    if kind in _UNTITLED_BLOCKS:
        return ""
    return _admonition_title(kind, argument)


def _opens_markdown_in_html(line: str) -> bool:
    """Whether ``line`` is a block tag alone on its line with md_in_html's ``markdown``."""
    if "markdown" not in line:
        return False
    tag = _BLOCK_TAG.match(line)
    return tag is not None and any(
        name.group(1) == "markdown" for name in _TAG_ATTRIBUTE_NAME.finditer(tag.group(1))
    )


def _container_title(opened: re.Match[str]) -> str:
    """The title a container shows: a tab's label; an admonition's quoted title, none when
    it is quoted empty (``!!! note ""``), else its first class capitalized."""
    if opened.re is _CONTENT_TAB:
        return opened.group(2).strip()
    if opened.group(3) is not None and not opened.group(3).strip():
        return ""
    return _admonition_title(opened.group(2), opened.group(3))


def _admonition_title(kind: str | None, title: str | None) -> str:
    if title is not None and title.strip():
        return title.strip()
    return (kind or "note").replace("-", " ").capitalize()


def _indent(line: str) -> int:
    """``line``'s indentation in columns, a tab to the next multiple of 4 (Python-Markdown
    expands tabs so before it reads a line)."""
    return len(_split_indentation(line)[0])


def _dedented(line: str, columns: int) -> str:
    """``line`` less up to ``columns`` columns of its indentation."""
    if columns == 0:
        return line
    indentation, rest = _split_indentation(line)
    return indentation[columns:] + rest


def _split_indentation(line: str) -> tuple[str, str]:
    """``line``'s indentation, its tabs expanded (``_indent``), and the rest of it."""
    rest = line.lstrip(" \t")
    return line[: len(line) - len(rest)].expandtabs(4), rest


def _sections(tokens: Sequence[Token], env: dict[str, Any]) -> tuple[list[Section], bool]:
    """The page's sections, and whether it is a page of links (``markdown_link_lists``)."""
    sections: list[Section] = []
    path: list[tuple[int, str]] = []
    anchor: str | None = None
    parts: list[str] = []
    lists = SectionLists()

    def close() -> None:
        shown = lists.shown(parts)
        text = "\n\n".join(part for part in shown if part.strip()).strip()
        if path or text:
            sections.append(Section(tuple(t for _, t in path), anchor, text))

    _mark_list_items(tokens, _dialect(env))
    tokens = _annotated(tokens, env)
    found = link_lists(tokens, lambda token: _bare_links(token, env))
    index = 0
    used_anchors: dict[str, int] = {}
    kept = 0  # how many of ``path``'s headings no later one closes (``_onto_path``)
    while index < len(tokens):
        token = tokens[index]
        if token.type == "heading_open":
            close()
            level = int(token.tag[1])
            heading, named = _heading(tokens[index + 1].content, env)
            anchor = named or _unique_slug(slug(heading), used_anchors)
            if named:
                used_anchors.setdefault(named, 0)
            kept = _onto_path(path, (level, heading), kept, opens_page=not sections)
            parts = [heading]
            lists.open_section(headed=True)
            index += 3
            continue
        lists.read(index, found, len(parts))
        if token.type == "inline":
            text = _inline_text(token.children or [], env)
            if tokens[index - 1].type in {"th_open", "td_open"}:
                text = _CELL_ATTRIBUTES.sub("", text)
            if tokens[index - 1].type == "paragraph_open" and _opens_list_item(tokens, index):
                text = _list_item_text(tokens[index - 2], text, _dialect(env))
            parts.append(text)
        elif token.type in {"fence", "code_block"}:
            # Its title (a file's name, mostly) is a line of its own above the code, as the
            # page shows it and as an admonition's title is kept.
            title = _code_title(token.info, env)
            if title:
                parts.append(title)
            # A diagram's source (```mermaid) stays too: it is what the page shows
            # without JavaScript, and every label the diagram draws is a word of it.
            parts.append(token.content.rstrip("\n"))
        elif token.type == "html_block" and _read_inline(token, env):
            parts.append(plain_text(token.content, env))
        elif token.type == "html_block":
            parts.append(_html_text(token.content))
        elif token.type == "tr_close":
            parts.append("")
        index += 1
    close()
    return sections or [Section((), None, "")], lists.page_of_links


# An address off the tree: a scheme ("https:", "mailto:") or a host ("//host/path"). A
# relative address ("install.md", "../config/#options", "#usage") is a page or a place of
# the tree, and so is an autorefs reference, which ``_references_elsewhere`` leaves empty.
_OFF_TREE = re.compile(r"[A-Za-z][\w+.-]*:|//")
_WORD = re.compile(r"\w")


def _bare_links(token: Token, env: dict[str, Any]) -> Links | None:
    """The links ``token`` (a paragraph's inline, or an HTML block) holds when it is
    nothing but links (icons, emphasis and punctuation beside them), else None
    (``markdown_link_lists``). An HTML block without text (md_in_html's ``<div class="grid
    cards" markdown>``) holds none and is no text."""
    if token.type == "html_block":
        return None if _html_text(token.content) else Links(0, 0)
    own = off = 0
    inside = False
    outside: list[Token] = []
    for child in token.children or []:
        if child.type == "link_open" and not inside:
            if _OFF_TREE.match(str(child.attrGet("href") or "")):
                off += 1
            else:
                own += 1
            inside = True
        elif child.type == "link_close":
            inside = False
            outside.append(child)  # an attribute list after it is taken off (``_inline_text``)
        elif not inside:
            outside.append(child)
    if not own + off or _WORD.search(_inline_text(outside, env)):
        return None
    return Links(own, off)


def _onto_path(
    path: list[tuple[int, str]], heading: tuple[int, str], kept: int, *, opens_page: bool
) -> int:
    """Put ``heading`` (its level, its text) on ``path`` in place of the headings it closes,
    never the first ``kept``; how many to keep from now on. An ``h1`` the page opens with,
    no text before it (``opens_page``), is kept: MkDocs titles a page by the ``h1`` it opens
    with (``_ExtractTitleTreeprocessor`` reads the first element only), and a later ``#``
    heading is a section of that page, not a page of its own. Ansible Lint's rules/galaxy.md
    holds three, and its "Changelog Details" sections are on the galaxy page, as the HTML
    reader keeps a page's first heading at the root of every path."""
    level = heading[0]
    while len(path) > kept and path[-1][0] >= level:
        path.pop()
    if not path and opens_page and level == 1:
        kept = 1
    path.append(heading)
    return kept


def _read_inline(token: Token, env: dict[str, Any]) -> bool:
    """Whether the HTML block ``token`` opens with an md_in_html tag that Python-Markdown
    reads as inline HTML of a paragraph (``_BLOCK_TAG``)."""
    return token.map is not None and token.map[0] in env.get(_INLINE_TAGS, ())


def _code_title(info: str, env: dict[str, Any]) -> str:
    """The title a fence's ``info`` gives its code block, where the dialect shows one."""
    if "title=" not in info or not _dialect(env).code_titles:
        return ""
    found = _CODE_TITLE.search(info)
    return " ".join((found.group(1) or found.group(2) or "").split()) if found else ""


def _opens_list_item(tokens: Sequence[Token], index: int) -> bool:
    return index >= 2 and tokens[index - 2].type == "list_item_open"


_MARK = "citeline_mark"  # where a list item's token keeps the mark its text opens with
_BULLET = "• "
# A task list item's checkbox, as pymdownx.tasklist and GitHub read one: "[x]", "[X]" or
# "[ ]" opening the item, then spaces.
_TASK = re.compile(r"\[([ xX])\][ ]+")
# The box it shows, checked or not. The box is no word, but which it is is what the item
# says ("- [ ] Windows support": not done yet), so it is written as the character that
# draws it, not dropped; Material shows no bullet or number beside it.
_CHECKBOXES = {" ": "\u2610 ", "x": "\u2611 ", "X": "\u2611 "}


def _list_item_text(item: Token, text: str, dialect: Dialect) -> str:
    """``text``, the first paragraph of the list item ``item``, with the mark it is shown
    with: its checkbox where the dialect has task lists, else its number or bullet."""
    task = _TASK.match(text) if dialect.task_lists else None
    if task is not None:
        return _CHECKBOXES[task.group(1)] + text[task.end() :]
    return str(item.meta.get(_MARK, _BULLET)) + text


def _dialect(env: dict[str, Any] | None) -> Dialect:
    found = (env or {}).get(_DIALECT)
    return found if isinstance(found, Dialect) else COMMONMARK


def _mark_list_items(tokens: Sequence[Token], dialect: Dialect) -> None:
    """Give each item of an ordered list the number a reader sees before it (a bulleted
    one's keep the bullet ``_sections`` gives by default). A reader quotes "step 2": read as
    bullets, a migration page's three steps could not be told apart. The number is the
    one shown, not the one written: a browser counts on from the list's first, so
    "1. 1. 1." shows 1, 2, 3, and Python-Markdown starts every list at 1 whatever its first
    number unless ``sane_lists`` is on (``Dialect.list_start``)."""
    counters: list[tuple[int, str] | None] = []  # per open list: its next number, delimiter
    for token in tokens:
        if token.type == "ordered_list_open":
            start = token.attrGet("start") if dialect.list_start else None
            counters.append((int(start) if isinstance(start, int | str) else 1, token.markup))
        elif token.type == "bullet_list_open":
            counters.append(None)
        elif token.type in {"ordered_list_close", "bullet_list_close"} and counters:
            counters.pop()
        elif token.type == "list_item_open" and counters and counters[-1] is not None:
            number, delimiter = counters[-1]
            token.meta[_MARK] = f"{number}{delimiter} "
            counters[-1] = (number + 1, delimiter)


def _heading(markdown: str, env: dict[str, Any]) -> tuple[str, str | None]:
    """A heading's plain text (its reference links read through ``env``'s definitions, as
    Python-Markdown renders it before its toc makes the anchor), and the anchor its attribute
    list names."""
    anchor: str | None = None
    attributes = _HEADING_ATTRIBUTES.search(markdown)
    if attributes and all(_ATTRIBUTE.fullmatch(item) for item in attributes.group(1).split()):
        for item in attributes.group(1).split():
            named = _ATTRIBUTE.fullmatch(item)
            if named is not None and named.group(1):
                anchor = named.group(1)
        markdown = _CLOSING_HASHES.sub("", markdown[: attributes.start()])
    elif _dialect(env).attribute_lists and (found := _attr_list_heading(markdown)) is not None:
        start, anchor = found
        markdown = _CLOSING_HASHES.sub("", markdown[:start])
    return plain_text(markdown, env), anchor


def _attr_list_heading(markdown: str) -> tuple[int, str | None] | None:
    """Where the attribute list a heading ends with starts, as attr_list reads one, and the
    anchor it names; None when the heading ends with none. attr_list takes any braces after
    a space at the heading's end (its ``HEADER_RE``: ``[ ]+{:?[ ]*([^}\\n ][^\\n]*)}[ ]*$``),
    the leftmost that fits, and reads a word without a value as a valueless attribute:
    cibuildwheel's options page writes ``### `archs` {: #archs cmd-line env-var toml }``
    (35 headings), which the ``#id .class key=value`` rule kept whole, title and anchor;
    pymdown-extensions' ``# 9.0 Migration Notes {: #\\9.0}`` titled four pages so."""
    end = len(markdown.rstrip(" "))
    if not markdown[:end].endswith("}"):
        return None
    opened = _ATTR_LIST_OPENS.search(markdown, 0, end - 1)
    if opened is None:
        return None
    anchor = None
    for item in _ATTR_LIST_ITEM.findall(markdown[opened.end() : end - 1]):
        if item.startswith("#"):
            anchor = item[1:] or None
    return opened.start(), anchor


def _annotated(tokens: Sequence[Token], env: dict[str, Any]) -> Sequence[Token]:
    """``tokens`` with each annotated code block's notes written at the lines they annotate
    (``code_annotations``) and taken out of the list after it that held them; a note no
    marker names stays in the list, with its number (Material hides it, print shows it)."""
    everywhere = _dialect(env).code_annotations
    taken: set[int] = set()
    for index, token in enumerate(tokens):
        if token.type != "fence" or not annotates(token.info, everywhere):
            continue
        start = _annotation_list(tokens, index + 1, token.level)
        if start is None:
            continue
        items = _list_items(tokens, start)
        notes = [_note_text(tokens[first + 1 : last], env) for first, last in items]
        token.content, shown = annotated(token.content, notes)
        for number in shown:
            first, last = items[number - 1]
            taken.update(range(first, last + 1))
    return [token for index, token in enumerate(tokens) if index not in taken] if taken else tokens


def _annotation_list(tokens: Sequence[Token], index: int, level: int) -> int | None:
    """Where the ordered list that annotates the code block before ``index`` opens: the
    block's next sibling, past paragraphs that hold no element (Material's JavaScript skips
    a ``<p>`` without child elements, meant for the empty ones attr_list leaves)."""
    while index < len(tokens) and tokens[index].level == level:
        token = tokens[index]
        if token.type == "ordered_list_open":
            return index
        if token.type != "paragraph_open" or index + 1 >= len(tokens):
            return None
        children = tokens[index + 1].children or []
        if any(child.type not in {"text", "softbreak"} for child in children):
            return None
        index += 3  # the paragraph's open, inline and close
    return None


def _list_items(tokens: Sequence[Token], start: int) -> list[tuple[int, int]]:
    """Where each item of the list opening at ``start`` opens and closes."""
    level = tokens[start].level + 1
    items: list[tuple[int, int]] = []
    opened = start
    for index in range(start + 1, len(tokens)):
        token = tokens[index]
        if token.level == level and token.type == "list_item_open":
            opened = index
        elif token.level == level and token.type == "list_item_close":
            items.append((opened, index))
        elif token.level < level:
            break
    return items


def _note_text(tokens: Sequence[Token], env: dict[str, Any]) -> str:
    """A list item's text as one line (it is written into a line of code): its paragraphs,
    code and lists, in order."""
    parts: list[str] = []
    for token in tokens:
        if token.type == "inline":
            parts.append(_inline_text(token.children or [], env))
        elif token.type in {"fence", "code_block"}:
            parts.append(token.content)
        elif token.type == "html_block":
            parts.append(_html_text(token.content))
    return " ".join(" ".join(parts).split())


def _unique_slug(candidate: str, used: dict[str, int]) -> str | None:
    """``candidate``, else ``candidate_1``, ``_2``...: Python-Markdown's toc names a
    repeated heading so (MkDocs publishes the second "Usage" of a page at ``#usage_1``).
    ``used`` remembers how far each name has counted, so repeats cost one step each."""
    if not candidate:
        return None
    if candidate not in used:
        used[candidate] = 0
        return candidate
    number = used[candidate]
    while True:
        number += 1
        chosen = f"{candidate}_{number}"
        if chosen not in used:
            used[candidate] = number
            used[chosen] = 0
            return chosen


# The tag of a block element (its opening or closing), which a browser draws on lines of
# its own.
_LINE_TAG = re.compile(
    r"</?(?:li|ul|ol|p|div|dl|dt|dd|table|tr|td|th|h[1-6]|hr|blockquote|pre)(?=[\s/>])",
    re.IGNORECASE,
)


def _inline_text(children: Sequence[Token], env: dict[str, Any] | None = None) -> str:
    """The text a reader sees of an inline run; ``env`` holds the page's footnote labels."""
    out: list[str] = []
    previous = ""
    footnotes: set[str] = (env or {}).get(_FOOTNOTES) or set()
    for child in children:
        if child.type == "text":
            text = child.content
            if previous in _INLINE_ELEMENT_ENDS:
                text = _INLINE_ATTRIBUTES.sub("", text)
            if ":{" in text:
                text = _SHORTCODE_ATTRIBUTES.sub(r"\1", text)
            if "{" in text and _dialect(env).attribute_lists:
                text = _GLUED_ATTRIBUTES.sub("", text)
            if ":" in text and _dialect(env).icons:
                text = _icons_out(text)
            if "++" in text and _dialect(env).keys:
                text = shown_keys(text)
            out.append(_footnotes_out(text, footnotes))
        elif child.type == "code_inline":
            out.append(_INLINE_HIGHLIGHT.sub("", child.content, count=1))
        elif child.type in {"softbreak", "hardbreak"}:
            out.append("\n")
        elif child.type == "image":
            out.append(_inline_text(child.children or [], env))
        elif child.type == "html_inline" and child.content.lower().startswith("<br"):
            out.append("\n")
        elif (
            child.type == "html_inline"
            and out
            and not out[-1].endswith("\n")
            and _LINE_TAG.match(child.content)
        ):
            # A block element written inline starts a line of its own where a browser
            # draws it: Hatch's tables of environment markers list each cell's values as
            # "<ul><li>posix</li><li>java</li></ul>" (98 tags), read as "posixjava".
            out.append("\n")
        previous = child.type
    return "".join(out).strip()


def _footnotes_out(text: str, footnotes: set[str]) -> str:
    """``text`` without its markers of defined footnotes: the superscript number they show
    is no word of the sentence (kept, "word[^1]" would be indexed as "word1"). A marker of
    no definition stays as written, as Python-Markdown leaves it."""
    if not footnotes or "[^" not in text:
        return text
    return _FOOTNOTE_MARKER.sub(
        lambda marker: "" if marker.group(1) in footnotes else marker.group(0), text
    )


def _html_text(html: str) -> str:
    tree = LexborHTMLParser(html)
    for node in tree.css("script, style, template"):
        node.decompose()
    root = tree.body or tree.root
    if root is None:
        return ""
    return " ".join(str(root.text(separator=" ", strip=True)).split())
