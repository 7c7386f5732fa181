"""HTML, including built documentation sites: the main content, split at its headings.

The main content is found by the structure documentation generators share, whatever the
theme: the innermost ``role=main``, ``<main>``, ``articleBody``, ``<article>`` or
``div.body`` that holds the page's first heading and every section heading after it, else
the element that holds them all (the lowest common ancestor of the first and last, grown
until it holds some text of their sections, then while its parent adds a paragraph of its
own); DocBook and AsciiDoc pages are all body.
Headings in navigation, banners, footers and sidebars start no section, and what every
page of the site repeats (``site``: the ``<title>`` part that names the site, lines and
headings of chrome) is learned by comparing a sample of the site's pages and left out.
Inside the content, permalink markers (an in-page link with no word of its own, ``¶``, or
anywhere a mark alone that points at its own place), a heading's controls (a link beside
its words that leads nowhere: YARD's "collapse"), "edit this page" buttons, forms, the
navigation bar just before a heading (GNU Texinfo's; before the first, a line of links loose
in the body too: groff's), the bar of links to the pages before and after it that closes
the content (``sequence``) and the page's own table of contents
(a list of nothing but links to its sections, standing before them, that no sentence
introduces as a section's parts, or an element a generator names a table of contents that
holds a list of links, not of sentences) are dropped. Each heading starts a section
(``sections``) whose anchor is the id the page itself links to, wherever it sits: the
heading's own, a marker inside it (an id, an old ``<a name>``), that of the element the
heading opens, past such a bar (Sphinx's ``<section id>``, DocBook's ``<div
class=sect1>``, Texinfo's ``<div class=section id>``), that of the element around it its
permalink names, or the run of empty markers just before it (``<span id>``, HTML 4's
``<a name>``: texi2html's, YODL's), named by its first; so does each entry of a glossary,
at its first term's id, and each API entry written without a heading, at its block's id
(``entries``: RDoc's methods). A section's title is its heading path, each heading in the
nearest before it of a higher level (a second top-level heading only as far as the
element it opens); a line of a few words alone above the page's ``h1`` (Javadoc's package)
is that title's text, and headings and headers are read as ``titles`` says (a heading's
bracketed link to another page is no word of it, a header of two headings is one title, a
banner-placed header whose ``h1`` names the page is the page's own). A page or a section
that is a list of links (an index, a chapter's list of its pages) keeps only its sentences,
and a page left with none is omitted and counted, as is a page that is a form with a
sentence beside it (a search page).
A reference's controls (``controls``: links to a listing's lines, toggles, "Run", tooltips'
marks, the summary labels the site repeats, "Read more", "More...") are no text, nor are a
listing's line numbers, and a signature set out in a table's cells is one line
(``listings``). A formula drawn as an image reads as its ``alt`` text (``formulas``), a row
of labels only a style sheet spaces apart as separate words (``label_rows``), and a DocBook
title page as its title and content, without its credits (``title_pages``).
Code blocks keep their lines and indentation; other runs of spaces collapse.
The page title is its first heading, else ``<title>`` less the site's shared part (for a
page without one, or with a placeholder, "<no title>": its first ``h1``, else its first
heading), else the file's name; the url
is the site's address for the file when ingest was given a base URL, else the page's
canonical link. A page whose refresh sends the reader on at once (a redirect page) is
omitted, counted, and left out of the site's sample. A static file an MkDocs docs folder
copies as it is, naming itself by no ``<title>`` or heading (a search engine's verification
file), is omitted and counted too, as is a page whose scripts write all it shows
(``script_pages``: a client-rendered site's shell). Words written for one kind of reader
(``hidden_text``) and a listing whose markup breaks its lines (``listing_lines``) are read
as a sighted reader sees them.

Every page costs time and memory bounded by its size: a page nested deeper than browsers
build (``MAX_DEPTH``) is refused before it is parsed (the parser's cost grows with the
square of the depth: 100,000 nested ``div`` took 24 s), counted by the scan ``_depth``,
which errs deep, never shallow: end tags close only what is open, and an inline SVG's
self-closed ``<path/>`` is flat as the parser builds it. Every walk up the tree is
bounded, and the tree (8 times the page's size) is freed once the content's text is read
off it, before that text is cut into sections. It deliberately does not render CSS, so
text hidden by a style sheet is still text.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple
from urllib.parse import unquote

from selectolax.lexbor import LexborHTMLParser, LexborNode

from citeline.corpus.documents import Document
from citeline.corpus.formats.collection import collection_paused
from citeline.corpus.formats.controls import (
    TOOLTIPS,
    clear_controls,
    clear_tooltip_marks,
    summary_labels,
)
from citeline.corpus.formats.decoding import read_page
from citeline.corpus.formats.entries import SELF_LINKED, signature_entries
from citeline.corpus.formats.formulas import formulas_as_text
from citeline.corpus.formats.hidden_text import read_as_seen
from citeline.corpus.formats.label_rows import space_label_rows
from citeline.corpus.formats.link_lists import LINK_LISTS, a_link_list
from citeline.corpus.formats.listing_lines import break_block_lines
from citeline.corpus.formats.listings import clear_line_numbers, join_signature_tables
from citeline.corpus.formats.nodes import BLOCK_TAGS, drop_permalink, holds_no_element
from citeline.corpus.formats.nodes import word_count as _word_count
from citeline.corpus.formats.not_found import NOT_FOUND_PAGES, not_found_page
from citeline.corpus.formats.origin import SourceFile
from citeline.corpus.formats.rejected import Omitted, Rejected, SiteName
from citeline.corpus.formats.script_pages import SCRIPT_PAGES, written_by_script
from citeline.corpus.formats.sections import (
    Section,
    body_text,
    has_body,
    section_documents,
)
from citeline.corpus.formats.sequence import (
    closing_bars,
    declared,
    loose_line,
    with_opening_bars,
)
from citeline.corpus.formats.site import NO_PROFILE, PageSample, SiteProfile
from citeline.corpus.formats.synopses import synopsis_rows
from citeline.corpus.formats.tab_sets import label_panels
from citeline.corpus.formats.title_line import opened_at_title
from citeline.corpus.formats.title_pages import read_title_pages
from citeline.corpus.formats.titles import (
    BANNER_HEADERS,
    file_title,
    placeholder_title,
    read_as_shown,
)

# The structural elements generators put a page's own content in (Sphinx's basic,
# Read the Docs, PyData and Furo themes, MkDocs themes, mdBook, Docusaurus, Hugo's): the
# innermost of them that holds every section heading is the content.
_CONTENT_MARKERS = "[role=main], main, [itemprop=articleBody], article, div.body"
# Generators whose page body is all content but for chrome dropped below: DocBook XSL, and
# AsciiDoc and Asciidoctor (git's manual pages: the page's name and NAME in a header, every
# other section in a content block beside it).
_WHOLE_BODY_GENERATORS = ("DocBook", "AsciiDoc", "Asciidoctor")
# Chrome by its HTML role, wherever it is: a heading inside starts no section. (Joined
# into one ``:not(... *)`` each: lexbor reads ``:not(:is(a, b) *)`` as if only ``a``.)
_CHROME_PARTS = (
    "nav",
    "footer",
    "form",
    "dialog",
    "[role=navigation]",
    "[role=search]",
    "[role=banner]",
    "[role=contentinfo]",
    # A tab panel hidden until its tab is chosen (WAI-ARIA tabs, sphinx-tabs) is text a reader
    # opens with one click: Flask's installation page keeps its Windows commands there.
    "[hidden]:not([role=tabpanel])",
    "[aria-hidden=true]",
    # A menu a click opens (WAI-ARIA's, and Bootstrap's every version): its links are
    # navigation, and where it sits inside a sentence (HAProxy's manual opens one at every
    # keyword it names, "This keyword is available in sections : Bind options ...") it
    # splices its lines into the sentence's words.
    "[role=menu]",
    ".dropdown-menu",
    # A tooltip's text, shown while the pointer rests on its mark (WAI-ARIA's, and the
    # ``tooltiptext`` class of the common CSS recipe): rustdoc writes one inside the heading
    # of every method returning an iterator, and 1,531 titles of the Rust standard library's
    # ``collections`` pages read "pub fn keys(&self) -> Keys<'_, K, V>ⓘNotable traits for
    # Keys<'a, K, V>impl<'a, K, V> Iterator for ...". (Its mark, "ⓘ", is a control.)
    *TOOLTIPS.split(", "),
    BANNER_HEADERS,
)
_CHROME = ", ".join(_CHROME_PARTS)
# Dropped from the content: chrome, what is not text, and (``_CHROME_NAMES``) the
# generators' buttons and panels that sit inside the content element (edit links,
# source-file dates, tables of contents, breadcrumbs), which a site with one page cannot
# learn by comparison.
_NOT_TEXT = (
    f"script, style, noscript, template, svg, iframe, button, input, select, textarea, {_CHROME}"
)
# Those panels by their class or id: a name, which a section of the page may bear too
# (``_a_section``), and, for a table of contents (``_CONTENTS_NAMES``), a list of text
# (``_text_list``).
_CONTENTS_NAMES = ".theme-doc-toc-mobile, .toc, .docs-toc, #toc"
# The outermost of them (one ``:not(... *)`` each: lexbor reads ``:not(:is(a, b) *)`` as if
# only ``a``).
_OUTERMOST_CONTENTS = ", ".join(
    name + "".join(f":not({outer} *)" for outer in _CONTENTS_NAMES.split(", "))
    for name in _CONTENTS_NAMES.split(", ")
)
# A footer named by its class (``.footer``) where a page read whole holds it: gtk-doc's
# ``<div class="footer">Generated by GTK-Doc V1.33.1</div>`` ended the last section of all
# 100 of GLib's pages with text and all 55 of libsoup's; Doxygen's ``li.footer`` and
# ``address.footer`` ("Generated by 1.9.4") 219 of libsdl2-doc's 4,518 sections, and kept
# 58 of its index pages' letters from reading as lists of links. Now 0, 0 and 1 (a source
# listing's own comment, "Generated by updaterev.sh").
_CHROME_NAMES = (
    ".md-content__button, .md-source-file, .sphinxsidebar, .related, .breadcrumb, "
    ".breadcrumbs, .edit-this-page, .navheader, .navfooter, .td-page-meta, .prev-next, "
    f".rst-footer-buttons, #footer, .footer, {_CONTENTS_NAMES}"
)
_NOT_CONTENT = f"{_NOT_TEXT}, {_CHROME_NAMES}"
_HEADINGS = "h1, h2, h3, h4, h5, h6"
_PERMALINKS = ", ".join(
    f'{holder} a[href^="#"]'
    for holder in (
        *_HEADINGS.split(", "),
        "dt",
        "caption",
        "figcaption",
        ".caption",
        ".code-block-caption",
    )
)
# What a permalink shows in place of words, wherever it sits: Sphinx's default "¶" (its
# ``html_permalinks_icon``), "§", the "#" of Furo's, PyData's and Material's, a link emoji.
# SQLAlchemy's zzzeeksphinx theme (``sphinx-paramlinks``) puts a "¶" after each parameter's
# name in a field list, ``<a class="paramlink headerlink" href="#...params.server_default">``:
# read as text, 1,859 of them stood in 74 sections ("server_default¶ - A FetchedValue ...").
_PERMALINK_MARKS = frozenset(["¶", "§", "#", "🔗"])
# Where a heading's permalink pointed, kept on the heading once the link is dropped
# (``_mark_permalink_targets``, read by ``_anchor_candidates``).
_PERMALINK_TARGET = "data-citeline-permalink"
_ANY_HEADING = ":is(h1, h2, h3, h4, h5, h6)"
# The links inside a heading (``_heading_control``).
_HEADING_LINKS = ", ".join(f"{heading} a[href]" for heading in _HEADINGS.split(", "))
# A link that leads anywhere but a place on its own page (``_own_contents``).
_LINK_ELSEWHERE = 'a[href]:not([href^="#"])'
# The items of a list or a table, whose lines are entries of a list of links
# (``_without_link_lists``).
_ITEM_TAGS = frozenset(["li", "dt", "dd", "td", "th"])
_HEADING_TAGS = frozenset(_HEADINGS.split(", "))
# The fewest links a navigation bar holds (``_navigation_only``): texi2any 7's shortest
# panel, "Up: X [Contents]", has two.
_BAR_LINKS = 2
# The fewest links a page's own table of contents holds (``_own_contents``): texi2any 6.8
# ends a node with a list of its subsections, one link when it has one (42 of R-exts'
# lists, 39 of them that short; read as text, their titles ended their nodes). A list of
# one link to the very next heading loses no word: that heading follows it.
_CONTENTS_LINKS = 1
# What holds a page's own table of contents (``_own_contents``): docutils' and Markdown's
# lists, GNU Texinfo's menu table; the outermost only, so that each is read once (every
# table of contents of the twelve sites measured is one).
_CONTENTS_HOLDERS = ", ".join(
    f"{holder}:not(ul *):not(ol *):not(table *)" for holder in ("ul", "ol", "table")
)
# The most words the title of a table of contents holds beside it: docutils' default
# "Contents" (every one of CMake's 65), "Table of Contents", "On this page".
_CONTENTS_TITLE_WORDS = 3
# The most words beside its links an index's entry holds (``_an_entry``): gtk-doc's
# "macro in", "user_function in"; Doxygen's entry name before the file it is in.
_ENTRY_WORDS = 2
# The fewest words outside links that make a line of a list of links its own text (an
# intro's sentence, Tornado's "This documentation is also available in PDF and Epub
# formats."), not an entry (an index's "add_function_parentheses [configuration value]",
# a table's head "Index Entry Section").
_SENTENCE_WORDS = 6
# The most words beside its headings that a page whose content holds a form with a text
# field may say and still be that form: Sphinx's search page says 11 ("Searching for
# multiple words only shows matches that contain all words."); a page of documentation
# that shows a search box in its content says more.
_FORM_PAGE_WORDS = 20
# The most words a line alone above the page's title holds and still labels that title, not
# saying a sentence of its own (``_label_first``): Javadoc 9+'s "Package org.apache.commons.
# lang3" above each class's ``h1`` holds two, a module's "Module java.base" two.
_LABEL_WORDS = 4
# What ends a sentence, so that a line ending with it is no label.
_SENTENCE_END = re.compile(r"[.!?:;]\s*$")
_QUERY_FIELDS = "form input:not([type]), form input[type=text], form input[type=search]"
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
# An API entry written without a heading (``entries``: RDoc's methods) lies below every
# heading too, in the one before it ("Public Instance Methods"); the next entry or heading
# ends it.
_ENTRY_LEVEL = _GLOSSARY_TERM_LEVEL
# The fewest entries of a page whose parts one heading's words label (``_entry_labels``):
# a heading that repeats under two entries and is reached by no link is already the name
# of their parts (gtk-doc's "Returns" under a page's two functions), not two places.
_LABEL_ENTRIES = 2
# What joins an entry's id and the suffix naming a part of it (``_a_part``): gtk-doc's
# ``g-hash-table-new.parameters``. Not ``-`` or ``_``, which join an id's own words.
_ID_SUFFIXES = (".", ":")
# Boxes whose own heading ("Tip", "Note") does not start a section (DocBook, Sphinx).
_ASIDES = ".tip, .note, .warning, .caution, .important, .admonition, .sidebar"
# (lexbor reads ``:is(a, b) c`` wrongly past a child, and ``c:is(a *, b *)`` rightly)
_BOXED_HEADINGS = f"{_ANY_HEADING}:is({', '.join(f'{box} *' for box in _ASIDES.split(', '))})"
# What, after a box of any class, is the text of the section around it: text, not a
# wrapper of further sections or the page's chrome.
_RESUMING_BLOCKS = {"-text", "p", "ul", "ol", "dl", "pre", "table", "blockquote"}
_NOT_SECTION = "".join(f":not({part} *)" for part in ("pre", *_CHROME_PARTS))
# The elements a browser shows as blocks (and ``br``): only their boundaries separate the
# text around them; inline elements run on ("<code>Box</code>ing" reads "Boxing"). A
# ``details`` box's ``summary`` is its own line (CMake's tutorial: "show/hide answer" ran
# into the answer's first word).
_BLOCK_TAGS = BLOCK_TAGS | {"br"}
# The blocks that start a line where text stands before them, as their ends end one. A
# list nested in an item right after its words (``<li>Draft a release<ol><li>Click``) read
# "Draft a releaseClick" on VitePress's minified pages, and "Draft a release Click" where
# whitespace stood between: a line break after the item's words, not before its list.
_BLOCK_STARTS = BLOCK_TAGS
# What a text node of marks opens with, no words of a line: a section's mark, a code block's.
_NOT_WORDS = "\x00\x02"
# The blocks of a page's own prose (``_prose_before``).
_PROSE_BLOCKS = frozenset(["p", "pre", "ul", "ol", "dl", "blockquote"])
_PARAGRAPH_BLOCKS = {"p", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote", "table", "ul"}
_SPACES = re.compile(r"[ \t\r\f\v\u00a0]+")
_WHITESPACE = re.compile(r"[ \t\n\r\f\v\u00a0]+")
_BLANK_LINES = re.compile(r"\n\s*\n\s*")
_WORD = re.compile(r"\w")
_LETTER = re.compile(r"[^\W\d_]")
_WORD_TOKEN = re.compile(r"\S*\w\S*")
_DIGITS = re.compile(r"\d+")
# Markers put into the tree before its text is taken (sections, code blocks, block ends,
# a link's start and end); none of these characters occurs in text
# that survived UTF-8 decoding of an HTML page (they are not allowed in HTML).
_SECTION_MARK = re.compile(r"\x00(\d+)\x00")
# Where the element a top-level heading opens ends (``_opened_element``): its section too.
_SECTION_END = re.compile(r"\x00/(\d+)\x00")
_CODE_MARK = re.compile(r"\x01(\d+)\x01")
_LINK_START = "\x03"
_LINK_END = "\x04"
_ITEM_MARK = "\x05"
# Before a link to a place on a page (an ``#id``): an index's entry leads to one
# (``_an_entry``).
_PLACE_MARK = "\x06"
_LINK_MARKS = re.compile(r"([\x03\x04])")
_LINE_MARKS = re.compile(r"[\x03-\x06]")
# What makes a line more than text alone: a code block's mark, a link's or an item's.
_MARKED = re.compile(r"[\x01\x03-\x06]")
_MARKER_CHARACTERS = re.compile(r"[\x00-\x06]")
# What the ingest report calls a page whose content is only headings (a chapter's table
# of contents, say): counted, not reported as a bad file.
HEADINGS_ONLY = "pages with headings only"
# A page whose content is a form with at most a sentence beside it (``_FORM_PAGE_WORDS``):
# Sphinx's search page.
FORM_PAGES = "pages that are a form"
TEMPLATES = "theme templates"
# A page whose ``<meta http-equiv="refresh">`` sends the reader on to another at once (GNU
# Texinfo's page per node, a redirect plugin's or Jekyll's page left at an old address):
# nobody reads it, and its own line ("The node you are looking for is at Aliasing.") was
# indexed as a document.
REDIRECTS = "redirect pages"
# The content of a refresh as browsers read it (WHATWG HTML, "shared declarative refresh
# steps"): a time (digits, any fraction ignored), a separator, and the address, after an
# optional ``url=`` and inside optional quotes.
_REFRESH = re.compile(
    r"\s*(?P<time>\d+[\d.]*|\.[\d.]*)(?:\s*[;,]\s*|\s+)(?:url\s*=\s*)?(?P<address>.*)",
    re.IGNORECASE | re.DOTALL,
)
# An HTML file an MkDocs docs folder holds is copied to the site as it is, no page MkDocs
# renders. A reader of the site finds a page there only when the file is an HTML document
# that names itself, by its <title> or a heading, as a page copied in from elsewhere does;
# one without either is served for a machine (Ansible Lint's google04e29a42ae6e6cbc.html
# is Google's one-line site verification, "google-site-verification: …", and Yandex's
# wraps its code in a bare <body>), no documentation: counted, not indexed.
STATIC_FILES = "static files that are no page"
# A file that opens with a Jinja statement or comment is a template, not a built page.
_TEMPLATE = re.compile(r"\A\s*\{[%#]")

# Browsers stop nesting at this depth (Blink's parser attaches deeper elements flat, at
# 512); the parser here does not, and its cost grows with the square of the depth. The
# deepest of the fifteen Debian documentation sites' pages counts 143 by the scan below
# (MkDocs' plugin guide, its inline diagram).
MAX_DEPTH = 512
# A page with fewer tags than this cannot nest deep enough to cost the parser much (10,000
# nested div, 50 KB: 0.06 s; 20,000: 0.44 s), so it is not scanned. Measured over the 66
# pages above it of python3.11-doc, postgresql-doc-15, sqlite3-doc, python-celery-doc and
# sphinx-doc (1.2 million tags): 0.75 s of CPU for the scan by names (``_depth``), 0.88 s
# for the count it replaced, which any unmatched end tag could fool; deepest 17.
_SCAN_ABOVE_TAGS = 10_000
# A tag to its end, to see whether it closes itself (``/>``); quotes are not read, so a ``>``
# inside an attribute ends the tag early and the tag counts as open: the scan errs deep.
_WHOLE_TAG = re.compile(r"<(/?[A-Za-z][A-Za-z0-9-]*)([^>]*)>")
_FOREIGN_ROOTS = frozenset(["svg", "math"])
# The HTML parser's foreign-content rules: these start tags leave SVG and MathML for HTML
# (WHATWG HTML, "The rules for parsing tokens in foreign content"), and these elements'
# content is HTML (its integration points); ``font`` is counted whatever its attributes.
_BREAKS_OUT = frozenset(
    [
        "b",
        "big",
        "blockquote",
        "body",
        "br",
        "center",
        "code",
        "dd",
        "div",
        "dl",
        "dt",
        "em",
        "embed",
        "font",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "head",
        "hr",
        "i",
        "img",
        "li",
        "listing",
        "menu",
        "meta",
        "nobr",
        "ol",
        "p",
        "pre",
        "ruby",
        "s",
        "small",
        "span",
        "strong",
        "strike",
        "sub",
        "sup",
        "table",
        "tt",
        "u",
        "ul",
        "var",
        "foreignobject",
        "desc",
        "title",
        "mi",
        "mo",
        "mn",
        "ms",
        "mtext",
        "annotation-xml",
    ]
)
# Elements that never nest (void) or close themselves when a sibling opens.
_FLAT_TAGS = frozenset(
    [
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "param",
        "source",
        "track",
        "wbr",
        "p",
        "li",
        "dt",
        "dd",
        "tr",
        "td",
        "th",
        "thead",
        "tbody",
        "tfoot",
        "option",
        "optgroup",
        "rb",
        "rt",
        "rtc",
        "rp",
        "colgroup",
        "caption",
        "html",
        "head",
        "body",
    ]
)
# The most empty markers (and the blank text between them) read before a heading
# (``_marker_run``), where docutils writes one ``<span id>`` for each label of a
# section: nine before its reStructuredText manual's "Specific Admonitions".
_MARKER_RUN = 32
# Steps any walk up the tree takes at most: generators wrap a heading in at most four
# elements inside the one it opens (DocBook's titlepage), so eight is room to spare, and
# a hostile page of 20,000 nested sections costs 20,000 short walks, not 20,000 long ones.
_WALK = 8
# A paragraph or code block outside the headings' common ancestor makes that ancestor's
# parent the content when it holds this many words: more than any line of the own-theme
# build's chrome (at most 6: "Home | Table of contents | Index", a date, "« previous").
_OWN_PARAGRAPH_WORDS = 8


def read(source: str, origin: SourceFile) -> Iterator[Document | Rejected | Omitted | SiteName]:
    if origin.theme or _TEMPLATE.match(source):
        # A theme's template beside Markdown sources (MkDocs' ``overrides/main.html``,
        # ``{% extends "base.html" %}``, or any file in the ``custom_dir`` its mkdocs.yml
        # names): no page the site serves at that address.
        yield Omitted(TEMPLATES, 1)
        return
    deeper = _too_deep(source)
    if deeper:
        yield Rejected(
            f"it nests elements deeper than {MAX_DEPTH} levels, which no browser shows; "
            "check that it is a page a generator wrote"
        )
        return
    # Learned before the page is parsed: the first page read held its tree while the
    # site's sample was read (up to 48 pages, each one parsed).
    profile = NO_PROFILE if origin.site is None else origin.site.profile(_sample, _root)
    tree = _parsed(source)
    del source  # the tree holds the page now (the caller, ``read_source``, keeps no copy)
    if _redirects_elsewhere(tree, origin.relative):
        yield Omitted(REDIRECTS, 1)
        return
    if origin.static and not _names_itself(tree):
        yield Omitted(STATIC_FILES, 1)
        return
    if written_by_script(tree):
        yield Omitted(SCRIPT_PAGES, 1)
        return
    if profile.name is not None:
        yield SiteName(profile.name)
    with collection_paused():
        page = _page_text(tree, profile, origin)
    # The page's text read off its tree, the tree is freed before that text is cut into
    # sections: held to the end, the tree and its marks (``_MarkedPage``) lay under every
    # line read, and the largest page the limit reads peaked at 663 MB, not 369 MB.
    del tree
    if page is None:
        yield Rejected("it has no HTML body; check that it is an HTML page")
        return
    yield from _page_documents(page, profile, origin)


class _PageText(NamedTuple):
    """What ``read`` takes from a page's tree: its cleaned content's text as its sections
    are cut from it (``_MarkedPage``), its title (``_read_as_shown``: ``<title>`` less the
    site's part, else its heading), its address, whether an element the generator marks
    as content said where that content is, whether it held a form after its title, and
    whether it is the whole body, found by no marker (``_titled_top``)."""

    marked_page: _MarkedPage
    title: str
    url: str | None
    marked: bool
    form: bool
    whole: bool


def _page_text(
    tree: LexborHTMLParser, profile: SiteProfile, origin: SourceFile
) -> _PageText | None:
    """What ``read`` takes from ``tree``, the page ``origin`` of a site of ``profile``, and
    needs it no more for; None for a page without a body."""
    url = origin.url or _canonical_url(tree)
    body = tree.body or tree.root
    if body is None:
        return None
    title_tag = _read_as_shown(tree, body, profile, origin.relative)
    # The ids the page links to, read before its permalinks are dropped with the chrome.
    linked = _linked_ids(body)
    content, marked, boxed, form = _cleaned_content(tree, body, profile, origin.relative)
    whole = not marked and content.mem_id == body.mem_id
    return _PageText(_marked_page(content, linked, boxed), title_tag, url, marked, form, whole)


def _page_documents(
    page: _PageText, profile: SiteProfile, origin: SourceFile
) -> Iterator[Document | Omitted]:
    """The documents of the page ``origin`` of a site of ``profile``, cut from ``page``, or
    why it is none."""
    title_tag = page.title
    with collection_paused():
        sections, listed = _page_sections(page.marked_page, page.marked, profile, bool(title_tag))
    page_title = sections[0].headings[0] if sections and sections[0].headings else ""
    if page_title in profile.roots and title_tag:
        # Most pages' content opens under this heading: the site's banner, not the page's
        # title. Shared only outside the content (mdBook's menu bar names the book on every
        # page), the same words atop the front page's content are that page's own title.
        sections = _rooted_at(sections, page_title, title_tag)
        page_title = title_tag
    if not sections[0].headings and title_tag:
        # Text before any heading: the page's <title> names it (``_titled_top``).
        sections[0] = _titled_top(sections, title_tag, page.whole)
        page_title = sections[0].headings[0] if len(sections) == 1 else ""
    omitted = _omitted(sections, listed, page.form, origin.relative)
    if omitted is not None:
        yield omitted
        return
    yield from section_documents(
        sections,
        doc_id=origin.default_id,
        title=None if page_title else title_tag or None,
        url=page.url,
        metadata={},
    )


def _read_as_shown(
    tree: LexborHTMLParser, body: LexborNode, profile: SiteProfile, page: str
) -> str:
    """The title of ``page`` by its ``<title>`` less the site's part, else its heading
    (``_title_heading``; for a placeholder, "<no title>", its heading, else its file's name),
    once its ``body`` is read as a reader sees it: its title block and headings
    (``titles``, ``title_pages``), formulas drawn as images (``formulas``) and rows of
    labels a style sheet spaces apart (``label_rows``)."""
    title = profile.page_title(_text_of(tree.css_first("title")))
    if placeholder_title(title, body):
        title = _title_heading(body, profile) or file_title(page)
    read_as_shown(body, title, profile.name or "", page)
    read_title_pages(body)
    formulas_as_text(body)
    space_label_rows(body)
    return title or _title_heading(body, profile)


def _titled_top(sections: list[Section], title: str, whole: bool) -> Section:
    """The first of ``sections``, text before any heading, titled by the page's ``title``;
    where it is all of a page read ``whole`` (no heading, no element marking its content),
    from the line that shows that title on, and titled by it (``title_line``)."""
    if whole and len(sections) == 1:
        return opened_at_title(sections[0], title)
    return Section((title,), None, sections[0].text)


def _title_heading(body: LexborNode, profile: SiteProfile) -> str:
    """The words of the heading that titles a page without a ``<title>``: its first ``h1``
    that could start a section and that the site does not repeat, else its first such
    heading ("" for none). SQLite's press release of 2007 opens with "FOR IMMEDIATE
    RELEASE:" above its ``h2``: without a ``<title>``, that text was titled by the file's
    name, "pressrelease-20071212"."""
    # Only the first such heading and the h1s are read: reading every heading's text, a
    # page of 20,000 headings took 0.041 s here, now 0.019 s (with ``_text_of``'s own).
    headings = _section_headings(body)
    texts = (_text_of(heading) for heading in headings)
    first = next((text for text in texts if text and text not in profile.headings), "")
    h1s = (_text_of(heading) for heading in headings if heading.tag == "h1")
    return next((text for text in h1s if text and text not in profile.headings), first)


def _rooted_at(sections: list[Section], banner: str, title: str) -> list[Section]:
    """``sections`` with ``title`` for the ``banner`` that roots their paths. The top heading
    of most of a site's pages' content is its banner, not the page's title ("The XSLT C library
    for GNOME" atop each of libxslt's API pages, so that no function's path named its
    module); the page's ``<title>`` names it, and where the banner's first subheading says
    the same ("Module transform from libxslt"), the path holds it once."""
    rooted = []
    for section in sections:
        headings, text = section.headings, section.text
        if headings == (banner,):
            # The banner's own section holds its line, not the title's: what follows it
            # is its text, whatever the heading above it is called.
            headings, text = (title,), f"{title}\n\n{body_text(section)}"
        elif headings[:1] == (banner,):
            rest = headings[1:]
            headings = rest if rest[:1] == (title,) else (title, *rest)
        rooted.append(Section(headings, section.anchor, text))
    return rooted


def _page_sections(
    page: _MarkedPage, marked: bool, profile: SiteProfile, titled: bool
) -> tuple[list[Section], bool]:
    """The sections of the page's cleaned content, read off its tree (``page``:
    ``_sections``), less a banner's before its title (``_banner_first``), and whether lists
    of links were left out. Inside an element the generator marks as the content
    (``marked``), a line every page repeats is the site's own ("Part of the git(1) suite", a
    user guide's list of its pages): only content found without such a marker is cleared of
    the site's repeated lines. A page ``titled`` by its ``<title>`` is rooted there where no
    heading is its title."""
    sections, listed = _sections(
        page,
        profile.lines if not marked else frozenset(),
        titled=titled and page.apart,
    )
    if _banner_first(sections, page, marked, profile):
        sections.pop(0)
    elif _label_first(sections, page):
        label, title = sections.pop(0), sections[0]
        sections[0] = Section(
            title.headings,
            title.anchor,
            f"{title.headings[-1]}\n\n{label.text.strip()}\n\n{body_text(title)}".strip(),
        )
    return sections, listed


def _names_itself(tree: LexborHTMLParser) -> bool:
    """Whether the page names itself: a ``<title>`` or a heading with text."""
    return any(_text_of(node) for node in tree.css(f"title, {_ANY_HEADING}"))


def _omitted(sections: list[Section], listed: bool, form: bool, page: str) -> Omitted | None:
    """Why a page of ``sections`` is no document, if it is none: it lost every line to its
    lists of links (``listed``), it is only headings, it is a form (``form``: one under
    its title) with at most a sentence beside it, a tool (Sphinx's search page) whose
    sentence is about the form, not the site's subject, or it is the site's page for a
    missing address (``not_found_page``, by its path ``page``)."""
    if not any(has_body(s) for s in sections):
        if listed:
            return Omitted(LINK_LISTS, 1)
        return Omitted(HEADINGS_ONLY, 1) if any(s.headings for s in sections) else None
    if form and sum(len(_WORD_TOKEN.findall(body_text(s))) for s in sections) <= _FORM_PAGE_WORDS:
        return Omitted(FORM_PAGES, 1)
    if not_found_page(page, sections):
        return Omitted(NOT_FOUND_PAGES, 1)
    return None


def _banner_first(
    sections: list[Section], page: _MarkedPage, marked: bool, profile: SiteProfile
) -> bool:
    """Whether the first of ``sections``, before the page's own title, is a banner's. Found
    without a marker, what comes before the page's ``h1`` is a banner's (a version badge, a
    breadcrumb), not the page's text, where that ``h1`` is the title (``page.apart`` is
    False: no paragraph of the page's own stands beside it before); inside a marker, when it
    is nothing but lines the site repeats (a theme's "This document describes the current
    stable version" above every page's title, which made a 98-character section at each
    of Celery's 215 pages)."""
    if len(sections) < 2 or sections[0].headings or not page.opens_with_h1:
        return False
    return _repeated_only(sections[0].text, profile.lines) if marked else not page.apart


def _label_first(sections: list[Section], page: _MarkedPage) -> bool:
    """Whether the first of ``sections``, before the page's ``h1`` title (``page.apart`` is
    False), is a label of that title: one line of at most ``_LABEL_WORDS`` words that ends
    no sentence. Javadoc 9+ writes the class's package above its title, ``<div
    class="sub-title"> Package <a>org.apache.commons.lang3</a></div><h1>Class
    StringUtils</h1>`` inside ``<main>``: read as text before the title, it made a section
    of its own at the page's address on 223 of Apache Commons Lang's pages, and the page's
    ``<title>`` then rooted every path of it ("StringUtils › Class StringUtils › Method
    Details": 3,409 titles). The label is kept as the title's text, after its heading."""
    if len(sections) < 2 or sections[0].headings or page.apart or not page.opens_with_h1:
        return False
    if len(sections[1].headings) != 1:
        return False
    lines = [line.strip() for line in sections[0].text.splitlines() if line.strip()]
    return (
        len(lines) == 1
        and len(_WORD_TOKEN.findall(lines[0])) <= _LABEL_WORDS
        and _SENTENCE_END.search(lines[0]) is None
    )


def _first_heading(content: LexborNode, boxed: set[int]) -> LexborNode | None:
    """The first heading of ``content`` that may start a section: not in a code block, and
    titling no box."""
    # The first alone, where it titles no box: listing all a page's 20,000 headings for it
    # took 0.005 s, twice a page (more under load: 0.013 s each in the ingest).
    first = content.css_first(f"{_ANY_HEADING}:not(pre *)")
    if first is None or first.mem_id not in boxed:
        return first
    return next(
        (h for h in content.css(f"{_ANY_HEADING}:not(pre *)") if h.mem_id not in boxed), None
    )


def _titled_apart(content: LexborNode, boxed: set[int]) -> bool:
    """Whether the page's first heading is no title of it: no ``h1``, or an ``h1`` that
    prose of the page stands before in its own element (``_prose_before``), so that the page's
    ``<title>`` names it and roots its paths (``_path_sections``). Doxygen writes a page's
    title in a ``div`` and a Markdown page's text, then its first ``#`` heading, as an
    ``h1`` beside that text: read as a banner, libsdl2-doc's READMEs lost what they open
    with (DirectFB's 177 of 362 words, "Supports: Hardware YUV overlays ..."), and each
    was titled by its first section's heading."""
    first = _first_heading(content, boxed)
    return first is not None and (first.tag != "h1" or _prose_before(first, content))


def _prose_before(heading: LexborNode, content: LexborNode) -> bool:
    """Whether a block of prose with a word (``_PROSE_BLOCKS``, or an element holding a
    paragraph of its own: ``_holds_prose``) stands before ``heading``'s place beside it, at
    most ``_WALK`` elements back. Its place is the outermost element inside ``content`` that
    opens with it (``_opening_place``). SQLite's pages put their title and a table of
    contents in ``div`` elements beside their first ``h1``: the title, not the page's text,
    which Doxygen's Markdown pages write in paragraphs and lists there, and Haddock in
    ``div#description`` beside ``div#interface``, which opens with its first group's
    ``<a id=g:1><h1>``: read as a banner, the description of each of aeson's 13 modules was
    lost, and the module was titled by its first group ("Encoding › Predicates")."""
    sibling = _opening_place(heading, content).prev
    for _ in range(_WALK):
        if sibling is None:
            return False
        if (
            (sibling.tag in _PROSE_BLOCKS or _holds_prose(sibling))
            and _WORD.search(str(sibling.text(deep=True)))
            and not _navigation_only(sibling)
        ):
            return True
        sibling = sibling.prev
    return False


def _opening_place(heading: LexborNode, content: LexborNode) -> LexborNode:
    """``heading``, or the outermost of its ancestors inside ``content`` (at most ``_WALK``
    up) that it opens: each one's first element, with no word before it."""
    place = heading
    for _ in range(_WALK):
        parent = place.parent
        if parent is None or parent.mem_id == content.mem_id:
            break
        before = place.prev
        while before is not None and not (
            before.tag not in {"-text", "-comment"} or _WORD.search(str(before.text_content or ""))
        ):
            before = before.prev
        if before is not None:
            break
        place = parent
    return place


def _holds_prose(node: LexborNode) -> bool:
    """Whether ``node``, a ``div`` or ``section``, holds a paragraph of the page's own: one of
    at least ``_OWN_PARAGRAPH_WORDS`` words, more than any line of a theme's chrome."""
    return node.tag in {"div", "section"} and any(
        _words(paragraph) >= _OWN_PARAGRAPH_WORDS for paragraph in node.css("p")
    )


def _redirects_elsewhere(tree: LexborHTMLParser, relative: str) -> bool:
    """Whether the page's first refresh (the one a browser obeys) sends the reader to
    another page at once. Every refresh in Debian's documentation packages (10,458: rust-doc,
    cargo, zsh-common, mkdocs, sqlite3, apache2-doc) waits 0 seconds; one that waits shows
    its page first, which may have text of its own to read, so it is no redirect here. Nor
    is one without an address (a reload), or to the page itself."""
    refresh = next(
        (
            meta
            for meta in tree.css("meta[http-equiv]")
            if str(meta.attributes.get("http-equiv") or "").strip().lower() == "refresh"
        ),
        None,
    )
    if refresh is None:
        return False
    found = _REFRESH.match(str(refresh.attributes.get("content") or ""))
    if found is None or int("0" + found["time"].split(".", 1)[0]) != 0:
        return False
    address = found["address"].strip()
    if address[:1] in {"'", '"'}:
        address = address[1:].split(address[0], 1)[0].strip()
    page = re.split(r"[?#]", address, maxsplit=1)[0]
    name = Path(relative).name
    return bool(page) and page not in {name, f"./{name}"}


def _repeated_only(text: str, repeated: frozenset[str]) -> bool:
    """Whether every line of ``text`` is one the site repeats (compared as ``chrome_key``),
    as a link or as plain text (``_chrome_line_key``: the links of ``text`` are unmarked)."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return bool(lines) and all(
        chrome_key(line) in repeated or _chrome_line_key(line, linked=True) in repeated
        for line in lines
    )


def _opens_with_h1(content: LexborNode) -> bool:
    first = content.css_first(_HEADINGS)
    return first is not None and first.tag == "h1"


def _too_deep(source: str) -> bool:
    """Whether the page nests elements deeper than ``MAX_DEPTH``, counted over its tags."""
    if source.count("<") <= _SCAN_ABOVE_TAGS:
        return False
    return _depth(source) > MAX_DEPTH


def _depth(source: str) -> int:
    """The deepest nesting of the page's elements as the HTML parser builds it, or deeper:
    never shallower. Elements that close themselves or on a sibling (``_FLAT_TAGS``) are
    flat; an end tag closes one element only when one of its name is open (the parser
    ignores it otherwise, so ``<div></x>`` repeated nests, and stray end tags first hide
    nothing). Inside ``svg`` or ``math`` a tag's ``/>`` closes it, as the parser's
    foreign-content rules say (SQLite's syntax diagrams: 7,608 ``<path .../>`` on one page,
    11 deep as parsed); an HTML tag that breaks out of foreign content (``div``, ``p``, ...),
    an integration point whose content is HTML (``desc``, ``mtext``, ...) or an end tag that
    is not the innermost foreign element's leaves it, as the parser leaves it, so ``<foo/>``
    in HTML still counts."""
    run = deepest = 0
    open_names: Counter[str] = Counter()
    foreign: list[str] = []
    for match in _WHOLE_TAG.finditer(source):
        tag, rest = match.group(1), match.group(2)
        closing = tag[0] == "/"
        name = (tag[1:] if closing else tag).lower()
        if foreign:
            if closing and name == foreign[-1]:
                foreign.pop()
                open_names[name] -= 1
                run -= 1
                continue
            if closing or name in _BREAKS_OUT:
                # The parser is back in HTML; the foreign elements may stay counted (deeper).
                foreign.clear()
            else:
                if not rest.endswith("/"):
                    foreign.append(name)
                    open_names[name] += 1
                    run += 1
                    deepest = max(deepest, run)
                continue
        if closing:
            if name not in _FLAT_TAGS and open_names[name] > 0:
                open_names[name] -= 1
                run -= 1
        elif name in _FOREIGN_ROOTS:
            if not rest.endswith("/"):
                foreign.append(name)
                open_names[name] += 1
                run += 1
                deepest = max(deepest, run)
        elif name not in _FLAT_TAGS:
            open_names[name] += 1
            run += 1
            deepest = max(deepest, run)
    return deepest


def _parsed(source: str) -> LexborHTMLParser:
    """The tree of the page ``source``, less the markers' characters (``_MARKER_CHARACTERS``:
    the marks put in the tree must be the only ones; never valid HTML, but a hostile page
    may hold them), and less the bytes the parser keeps of the page (``raw_html``, read by
    nothing here): a copy of the page beside a tree 8 times its size. The caller lets the
    page's text go once it is parsed, for the same reason."""
    tree = LexborHTMLParser(_MARKER_CHARACTERS.sub("", source))
    tree.raw_html = b""
    return tree


def _sample(path: Path) -> PageSample | None:
    """What one page of the site holds, read without a profile, for ``site.learn``; None
    for a page that cannot be read (it is reported when its own turn comes)."""
    source = read_page(path)
    if source is None or _too_deep(source):
        return None
    try:
        tree = _parsed(source)
        del source
        body = tree.body or tree.root
        if body is None or _redirects_elsewhere(tree, path.name):
            return None  # a redirect page holds none of the site's chrome
        # No title: which part of it names the site is what the samples are read to learn,
        # so no banner-placed header is read as the page's own here (``titles``).
        read_as_shown(body, "", "", path.name)
        # Every heading that could start a section, inside the content found or not: a
        # heading every page holds outside it is chrome too. Current mdBook opens each page
        # with a "Keyboard shortcuts" popup, a CSS-hidden ``h2`` outside ``<main>``; unlearned,
        # it was the first heading of every page whose ``<main>`` has no ``h1``, and their
        # content the whole body (the Cargo Book's ``index.html``, whose ``h1`` is the
        # book's name that every page's menu bar repeats).
        headings = {_text_of(heading) for heading in _section_headings(body)}
        labels = summary_labels(body)
        lines: set[str] = set()
        content, _, boxed, _ = _cleaned_content(tree, body, NO_PROFILE, path.name)
        page = _marked_page(content, frozenset(), boxed)
        title = _text_of(tree.css_first("title"))
        del tree, body, content  # freed before the text is cut, as ``read`` frees it
        sections, _ = _sections(page, frozenset(), lines)
    except Exception:  # a page that breaks the parser teaches nothing, and costs no other
        return None
    headings.update(s.headings[-1] for s in sections if s.headings)
    return PageSample(title, frozenset(headings), frozenset(lines), path, labels)


def _root(path: Path, profile: SiteProfile) -> str:
    """The top heading of ``path``'s sections as the page is read under ``profile`` ("" for
    none, or for a page that cannot be read), for ``Site.profile`` to learn the banner most
    pages' content opens under (``SiteProfile.roots``)."""
    source = read_page(path)
    if source is None or _too_deep(source):
        return ""
    try:
        tree = _parsed(source)
        del source
        body = tree.body or tree.root
        if body is None:
            return ""
        title = profile.page_title(_text_of(tree.css_first("title")))
        read_as_shown(body, title, profile.name or "", path.name)
        titled = bool(title)
        linked = _linked_ids(body)
        content, marked, boxed, _ = _cleaned_content(tree, body, profile, path.name)
        page = _marked_page(content, linked, boxed)
        del tree, body, content  # freed before the text is cut, as ``read`` frees it
        sections, _ = _page_sections(page, marked, profile, titled)
    except Exception:  # as in ``_sample``: a page that breaks the parser teaches nothing
        return ""
    return sections[0].headings[0] if sections and sections[0].headings else ""


def _first_places_only(body: LexborNode) -> None:
    """Takes the id off every element but the first that bears it, and the ``name`` off
    every ``<a>`` whose name an id or an earlier ``<a name>`` already takes: a browser
    takes a link to the first element of that id, else to the first ``<a>`` of that name
    (WHATWG HTML, "find a potential indicated element"). DocBook XSL writes ``<a
    id="x"/>``, which HTML leaves open, and the parser copies the open ``<a id="x">`` into
    the next heading, before that heading's own marker; read as that heading's, 240 of the
    Debian Reference's 449 sections were indexed at an earlier section's address."""
    seen: set[str] = set()
    for node in body.css("[id]"):
        name = str(node.id)
        if name in seen:
            del node.attrs["id"]
        else:
            seen.add(name)
    for node in body.css("a[name]:not([id])"):
        name = str(node.attributes.get("name") or "").strip()
        if name in seen:
            del node.attrs["name"]
        elif name:
            seen.add(name)


def _cleaned_content(
    tree: LexborHTMLParser, body: LexborNode, profile: SiteProfile, page: str
) -> tuple[LexborNode, bool, set[int], bool]:
    """The page's main content, cleared of chrome; whether an element the generator marks
    as content (or the generator itself) said where it is; the headings that title a
    box (``_boxed_headings``); and whether the content held a form with a text field after
    its first heading (``_form_after_title``), which goes with the chrome. ``page`` is the
    page's path in the site, which its synopsis tables may link it by (``synopses``)."""
    # Read before a repeated id is taken off: SQLAlchemy's ``regexp_replace`` names two
    # parameters ``...params.pattern``, each with its "¶" beside its own target.
    marks = _permalink_marks(body)
    _first_places_only(body)
    _mark_permalink_targets(body)
    boxed = _boxed_headings(body)
    content, marked = _main_content(tree, body, profile, boxed)
    label_panels(content)  # before the buttons and inputs go: a tab's label is its panel's
    read_as_seen(content)  # before what is hidden goes: a title hidden under its label stays
    # Read while the tooltips they hold are there: a mark is judged beside its tooltip.
    clear_tooltip_marks(content)
    form = _form_after_title(content)
    texts = _text_lists(content)
    for node in content.css(_NOT_CONTENT):
        if _dropped(node, texts):
            node.decompose()
    # A permalink: an in-page link with no word of its own ("¶", "#", a zero-width space),
    # in a heading, a term or a caption, where generators put them. One that bears an id
    # names the place (Node.js' docs put every heading's id on its "#", 3,981 sections):
    # its mark goes, the id stays.
    for link in content.css(_PERMALINKS):
        if not _WORD.search(str(link.text(deep=True))):
            drop_permalink(link)
    # Elsewhere, a link whose whole text is a permalink's mark, to a place on the page.
    for link in content.css('a[href^="#"]'):
        if link.mem_id in marks:
            drop_permalink(link)
    for link in content.css(_HEADING_LINKS):
        if _heading_control(link):
            link.decompose()
    # A heading's navigation bar (``_own_bars``) read as text ended the section before.
    for heading in content.css(_HEADINGS):
        for bar in _own_bars(heading):
            bar.decompose()
    opening = _page_bars(content, boxed)
    # The pages the opening bars link, read before they go: a closing bar that links
    # exactly those is the same navigation (``sequence``).
    neighbours = with_opening_bars(declared(tree, page), opening, page)
    for bar in opening:
        bar.decompose()
    for bar in closing_bars(content, neighbours, page):
        bar.decompose()
    for contents in _own_contents(content):
        contents.decompose()
    for synopsis in synopsis_rows(content, page, _anchor_candidates):
        synopsis.decompose()
    # After the bars and the synopses: a heading's bar of a version and two controls
    # ("const: unstable · source", rustdoc's) goes whole, as a bar, and a synopsis's rows
    # link their entries by their "More..." (Doxygen's).
    clear_controls(content, profile.labels, page)
    _read_listings(content)
    return content, marked, boxed, form


def _read_listings(content: LexborNode) -> None:
    """Reads ``content``'s listings as their lines: without their numbers, then each line
    apart where blocks break them (after the numbers: a line's number is no part of it),
    and a signature set out in a table's cells as one line."""
    clear_line_numbers(content)
    break_block_lines(content)
    join_signature_tables(content)


def _permalink_mark(link: LexborNode) -> bool:
    """Whether ``link`` is a permalink wherever it sits: its whole text is a permalink's
    mark (``_PERMALINK_MARKS``) and it points at its own place on the page, an element
    around it or just before it (``_at_its_place``). A link of words never is, whatever its
    class, nor a mark that leads elsewhere: GNU Texinfo's indexes list the ``#`` special
    parameter as ``<a href="#index-_0023"><code>#</code></a>``, an entry of Bash's Variable
    Index, and jump to its letter with ``<a class="summary-letter">#</a>``."""
    href = str(link.attributes.get("href") or "")
    if len(href) < 2 or str(link.text(deep=True)).strip() not in _PERMALINK_MARKS:
        return False
    return _at_its_place(link, _fragment_id(href))


def _permalink_marks(body: LexborNode) -> set[int]:
    """The ``mem_id`` of each permalink mark of ``body`` (``_permalink_mark``), each line
    holding one marked as its block's own (``_mark_own_line``)."""
    marks = set()
    for link in body.css('a[href^="#"]'):
        if _permalink_mark(link):
            marks.add(link.mem_id)
            _mark_own_line(link)
    return marks


def _mark_own_line(link: LexborNode) -> None:
    """Marks (``SELF_LINKED``) the child of the element a permalink ``link`` points at that
    holds the link, at most ``_WALK`` steps up: the line an entry's block opens with, where
    the generator puts the entry's "#" (``entries``)."""
    target = _fragment_id(str(link.attributes.get("href") or ""))
    node = link
    for _ in range(_WALK):
        parent = node.parent
        if parent is None or parent.tag in {"body", "html"}:
            return
        if parent.id == target:
            if node.mem_id != link.mem_id:
                node.attrs[SELF_LINKED] = ""
            return
        node = parent


def _fragment_id(href: str) -> str:
    """The id an in-page link ``href`` (``#...``) leads to: a browser matches the fragment
    percent-decoded. Crystal's API pages link each method's "#" as
    ``#clear%3ANil-instance-method`` to ``id="clear:Nil-instance-method"``: compared as
    written, none of its 12,029 marks was a permalink, and each stayed in its line."""
    return unquote(href[1:])


def _at_its_place(link: LexborNode, target: str) -> bool:
    """Whether the element ``target`` names holds ``link`` or comes before it beside it or
    beside an element around it (at most ``_WALK`` of each): sphinx-paramlinks' ``<span
    class="target" id="...params.server_default">`` before the parameter's name and its
    "¶"."""
    node = link
    for _ in range(_WALK):
        sibling = node.prev
        for _ in range(_WALK):
            if sibling is None:
                break
            if sibling.id == target:
                return True
            sibling = sibling.prev
        parent = node.parent
        if parent is None or parent.tag in {"body", "html"}:
            return False
        if parent.id == target:
            return True
        node = parent
    return False


def _heading_control(link: LexborNode) -> bool:
    """Whether ``link``, in a heading, is a control beside the heading's title: it leads
    nowhere (``href="#"`` alone, or a ``javascript:`` address: a script does what it does,
    folding or unfolding what the heading opens), and the heading holds words of its own
    beside it. YARD writes "collapse" in each summary's heading (``<a href="#">``): 40 of
    Mocha's and Cri's section titles read "Instance Method Summary collapse". A link that is
    all the heading's words is its title, whatever it leads to; one that leads nowhere
    inside a sentence (HAProxy's keywords open a menu, libsdl2-doc's authors' addresses are
    written by a script) is no heading's and stays; so does one glued to the text before it
    (``_glued_to_text_before``), the end of the title's last word."""
    href = str(link.attributes.get("href") or "").strip()
    if href != "#" and not href.lower().startswith("javascript:"):
        return False
    if not _WORD.search(str(link.text(deep=True))):
        return False  # a permalink's mark, dropped as such
    heading = link.parent
    for _ in range(_WALK):
        if heading is None or heading.tag in _HEADING_TAGS:
            break
        heading = heading.parent
    return (
        heading is not None
        and heading.tag in _HEADING_TAGS
        and (_words_outside(heading, [link]) > 0)
        and not _glued_to_text_before(link, heading)
    )


def _glued_to_text_before(link: LexborNode, heading: LexborNode) -> bool:
    """Whether the text before ``link`` in ``heading`` runs into it, no space between (past
    elements holding no text, as ``<wbr>``). A control stands apart from the title it sits
    beside (YARD: "Summary <small><a href="#">collapse</a>"); rustdoc links an item's own
    name to its page's top, glued to its path ("Struct std::vec::<wbr><a href="#">Vec</a>"),
    and every item page of the Rust 1.63 standard library was titled without its name."""
    node = link
    for _ in range(_WALK):
        sibling = node.prev
        while sibling is not None and not str(sibling.text(deep=True)):
            sibling = sibling.prev
        if sibling is not None:
            before = str(sibling.text(deep=True))
            return not before[-1].isspace()
        parent = node.parent
        if parent is None or parent.mem_id == heading.mem_id:
            return False
        node = parent
    return False


def _mark_permalink_targets(body: LexborNode) -> None:
    """Keeps on each heading, as ``_PERMALINK_TARGET``, the place its own permalink points
    at (an in-page link inside it with no word of its own), read by ``_anchor_candidates``
    after the link is dropped; a heading without one keeps no such attribute, whatever
    the page wrote."""
    for heading in body.css(_HEADINGS):
        target = None
        links = [] if holds_no_element(heading) else heading.css('a[href^="#"]')
        for link in links:
            href = str(link.attributes.get("href") or "")
            if len(href) > 1 and not _WORD.search(str(link.text(deep=True))):
                target = href[1:]
                break
        if target is None:
            target = _permalink_before(heading)
        if target is not None:
            heading.attrs[_PERMALINK_TARGET] = target
        elif _PERMALINK_TARGET in heading.attrs:
            del heading.attrs[_PERMALINK_TARGET]


def _permalink_before(heading: LexborNode) -> str | None:
    """Where an in-page link with no word of its own written just before ``heading`` points:
    rustdoc puts each method's permalink beside its heading, not in it (``<section
    id="method.new"><span class="rightside">source</span><a href="#method.new"
    class="anchor"></a><h4>pub fn new()``), and the section's "source" link comes first, so
    the heading opens nothing; without its permalink, 6,299 of the 8,517 sections of the
    Rust standard library's ``collections`` pages were cited at the "Implementations"
    heading above them."""
    sibling = _previous_written(heading)
    if sibling is None or sibling.tag != "a" or _WORD.search(str(sibling.text(deep=True))):
        return None
    href = str(sibling.attributes.get("href") or "")
    return href[1:] if len(href) > 1 and href.startswith("#") else None


def _form_after_title(content: LexborNode) -> bool:
    """Whether ``content`` holds a form with a text field after its first heading: a form
    of the page's own (Sphinx's search page puts its query's under its "Search" title),
    not the site's search box, which SQLite's pages put in the banner above their title.
    The page is walked only when it holds such a field."""
    if content.css_first(_QUERY_FIELDS) is None:
        return False
    fields = {node.mem_id for node in content.css(_QUERY_FIELDS)}
    titled = False
    for node in content.traverse():
        if node.tag in _HEADING_TAGS:
            titled = True
        elif titled and node.mem_id in fields:
            return True
    return False


def _dropped(node: LexborNode, texts: frozenset[int] | None = None) -> bool:
    """Whether ``node`` is no text of the content: chrome by its tag or role, what is not
    text, or an element whose class or id names it chrome (``_CHROME_NAMES``) that is no
    section of the page (``_a_section``) nor, named a table of contents, a list of text
    (``_text_list``; among ``texts``, by ``mem_id``, when they were read for the page)."""
    if node.css_matches(_NOT_TEXT):
        return True
    if not node.css_matches(_CHROME_NAMES) or _a_section(node):
        return False
    if not node.css_matches(_CONTENTS_NAMES):
        return True
    return node.mem_id not in texts if texts is not None else not _text_list(node)


def _text_lists(content: LexborNode) -> frozenset[int]:
    """The ``mem_id`` of each element of ``content`` named a table of contents that is a
    list of text (``_text_list``), judged at the outermost and with every such element
    inside it: texi2html nests its lists, and judged one by one, 500 nested lists (1.5 MB)
    took 10 s, each read with all it holds."""
    found: set[int] = set()
    for node in content.css(_OUTERMOST_CONTENTS):
        if _text_list(node):
            found.add(node.mem_id)
            found.update(inner.mem_id for inner in node.css(_CONTENTS_NAMES))
    return frozenset(found)


def _text_list(node: LexborNode) -> bool:
    """Whether ``node``, named a table of contents, holds a list whose words are mostly not
    its links': a table of contents is a list of links, and a list of sentences is text
    whatever its class. texi2html 1.78 writes every list without a bullet as ``<ul
    class="toc">``, the class of its table of contents: dropped, the GNU gettext manual lost
    71 items of 6 sections (xgettext's default keywords for each language, the encodings a
    PO header names), and each sentence introducing them ended on a colon. Its table of
    contents (``gettext_toc.html``), numbers and titles inside the links, stays chrome."""
    if node.css_first("li") is None:
        return False
    links = node.css("a[href]")
    return _words_outside(node, links) > sum(_word_count(link) for link in links)


def _a_section(node: LexborNode) -> bool:
    """Whether ``node`` is a section of the page whatever its name says: the element a
    heading opens, at that section's address (its id is one of the heading's
    ``_anchor_candidates``), holding more words outside links than the heading. Docutils
    writes the section on the doctree's ``footer`` element as ``<div class="section"
    id="footer">``: dropped by its id, that element's description, details and examples
    were in no document. A table of contents a heading opens (``<div id="toc"><h2>``
    and its links) holds no such words: it stays chrome."""
    if not node.id:
        return False
    heading = node.css_first(_HEADINGS)
    if heading is None or str(node.id) not in _anchor_candidates(heading):
        return False
    return _words_outside(node, node.css("a[href]")) > _word_count(heading)


def _own_contents(content: LexborNode) -> list[LexborNode]:
    """The page's own tables of contents inside ``content``: each outermost list (or
    table) that holds nothing but links, at least ``_CONTENTS_LINKS`` of them, each to a
    section of the page itself (``#`` and an id a heading's section has), that lists what
    follows it (``_Outline.contents_at``), with its title when its parent holds nothing
    else (``_titled``). Read as text, docutils' ``contents`` directive made the first
    section of 59 CMake pages a list of the headings that follow ("Contents /
    add_executable / Normal Executables ..."), and Texinfo's menu of a chapter's sections
    was the text of its opening section. A list of links to the page's API entries
    (Python's "Functions: PyMem_Malloc() ...", terms, not sections), or to some sections
    further on (a "See also" box, the "What's New" highlights naming each PEP's section),
    is text."""
    in_page: list[tuple[LexborNode, list[str]]] = []
    for node in content.css(_CONTENTS_HOLDERS):
        # Found first: an index's list of 643,000 links to other pages held them all, and
        # their addresses, at once (87 MB) to learn that its first leads elsewhere.
        if node.css_first(_LINK_ELSEWHERE) is not None:
            continue
        links = node.css("a[href]")
        hrefs = [str(link.attributes.get("href") or "") for link in links]
        if len(links) < _CONTENTS_LINKS or any(href[:1] != "#" for href in hrefs):
            continue
        if _words_outside(node, links) == 0:
            in_page.append((node, [href[1:] for href in hrefs]))
    if not in_page:
        return []
    # Read only for a page that has such a list.
    sections = {
        anchor: heading
        for heading in content.css(_HEADINGS)
        for anchor in _anchor_candidates(heading)
    }
    candidates = [
        (node, [sections[anchor] for anchor in anchors])
        for node, anchors in in_page
        if all(anchor in sections for anchor in anchors)
    ]
    if not candidates:
        return []
    # Document order, read once for a page that has a candidate.
    order = {node.mem_id: index for index, node in enumerate(content.traverse())}
    outline = _Outline(
        sorted((order[h.mem_id], int(str(h.tag)[1])) for h in content.css(_HEADINGS))
    )
    found = []
    parents: dict[int, int | None] = {}
    for node, targets in candidates:
        at, linked = order[node.mem_id], {order[target.mem_id] for target in targets}
        if not outline.contents_at(at, linked):
            continue
        if _introduced(node) and outline.own_subsections(at, linked):
            continue  # a section's text listing its parts
        found.append(_titled(node, content, parents))
    return found


def _introduced(listed: LexborNode) -> bool:
    """Whether a sentence of the text introduces ``listed``: what comes just before it
    (blank text and comments aside) is a paragraph or text of more than
    ``_CONTENTS_TITLE_WORDS`` words (no title, "Contents:") that ends with a colon. Such a
    list of a section's own parts (``_Outline.own_subsections``) is the section's text,
    whatever it links: Scrapy's closespider extension, "The conditions for closing a
    spider can be configured through the following settings:" and the four settings whose
    subsections follow; Django's logging topic, "A Python logging configuration consists
    of four parts:". A table of contents stands apart: in its own box with its title
    (docutils' ``contents`` directive), after the text of a section it ends (GNU Texinfo's
    menu of a node's subsections), or listing the page's sections. Kept, a list that is
    one costs its section a line per link; dropped, a list that is not cost the sentence
    its end and the section the names it lists."""
    sibling = _previous_written(listed)
    if sibling is None or sibling.tag not in {"p", "-text"}:
        return False
    text = str(sibling.text(deep=True)).strip()
    return text.endswith(":") and len(_WORD_TOKEN.findall(text)) > _CONTENTS_TITLE_WORDS


class _Outline:
    """A page's headings, as (position in document order, level) in that order, and where
    each one's section and run of sibling sections end: read in one pass each."""

    def __init__(self, headings: list[tuple[int, int]]) -> None:
        self.starts = [start for start, _ in headings]
        self.levels = [level for _, level in headings]
        # Where each section ends (the next heading of its level or above), and where its
        # run of siblings does (the next heading above its level): None at the page's end.
        self.ends = self._next_heading(lambda level, later: later <= level)
        self.runs = self._next_heading(lambda level, later: later < level)
        self.by_level: dict[int, list[int]] = {}
        for start, level in headings:
            self.by_level.setdefault(level, []).append(start)

    def _next_heading(self, closes: Callable[[int, int], bool]) -> list[int | None]:
        found: list[int | None] = [None] * len(self.starts)
        waiting: list[int] = []
        for index, (start, level) in enumerate(zip(self.starts, self.levels, strict=True)):
            while waiting and closes(self.levels[waiting[-1]], level):
                found[waiting.pop()] = start
            waiting.append(index)
        return found

    def contents_at(self, at: int, targets: set[int]) -> bool:
        """Whether a list at position ``at`` whose links lead to the headings at
        ``targets`` is a table of contents of what follows it: the first it links after
        itself is the very next heading, it links every section of that one's level from
        there to the end of their run and none past it, and any it links before itself is
        a section it stands in (docutils lists the page's own title). A "See also" list of
        the directives after this one (Apache's RLimitCPU: RLimitMEM, RLimitNPROC, but not
        the others that follow) is text."""
        first = bisect.bisect_left(self.starts, at)
        after = [target for target in targets if target > at]
        if not after or first == len(self.starts) or min(after) != self.starts[first]:
            return False
        level, run_end = self.levels[first], self.runs[first]
        if run_end is not None and max(after) >= run_end:
            return False
        same_level = self.by_level[level]
        run_stop = len(same_level) if run_end is None else bisect.bisect_left(same_level, run_end)
        run = run_stop - bisect.bisect_left(same_level, self.starts[first])
        if sum(1 for target in after if self._level(target) == level) != run:
            return False
        return all(self._holds(target, at) for target in targets if target < at)

    def own_subsections(self, at: int, targets: set[int]) -> bool:
        """Whether the headings at ``targets`` all lie in the section that the list at
        ``at`` stands in, a section below the page's first heading: they are that
        section's parts, not the page's (Postfix's READMEs list every section of the page
        in their "Introduction", "This document provides information on the following
        topics:", and the page's own title section lists them all)."""
        holder = bisect.bisect_left(self.starts, at) - 1
        if holder <= 0:
            return False  # before every heading, or under the page's title
        end = self.ends[holder]
        return all(at < target and (end is None or target < end) for target in targets)

    def _holds(self, heading: int, at: int) -> bool:
        end = self.ends[bisect.bisect_left(self.starts, heading)]
        return end is None or end > at

    def _level(self, heading: int) -> int:
        return self.levels[bisect.bisect_left(self.starts, heading)]


def _titled(contents: LexborNode, content: LexborNode, read: dict[int, int | None]) -> LexborNode:
    """``contents``, or its parent when that holds only it and, before it, a title of at
    most ``_CONTENTS_TITLE_WORDS`` words, no heading and no link (docutils' ``div.contents``
    around its "Contents" and the list). Each parent is read once (``read``, by its
    ``mem_id``: the one list it may be dropped with, else None), at most ``_WALK`` children
    of it, and only a title's text."""
    parent = contents.parent
    if parent is None or parent.mem_id == content.mem_id or parent.tag in {"body", "html"}:
        return contents
    if parent.mem_id not in read:
        read[parent.mem_id] = _titled_list(parent)
    return parent if read[parent.mem_id] == contents.mem_id else contents


def _titled_list(parent: LexborNode) -> int | None:
    """The ``mem_id`` of ``parent``'s second child when its first is a title (see
    ``_titled``) and it has no other, else None (blank text and comments aside)."""
    children: list[LexborNode] = []
    iterator = parent.iter(include_text=True)
    for _ in range(_WALK):
        child = next(iterator, None)
        if child is None:
            break
        if child.tag != "-comment" and not child.is_empty_text_node:
            children.append(child)
    else:
        return None  # more children than a title and a list
    if len(children) == 1:
        return children[0].mem_id  # a wrapper of the list alone
    if len(children) != 2:
        return None
    title, listed = children
    if title.tag in _HEADING_TAGS or (
        title.tag != "-text" and title.css_first(f"a[href], {_HEADINGS}") is not None
    ):
        return None
    words = _word_count(title)
    return listed.mem_id if words <= _CONTENTS_TITLE_WORDS else None


def _main_content(
    tree: LexborHTMLParser, body: LexborNode, profile: SiteProfile, boxed: set[int]
) -> tuple[LexborNode, bool]:
    generator = tree.css_first('meta[name="generator"][content]')
    if generator is not None and str(generator.attributes["content"]).startswith(
        _WHOLE_BODY_GENERATORS
    ):
        return body, True  # all content once its navheader, navfooter or footer are dropped
    # The first, the last and the h1s are what is read of the headings not boxed nor the
    # site's: reading every heading's text, a page of 20,000 took 0.040 s here, now 0.021.
    unboxed = [heading for heading in _section_headings(body) if heading.mem_id not in boxed]

    def own(heading: LexborNode) -> bool:
        return _text_of(heading) not in profile.headings

    first = next((heading for heading in unboxed if own(heading)), None)
    if first is None:
        # (lexbor lists an element once for each selector of a group it matches)
        markers = {node.mem_id: node for node in body.css(_CONTENT_MARKERS)}
        innermost = _innermost_marker(list(markers.values()))
        return (innermost, True) if innermost is not None else (body, False)
    first = next((heading for heading in unboxed if heading.tag == "h1" and own(heading)), first)
    last = next(heading for heading in reversed(unboxed) if own(heading))
    ancestors = _ancestors(first)
    # The innermost marker holding every section heading; headings come in document order,
    # so one that holds the first and the last holds every one between.
    inside_last = {node.mem_id for node in _ancestors(last)}
    for node in ancestors:
        if node.mem_id in inside_last and node.tag != "body" and _is_marker(node):
            return node, True
    common = next((node for node in ancestors if node.mem_id in inside_last), body)
    if common.mem_id == first.mem_id:
        common = first.parent or body
    return _grown(_with_section_text(common, first, body), body), False


def _section_headings(body: LexborNode) -> list[LexborNode]:
    return body.css(f"{_ANY_HEADING}{_NOT_SECTION}")


def _ancestors(node: LexborNode) -> list[LexborNode]:
    """``node``'s ancestors, nearest first, up to the body (the page's depth is bounded)."""
    found = []
    parent = node.parent
    while parent is not None and parent.tag != "html":
        found.append(parent)
        parent = parent.parent
    return found


def _innermost_marker(markers: list[LexborNode]) -> LexborNode | None:
    """The one of ``markers`` (content markers of a page without section headings) that
    every other holds, when they nest in one line; None for none, or for markers side by
    side (a page of several ``<article>``s, which is no one article's). The theme MkDocs
    calls readthedocs marks its content twice, ``<div role="main">`` around ``<div
    itemprop="articleBody">``, and puts its version bar ("GitHub « Previous Next »") after
    both: taken for two contents, a page without headings was read whole, bar and all (4
    of MintPy's 28 pages, python-mintpy-doc). As with headings (``_main_content``), the
    innermost marker is the content: the outer ones hold the theme's bars around it."""
    for candidate in markers:
        around = {node.mem_id for node in _ancestors(candidate)}
        if all(m.mem_id in around for m in markers if m.mem_id != candidate.mem_id):
            return candidate
    return None


def _is_marker(node: LexborNode) -> bool:
    if node.tag in {"main", "article"}:
        return True
    attributes = node.attributes
    if attributes.get("role") == "main" or attributes.get("itemprop") == "articleBody":
        return True
    return node.tag == "div" and "body" in str(attributes.get("class") or "").split()


def _grown(common: LexborNode, body: LexborNode) -> LexborNode:
    """``common``, or the nearest ancestor whose added part holds a paragraph of its own
    (a theme that puts the page's heading in a banner above its text, say)."""
    content = common
    for _ in range(_WALK):
        parent = content.parent
        if parent is None or content.mem_id == body.mem_id:
            break
        inside = {node.mem_id for node in content.css("p, pre")}
        added = [
            node
            for node in parent.css(f"p{_NOT_SECTION}, pre{_NOT_SECTION}")
            if node.mem_id not in inside
        ]
        if not any(_words(node) >= _OWN_PARAGRAPH_WORDS or node.tag == "pre" for node in added):
            break
        content = parent
    return content


def _with_section_text(common: LexborNode, first: LexborNode, body: LexborNode) -> LexborNode:
    """``common``, or, when it holds no word of a section (``_section_text``: after the
    ``first`` heading, outside the headings and the chrome), the nearest ancestor that does,
    at most ``_WALK`` steps above it. A page of one heading has no common ancestor of two:
    the element around that heading holds the heading alone (Publican's, DocBook's
    ``titlepage``: ``<div class=titlepage><div><div><h2>``), and its text stands beside that
    element, in ``div.para`` blocks no ``p`` test grows to. Taken as the content, it left 43
    of the Debian Administrator's Handbook's 127 pages (sect.quotas.html, every page of
    Appendix A) with their heading only. A page that is nothing but its heading finds no
    such ancestor and keeps ``common``, so no chrome around it is read as its text."""
    node, passed, steps = first, False, 0
    while node.mem_id != body.mem_id and node.parent is not None:
        if node.mem_id == common.mem_id:
            passed = True  # from here on, a word beside ``node`` lies outside ``common``
        if passed:
            steps += 1
            if steps > _WALK:
                break
        if any(_section_text(sibling) for sibling in _after(node)):
            return node.parent if passed else common
        node = node.parent
    return common


def _after(node: LexborNode) -> Iterator[LexborNode]:
    """The siblings after ``node``, text nodes too, in document order."""
    sibling = node.next
    while sibling is not None:
        yield sibling
        sibling = sibling.next


def _section_text(node: LexborNode) -> bool:
    """Whether ``node`` holds a word that a section would read: one outside its headings,
    not in chrome or what is no text (``_NOT_CONTENT``), which the content loses, nor in a
    bar of links (``_navigation_only``: Publican's ``ul.docnav``, "Prev Up Home Next", after
    every page), which would make a page that is only its heading one of chrome."""
    if node.tag == "-text":
        return _WORD.search(str(node.text_content or "")) is not None
    if node.tag == "-comment" or node.tag in _HEADING_TAGS:
        return False
    # A word first: an element without one (a page of 50,000 empty ones) costs no selector.
    if _WORD.search(str(node.text(deep=True))) is None or _dropped(node):
        return False
    return not _navigation_only(node) and _word_count(node) > sum(
        _word_count(heading) for heading in node.css(_HEADINGS)
    )


def _words(node: LexborNode) -> int:
    return len(str(node.text(deep=True)).split())


class _Open(NamedTuple):
    """A heading whose section the text read so far lies in (``_sections``): its number
    among the page's section headings, its level, text and anchor, and whether its text is
    a line of the title paths below it."""

    number: int
    level: int
    heading: str
    anchor: str | None
    shown: bool


# The root of the paths of a page that opens with text, titled by its ``<title>``
# (``_path_sections``): no heading is its title, so its first heading heads no path of the
# headings after it. Doxygen writes a page's title in a ``div`` ("SDL_main.h File
# Reference") above the text, then ``h2`` headings side by side ("Macros", "Functions",
# "Detailed Description", then one per member): rooted at its first, 3,614 of libsdl2-doc's
# 4,460 sections were titled as parts of it ("... File Reference › Macros › SDL_Init()").
_TITLE_ROOT = _Open(-1, 0, "", None, False)


class _MarkedPage(NamedTuple):
    """A page's cleaned content as its sections are cut from it (``_sections``), read off
    its tree so that the tree can be freed first: its text with its sections' starts, code
    blocks, block ends, links and items marked (``_marked_text``), the code blocks' own
    text, the (level, title, anchor) of the heading each start mark numbers
    (``_section_starts``), whether its first heading is no title of it (``_titled_apart``)
    and whether it opens with an ``h1`` (read once the marks are in). The tree of the
    largest page the limit reads (32 MB, 11,470 sections of 60 short paragraphs) is 240 MB,
    the marks once put in it 65 MB more (now written as its text is read:
    ``_text_with_marks``), and its text read out of it 32 MB."""

    text: str
    codes: list[str]
    headings: list[tuple[int, str, str | None]]
    apart: bool
    opens_with_h1: bool


def _marked_page(content: LexborNode, linked: frozenset[str], boxed: set[int]) -> _MarkedPage:
    """``content`` read for its sections, each at the anchor of its own the page links to
    (one of ``linked``), but for headings titling a box (``boxed``)."""
    # Read before the sections mark the headings' places: whether the page's first heading
    # is its title (``_titled_apart``).
    apart = _titled_apart(content, boxed)
    headings = _section_starts(content, linked, boxed)
    text, codes = _marked_text(content)
    return _MarkedPage(text, codes, headings, apart, _opens_with_h1(content))


def _sections(
    page: _MarkedPage,
    chrome: frozenset[str],
    prose_lines: set[str] | None = None,
    *,
    titled: bool = False,
) -> tuple[list[Section], bool]:
    """The sections of a ``page`` read off its tree, less the lines in ``chrome`` (the
    site's repeated ones, compared as ``chrome_key`` gives them) but for the headings' own;
    ``prose_lines`` gathers every line not code. ``titled``: the page's ``<title>`` names
    it (``_path_sections``)."""

    def read(part: str, headed: bool) -> list[_Line]:
        return _lines(part, page.codes, chrome, prose_lines, headed)

    def sections_read(titled: bool) -> list[_Read]:
        return [
            _read_section(titles, anchor, lines, page.codes)
            for titles, anchor, lines in _path_sections(page, read, titled=titled)
        ]

    found = sections_read(titled)
    rooted = titled and found[0].written
    listed = _without_link_lists(found)
    if rooted and not found[0].written:
        # The text the page opened with was a list of links (lxml's side menu of the
        # page's own sections beside its h1): the page opens with its title after all.
        # Read again only then: a page opening with no text was never rooted, and reading
        # it twice doubled the cost of the largest page read (32 MB: 17 s to 28 s of CPU).
        found = sections_read(False)
        listed = _without_link_lists(found)
    sections = [Section(one.titles, one.anchor, _text(one, page.codes)) for one in found]
    if len(sections) > 1 and not sections[0].text:
        sections.pop(0)
    return sections, listed


def _section_starts(
    content: LexborNode, linked: frozenset[str], boxed: set[int]
) -> list[tuple[int, str, str | None]]:
    """(level, title, anchor) of each heading and glossary term that starts a section of
    ``content`` (``_sections``), in the order of the marks put before them. A heading of the
    content is its structure even where its words are a line the site repeats: lxml's pages
    (Docutils, through lxml's own mkhtml.py) each hold a side menu listing every page's
    top-level sections, and dropped as that menu's lines, 95 of the 250 sections of its 26
    pages were read into the section before them (435 documents, now 531), and the two
    pages titled by a menu line (objectify.html, lxmlhtml.html) lost the text under their
    title as a banner's. A heading every page holds outside the content is left out where
    the content is found (``_main_content``); on 19 development sites only R's manuals
    read differently, their footnotes titled under each page's "Footnotes" heading."""
    # Headings are read before code blocks are replaced, so a heading's own code stays in
    # its title; a heading inside a code block is code, not a section.
    section_headings: list[LexborNode] = []
    headings: list[tuple[int, str, str | None]] = []
    found = [
        (heading, int(str(heading.tag)[1]), _text_of(heading))
        for heading in content.css(f"{_ANY_HEADING}:not(pre *)")
        if heading.mem_id not in boxed
    ]
    labels = _entry_labels(found, linked)
    for heading, level, text in found:
        if heading.mem_id in labels:
            continue
        section_headings.append(heading)
        headings.append((level, text, _anchor(heading, linked)))
    for term in content.css(f":is({_GLOSSARY_TERMS}):not(pre *)"):
        if _follows_a_term(term):
            continue  # one entry with the term before it, at that term's id
        section_headings.append(term)
        headings.append((_GLOSSARY_TERM_LEVEL, _text_of(term), _term_anchor(term)))
    found_entries = signature_entries(content, linked)
    for label in found_entries.labels:
        label.decompose()
    for entry in found_entries.entries:
        section_headings.append(entry.line)
        headings.append((_ENTRY_LEVEL, _text_of(entry.line), entry.anchor))
    _mark_top_level_ends(section_headings, headings)
    for number, heading in enumerate(section_headings):
        heading.insert_before(f"\x00{number}\x00")
    return headings


def _entry_labels(found: list[tuple[LexborNode, int, str]], linked: frozenset[str]) -> set[int]:
    """The ``mem_id`` of each heading of ``found`` (heading, level, text) that labels a part
    of the entry it lies in rather than starting a section (``_a_part``), where its words
    head such a part of at least ``_LABEL_ENTRIES`` entries of the page, none twice.
    gtk-doc writes each function's "Parameters" and "Returns" (a struct's "Members") as an
    ``h4`` of its own at the function's id and a suffix (``g-hash-table-new.parameters``):
    read as sections, 3,536 of GLib's 6,713 sections and 838 of libsoup's 2,078 were these
    parts, and no function's section held what it takes or what it returns; 23 and 31 are
    left (a page's one struct, libsoup's structs at ``X-struct`` with members at
    ``X.members``, pages of one function). A heading a permalink or a table of contents reaches
    (rustdoc's "Examples" under each method, every heading of Sphinx's) is a place a reader
    is sent to, and one whose id is its own (lxml's changelog's "Bugs fixed" under each
    release, ``#bugs-fixed-1``; Apache's id-less "See also" under each directive) a section
    of its own: both stay sections."""
    repeated = Counter((level, text) for _, level, text in found)
    parents: dict[tuple[int, str], list[int]] = {}
    open_levels: list[tuple[int, int]] = []  # (level, number) of the headings above
    parts: list[int] = []
    for number, (heading, level, text) in enumerate(found):
        while open_levels and open_levels[-1][0] >= level:
            open_levels.pop()
        parent = found[open_levels[-1][1]][0] if open_levels else None
        if (
            parent is not None
            and repeated[(level, text)] >= _LABEL_ENTRIES
            and _a_part(heading, parent, linked)
        ):
            parents.setdefault((level, text), []).append(open_levels[-1][1])
            parts.append(number)
        open_levels.append((level, number))
    # Read once a name: each entry's part, none twice.
    alike = {
        key
        for key, under in parents.items()
        if len(under) >= _LABEL_ENTRIES and len(set(under)) == len(under)
    }
    return {found[number][0].mem_id for number in parts if found[number][1:] in alike}


def _a_part(heading: LexborNode, parent: LexborNode, linked: frozenset[str]) -> bool:
    """Whether ``heading`` names a part of the entry ``parent`` heads: no link of the page
    reaches it, and an id of its place is one of the entry's (less a suffix of its own) and
    a suffix, after a ``.`` or ``:`` (``_ID_SUFFIXES``). gtk-doc names a macro
    ``G-HOOK-FLAGS:CAPS`` and its parameters ``G-HOOK-FLAGS.parameters``."""
    own = _anchor_candidates(heading)
    if not own or not linked.isdisjoint(own):
        return False
    stems = {_id_stem(entry) for entry in _anchor_candidates(parent)}
    stems.update(_anchor_candidates(parent))
    return any(_id_stem(mine) in stems for mine in own if _id_stem(mine) != mine)


def _id_stem(anchor: str) -> str:
    """``anchor`` up to its last ``_ID_SUFFIXES`` separator, or all of it."""
    cut = max(anchor.rfind(separator) for separator in _ID_SUFFIXES)
    return anchor[:cut] if cut > 0 else anchor


def _marked_text(content: LexborNode) -> tuple[str, list[str]]:
    """``content``'s text with its code blocks, block ends, links and items marked, and the
    code blocks' own text."""
    codes: list[str] = []
    for pre in content.css("pre:not(pre *)"):
        # The code's own lines and indentation, kept apart from the collapsing below.
        codes.append(str(pre.text(separator="", strip=False)).strip("\n"))
        pre.replace_with(f"\x02\x02\x01{len(codes) - 1}\x01\x02\x02")
    return _text_with_marks(content), codes


def _text_with_marks(content: LexborNode) -> str:
    """``content``'s text (as ``text(separator="")`` reads it) with the end of each block,
    the start and end of each link (a heading's own link is its title: not counted) and
    the start of each item of a list or a table marked, to find the lists of links
    (``_without_link_lists``). The marks are written as the tree is walked, not put in it:
    each was a node of the tree (about 125 bytes), four to an entry of an index where the
    entry's text is 10 bytes, and the largest index the limit reads (32 MB, 643,000 links)
    peaked at 916 MB, its marks 300 MB of it."""
    headings = sum(1 for node in _ancestors(content) if node.tag in _HEADING_TAGS)
    # The open elements: (id, the marks after it, whether it is a heading).
    open_: list[tuple[int, str, bool]] = [(content.mem_id, "", False)]
    parts: list[str] = []
    chunks: list[str] = []  # parts joined as they come: a list of them all was 150 MB
    # Whether text stands on the line since the last block's end: a block that starts
    # there starts a line too (``_BLOCK_STARTS``).
    line_open = False
    walk = content.traverse(include_text=True)
    next(walk)  # ``content`` itself
    for node in walk:
        parent = node.parent
        above = parent.mem_id if parent is not None else None
        while len(open_) > 1 and open_[-1][0] != above:
            _, after, heading = open_.pop()
            headings -= heading
            if after:
                parts.append(after)
                line_open = line_open and "\x02" not in after
        if node.is_text_node:
            text = str(node.text_content or "")
            if line_open:
                if text[:1] == "\x00":
                    # A section's start mark, before its heading or term: the line ends
                    # before it, not in the section's own text; an end mark ends nothing.
                    if text[1:2] != "/":
                        parts.append("\x02")
                        line_open = False
                elif text[-1:] == "\x02":
                    line_open = False  # a code block's mark, a block of its own
            elif text and text[0] not in _NOT_WORDS and not text.isspace():
                line_open = True
            parts.append(text)
        else:
            tag = str(node.tag)
            if line_open and tag in _BLOCK_STARTS:
                parts.append("\x02")
                line_open = False
            before, after = _marks(node, tag, headings) if node.is_element_node else ("", "")
            if before:
                parts.append(before)
            heading = tag in _HEADING_TAGS
            headings += heading
            open_.append((node.mem_id, after, heading))
        if len(parts) >= 4096:
            chunks.append("".join(parts))
            parts.clear()
    parts.extend(after for _, after, _ in reversed(open_[1:]) if after)
    chunks.append("".join(parts))
    return "".join(chunks)


def _marks(element: LexborNode, tag: str, headings: int) -> tuple[str, str]:
    """The marks before and after ``element`` (``tag``), inside ``headings`` headings."""
    before = after = ""
    if tag == "a" and not headings and "href" in element.attrs:
        # Before a link to a place on a page (an ``#id``), a mark of its own.
        href = str(element.attrs.get("href") or "")
        before, after = (_PLACE_MARK if href.partition("#")[2] else "") + _LINK_START, _LINK_END
    if tag in _BLOCK_TAGS:
        after += "\x02\x02" if tag in _PARAGRAPH_BLOCKS else "\x02"
    if tag in _ITEM_TAGS:
        before += _ITEM_MARK
    return before, after


class _Line(NamedTuple):
    """One line of a section's text, and how many of its words lie outside and inside
    links (a code block's, one line here, outside)."""

    text: str
    outside: int
    inside: int
    links: int
    item: bool
    places: int = 0  # links to a place on a page (``_PLACE_MARK``)


# A blank line: every one is the same line.
_BLANK_LINE = _Line("", 0, 0, 0, False)


@dataclass(slots=True)
class _Read:
    """One section as ``_path_sections`` reads it: its path of titles, its anchor, the
    (words, words inside links, links) of its lines after its heading (``_counts``) and
    whether any line of it has text (``written``); its lines are kept only while a list of
    links may take some of them (``_without_link_lists``: where those after its heading
    hold a link), else its text is joined at once (``text``). Held to the end as
    ``_Line`` objects, the 700,000 lines of the largest page the limit reads (32 MB of
    short paragraphs) took 214 MB."""

    titles: tuple[str, ...]
    anchor: str | None
    body: tuple[int, int, int]
    written: bool
    lines: list[_Line]
    text: str | None


def _read_section(
    titles: tuple[str, ...], anchor: str | None, lines: list[_Line], codes: list[str]
) -> _Read:
    body = _counts(lines[_heading_lines(titles, lines) :])
    written = any(line.text for line in lines)
    if body[2]:
        return _Read(titles, anchor, body, written, lines, None)
    return _Read(titles, anchor, body, written, [], _joined(lines, codes))


def _text(section: _Read, codes: list[str]) -> str:
    return section.text if section.text is not None else _joined(section.lines, codes)


def _without_link_lists(found: list[_Read]) -> bool:
    """Leaves, in a page or a section that is a list of links (at least
    ``LINK_LIST_SHARE`` of the words after its heading inside links, at least
    ``LINK_LIST_LINKS`` links), only the lines of its own text (``_own_line``); whether
    any such list was left out. Sphinx's index (genindex.html: 20 to 26 sections of entries
    at each of the development collections' Sphinx sites, 29 pages at Python's), a page
    that is its chapter's list of pages (Tornado's webframework.html), Texinfo's index
    pages and a one-page manual's index sections (Bash's D.1 to D.5) were indexed as
    sections whose every line names another section: found for any word of an entry, they
    stood in for the text they point at. A landing page keeps its intro: the list goes, the
    sentence before it stays."""
    whole = a_link_list(*(sum(column) for column in zip(*(s.body for s in found), strict=True)))
    listed = False
    for section in found:
        words, inside, links = section.body
        # In a page of links, a section of it that is half links is one of its lists (the
        # index's letter of three entries); a section of text stays whole (the note on
        # the identifiers CMake reserves, over cmake-variables(7)'s lists of variables).
        if a_link_list(words, inside, links) or (whole and links and 2 * inside >= words):
            listed = True
            lines = section.lines
            start = _heading_lines(section.titles, lines)
            lines[start:] = _own_lines(lines[start:])
            section.written = any(line.text for line in lines)
    return listed


def _own_lines(body: list[_Line]) -> list[_Line]:
    """The lines of ``body``, a list of links, that are its own text (``_own_line``), and
    each short line with no link that stands over such text, as a caption stands over its
    paragraph: DocBook's front page holds its copyright line and its "Abstract" caption
    over the abstract's sentence, before the book's list of tables. Dropped as a list's
    lines, the Debian Reference lost "Copyright © 2013-2021 Osamu Aoki" and "Abstract"; a
    caption over a list ("List of Tables", "Index pages by letter:") stands over no text
    of its own and still goes."""
    kept: list[_Line] = []
    over_own = False  # whether the next line with text below is the section's own
    for line in reversed(body):
        keep = _own_line(line) or (over_own and not line.item and not line.links)
        if line.text:
            over_own = keep
        if keep:
            kept.append(line)
    return kept[::-1]


def _heading_lines(titles: tuple[str, ...], lines: list[_Line]) -> int:
    """How many of ``lines`` open the section with its heading: up to its first with text,
    for a section with a heading."""
    if not titles:
        return 0
    return next((index + 1 for index, line in enumerate(lines) if line.text), 0)


def _counts(lines: list[_Line]) -> tuple[int, int, int]:
    """(words, words inside links, links) of ``lines``; an index's entry (``_an_entry``) is
    all link."""
    # One pass: three sums of generators took 0.027 s for a page of 20,000 sections, 0.013.
    words = inside = links = 0
    for line in lines:
        words += line.outside + line.inside
        inside += line.inside + (line.outside if _an_entry(line) else 0)
        links += line.links
    return words, inside, links


def _an_entry(line: _Line) -> bool:
    """Whether ``line`` is an index's entry: an item of a list or a table with a link to a
    place on a page (an ``#id``) and at most ``_ENTRY_WORDS`` words beside it, the kind of
    what it names or its name where the link names its place. A list of links to pages
    or files with a date beside each (lxml's "lxml 4.9.2, released 2022-12-13 (changes
    for 4.9.2)") is text. gtk-doc's API index writes "g_abort, macro in
    Miscellaneous Utility Functions" (two links), Doxygen's "SDL_NUM_SCANCODES :
    SDL_scancode.h" (the file linked at the entry)."""
    return line.item and line.places > 0 and line.outside <= _ENTRY_WORDS


def _own_line(line: _Line) -> bool:
    """Whether ``line`` of a list of links is text of its own, an intro's sentence: no item
    of a list or a table (an entry, a letter over entries, a column's head, whether or not
    it holds a link: Exim's option index names each option outside the links to its
    sections), with at least ``_SENTENCE_WORDS`` words outside links, more than inside them
    ("This documentation is also available in PDF and Epub formats."; not a caption over a
    list, Sphinx's "Get started", nor "Index pages by letter:"). A blank line stays as the
    paragraphs' separator."""
    if not line.text:
        return True
    return not line.item and line.outside >= _SENTENCE_WORDS and line.outside > line.inside


def _mark_top_level_ends(
    starts: list[LexborNode], headings: list[tuple[int, str, str | None]]
) -> None:
    """Marks where the element each later heading of ``starts`` of the first one's level
    or above (a second ``h1``; ``headings`` holds their levels) opens ends (``_SECTION_END``):
    it holds the headings after it of lower levels, but not past there
    (``_path_sections``). GNU Texinfo 6.8's Top node, ``<div class="top"><h1
    class="top">``, holds every chapter of an R manual, and the footnotes after it lie in
    the manual's title, not in its last chapter (R-admin's were titled "Environment
    variable index › (68)"). Read before the marks of the headings' places, which are text
    before each heading."""
    for number, heading in enumerate(starts[1:], 1):
        if heading.tag in _HEADING_TAGS and headings[number][0] <= headings[0][0]:
            element = _opened_element(heading)
            if element is not None:
                element.insert_after(f"\x00/{number}\x00")


def _section_texts(text: str) -> Iterator[tuple[int, str]]:
    """``text`` cut at its sections' start marks (``_SECTION_MARK``), one part at a time (a
    list of them was a second copy of the page's text): the text before the first mark
    (numbered -1), then each mark's number and the text after it."""
    number, start = -1, 0
    for mark in _SECTION_MARK.finditer(text):
        yield number, text[start : mark.start()]
        number, start = int(mark.group(1)), mark.end()
    yield number, text[start:]


def _path_sections(
    page: _MarkedPage, read: Callable[[str, bool], list[_Line]], *, titled: bool = False
) -> Iterator[tuple[tuple[str, ...], str | None, list[_Line]]]:
    """The sections of a page's text cut at its headings' marks (``_section_texts``), one
    at a time, each as its path of headings' titles (``page.headings``: level, text,
    anchor), its anchor and its lines read by ``read`` (told whether the text opens with
    its heading). A page ``titled`` by its ``<title>`` (``_titled_apart``) that opens with
    text is rooted there (``_TITLE_ROOT``), and its headings lie below it side by side by
    their levels."""
    ended: set[int] = set()  # the headings whose element ended in the text read so far

    def part_lines(part: str, headed: bool = True) -> list[_Line]:
        if "\x00" in part:  # an end mark (few parts hold one)
            ended.update(int(number) for number in _SECTION_END.findall(part))
            part = _SECTION_END.sub("", part)
        return read(part, headed)

    parts = _section_texts(page.text)
    opening = part_lines(next(parts)[1], headed=False)
    path: list[_Open] = [_TITLE_ROOT] if titled and any(line.text for line in opening) else []
    yield (), None, opening
    for number, part in parts:
        level, heading_text, anchor = page.headings[number]
        if ended:
            closed = next((at for at, open_ in enumerate(path) if open_.number in ended), None)
            if closed:
                del path[closed:]
            ended.clear()
        # The page's first heading stays the root of every path, even where later headings
        # are of its level (DocBook's reference pages: "SELECT", "Synopsis"); below it, a
        # heading lies in the nearest one before it of a higher level. Django's ref/urls.html
        # has two ``h1``: read at the root's level plus one, the second was closed by its own
        # first ``h2``, and ``static()`` was titled as a section of the first.
        while len(path) > 1 and path[-1].level >= level:
            path.pop()
        if anchor is None:
            # A heading the page gives no id: a link reaches it only through the section
            # around it, so that section's address is its address too; below the page's
            # title alone (DocBook's reference pages' "Synopsis") it is the page's own.
            anchor = next((o.anchor for o in reversed(path[1:]) if o.anchor is not None), None)
        # A later top-level heading that repeats the page's title (GNU Texinfo's Top node
        # under the manual's title: "R FAQ", then "R FAQ" around every chapter) is that
        # title again, no line of the paths below it.
        shown = not path or level > path[0].level or heading_text != path[0].heading
        path.append(_Open(number, level, heading_text, anchor, shown))
        titles = tuple(open_.heading for open_ in path if open_.shown)
        yield titles, anchor, part_lines(part)


def _opened_element(heading: LexborNode) -> LexborNode | None:
    """The outermost element ``heading`` opens (nothing with text before it there, but
    navigation bars: ``_opens``), at most ``_WALK`` steps up, when it holds a word after
    the heading; else None (a heading standing in the text, or in a wrapper of its own)."""
    opened = list(_elements_opened(heading))
    node = opened[-1] if opened else heading
    inner = heading
    while inner.mem_id != node.mem_id and inner.parent is not None:
        # The first sibling after it with a word ends the search: a page of long sections
        # reads one paragraph (or one subsection) per heading, not the whole section.
        for sibling in _after(inner):
            if sibling.tag != "-comment" and _WORD.search(str(sibling.text(deep=True))):
                return node
        inner = inner.parent
    return None


def _boxed_headings(content: LexborNode) -> set[int]:
    """The headings that title a note, tip or sidebar box inside ``content`` ("Tip" in
    DocBook's, no id of their own): they belong to the section around the box (or to a
    theme's sidebar). A heading with an id of its own inside a box (MkDocs's "block" boxes
    of nested settings) is a section a link can reach, and an ``h1`` is a page's title
    whatever wraps it."""
    boxed = {
        heading.mem_id
        for heading in content.css(_BOXED_HEADINGS)
        if heading.tag != "h1" and not heading.id and heading.css_first("[id], a[name]") is None
    }
    for heading in content.css(f"{_ANY_HEADING}:not(h1)"):
        if heading.mem_id not in boxed and _titles_a_box(heading):
            boxed.add(heading.mem_id)
    return boxed


def _titles_a_box(heading: LexborNode) -> bool:
    """Whether ``heading`` titles a box of any class (Apache's ``div.example``): no id
    names its place (``_anchor_candidates``), it opens elements that hold no other
    heading, and the text after the outermost of them, before any heading, is a
    paragraph, list, table or code block of the section around the box. Read as a
    section, the box's heading took that text too: most of a directive's description
    cited as its "Example"."""
    if not _opens(heading):
        # Standing in the text, it opens no box (the walk below stops at once): read first,
        # it spares the anchors of such a heading, 0.03 s of a page of 20,000 sections.
        return False
    if _anchor_candidates(heading):
        return False  # a place a link reaches: a section (DocBook's titlepage in its sect1)
    box = None
    node = heading
    for _ in range(_WALK):
        parent = node.parent
        if parent is None or parent.tag in {"body", "html"} or not _opens(node) or parent.id:
            break
        if sum(1 for _ in parent.css(_ANY_HEADING)) > 1:
            break
        box = node = parent
    return box is not None and _text_resumes_after(box)


def _text_resumes_after(box: LexborNode) -> bool:
    """Whether what follows ``box``, before any heading, is text of the section around it:
    a paragraph, list, table or code block, or a ``div`` opening with one (a note's text, an
    entry's block, its first line its signature), past boxes of the same shape beside it
    (``_a_box``). Apache's manual puts two example boxes side by side, then a note: read
    apart, the first box's heading took the second box, and the second's the note. Where
    the box closes an entry's block (a ``div`` without an id, opening with its text), what
    follows that block follows the box: Haddock closes each declaration's block with its
    box of instances, ``<div class="subs instances"><h4>Instances</h4>``, and the next
    declaration opens its own block. Read as a section, each box's heading took every
    declaration up to the next group's heading: 152 of the 468 of aeson's modules were
    cited as the "Instances" of the type before them."""
    node, climbed = box, False
    for _ in range(_WALK):
        sibling = _next_written(node)
        if sibling is not None:
            if _a_box(sibling):
                node = sibling
                continue
            return _opens_with_text(sibling)
        parent = node.parent
        if climbed or parent is None or parent.tag != "div" or parent.id:
            return False
        first = _first_written(parent)
        if first is None or first.mem_id == node.mem_id or not _opens_with_text(first):
            return False
        node, climbed = parent, True
    return False


def _a_box(node: LexborNode) -> bool:
    """Whether ``node`` is a ``div`` opening with a heading that no id names, and holding
    no other heading."""
    if node.tag != "div":
        return False
    first = _first_written(node)
    return (
        first is not None
        and first.tag in _HEADING_TAGS
        and not _anchor_candidates(first)
        and sum(1 for _ in node.css(_ANY_HEADING)) == 1
    )


def _opens_with_text(node: LexborNode) -> bool:
    """Whether ``node`` is a block of text holding no heading, or a ``div`` that opens with
    one, at most ``_WALK`` steps down."""
    for _ in range(_WALK):
        if node.tag in _RESUMING_BLOCKS:
            return node.css_first(_ANY_HEADING) is None
        if node.tag != "div":
            return False
        child = _first_written(node)
        if child is None:
            return False
        node = child
    return False


def _next_written(node: LexborNode) -> LexborNode | None:
    """The sibling after ``node`` that holds a word, past comments and blank elements and
    text, at most ``_WALK`` of them (None past that, or where there is none): a box's
    heading asks this of each sibling after it, and a page of 100,000 blank siblings would
    cost each heading all of them."""
    return _written_from(node.next)


def _first_written(node: LexborNode) -> LexborNode | None:
    """``node``'s first child that holds a word, as ``_next_written`` finds it."""
    return _written_from(node.child)


def _written_from(sibling: LexborNode | None) -> LexborNode | None:
    for _ in range(_WALK):
        if sibling is None:
            return None
        if sibling.tag != "-comment" and str(sibling.text(deep=True)).strip():
            return sibling
        sibling = sibling.next
    return None


def _follows_a_term(term: LexborNode) -> bool:
    """Whether ``term`` comes right after another term of the glossary (blank text and
    comments aside): the terms of one entry, which share its description. SQLAlchemy's
    glossary writes ``<dt id="term-DBAPI">DBAPI</dt><dt id="term-pep-249">pep-249</dt><dd>``
    (28 of its 75 entries have several terms); read as entries of their own, every term but
    the last was a section of its name alone, left out, and the entry was cited at its last
    term's id and named by it. The entry is at its first term's id, with every term in its
    text."""
    sibling = _previous_written(term)
    return sibling is not None and sibling.tag == "dt" and sibling.css_matches(_GLOSSARY_TERMS)


def _previous_written(node: LexborNode) -> LexborNode | None:
    """The sibling before ``node``, past comments and blank text, within ``_WALK`` of them
    (None past that or where there is none)."""
    sibling = node.prev
    for _ in range(_WALK):
        if sibling is None:
            return None
        if sibling.tag == "-comment" or (
            sibling.tag == "-text" and not str(sibling.text_content or "").strip()
        ):
            sibling = sibling.prev
            continue
        return sibling
    return None


def _term_anchor(term: LexborNode) -> str | None:
    """The term's own id, else its marker's (AsciiDoc's)."""
    if term.id:
        return str(term.id)
    marker = term.css_first("a[id]")
    return str(marker.id) if marker is not None and marker.id else None


def _lines(
    raw: str,
    codes: list[str],
    chrome: frozenset[str],
    prose_lines: set[str] | None,
    headed: bool = False,
) -> list[_Line]:
    """The lines of one section's text, its lines of ``chrome`` left out but for its
    heading's (the first with text, when ``headed``), each with the words of its links
    counted; ``prose_lines`` gathers its lines not code."""
    # A line break in the page's source is a space, as a browser shows it; only the ends
    # of blocks (marked above) end lines.
    lines = [line.strip() for line in _WHITESPACE.sub(" ", _LINE_MARKS.sub("", raw)).split("\x02")]
    marked = raw.split("\x02")  # the same lines, their links marked
    counted: list[_Line] = []
    within = False  # a link may hold blocks, and run on from one line to the next
    for line, marks in zip(lines, marked, strict=True):
        if not marks or marks.isspace():
            # The blank lines between blocks, three in five of a page of one-line sections'
            # lines, were read piece by piece as any other: with the code marks and the
            # keys below read only where there are some to read, the lines of a page of
            # 20,000 such sections took 0.21 s, now 0.085 s.
            counted.append(_BLANK_LINE)
            continue
        if within or _MARKED.search(marks):
            outside, inside, plain, within = _marked_words(marks, codes, within)
        else:
            # Text alone outside links, as most lines are: one piece, nothing to split or put
            # back (0.082 s to 0.074 s for the lines of a page of 20,000 one-line sections).
            outside, inside, plain = len(_WORD_TOKEN.findall(marks)), 0, True
        heading = headed and bool(line)
        if line:
            headed = False
            # Keyed only where a key is asked for: a page of a site with no chrome learned
            # and no lines gathered (most pages of a small site) asks for none.
            if chrome or prose_lines is not None:
                key = _chrome_line_key(line, linked=not plain)
                if prose_lines is not None and "\x01" not in line and _may_be_chrome(line):
                    prose_lines.add(key)
                if not heading and key in chrome:
                    continue
        links = marks.count(_LINK_START)
        places = marks.count(_PLACE_MARK)
        counted.append(_Line(line, outside, inside, links, _ITEM_MARK in marks, places))
    return counted


def _marked_words(marks: str, codes: list[str], within: bool) -> tuple[int, int, bool, bool]:
    """The words of a line's text ``marks`` outside and inside its links, its code blocks'
    put back (``codes``), whether a character of it lies outside its links, and whether
    it ends inside a link (``within``: whether it opens inside one)."""
    words = [0, 0]
    plain = False
    for piece in _LINK_MARKS.split(marks.replace(_ITEM_MARK, "").replace(_PLACE_MARK, "")):
        if piece in (_LINK_START, _LINK_END):
            within = piece == _LINK_START
        else:
            code = piece
            if "\x01" in piece:
                code = _CODE_MARK.sub(lambda match: codes[int(match.group(1))], piece)
            words[within] += len(_WORD_TOKEN.findall(code))
            plain = plain or (not within and bool(piece.strip()))
    return words[0], words[1], plain, within


def _joined(lines: list[_Line], codes: list[str]) -> str:
    """The text of ``lines``, their code blocks put back."""
    text = _BLANK_LINES.sub("\n\n", "\n".join([line.text for line in lines])).strip()
    if "\x01" not in text:
        return text  # no code block
    return _CODE_MARK.sub(lambda match: codes[int(match.group(1))], text)


def _chrome_line_key(line: str, linked: bool) -> str:
    """``line`` as pages are compared (``chrome_key``), marked when it is all link text: a
    line is chrome only where it stands as chrome stands on the other pages. lxml's pages each
    hold a side menu of every page's sections, a link each; learned as bare lines, the menu's
    "RelaxNG" and "XSLT" took the FAQ's list of the standards lxml implements, items of plain
    text, with them. A footer's plain line is still compared as a plain line."""
    return _LINK_START + chrome_key(line) if linked else chrome_key(line)


def chrome_key(line: str) -> str:
    """A line as pages are compared: its numbers masked, so "Last updated on 2024-05-31"
    on one page and "... 2023-01-02" on another are the same line of chrome."""
    # One scan in C: the test of each character for a digit first, a generator in Python,
    # was a third of the largest page's reading (7 million steps for a 4 MB page).
    return _DIGITS.sub("0", line)


def _may_be_chrome(line: str) -> bool:
    """Whether ``line`` may be learned as a line of the site's chrome: any but a line of
    numbers (a digit and no letter), which is a table's cell, a note's label or a date,
    whatever the other pages hold. Docutils' pages each show their revision number alone
    in a cell: masked, "0" was a repeated line, and every cell of the site holding only a
    number was dropped (the 34 priorities of its transforms, the levels of LaTeX's section
    headings); compared unmasked, "(1)" to "(4)", the first footnotes' labels of most of
    the seven R manuals, still were. A line of signs alone is still learned: Texinfo's bar
    cells "[ << ]" and "[ ? ]" end every page of the Z Shell Manual."""
    return _LETTER.search(line) is not None or not any(c.isdigit() for c in line)


def _linked_ids(content: LexborNode) -> frozenset[str]:
    """The ids the page's own in-page links point at."""
    found = set()
    for link in content.css('a[href^="#"]'):
        href = str(link.attributes.get("href") or "")
        if len(href) > 1:
            found.add(href[1:])
            found.add(_fragment_id(href))
    return frozenset(found)


def _anchor(heading: LexborNode, linked: frozenset[str]) -> str | None:
    """The id a link to this heading's section uses: of the ids that name the place (the
    heading's own, an empty marker inside it, an old ``<a name>``, the element the heading
    opens, the element around it its permalink names, the run of empty markers just before
    it), the first the page links to, else the first. Of the run, an id the page links to
    (a label's ``<span id>``) names its own place, the nearest to the heading first, as it
    did before ``<a name>`` was read; else a run counts as one place, named by its first
    marker: each of its names reaches the same point, and generators write the author's
    name first and their own serial one after (texi2html 1.78: the Texinfo node's ``<a
    name="po_002fLINGUAS">``, then ``<a name="SEC235">``). The node's name is the one other
    sites link to and the one that survives a new release, where the serial numbers shift;
    the manual's own cross-references use the serial one (gettext 0.21: 2,326 of its links,
    none to a node's name), which is why a link to any name of the run chooses the run."""
    own = _own_anchor_candidates(heading)
    for candidate in own:
        if candidate in linked:
            return candidate
    run = _place_run(heading, own)
    # A label's id in the run names a place of its own, the nearest the page links to:
    # Django's theme writes ``<span id="s-std-setting-ALLOWED_HOSTS"></span><span
    # id="allowed-hosts"></span><span id="std-setting-ALLOWED_HOSTS"></span><h3>``, its
    # "s-" copy of each label first, and the page links the label and the section's id.
    for marker in reversed(run):
        if marker.id and str(marker.id) in linked:
            return str(marker.id)
    before = [str(_marker_name(marker)) for marker in run]
    if before and (not own or not linked.isdisjoint(before)):
        return before[0]
    return own[0] if own else None


def _anchor_candidates(heading: LexborNode) -> list[str]:
    """Every id a link to ``heading``'s place may use (``_anchor``)."""
    own = _own_anchor_candidates(heading)
    return [*own, *(str(_marker_name(marker)) for marker in _place_run(heading, own))]


def _own_anchor_candidates(heading: LexborNode) -> list[str]:
    """The ids on ``heading``, inside it, on the elements it opens and on the element
    around it that its own permalink names."""
    candidates: list[str] = []
    if heading.id:
        candidates.append(str(heading.id))
    # The queries find ``heading`` itself, where it matches, in a heading of text alone.
    inner = not holds_no_element(heading)
    marker = heading.css_first("[id]") if inner else heading
    if marker is not None and marker.id:
        candidates.append(str(marker.id))
    # DocBook XSL's older output (git's user manual) names the place with <a name>.
    named = heading.css_first("a[name]") if inner else heading if heading.tag == "a" else None
    if named is not None and str(named.attributes.get("name") or "").strip():
        candidates.append(str(named.attributes["name"]).strip())
    # The elements the heading opens: each ancestor in which nothing with text comes
    # before it (Sphinx's <section id>, DocBook's sect1 around its titlepage).
    node = heading
    for _ in range(_WALK):
        parent = node.parent
        if parent is None or parent.tag in {"body", "html"} or not _opens(node):
            break
        if parent.id:
            candidates.append(str(parent.id))
        node = parent
    # The element around the heading that its own permalink names, though text comes
    # before the heading in it: SQLAlchemy's dialect pages write ``<section
    # id="dialect-postgresql">``, two paragraphs and a table, then ``<h2>DBAPI Support<a
    # class="headerlink" href="#dialect-postgresql">``; the heading was cited at the page's
    # own address, which the page's title has.
    target = str(heading.attributes.get(_PERMALINK_TARGET) or "")
    if target and target not in candidates:
        node = heading
        for _ in range(_WALK):
            parent = node.parent
            if parent is None or parent.tag in {"body", "html"}:
                break
            if parent.id and str(parent.id) == target:
                candidates.append(target)
                break
            node = parent
    return candidates


def _place_run(heading: LexborNode, own: list[str]) -> list[LexborNode]:
    """The run of empty markers that names ``heading``'s place (``_marker_run``); for a
    heading with no id of its own (``own``) and no run, the run before the element it
    opens (``_opened_marker_run``)."""
    return _marker_run(heading) or ([] if own else _opened_marker_run(heading))


def _marker_run(heading: LexborNode) -> list[LexborNode]:
    """The run of empty markers just before ``heading`` (nothing but white space between
    them), in document order, at most ``_MARKER_RUN`` of them: Sphinx's ``<span id>`` for a
    label, a theme's ``<a id>``, the "s-" prefixed sections some themes write around it, and
    the ``<a name>`` of HTML 4's generators (texi2html, YODL). An element holding nothing
    but such markers is passed through: YODL writes ``<p><a name="l19"></a><h2>``, and the
    parser closes that ``p`` around the marker."""
    found: list[LexborNode] = []
    sibling = heading.prev
    while sibling is not None and len(found) < _MARKER_RUN:
        if sibling.tag == "-text" and not str(sibling.text_content or "").strip():
            sibling = sibling.prev  # the parser merges adjacent text: one between markers
            continue
        inside = [sibling] if _empty_marker(sibling) else _markers_only(sibling)
        if not inside:
            break
        found.extend(reversed(inside))
        sibling = sibling.prev
    found.reverse()
    return found


def _opened_marker_run(heading: LexborNode) -> list[LexborNode]:
    """The run of empty markers just before the nearest element ``heading`` opens
    (``_opens``) that has one. Read only for a heading no id names otherwise: javadoc
    (JDK 8 to 11) writes each member's ``<a id="parse(java.lang.String)"></a>`` before the
    list its ``<ul class="blockList"><li class="blockList"><h4>`` opens, and every member of
    a class was cited at its "Field Detail" or "Method Detail" heading (13 of 13 on
    argparse4j's ``ArgumentParsers.html``)."""
    for element in _elements_opened(heading):
        run = _marker_run(element)
        if run:
            return run
    return []


def _elements_opened(heading: LexborNode) -> Iterator[LexborNode]:
    """The elements ``heading`` opens (``_opens``: nothing with text before it there, but
    navigation bars), innermost first, at most ``_WALK`` of them, below ``body``."""
    node = heading
    for _ in range(_WALK):
        parent = node.parent
        if parent is None or parent.tag in {"body", "html"} or not _opens(node):
            return
        node = parent
        yield node


def _markers_only(node: LexborNode) -> list[LexborNode]:
    """The empty markers (``_marker_name``) that ``node``'s children are, in document order,
    when it holds nothing else but white space (at most ``_MARKER_RUN`` of them are read);
    else none."""
    if node.tag in {"-text", "-comment"} or str(node.text(deep=True)).strip():
        return []
    markers: list[LexborNode] = []
    for child in node.iter(include_text=True):
        if len(markers) >= _MARKER_RUN:
            return []
        if child.tag == "-text":
            continue  # blank: the node holds no text
        if not _empty_marker(child):
            return []
        markers.append(child)
    return markers


def _marker_name(node: LexborNode) -> str | None:
    """The name of ``node`` when it is an empty ``span`` or ``a`` that names a place a link
    lands on: its id, else an ``<a>``'s ``name`` (HTML 4's anchor, which texi2html 1.78
    writes before every heading of the GNU gettext manual, and YODL before every answer of
    the Z Shell FAQ); else None."""
    if node.tag not in {"span", "a"} or str(node.text()).strip():
        return None
    if node.id:
        return str(node.id)
    if node.tag == "a":
        name = str(node.attributes.get("name") or "").strip()
        return name or None
    return None


def _empty_marker(node: LexborNode) -> bool:
    """Whether ``node`` is an empty marker of a place a link lands on (``_marker_name``)."""
    return _marker_name(node) is not None


def _opens(node: LexborNode) -> bool:
    """Whether nothing with text comes before ``node`` in its parent, but, before a
    heading, its navigation bars (``_bars_before``)."""
    return _bars_before(node) is not None


def _bars_before(node: LexborNode, *, of_any: bool = False) -> list[LexborNode] | None:
    """When nothing with text comes before ``node`` in its parent but navigation bars
    (``_navigation_only``) just before a heading, those bars; else None. GNU Texinfo
    opens each section's element (``<div class="section" id="Multios">``) with its bar,
    then the heading: the bar is chrome, and the element's id the section's address. Only
    a heading's own bars count: a list of links between a heading and the subsections of
    its section (git's "Table of contents", a chapter's list of its pages) is its text.
    ``of_any``: bars before any element count (the page's first heading's, ``_page_bars``,
    which may stand before an element around it), and so does a line of links loose there
    (``_navigation_line``)."""
    bars: list[LexborNode] = []
    sibling = node.prev
    walked = run = 0  # siblings passed, and of them blank text or markers (``_marker_run``)
    while sibling is not None:
        line = loose_line(sibling) if of_any else []
        if sibling.tag != "-comment" and len(line) > 1 and _navigation_line(line):
            # An empty marker in the line names the heading's place: it stays.
            bars.extend(piece for piece in line if not _empty_marker(piece))
            walked += 1
            sibling = line[0]
        elif sibling.tag != "-comment" and str(sibling.text(deep=True)).strip():
            if not (of_any or node.tag in _HEADING_TAGS) or not _navigation_only(sibling):
                return None
            bars.append(sibling)
            walked += 1
        elif sibling.tag == "-text" or _empty_marker(sibling):
            run += 1
        else:
            walked += 1
        if walked >= _WALK or run >= _MARKER_RUN:
            return None
        sibling = sibling.prev
    return bars


def _own_bars(heading: LexborNode) -> list[LexborNode]:
    """The navigation bars that are ``heading``'s own: those that open its parent
    (``_bars_before``), else those between it and the empty marker of its place
    (``_empty_marker``) after the text before it. GNU Texinfo 6.8 writes an unnumbered
    node in the middle of its parent's section, ``<hr><span id="Creating-Internationalized-
    Scripts"></span><div class="header">`` (its bar) ``<h4>``: kept as text, the bar ended
    the section before and hid the marker, so that the Bash manual's node was cited at its
    parent's address. A bar before the marker stands at the place before it: its text."""
    bars: list[LexborNode] = []
    owned = 0  # how many of ``bars`` (nearest first) lie after the furthest marker passed
    sibling = heading.prev
    for _ in range(_WALK):
        if sibling is None:
            return bars
        if sibling.tag != "-comment" and str(sibling.text(deep=True)).strip():
            if not _navigation_only(sibling):
                break
            bars.append(sibling)
        elif _empty_marker(sibling):
            owned = len(bars)
        sibling = sibling.prev
    return bars[:owned]


def _page_bars(content: LexborNode, boxed: set[int]) -> list[LexborNode]:
    """The navigation bars (``_navigation_only``) that are all that comes before the page's
    first heading in ``content``, beside it or beside an element around it (at most
    ``_WALK`` levels up to ``content``, each read by ``_bars_before``, past blank text,
    comments, rules and empty markers); none when anything else with text comes first.
    gtk-doc opens every page with ``<table class="navigation">``, "Top | Description |
    Object Hierarchy" and its Home, Up, Prev and Next icons, beside the ``div.refentry``
    that holds the page's title six elements down; DocBook XSL's generator meta reads the
    page whole, and the bar was the page's first section, titled by ``<title>`` and at the
    page's address, its title a section below it: 76 of GLib's 115 pages and 31 of
    libsoup's 55 (the index's "A | B | C" bar too). texi2html 1.78 opens each of GNU
    gettext's chapters with its bar, a rule and two ``<a name>`` markers before the
    ``h1``."""
    bars: list[LexborNode] = []
    node = _first_heading(content, boxed)
    for _ in range(_WALK):
        if node is None or node.mem_id == content.mem_id:
            return bars
        found = _bars_before(node, of_any=True)
        if found is None:
            return []
        bars.extend(found)
        node = node.parent
    return []


def _navigation_only(node: LexborNode) -> bool:
    """Whether ``node`` is a bar of links with hardly a word outside them: at least
    ``_BAR_LINKS`` links, and no more words outside them than links (a label each):
    texi2html's ``table.header`` ("[ << ] [ < ] [ Up ] ... [Index] [ ? ]") holds nine links
    and no word outside them, texi2any 7's ``nav-panel`` ("Next: X, Previous: Y, Up: Z
    [Contents]") four links and three labels, YODL's (the zsh FAQ's) list three links and
    nothing else; a sentence that links two pages says more ("see X and Y for details")."""
    if node.tag in _HEADING_TAGS or node.tag in {"-text", "-comment", "pre"}:
        return False
    if holds_no_element(node):
        return False  # at most one link, itself: fewer than ``_BAR_LINKS``
    links = node.css("a[href]")
    if len(links) < _BAR_LINKS or node.css_first(_HEADINGS) is not None:
        return False
    return _words_outside(node, links) <= len(links)


def _navigation_line(line: list[LexborNode]) -> bool:
    """Whether ``line``, a run of text and links loose in its parent (``loose_line``), is a
    bar of links as ``_navigation_only`` reads an element. groff's HTML output opens each page
    with one in the body itself, "[ prev | next | top ]" between two rules: read piece by
    piece, its "]" was text before the first heading, and 23 of the 24 pages of groff 1.22's
    pic manual opened with a section of its links, titled by the file's name."""
    links = [link for node in line if node.tag != "-text" for link in node.css("a[href]")]
    if len(links) < _BAR_LINKS:
        return False
    if any(node.tag != "-text" and node.css_first(_HEADINGS) is not None for node in line):
        return False
    words = sum(_word_count(node) for node in line)
    return words - sum(_word_count(link) for link in links) <= len(links)


def _words_outside(node: LexborNode, links: list[LexborNode]) -> int:
    """How many of ``node``'s words (``_word_count``) are not in its ``links``."""
    return _word_count(node) - sum(_word_count(link) for link in links)


def _text_of(node: LexborNode | None) -> str:
    """``node``'s text on one line, as a browser shows it: inline elements run on, and
    only a block's boundaries (``_BLOCK_TAGS``) put a space between words. (Joining every
    text node with a space titled Rust by Example's page "Box ing errors".) The walk keeps
    its own stack, so a deep page costs no recursion."""
    if node is None:
        return ""
    child = node.child
    if child is None or (child.next is None and child.tag == "-text"):
        # Text alone, as most headings are: the walk below took 1.0 us for it, this 0.4.
        text = "" if child is None else str(child.text_content or "")
        return _WHITESPACE.sub(" ", text).strip()
    pieces: list[str] = []
    stack = [(node, node.iter(include_text=True))]
    while stack:
        parent, children = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
            if parent.tag in _BLOCK_TAGS:
                pieces.append(" ")
            continue
        if child.tag == "-text":
            pieces.append(str(child.text_content or ""))
        elif child.tag != "-comment":
            if child.tag in _BLOCK_TAGS:
                pieces.append(" ")
            stack.append((child, child.iter(include_text=True)))
    return _WHITESPACE.sub(" ", "".join(pieces)).strip()


def _canonical_url(tree: LexborHTMLParser) -> str | None:
    link = tree.css_first('link[rel="canonical"][href]')
    if link is not None and (link.attributes.get("href") or "").strip():
        return str(link.attributes["href"]).strip()
    meta = tree.css_first('meta[property="og:url"][content]')
    if meta is not None and (meta.attributes.get("content") or "").strip():
        return str(meta.attributes["content"]).strip()
    return None
