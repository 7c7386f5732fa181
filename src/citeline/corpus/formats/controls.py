"""A reference page's controls: the links and marks that act on the page, not text of it.

API generators write their buttons among an entry's words, and read as text they end its
heading or its paragraphs ("pub fn keys(&self) -> Keys<'_, K, V>ⓘ", "Returns a copy of the
value. Read more", "1.0.0 · source · [\u2212]"). Each control is found here by what it does,
never by a class or a word list:

- a link, labelled with a word or two outside any sentence, to a line of a source listing
  (``#42``, ``#L42``, ``#10-20``, Doxygen's ``#l00042``) or into the folder a generator
  keeps its listings in (``_modules/``): rustdoc's "source", Node.js' "[src]", Sphinx's
  "[source]";
- a ``javascript:`` link of a few words (rustdoc's bracketed minus sign that folds the
  page's entries, "collapse", "expand");
- a link that runs the code block before it, its address carrying that code (rustdoc's
  "Run", to the playground with ``code=`` the example);
- a tooltip's mark: a sign alone (rustdoc's "ⓘ") that holds a tooltip, leads nowhere, or
  stands alone just before a code block (an example that panics or does not compile);
- a ``<summary>`` whose words most pages of the site repeat (``labels``, learned by ``site``
  from ``summary_labels``: rustdoc's "Expand description");
- a link of a few words ending its paragraph that leads where the heading above it links
  (rustdoc's "Read more" to the trait's method);
- a link of a few words ending its paragraph that leads to a later place on the page saying
  that paragraph again, in full (Doxygen's "More..." to the detailed description), or,
  after a sentence, where the entry just before its paragraph links: that entry's place,
  or the page it names (Doxygen's "More..." after a brief line, from a namespace's or a
  file's table of classes to each class's page).

A separator left beside a control with nothing to separate ("·", "|") goes with it. This
module only reads and clears the controls of content the HTML reader has found; it does not
decide what the content is.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator
from urllib.parse import parse_qsl, unquote

from selectolax.lexbor import LexborNode

from citeline.corpus.formats.nodes import holds_no_element, words_in

# A tooltip's own text, shown while the pointer rests on its mark (WAI-ARIA's, and the
# ``tooltiptext`` class of the common CSS recipe): chrome wherever it is (the HTML reader's).
TOOLTIPS = "[role=tooltip], [class*=tooltiptext]"
_HEADINGS = "h1, h2, h3, h4, h5, h6"
_HEADING_TAGS = frozenset(_HEADINGS.split(", "))
# The links inside a heading: the names of its signature, which is no control's place (but
# a link to a listing's line: Node.js' "[src]" after a class's name). (lexbor reads
# ``:is(a, b) c`` wrongly past a child, and ``c:is(a *, b *)`` rightly.)
_IN_HEADINGS = f"a[href]:is({', '.join(f'{heading} *' for heading in sorted(_HEADING_TAGS))})"
# The most words a control's label holds: "[src]", "Read more", "More...", "collapse all".
_CONTROL_WORDS = 3
# The most words a link to a listing's line holds as a label ("source", "[src]"); a link of
# more, or with a digit, names what it points at (Doxygen's "Definition at line 54",
# "SDL_stdinc.h:226").
_SOURCE_WORDS = 2
# A fragment naming a line, or a range of lines, of a listing: rustdoc's ``#523`` and
# ``#333-341``, GitHub's ``#L178`` and ``#L10-L20``, Doxygen's ``#l00054``.
_LINE_FRAGMENT = re.compile(r"[lL]?\d+(?:-[lL]?\d+)?")
# What an address to a listing holds: a line's fragment, or a folder named with "_" first.
_MAY_BE_LISTING = re.compile(r"#[lL]?\d+(?:-[lL]?\d+)?$|(?:^|/)_[^/]*/")
# A label: words of letters only, bracketed or not ("source", "[src]", "Source").
_LABEL = re.compile(r"\[?\s*[^\W\d_]+(?:\s+[^\W\d_]+)?\s*\]?")
# Where a link stands inside a sentence, not beside one: a control labelled with a word is
# never there (measured over Debian's documentation packages: the links to a listing's
# line written in a paragraph say "this", "edge cases", "the old docs").
_PROSE = frozenset(["p", "li", "pre", "code", "blockquote"])
# The signs a control leaves between its neighbours: rustdoc's "1.0.0 · source" and toggle.
_SEPARATOR = re.compile(r"\s*[·|•]\s*")
_WORD = re.compile(r"\w")
_LETTER = re.compile(r"[^\W\d_]")
_WORD_RUN = re.compile(r"\w+")
# Steps any walk up the tree, or back along siblings, takes at most (the reader's bound).
_WALK = 8
# The fewest words of the paragraph before a "More..." link that its target must repeat:
# a sentence, not a word that any text may hold ("See").
_SAID_WORDS = 3
# What ends a sentence: the words before a "More..." to the entry before it end one.
_SENTENCE_STOPS = (".", "!", "?")
# The most levels up from a link's block to the element whose sibling before it is the
# entry the link says more of: Doxygen's brief line is a cell (1), in the row (2) after
# the row of its name.
_ENTRY_LEVELS = 3
# The shortest line of a code block that a link's address must carry to run that block.
_CODE_LINE = 4
# The most characters a summary that is a label holds ("Expand description", "show/hide
# answer"); rustdoc's summaries that hold an entry's signature are longer, and no two alike.
_LABEL_CHARACTERS = 80


def summary_labels(body: LexborNode) -> frozenset[str]:
    """The words of each ``<summary>`` of ``body`` that is a label (``_label``): what a
    site's pages are compared by."""
    return frozenset(text for summary in body.css("summary") if (text := _label(summary)))


