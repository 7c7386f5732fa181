"""How many inline elements of a Markdown page are read: a bound on what its parse holds.

markdown-it makes each link, emphasis, code span, line break and run of text between them
one token or more, and holds every token of the page until its parse ends: a token is
370 to 460 bytes (its attributes and its metadata each a dict of its own), so the page's
peak memory is set by its inline elements, not by its bytes or its lines. A line of 400,000
links (16.5 MB, never cut by the line bound, ``line_bound``) made 1.6 million tokens and
peaked at 737 MB in the parse alone, 771 in the whole ingest; 1 MB of emphasis, in lines of
80 characters, made 988,000 and 365 MB. So a page is read up to ``MAX_INLINE_TOKENS`` of
them, however large it is: the block in which they run out is read up to there, the blocks
after it keep no text, and the page is counted in the ingest report (``TOO_MANY_INLINE``).
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any

from markdown_it.rules_core import StateCore
from markdown_it.rules_core.inline import inline as _inline
from markdown_it.rules_inline import StateInline

# The inline tokens a page's parse may hold, for a peak under the 600 MB every hostile page
# is held to (``hostile_files.py``): the line of 400,000 links, read up to 600,000 of them,
# peaks at 330 MB in the whole ingest and costs 4.8 s of CPU where read whole it took 11.3
# (7 December, load 2 to 2.5); at 1,000,000 it peaked at 508 MB. A heading's title is
# parsed again, up to where its page's parse stopped, so one heading holding them all may
# cost twice that. Far above what documentation writes: the most of any Markdown page of the
# development trees and of the 1,013 on this machine are Node.js's CHANGELOG_V12.md's,
# 61,371 (956 KB); all are read whole.
MAX_INLINE_TOKENS = 600_000
TOO_MANY_INLINE = "ends of pages of too many links, marks and breaks"

_LEFT = "citeline_inline_left"  # the tokens the page may still make, kept in the parse's env
_BLOCK = "citeline_inline_block"  # and those the block being parsed may make, and its text
_CUT = "citeline_inline_cut"  # and whether any of its text was left out
_CUT_AT = "citeline_inline_cut_at"  # and where in the block's text, where it was this block


def bound_inline(env: MutableMapping[str, Any]) -> None:
    """Set the parse with ``env`` to make up to ``MAX_INLINE_TOKENS`` inline tokens."""
    env[_LEFT] = MAX_INLINE_TOKENS


def inline_cut(env: MutableMapping[str, Any]) -> bool:
    """Whether the parse with ``env`` left text out past its bound."""
    return bool(env.get(_CUT))


def bounded_inline(state: StateCore) -> None:
    """markdown-it's core inline rule, each block parsed with the tokens left to the page
    (``bound_inline``; unbounded where none were set, and so a block's own parse after the
    page's, a heading's for its title, is: what the page's left out is no text of its
    block any more, which holds its text up to there, the blocks after it none)."""
    left = state.env.pop(_LEFT, None)
    if left is None:
        _inline(state)
        return
    for token in state.tokens:
        if token.type == "html_block" and left <= 0:
            token.content = ""  # an md_in_html block is read as Markdown again
        if token.type != "inline":
            continue
        if token.children is None:
            token.children = []
        state.env[_BLOCK] = (left + len(token.children), token.content)
        state.md.inline.parse(token.content, state.md, state.env, token.children)
        left -= len(token.children)
        cut_at = state.env.pop(_CUT_AT, None)
        if cut_at is not None:
            token.content = token.content[:cut_at]
    state.env.pop(_BLOCK, None)


def stop_past_bound(state: StateInline, silent: bool) -> bool:
    """An inline rule, tried first at each position: where the block has made all the
    tokens left to it, the rest of its text (a link's label's, inside one) is skipped."""
    block = state.env.get(_BLOCK)
    if silent or block is None or len(state.tokens) < block[0]:
        return False
    if state.src is block[1]:  # not an image's description, parsed apart
        state.env[_CUT_AT] = state.pos
    state.pos = state.posMax
    state.env[_CUT] = True
    return True
