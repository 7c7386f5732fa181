"""Which raw HTML tags are active: they navigate, fetch or run something once a browser reads them.

With raw HTML on, a client passes a model's tags to the browser: probed, ``<area href>``,
``<meta http-equiv=refresh>``, ``<base href>``, ``<form action>``, ``<iframe src>``,
``<img src>``, ``<script>`` and ``<svg onload>`` all reached readers verbatim, each one a
link, a request to an address a document chose, or code. A tag is active when its element
does one of those by being there (``ACTIVE_ELEMENTS``), or when it carries an attribute that
does on any element: an event handler (``on...``), an address (``href``, ``src``, ...) or a
style (``url()`` in it fetches). Any other tag (``<b>``, ``<sup>``, ``<br/>``, a generic type
written in prose, ``List<String>``) is inert and stays.

The lists err on the side of active: a tag judged active without need is shown as text; one
judged inert wrongly would run. The attribute test looks at the whole text after the name,
quoted values included, so a handler hidden where a browser would read it after an odd quote
is still found. This module does not find tags in text (``anchors`` does) or decide what
happens to an active one.
"""

from __future__ import annotations

from typing import Final

import regex

# Elements that navigate (a, area, form and its buttons, base, meta refresh, portal), fetch
# (img, media, frames, embeds, link, SVG's use and image) or run (script, SVG animation and
# handler elements), wherever they stand and whatever their attributes.
ACTIVE_ELEMENTS: Final = frozenset(
    {
        "a",
        "animate",
        "animatemotion",
        "animatetransform",
        "applet",
        "area",
        "audio",
        "base",
        "basefont",
        "bgsound",
        "button",
        "embed",
        "feimage",
        "fencedframe",
        "foreignobject",
        "form",
        "frame",
        "frameset",
        "handler",
        "iframe",
        "ilayer",
        "image",
        "img",
        "input",
        "isindex",
        "keygen",
        "layer",
        "link",
        "listener",
        "meta",
        "object",
        "param",
        "picture",
        "portal",
        "script",
        "set",
        "source",
        "style",
        "track",
        "use",
        "video",
    }
)
# Attributes that act on any element: event handlers, and every attribute that holds an
# address or a style, as a name followed (after blanks) by "=". A name starts after the tag's
# name, a blank, a "/" or a closing quote, as a browser reads it.
_ACTIVE_ATTRIBUTE: Final = regex.compile(
    r"""(?:^|[\s/"'])(?:on[^\s/>="']*|href|xlink:href|xml:base|src|srcset|srcdoc|lowsrc"""
    r"""|dynsrc|datasrc|action|formaction|data|poster|background|ping|style|codebase"""
    r"""|archive|classid|manifest|icon|longdesc|cite|usemap|content|http-equiv|profile"""
    r"""|imagesrcset|attributionsrc)\s*=""",
    regex.IGNORECASE,
)
# A tag as a browser reads it: "<" or "</", a letter, the name up to a blank, "/" or ">".
_NAME: Final = regex.compile(r"</?([A-Za-z][^\s/>]*)")


def is_active(tag: str) -> bool:
    """Whether ``tag`` (from its "<" to its ">") navigates, fetches or runs."""
    name = _NAME.match(tag)
    if name is None:
        return False
    if name.group(1).lower() in ACTIVE_ELEMENTS:
        return True
    return _ACTIVE_ATTRIBUTE.search(tag, name.end()) is not None