def _label(summary: LexborNode) -> str:
    """The words of ``summary`` when it labels its box: no heading in it (rustdoc titles
    each method's box with its signature's heading, and the trait methods every type
    implements, "fn type_id(&self) -> TypeId", stand on most of its pages alike), and at
    most ``_LABEL_CHARACTERS``; else ""."""
    text = _flat(summary)
    if len(text) > _LABEL_CHARACTERS or summary.css_first(_HEADINGS) is not None:
        return ""
    return text


def clear_tooltip_marks(content: LexborNode) -> None:
    """Drops the marks of ``content``'s tooltips (``_tooltip_marks``): read while the
    tooltips they hold are there, before the reader drops those as chrome."""
    _clear(content, _tooltip_marks(content))


def clear_controls(content: LexborNode, labels: frozenset[str], page: str) -> None:
    """Drops the other controls of ``content`` (the module's list), ``labels`` being the
    summary labels most of the site's pages repeat, and ``page`` the page's path in the
    site (a link may name its own page before the ``#``)."""
    _clear(content, _controls(content, labels, page))


def _clear(content: LexborNode, controls: Iterable[LexborNode]) -> None:
    """Drops ``controls`` (the outermost of them, each once), and the separators beside
    them, each left as a space."""
    found: dict[int, LexborNode] = {}
    for node in controls:
        found.setdefault(node.mem_id, node)
    outermost = [node for node in found.values() if not _inside_any(node, found, content)]
    separators: dict[int, LexborNode] = {}
    for node in outermost:
        for sibling in (node.prev, node.next):
            if sibling is not None and sibling.tag == "-text" and _separator(sibling):
                separators.setdefault(sibling.mem_id, sibling)
    for separator in separators.values():
        separator.replace_with(" ")
    for node in outermost:
        node.decompose()


