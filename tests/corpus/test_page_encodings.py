"""A page is read as UTF-8 whenever its bytes are UTF-8, whatever it declares; an HTML page
that is not is read in the encoding it declares (a byte order mark, ``<meta charset>`` or an
``http-equiv`` Content-Type within its first 1024 bytes), and refused only when neither reads
it, with a sentence saying what to do. The cases are Vim's help as Debian's vim-doc installs
it: 150 pages declare ISO-8859-1, 24 of them hold UTF-8 beyond ASCII, and ``digraph.html`` is
the one that is not UTF-8."""

from __future__ import annotations

from pathlib import Path

import pytest

from citeline.corpus import Document
from citeline.corpus.formats import Rejected, read_source, source_files
from citeline.corpus.formats.decoding import PRESCAN_BYTES, declared_encoding

# The head of every page of vim-doc, as its 2html script writes it.
_VIM_HEAD = """<HTML>
<HEAD>
<META HTTP-EQUIV="Content-type" content="text/html; charset=ISO-8859-1">
<TITLE>Vim documentation: digraph</TITLE>
</HEAD>
<BODY BGCOLOR="#ffffff">
<H1>Vim documentation: digraph</H1>
"""


def _read(tmp_path: Path, raw: bytes, name: str = "digraph.html") -> list[object]:
    page = tmp_path / name
    page.write_bytes(raw)
    [source] = source_files(page)
    return list(read_source(source))


def _text(items: list[object]) -> str:
    return "\n".join(item.text for item in items if isinstance(item, Document))


def _reason(items: list[object]) -> str:
    [rejected] = [item for item in items if isinstance(item, Rejected)]
    return rejected.reason


def test_a_page_in_the_iso_8859_1_it_declares_is_read_in_it(tmp_path: Path) -> None:
    body = "<P>A digraph such as e' gives \xe9, as in caf\xe9.</P></BODY></HTML>"
    items = _read(tmp_path, (_VIM_HEAD + body).encode("iso-8859-1"))
    assert "gives é, as in café." in _text(items)
    assert not [item for item in items if isinstance(item, Rejected)]


def test_a_page_declaring_iso_8859_1_that_holds_utf_8_is_read_as_utf_8(
    tmp_path: Path,
) -> None:
    body = "<P>A digraph such as e' gives é, as in café.</P></BODY></HTML>"
    text = _text(_read(tmp_path, (_VIM_HEAD + body).encode("utf-8")))
    assert "gives é, as in café." in text
    assert "Ã" not in text


def test_a_page_of_bytes_no_utf_8_that_declares_nothing_keeps_todays_reason(
    tmp_path: Path,
) -> None:
    raw = "<html><body><p>caf\xe9 au lait</p></body></html>".encode("iso-8859-1")
    assert _reason(_read(tmp_path, raw)) == (
        "it is not UTF-8 text (bad byte at offset 18); save it as UTF-8"
    )


@pytest.mark.parametrize("label", ["no-such-charset", "zlib"])
def test_a_page_declaring_an_encoding_python_cannot_read_text_in_is_refused(
    tmp_path: Path, label: str
) -> None:
    raw = f'<meta charset="{label}"><p>caf\xe9</p>'.encode("iso-8859-1")
    reason = _reason(_read(tmp_path, raw))
    assert reason.startswith("it is not UTF-8 text (bad byte at offset ")
    assert repr(label) in reason
    assert reason.endswith("save it as UTF-8, or declare the encoding it is in")


def test_a_page_its_declared_encoding_cannot_read_either_is_refused(tmp_path: Path) -> None:
    raw = '<meta charset="us-ascii"><p>caf\xe9</p>'.encode("iso-8859-1")
    assert _reason(_read(tmp_path, raw)) == (
        "it is not UTF-8 text (bad byte at offset 31), nor ascii as it declares (bad byte "
        "at offset 31); save it as UTF-8, or declare the encoding it is in"
    )


@pytest.mark.parametrize("label", ["utf-8", "UTF-16"])
def test_a_page_declaring_utf_8_or_16_that_is_not_utf_8_keeps_todays_reason(
    tmp_path: Path, label: str
) -> None:
    # A <meta> that names UTF-16 was read as ASCII: the HTML standard reads the page as UTF-8.
    raw = f'<meta charset="{label}"><p>caf\xe9</p>'.encode("iso-8859-1")
    assert _reason(_read(tmp_path, raw)) == (
        f"it is not UTF-8 text (bad byte at offset {raw.index(0xE9)}); save it as UTF-8"
    )


def test_only_a_page_is_read_in_a_declared_encoding(tmp_path: Path) -> None:
    raw = '<meta charset="iso-8859-1"> caf\xe9'.encode("iso-8859-1")
    assert _reason(_read(tmp_path, raw, "notes.txt")) == (
        "it is not UTF-8 text (bad byte at offset 31); save it as UTF-8"
    )


@pytest.mark.parametrize(
    ("head", "declared"),
    [
        (b'<meta charset="windows-1252">', "windows-1252"),
        (b"<meta charset=koi8-r>", "koi8-r"),
        (b"<META CONTENT='text/html;charset = \"latin2\"' HTTP-EQUIV=content-type>", "latin2"),
        # A content charset counts only beside http-equiv="Content-Type".
        (b'<meta name="description" content="text/html; charset=koi8-r">', None),
        # Not inside a comment, nor inside another tag's attribute.
        (b'<!-- <meta charset="koi8-r"> --><meta charset="latin2">', "latin2"),
        (b'<a title="<meta charset=koi8-r>">x</a>', None),
        (b"<metadata charset=koi8-r>", None),
        # The first attribute of a name counts; the first declaring meta decides.
        (b'<meta charset="latin2" charset="koi8-r"><meta charset="ascii">', "latin2"),
        (b"\xff\xfe<\x00p\x00>\x00", "utf-16-le"),
        (b"<p>no declaration</p>", None),
    ],
)
def test_the_prescan_finds_what_a_browser_finds(head: bytes, declared: str | None) -> None:
    assert declared_encoding(head) == declared


def test_a_declaration_past_the_first_1024_bytes_declares_nothing(tmp_path: Path) -> None:
    late = b"<!--" + b"x" * PRESCAN_BYTES + b'--><meta charset="iso-8859-1"><p>caf\xe9</p>'
    assert declared_encoding(late) is None
    assert _reason(_read(tmp_path, late)).endswith("; save it as UTF-8")


def test_a_page_in_utf_16_with_its_byte_order_mark_is_read(tmp_path: Path) -> None:
    raw = "<html><body><p>caf\xe9</p></body></html>".encode("utf-16")
    assert "café" in _text(_read(tmp_path, raw))
