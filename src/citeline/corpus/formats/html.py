"""HTML: the visible text without markup, scripts, styles or navigation.

The title is ``<title>``, else the first heading, else the file's name; the url is the
canonical link (``<link rel="canonical">`` or ``og:url``) when the page names one. ``id`` is
the path relative to the ingest root without its extension. Block elements end lines so
paragraphs stay apart; runs of spaces collapse. It deliberately does not render CSS, so text
hidden by a style sheet is still text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from selectolax.lexbor import LexborHTMLParser, LexborNode

from citeline.corpus.documents import Document
from citeline.corpus.formats.rejected import Rejected

_NOT_CONTENT = (
    "script, style, noscript, template, svg, iframe, nav, header, footer, aside, form, "
    "[role=navigation], [role=banner], [role=contentinfo], [hidden]"
)
_BLOCKS = (
    "address, article, blockquote, br, dd, div, dl, dt, figcaption, figure, h1, h2, h3, h4, "
    "h5, h6, hr, li, main, ol, p, pre, section, table, td, th, tr, ul"
)
_PARAGRAPH_BLOCKS = {"p", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote", "table", "ul"}
_SPACES = re.compile(r"[ \t\r\f\v\u00a0]+")
_BLANK_LINES = re.compile(r"\n\s*\n\s*")


def read(source: str, default_id: str) -> Iterator[Document | Rejected]:
    tree = LexborHTMLParser(source)
    title = _text_of(tree.css_first("title"))
    url = _canonical_url(tree)
    for node in tree.css(_NOT_CONTENT):
        node.decompose()
    if not title:
        title = _text_of(tree.css_first("h1, h2, h3, h4, h5, h6"))
    root = tree.body or tree.root
    if root is None:
        yield Rejected("it has no HTML body; check that it is an HTML page")
        return
    for node in root.css(_BLOCKS):
        node.insert_after("\n\n" if node.tag in _PARAGRAPH_BLOCKS else "\n")
    raw = root.text(separator="", strip=False)
    lines = (_SPACES.sub(" ", line).strip() for line in raw.split("\n"))
    text = _BLANK_LINES.sub("\n\n", "\n".join(lines)).strip()
    yield Document(
        id=default_id,
        title=title or default_id.rsplit("/", 1)[-1],
        text=text,
        url=url,
    )


def _text_of(node: LexborNode | None) -> str:
    if node is None:
        return ""
    return _SPACES.sub(" ", str(node.text(separator=" ", strip=True))).strip()


def _canonical_url(tree: LexborHTMLParser) -> str | None:
    link = tree.css_first('link[rel="canonical"][href]')
    if link is not None and (link.attributes.get("href") or "").strip():
        return str(link.attributes["href"]).strip()
    meta = tree.css_first('meta[property="og:url"][content]')
    if meta is not None and (meta.attributes.get("content") or "").strip():
        return str(meta.attributes["content"]).strip()
    return None