def _controls(content: LexborNode, labels: frozenset[str], page: str) -> Iterator[LexborNode]:
    """The controls of ``content`` but tooltips' marks, read in one pass in document order
    (each link beside the last heading and code block before it); each link is judged by
    its address first, which costs least, and its words only where its address may be a
    control's. The links of a heading are names of its signature, or a link to a listing's
    line (Node.js' "[src]" after a class's name)."""
    headed: set[int] = set()
    for link in content.css(_IN_HEADINGS):
        headed.add(link.mem_id)
        href = str(link.attrs.get("href") or "").strip()
        if _MAY_BE_LISTING.search(href) and _source_link(href, _flat(link)):
            yield link
    own = page.rsplit("/", 1)[-1]
    in_page: list[tuple[LexborNode, str, str]] = []  # (link, its target, the words before it)
    heading: LexborNode | None = None
    named: frozenset[str] = frozenset()  # where the heading's links of words lead
    code: LexborNode | None = None
    for node in _in_order(content):
        if node.tag in _HEADING_TAGS:
            heading, named = node, _named_targets(node)
            continue
        if node.tag == "pre":
            code = node
            continue
        if node.mem_id in headed:
            continue
        href = str(node.attrs.get("href") or "").strip()
        if _MAY_BE_LISTING.search(href):
            if _source_link(href, _flat(node)) and not _within(node, _PROSE):
                yield node
        elif href.lower().startswith("javascript:") or href == "#":
            if _toggle(href, _flat(node)):
                yield node
        elif ("?" in href and _runs_code(href, code) and _few_words(node)) or (
            href in named and heading is not None and _reads_on(node, heading)
        ):
            yield node
        elif "#" in href:
            target = _in_page_target(href, own)
            # A link elsewhere that opens its block (every entry of an index: the largest
            # the limit reads holds 643,000) ends no sentence: passed over before its
            # block's words are read.
            if not _ends_its_block(node) or not (target or _after_words(node)):
                continue
            said = _said_before(node)
            if not _few_words(node):
                continue
            sentence = said.endswith(_SENTENCE_STOPS) and _WORD.search(said) is not None
            if sentence and _worded(_flat(node)) and _names_place_before(node, href, own):
                yield node
            elif target and _words_over(said, _SAID_WORDS - 1):
                in_page.append((node, target, said))
    for summary in content.css("summary"):
        if labels and _label(summary) in labels:
            yield summary
    if in_page:
        yield from _more_links(content, in_page)


def _in_order(content: LexborNode) -> Iterator[LexborNode]:
    """The headings, code blocks and links of ``content`` (``content`` among them, as
    lexbor's ``css`` finds it too), in document order, one at a time: listed at once, the
    643,000 links of the largest index the limit reads were 38 MB held beside its tree."""
    for node in content.traverse():
        tag = node.tag
        if tag in _HEADING_TAGS or tag == "pre" or (tag == "a" and "href" in node.attrs):
            yield node


def _in_page_target(href: str, own: str) -> str:
    """The id ``href`` leads to on the page named ``own`` ("" for a link elsewhere)."""
    page, _, target = href.partition("#")
    return target if not page or page.rsplit("/", 1)[-1] == own else ""


def _source_link(href: str, text: str) -> bool:
    """Whether a link of ``text`` to ``href`` is a label (the caller reads whether it stands
    outside any sentence, ``_PROSE``) leading to a line of a listing (``_LINE_FRAGMENT``),
    or into a folder of listings: a generator's own folder, named with ``_`` first, which
    ingest reads as no pages (Sphinx's ``_modules``). rustdoc labels each entry's link to
    its source lines "source" (6,555 of the 8,609 sections of the Rust 1.63 standard
    library's ``collections`` pages ended with it)."""
    if not _LABEL.fullmatch(text) or _words_over(text, _SOURCE_WORDS):
        return False
    address, _, fragment = href.partition("#")
    if _LINE_FRAGMENT.fullmatch(fragment):
        return True
    folders, _, name = unquote(address.partition("?")[0]).rpartition("/")
    return name.endswith((".html", ".htm")) and any(
        folder.startswith("_") for folder in folders.split("/")
    )


