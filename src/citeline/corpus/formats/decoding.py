"""A source file's bytes as text: UTF-8, else, for an HTML page, the encoding it declares.

A file is read as UTF-8 whenever its bytes are UTF-8, whatever it declares: 150 of the 152
pages of Vim's help as Debian's vim-doc installs it declare ISO-8859-1, 125 of them are
ASCII, 24 hold UTF-8 beyond it (read as they declare, their "é" would be "Ã©"), and one,
``digraph.html``, is no UTF-8. Only bytes that are no UTF-8 are read in another encoding,
and only the one an HTML page names where the HTML standard's prescan finds it: a byte
order mark, else a ``<meta charset>`` or an ``http-equiv="Content-Type"`` ``<meta>`` within
the first ``PRESCAN_BYTES``. Nothing here guesses an encoding from the bytes themselves; a
file that is neither UTF-8 nor in an encoding it declares is refused with the sentence that
says what to do. (``digraph.html`` is UTF-8 but for the 98 lead bytes its generator wrote
as ``&aacute;``: read as the ISO-8859-1 it declares, as a browser reads it, its words are
whole and its table's characters beyond ASCII are not.)
"""

from __future__ import annotations

import codecs
import re
from pathlib import Path

from citeline.corpus.formats.limits import MAX_PAGE_BYTES, RefusedFileError, read_bytes

# How far into a page its declaration is looked for: the HTML standard's prescan reads
# 1024 bytes ("prescan a byte stream to determine its encoding"), and so does a browser.
PRESCAN_BYTES = 1024

# Byte order marks, as the HTML standard reads them before anything else (UTF-8's is taken
# off by the UTF-8 reading first).
_BYTE_ORDER_MARKS = ((codecs.BOM_UTF16_BE, "utf-16-be"), (codecs.BOM_UTF16_LE, "utf-16-le"))
# The prescan's tokens, in the order it meets them: a comment (to its end, or to the end of
# the bytes read), a ``<meta`` tag and its attributes, any other tag (its attributes read
# past, quotes and all, so no ``<meta`` inside one's value counts), and ``<!``, ``</`` or
# ``<?`` markup to its ``>``. Each alternative scans at most the 1024 bytes, once.
_PRESCAN = re.compile(
    rb"""<!--.*?(?:-->|\Z)
    | <meta(?=[\s/])(?P<meta>(?:[^>"']|"[^"]*"|'[^']*')*)(?:>|\Z)
    | </?[a-z](?:[^>"']|"[^"]*"|'[^']*')*(?:>|\Z)
    | <[!/?][^>]*(?:>|\Z)""",
    re.IGNORECASE | re.DOTALL | re.VERBOSE,
)
_ATTRIBUTE = re.compile(rb"""([^\s/>=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]*)))?""")
# "The algorithm for extracting a character encoding from a meta element", on the value of
# its ``content``: ``charset``, ``=``, then a quoted value or one up to a space or ``;``.
_CONTENT_CHARSET = re.compile(
    rb"""charset\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s;"']+))""", re.IGNORECASE
)


def decoded(raw: bytes, *, html: bool) -> str:
    """``raw`` as text: UTF-8 (a byte order mark taken off) when it is UTF-8, else, for an
    HTML page (``html``), in the encoding it declares; ``RefusedFileError`` with the reason
    when neither reads it."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        not_utf8 = f"it is not UTF-8 text (bad byte at offset {error.start})"
    label = declared_encoding(raw[:PRESCAN_BYTES]) if html else None
    if label is None:
        raise RefusedFileError(f"{not_utf8}; save it as UTF-8")
    try:
        name = codecs.lookup(label).name
    except LookupError:
        raise RefusedFileError(
            f"{not_utf8}, and the encoding it declares, {label!r}, is none Python knows; "
            "save it as UTF-8, or declare the encoding it is in"
        ) from None
    if name.startswith(("utf-8", "utf-16", "utf-32")) and not _has_bom(raw):
        # A ``<meta>`` naming UTF-16 was read as ASCII, so it cannot be one: the HTML
        # standard reads such a page as UTF-8, which it is not.
        raise RefusedFileError(f"{not_utf8}; save it as UTF-8")
    try:
        return raw.decode(name).removeprefix("\ufeff")
    except LookupError:  # a codec of bytes to bytes ("zlib", "base64"), no text encoding
        raise RefusedFileError(
            f"{not_utf8}, and the encoding it declares, {label!r}, is no text encoding; "
            "save it as UTF-8, or declare the encoding it is in"
        ) from None
    except UnicodeDecodeError as error:
        raise RefusedFileError(
            f"{not_utf8}, nor {name} as it declares (bad byte at offset {error.start}); "
            "save it as UTF-8, or declare the encoding it is in"
        ) from None


def declared_encoding(head: bytes) -> str | None:
    """The encoding ``head`` (a page's first bytes) declares, as the HTML standard's prescan
    finds it: its byte order mark, else the first ``<meta>`` outside a comment whose
    ``charset``, or whose ``content`` beside ``http-equiv="Content-Type"``, names one."""
    for mark, name in _BYTE_ORDER_MARKS:
        if head.startswith(mark):
            return name
    for token in _PRESCAN.finditer(head[:PRESCAN_BYTES]):
        if token["meta"] is None:
            continue
        attributes: dict[bytes, bytes] = {}
        for attribute in _ATTRIBUTE.finditer(token["meta"]):
            value = attribute[2] or attribute[3] or attribute[4] or b""
            attributes.setdefault(attribute[1].lower(), value)  # the first of a name counts
        label = attributes.get(b"charset")
        if label is None and attributes.get(b"http-equiv", b"").strip().lower() == (
            b"content-type"
        ):
            found = _CONTENT_CHARSET.search(attributes.get(b"content", b""))
            label = next((group for group in found.groups() if group), None) if found else None
        if label and label.strip():
            return label.strip().decode("ascii", "replace")
    return None


def _has_bom(raw: bytes) -> bool:
    return raw.startswith((codecs.BOM_UTF16_BE, codecs.BOM_UTF16_LE))


def read_page(path: Path, limit: int = MAX_PAGE_BYTES) -> str | None:
    """The HTML page at ``path`` as text (``decoded``) within ``limit``, or None when it
    cannot be so read (for what is read beside the ingest, which reports the page itself)."""
    try:
        return decoded(read_bytes(path, limit), html=True)
    except RefusedFileError:
        return None
