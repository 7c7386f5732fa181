"""HTML, including built documentation sites: the main content, split at its headings.

The main content is found by the generators' own markers where a page has them (Sphinx,
MkDocs, Docusaurus, Hugo's common themes, DocBook as PostgreSQL's manual uses, AsciiDoc as
git's does), else by
``<main>``, ``role=main`` or a lone ``<article>``, else by readability-lxml's content
extraction, else it is the body; navigation, banners, footers, sidebars and forms are
left out of it. Inside it, "edit this page" buttons,
permalink markers (``¶``) and search boxes are dropped. Each heading starts a section
(``sections``) whose anchor is the id the site itself links to: the heading's own, else
that of the element it opens (Sphinx's ``<section id>``, DocBook's ``<div class=sect1>``);
so does each term of a glossary, at its own id.
Code blocks keep their lines and indentation; other runs of spaces collapse. The page
title is its first heading, else ``<title>``, else the file's name; the url is the site's
address for the file when ingest was given a base URL, else the page's canonical link.
It deliberately does not render CSS, so text hidden by a style sheet is still text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from selectolax.lexbor import LexborHTMLParser, LexborNode

from citeline.corpus.documents import Document
from citeline.corpus.formats.origin import SourceFile
from citeline.corpus.formats.rejected import Omitted, Rejected
from citeline.corpus.formats.sections import Section, has_body, section_documents

# Each generator's element that holds a page's own content, most specific first. Measured
# on Debian's python3.11-doc (Sphinx 5) and postgresql-doc-15 (DocBook XSL): every page
# has exactly one of the first or is DocBook, whose body is all content once its
# navheader and navfooter are gone.
_CONTENT_MARKERS = (
    "[itemprop=articleBody]",  # Sphinx, Read the Docs theme
    "div.body[role=main]",  # Sphinx, basic/classic/python-docs themes
    "article.bd-article",  # Sphinx, PyData and Furo-like themes
    "article.md-content__inner",  # MkDocs Material
    "div.theme-doc-markdown",  # Docusaurus
    "div.td-content",  # Hugo, Docsy
    "#body-inner",  # Hugo, Learn / Relearn
    "article.markdown.book-article",  # Hugo, Book
    "main",
    "[role=main]",
)
# Generators whose page body is all content but for chrome dropped below: DocBook XSL, and
# AsciiDoc and Asciidoctor (git's manual pages: the page's name and NAME in a header, every
# other section in a content block beside it). Readability kept a sixth of git's FAQ.
_WHOLE_BODY_GENERATORS = ("DocBook", "AsciiDoc", "Asciidoctor")
# Chrome of the site and of the generators, inside or around the content.
_NOT_CONTENT = (
    "script, style, noscript, template, svg, iframe, nav, footer, aside, form, dialog, "
    "button, input, select, textarea, [role=navigation], [role=search], [role=banner], "
    "[role=contentinfo], [hidden], [aria-hidden=true], "
    "a.headerlink, a.hash-link, a.anchorjs-link, a.md-content__button, .md-source-file, "
    ".theme-edit-this-page, .theme-doc-footer, .theme-doc-toc-mobile, .theme-doc-breadcrumbs, "
    ".pagination-nav, .sphinxsidebar, .related, .breadcrumb, .breadcrumbs, .edit-this-page, "
    ".navheader, .navfooter, .toc, .docs-toc, .td-page-meta, .prev-next, .rst-footer-buttons, "
    "#footer, #toc"
)
_HEADINGS = "h1, h2, h3, h4, h5, h6"
# A glossary's terms with an id a link can reach (Sphinx's ``dl.glossary``, DocBook's
# ``glossterm``, AsciiDoc's anchored ``[[def_index]]index::``) each start a section, below
# every heading. Read as one section, the Python manual's glossary (128 terms, 47 KB) was
# never among the search's 20 best for a "what is" question about one of its terms, and a
# read section stopped at 12,000 characters; as sections, the Python questions over the whole site
# found an expected term in 81.7 % of answers, not 76.8 %, and git's 50.9 %, not 47.3 %.
# Measured on Debian's python3.11-doc, postgresql-doc-15, git-doc and Flask's docs: only
# the three glossary pages hold such terms (an API entry's ``dt id`` is no glossary's).
_GLOSSARY_TERMS = "dl.glossary > dt[id], dt[id]:has(> span.glossterm), dt:has(> a[id])"
_GLOSSARY_TERM_LEVEL = 7
# Boxes whose own heading ("Tip", "Note") does not start a section (DocBook, Sphinx).
_ASIDE_CLASSES = {"tip", "note", "warning", "caution", "important", "admonition", "sidebar"}
_BLOCKS = (
    "address, article, blockquote, br, dd, div, dl, dt, figcaption, figure, h1, h2, h3, h4, "
    "h5, h6, header, hr, li, main, ol, p, pre, section, table, td, th, tr, ul"
)
_PARAGRAPH_BLOCKS = {"p", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote", "table", "ul"}
_SPACES = re.compile(r"[ \t\r\f\v\u00a0]+")
_WHITESPACE = re.compile(r"[ \t\n\r\f\v\u00a0]+")
_BLANK_LINES = re.compile(r"\n\s*\n\s*")
# Markers put into the tree before its text is taken (sections, code blocks, block ends);
# none of these characters occurs in text
# that survived UTF-8 decoding of an HTML page (they are not allowed in HTML).
_SECTION_MARK = re.compile(r"\x00(\d+)\x00")
_CODE_MARK = re.compile(r"\x01(\d+)\x01")
_MARKER_CHARACTERS = re.compile(r"[\x00-\x02]")
# What the ingest report calls a page whose content is only headings (a chapter's table
# of contents, say): counted, not reported as a bad file.
HEADINGS_ONLY = "pages with headings only"


def read(source: str, origin: SourceFile) -> Iterator[Document | Rejected | Omitted]:
    # The markers below must be the only such characters in the tree; a page's own (never
    # valid HTML, but a hostile page may hold them) are dropped first.
    tree = LexborHTMLParser(_MARKER_CHARACTERS.sub("", source))
    title_tag = _text_of(tree.css_first("title"))
    url = origin.url or _canonical_url(tree)
    body = tree.body or tree.root
    if body is None:
        yield Rejected("it has no HTML body; check that it is an HTML page")
        return
    content = _main_content(tree, body)
    for node in content.css(_NOT_CONTENT):
        node.decompose()
    if content is body:
        # Without a generator's marker, a page's own banner is chrome too, but a header
        # holding the page's heading (Docusaurus puts its h1 in one) is content.
        for node in content.css("header"):
            if node.css_first(_HEADINGS) is None:
                node.decompose()
    sections = _sections(content)
    page_title = sections[0].headings[0] if sections and sections[0].headings else ""
    if not sections[0].headings and title_tag:
        # Text before any heading: the page's <title> names it.
        sections[0] = Section((title_tag,), None, sections[0].text)
    if not any(has_body(s) for s in sections) and any(s.headings for s in sections):
        yield Omitted(HEADINGS_ONLY, 1)
        return
    yield from section_documents(
        sections,
        doc_id=origin.default_id,
        title=None if page_title else title_tag or None,
        url=url,
        metadata={},
    )


def _main_content(tree: LexborHTMLParser, body: LexborNode) -> LexborNode:
    for selector in _CONTENT_MARKERS:
        found = body.css(selector)
        if len(found) == 1:
            return found[0]
    generator = tree.css_first('meta[name="generator"][content]')
    if generator is not None and str(generator.attributes["content"]).startswith(
        _WHOLE_BODY_GENERATORS
    ):
        return body  # all content once its navheader, navfooter or footer are dropped
    articles = body.css("article")
    if len(articles) == 1:
        return articles[0]
    return _extracted(body) or body


def _extracted(body: LexborNode) -> LexborNode | None:
    """The main content as readability-lxml (Mozilla Readability's port) finds it on a page
    no generator marks, or None when it finds none. Imported here: it costs lxml, and
    only such pages need it."""
    from readability import Document as Readable
    from readability.readability import Unparseable

    try:
        summary = Readable(str(body.html)).summary(html_partial=True)
    except (Unparseable, ValueError):
        return None
    extracted = LexborHTMLParser(summary)
    content = extracted.body
    if content is None or not str(content.text(strip=True)):
        return None
    return content


def _sections(content: LexborNode) -> list[Section]:
    # Headings are read before code blocks are replaced, so a heading's own code stays in
    # its title; a heading inside a code block is code, not a section.
    section_headings = [
        heading
        for heading in content.css(_HEADINGS)
        if not _in_aside(heading, content) and not _inside(heading, content, "pre")
    ]
    headings: list[tuple[int, str, str | None]] = [
        (int(str(heading.tag)[1]), _text_of(heading), _anchor(heading, content))
        for heading in section_headings
    ]
    for term in _glossary_terms(content):
        section_headings.append(term)
        headings.append((_GLOSSARY_TERM_LEVEL, _text_of(term), _term_anchor(term)))
    for number, heading in enumerate(section_headings):
        heading.insert_before(f"\x00{number}\x00")
    codes: list[str] = []
    for pre in content.css("pre"):
        if _inside(pre, content, "pre"):
            continue  # its text is its outer block's
        # The code's own lines and indentation, kept apart from the collapsing below.
        codes.append(str(pre.text(separator="", strip=False)).strip("\n"))
        pre.replace_with(f"\x02\x02\x01{len(codes) - 1}\x01\x02\x02")
    for node in content.css(_BLOCKS):
        node.insert_after("\x02\x02" if node.tag in _PARAGRAPH_BLOCKS else "\x02")
    raw = str(content.text(separator="", strip=False))
    parts = _SECTION_MARK.split(raw)
    sections = [Section((), None, _clean(parts[0], codes))]
    path: list[tuple[int, str]] = []
    for index in range(1, len(parts), 2):
        level, heading_text, anchor = headings[int(parts[index])]
        if path:
            # The page's first heading stays the root of every path, even where later
            # headings are of its level (DocBook's reference pages: "SELECT", "Synopsis").
            level = max(level, path[0][0] + 1)
        while path and path[-1][0] >= level:
            path.pop()
        path.append((level, heading_text))
        sections.append(
            Section(tuple(text for _, text in path), anchor, _clean(parts[index + 1], codes))
        )
    if len(sections) > 1 and not sections[0].text:
        sections.pop(0)
    return sections


def _glossary_terms(content: LexborNode) -> list[LexborNode]:
    """The terms of the page's glossaries that a link can reach, each of which starts a
    section of its own."""
    return [term for term in content.css(_GLOSSARY_TERMS) if not _inside(term, content, "pre")]


def _term_anchor(term: LexborNode) -> str | None:
    """The term's own id, else its marker's (AsciiDoc's)."""
    if term.id:
        return str(term.id)
    marker = term.css_first("a[id]")
    return str(marker.id) if marker is not None and marker.id else None


def _inside(node: LexborNode, content: LexborNode, tag: str) -> bool:
    parent = node.parent
    while parent is not None and parent.mem_id != content.mem_id:
        if parent.tag == tag:
            return True
        parent = parent.parent
    return False


def _in_aside(heading: LexborNode, content: LexborNode) -> bool:
    """Whether ``heading`` titles a note or tip box, which belongs to the section around it."""
    node = heading.parent
    while node is not None and node.mem_id != content.mem_id:
        classes = set(str(node.attributes.get("class") or "").split())
        if classes & _ASIDE_CLASSES:
            return True
        node = node.parent
    return False


def _clean(raw: str, codes: list[str]) -> str:
    # A line break in the page's source is a space, as a browser shows it; only the ends
    # of blocks (marked above) end lines.
    lines = (line.strip() for line in _WHITESPACE.sub(" ", raw).split("\x02"))
    text = _BLANK_LINES.sub("\n\n", "\n".join(lines)).strip()
    return _CODE_MARK.sub(lambda match: codes[int(match.group(1))], text)


def _anchor(heading: LexborNode, content: LexborNode) -> str | None:
    """The id a link to this heading's section uses: the heading's own, else one on an
    empty marker inside it (an id, or an old ``<a name>``), else that of the nearest element
    the heading opens."""
    if heading.id:
        return str(heading.id)
    marker = heading.css_first("[id]")
    if marker is not None and marker.id:
        return str(marker.id)
    # DocBook XSL's older output (git's user manual) names the place with <a name>.
    named = heading.css_first("a[name]")
    if named is not None and str(named.attributes.get("name") or "").strip():
        return str(named.attributes["name"]).strip()
    node = heading.parent
    while node is not None and node.mem_id != content.mem_id:
        first = node.css_first(_HEADINGS)
        if first is not None and first.mem_id != heading.mem_id:
            return None
        if node.id:
            return str(node.id)
        node = node.parent
    return None


def _text_of(node: LexborNode | None) -> str:
    if node is None:
        return ""
    return _WHITESPACE.sub(" ", str(node.text(separator=" ", strip=True))).strip()


def _canonical_url(tree: LexborHTMLParser) -> str | None:
    link = tree.css_first('link[rel="canonical"][href]')
    if link is not None and (link.attributes.get("href") or "").strip():
        return str(link.attributes["href"]).strip()
    meta = tree.css_first('meta[property="og:url"][content]')
    if meta is not None and (meta.attributes.get("content") or "").strip():
        return str(meta.attributes["content"]).strip()
    return None