def _toggle(href: str, text: str) -> bool:
    """Whether a link of ``text`` to ``href`` is a script's control of a few words
    (rustdoc's bracketed minus sign, which folds the page's every entry): it leads to no
    page. One leading nowhere (``#``) with a sign alone is a tooltip's mark (rustdoc's
    current "ⓘ")."""
    if href.lower().startswith("javascript:"):
        return not _words_over(text, _CONTROL_WORDS)
    return href == "#" and _lone_sign(text)


def _runs_code(href: str, code: LexborNode | None) -> bool:
    """Whether a link to ``href`` (of a few words at most) sends ``code``, the code block
    before it, somewhere to run: a value of its address's query carries that block's
    longest line. rustdoc links "Run" under every example to the playground, ``?code=`` and
    the example (567 of the ``collections`` pages' sections ended with it)."""
    query = href.partition("?")[2].partition("#")[0]
    if not query or code is None:
        return False
    lines = [line.strip() for line in str(code.text(deep=True)).splitlines()]
    longest = max(lines, key=len, default="")
    if len(longest) < _CODE_LINE or not _WORD.search(longest):
        return False
    return any(longest in value for _, value in parse_qsl(query, keep_blank_values=True))


def _named_targets(heading: LexborNode) -> frozenset[str]:
    """Where the links of words in ``heading`` lead."""
    if holds_no_element(heading):
        return frozenset()  # no link, as most headings
    return frozenset(
        str(link.attrs.get("href") or "").strip()
        for link in heading.css("a[href]")
        if _WORD.search(_flat(link))
    )


def _reads_on(link: LexborNode, heading: LexborNode) -> bool:
    """Whether ``link``, which leads where a link of words in ``heading`` (the last before
    it) leads, is of a few words none of which that heading holds and ends its paragraph
    (rustdoc's "Read more" after a trait method's first line, to the trait's page, which
    the method's name in its heading links too: 4,701 of the ``collections`` pages'
    sections). A name that ends a sentence and that the heading names too ("Turn a Vec<T>
    into a VecDeque<T>." under ``impl From<Vec<T>> for VecDeque<T>``) is text."""
    if not _few_words(link) or not _ends_its_block(link):
        return False
    return _words(heading).isdisjoint(_words(link))


def _more_links(
    content: LexborNode, in_page: list[tuple[LexborNode, str, str]]
) -> Iterator[LexborNode]:
    """Of ``in_page`` (a link of a few words ending its paragraph, the id it leads to on the
    page and the paragraph's words before it), the links to a later place whose text says
    that paragraph again: Doxygen's "More..." after an entry's brief line, to its detailed
    description, which repeats it (``REPEAT_BRIEF``, its default). A link in a paragraph
    to a place that says something else is text."""
    places = {str(node.id): node for node in content.css("[id]")}
    for named in content.css("a[name]"):
        places.setdefault(str(named.attributes.get("name") or ""), named)
    order = {node.mem_id: index for index, node in enumerate(content.traverse())}
    for link, target, said in in_page:
        place = places.get(target)
        if place is None or order.get(place.mem_id, -1) < order[link.mem_id]:
            continue
        if said in _text_from(place):
            yield link


def _tooltip_marks(content: LexborNode) -> Iterator[LexborNode]:
    """The marks of tooltips: an element holding a tooltip (``TOOLTIPS``) and else only a
    sign (rustdoc 1.63's "ⓘ" beside a method returning an iterator: 1,531 of the
    ``collections`` pages' section titles ended with it), and a sign alone standing just
    before a code block (rustdoc's mark of an example that panics or does not compile, whose
    words its style sheet writes)."""
    for tooltip in content.css(TOOLTIPS):
        holder, own = tooltip.parent, _flat(tooltip)
        if holder is not None and holder.tag not in {"body", "html"}:
            rest = _flat(holder)
            if rest.endswith(own) or rest.startswith(own):
                rest = rest[: len(rest) - len(own)] if rest.endswith(own) else rest[len(own) :]
            if _lone_sign(rest.strip()):
                yield holder
    for code in content.css("pre"):
        node = code
        for _ in range(_WALK):
            sign = _written_before(node)
            if sign is not None:
                if sign.tag != "-text" and _lone_symbol(_flat(sign)):
                    yield sign
                break
            parent = node.parent
            if parent is None or parent.mem_id == content.mem_id:
                break
            node = parent


def _written_before(node: LexborNode) -> LexborNode | None:
    """The sibling before ``node`` past blank text and comments, None where there is none."""
    sibling = node.prev
    for _ in range(_WALK):
        if sibling is None:
            return None
        if sibling.tag == "-comment" or (sibling.tag == "-text" and not _flat(sibling)):
            sibling = sibling.prev
            continue
        return sibling
    return None


def _ends_its_block(link: LexborNode) -> bool:
    """Whether nothing follows ``link`` in the paragraph (or cell, or item) it ends, not
    even a stop: each sibling after it, and after each inline element around it, is blank.
    A link that a sentence's stop follows ("See <a>lock file</a>.", the Cargo Book's
    glossary) is the sentence's last words, no control after it."""
    inline, whole = _inline_around(link)
    return whole and all(_blank_after(node) for node in inline)


def _blank_after(node: LexborNode) -> bool:
    """Whether every sibling after ``node`` is blank (at most ``_WALK`` squared of them)."""
    sibling = node.next
    for _ in range(_WALK * _WALK):
        if sibling is None:
            return True
        if sibling.tag != "-comment" and str(sibling.text(deep=True)).strip():
            return False
        sibling = sibling.next
    return False


def _inline_around(link: LexborNode) -> tuple[list[LexborNode], bool]:
    """``link`` and the inline elements around it, innermost first, up to its block; and
    whether the block (or the tree's top) was reached within ``_WALK`` of them."""
    inline, node = [], link
    for _ in range(_WALK):
        inline.append(node)
        parent = node.parent
        if parent is None or _a_block(parent):
            return inline, True
        node = parent
    return inline, False


def _said_before(link: LexborNode) -> str:
    """The words of the block ``link`` ends, before it (``_flat``)."""
    block = _block_of(link)
    if block is None:
        return ""
    whole, own = _flat(block), _flat(link)
    at = whole.rfind(own) if own else -1
    return whole[:at].strip() if at >= 0 else ""


def _block_of(node: LexborNode) -> LexborNode | None:
    """The block around ``node``, at most ``_WALK`` elements up."""
    block = node.parent
    for _ in range(_WALK):
        if block is None or _a_block(block):
            break
        block = block.parent
    return block


def _after_words(link: LexborNode) -> bool:
    """Whether anything stands before ``link`` in its block: a node before it, or before an
    inline element around it, past blank text (at most ``_WALK`` elements up)."""
    inline, _ = _inline_around(link)
    return any(_written_before(node) is not None for node in inline)


def _worded(label: str) -> bool:
    """Whether ``label`` holds a letter and no digit: a word, not a footnote's mark ("[1]",
    docutils' reference after a sentence, which the list before it may cite too)."""
    return _LETTER.search(label) is not None and not any(c.isdigit() for c in label)


def _names_place_before(link: LexborNode, href: str, own: str) -> bool:
    """Whether the entry before the block ``link`` (to ``href``) ends links where it leads:
    to its page, or to its very place on the page ``own``. The entry is the first element
    before that block, or before an element around it (at most ``_ENTRY_LEVELS`` up), that
    holds a link at all. Doxygen writes an entry's brief line in the table row after the row
    of its name, and ends it with "More..." to its detailed description: on a class's page
    at the name's own place, from a namespace's or a file's page on the class's page (72
    of jsoncpp's 211 "More..." lead to another page; 6 on the page to a description that
    does not repeat the brief line)."""
    page, _, fragment = href.partition("#")
    node = _block_of(link)
    for _ in range(_ENTRY_LEVELS):
        if node is None:
            return False
        before = _written_before(node)
        if before is not None and before.tag != "-text":
            links = before.css("a[href]")  # (lexbor's ``css`` finds ``before`` itself too)
            if links:
                return any(_leads_to(other, page, fragment, own) for other in links)
        elif before is not None:
            return False  # words before the block, in its parent: no entry of its own
        node = node.parent
    return False


def _leads_to(link: LexborNode, page: str, fragment: str, own: str) -> bool:
    """Whether ``link`` leads to ``page`` (a page elsewhere, at any place of it) or to
    ``fragment`` on it (the page ``own``, or ``page`` named by any path to it)."""
    its_page, _, its_fragment = str(link.attrs.get("href") or "").strip().partition("#")
    here = not page or page.rsplit("/", 1)[-1] == own
    if here:
        return its_fragment == fragment and (not its_page or its_page.rsplit("/", 1)[-1] == own)
    return its_page == page and its_fragment in ("", fragment)


def _text_from(place: LexborNode) -> str:
    """The words at ``place`` and in the elements after it, at most ``_WALK`` of them."""
    pieces = [_flat(place)]
    sibling = place.next
    for _ in range(_WALK):
        if sibling is None:
            break
        pieces.append(_flat(sibling))
        sibling = sibling.next
    return " ".join(pieces)


def _within(node: LexborNode, tags: frozenset[str]) -> bool:
    """Whether an element of one of ``tags`` holds ``node``, at most ``_WALK`` elements up."""
    parent = node.parent
    for _ in range(_WALK):
        if parent is None or parent.tag in {"body", "html"}:
            return False
        if parent.tag in tags:
            return True
        parent = parent.parent
    return False


def _inside_any(node: LexborNode, found: dict[int, LexborNode], content: LexborNode) -> bool:
    parent = node.parent
    while parent is not None and parent.mem_id != content.mem_id:
        if parent.mem_id in found:
            return True
        parent = parent.parent
    return False


def _a_block(node: LexborNode) -> bool:
    return node.tag in _BLOCK_TAGS


# The elements whose end ends a paragraph's words: a control of a few words ends one.
_BLOCK_TAGS = (
    frozenset(
        ["p", "li", "dd", "dt", "td", "th", "div", "section", "summary", "blockquote", "body"]
    )
    | _HEADING_TAGS
)


def _separator(node: LexborNode) -> bool:
    return bool(_SEPARATOR.fullmatch(str(node.text_content or "")))


def _lone_sign(text: str) -> bool:
    """Whether ``text`` is a sign or two and no word: a mark, not a label."""
    return 0 < len(text) <= 2 and not _WORD.search(text)


def _lone_symbol(text: str) -> bool:
    """Whether ``text`` is a symbol or two of Unicode's "other" symbols ("ⓘ", "⚠"), as no
    punctuation of a sentence is."""
    return 0 < len(text) <= 2 and all(unicodedata.category(c) == "So" for c in text)


def _few_words(link: LexborNode) -> bool:
    """Whether ``link``'s words are few enough for a control's label (``_CONTROL_WORDS``)."""
    return not _words_over(_flat(link), _CONTROL_WORDS)


def _words_over(text: str, most: int) -> bool:
    """Whether ``text`` holds more than ``most`` words."""
    return words_in(text) > most


def _words(node: LexborNode) -> set[str]:
    """``node``'s words, each as letters and digits, lowercased."""
    return {word.lower() for word in _WORD_RUN.findall(_flat(node))}


def _flat(node: LexborNode) -> str:
    """``node``'s words on one line, as compared here."""
    if node.tag == "-text":
        return " ".join(str(node.text_content or "").split())
    return " ".join(str(node.text(deep=True)).split())
