"""One hostile page costs only its own file, and time and memory bounded by its size: a
page nested deeper than browsers build (an SVG's self-closed tags counted flat, as parsed, and
nowhere else), or larger than a page may be, is skipped with its reason before it is parsed;
thousands of headings sharing one id or of glossary terms are read in one pass; any exception
the parser raises is that file's reason; a file swapped for a named pipe is refused, never
waited on."""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.support.named_pipes import watched_pipe

from citeline.corpus import Corpus, Document
from citeline.corpus.formats import READERS, html, read_source, source_files
from citeline.corpus.formats.limits import MAX_PAGE_BYTES
from citeline.corpus.formats.origin import SourceFile
from citeline.corpus.formats.rejected import Omitted, Rejected


def _site(folder: Path, hostile: str, name: str = "hostile.html") -> Path:
    folder.mkdir(exist_ok=True)
    (folder / "good.html").write_text(
        "<html><body><main><h1>Good</h1><p>A page that is fine.</p></main></body></html>",
        "utf-8",
    )
    (folder / name).write_text(hostile, "utf-8")
    return folder


def _read(source: str) -> list[Document | Rejected]:
    origin = SourceFile(Path("page.html"), "page", "page.html", "https://d.org/page.html")
    return [item for item in html.read(source, origin) if isinstance(item, Document | Rejected)]


@pytest.mark.parametrize(
    "page",
    [
        "<div>" * 1_000_000 + "x" + "</div>" * 1_000_000,
        "<main>" + "".join(f"<section id=s{i}><h2>H{i}</h2><p>t</p>" for i in range(20_000)),
        "</div>" * 30_000 + "<div>" * 30_000 + "x",
        # In HTML ``/>`` closes nothing: after an SVG, inside one's HTML break-out, and in an
        # integration point whose content is HTML, these nest as deep as they are written.
        "<svg></svg>" + "<foo/>" * 20_000 + "x",
        "<svg><g><div>" + "<foo/>" * 20_000 + "x",
        "<svg><desc>" + "<foo/>" * 20_000 + "x",
        "<svg>" + "<g>" * 20_000 + "x",
        # An end tag the parser ignores (nothing of its name open) closes nothing; one that
        # leaves an SVG for HTML leaves its self-closed tags counted as HTML's.
        "<div></x>" * 20_000 + "x",
        "<svg>" + "<g></p>" * 20_000 + "x",
        "<div><svg><g></div>" + "<foo/>" * 20_000 + "x",
    ],
    ids=[
        "a-million-nested-divs",
        "twenty-thousand-nested-sections",
        "stray-end-tags-first",
        "self-closed-tags-in-html-after-an-svg",
        "self-closed-tags-after-an-html-tag-breaks-out-of-svg",
        "self-closed-tags-in-an-svg-description",
        "twenty-thousand-nested-svg-groups",
        "an-ignored-end-tag-after-every-div",
        "svg-groups-each-followed-by-an-end-tag-that-breaks-out",
        "self-closed-tags-after-an-end-tag-closes-the-svg",
    ],
)
def test_a_page_nested_deeper_than_browsers_build_is_skipped_with_its_reason(
    corpus: Corpus, tmp_path: Path, page: str
) -> None:
    report = corpus.ingest(_site(tmp_path / "site", page))
    [problem] = report.skipped
    assert problem.path.endswith("hostile.html")
    assert f"deeper than {html.MAX_DEPTH} levels" in problem.reason
    assert [document.id for document in corpus.documents()] == ["good"]


def test_a_page_of_thousands_of_self_closed_svg_paths_is_read_not_refused() -> None:
    # SQLite's SELECT page draws its syntax diagrams as 7,608 ``<path .../>``: flat, as the
    # parser's foreign-content rules build them, and the page's text must be read.
    diagram = "<svg><g>" + '<path d="M0 0 L1 1"/><polygon points="0,0 1,1"/>' * 8_000 + "</g></svg>"
    page = f"<main><h1>SELECT</h1>{diagram}<p>The result rows of a compound query.</p></main>"
    [document] = [item for item in _read(page) if isinstance(item, Document)]
    assert "compound query" in document.text


def test_twenty_thousand_headings_sharing_one_id_are_twenty_thousand_sections() -> None:
    page = "<main>" + "".join(f"<h2 id=a>Same</h2><p>text {i}</p>" for i in range(20_000))
    documents = [item for item in _read(page) if isinstance(item, Document)]
    assert len(documents) == 20_000
    assert len({document.id for document in documents}) == 20_000
    # A link to #a reaches the first alone (as a browser follows it): the others are cited
    # at the page, under ids of their own.
    assert documents[2].id == "page#same-2" and documents[-1].id == "page#same-19999"
    assert documents[-1].url == "https://d.org/page.html"


def test_thirty_thousand_glossary_terms_are_read_in_one_pass() -> None:
    terms = "".join(
        f"<dt id=term-{i}>term {i}</dt><dd><p>meaning {i}</p></dd>" for i in range(30_000)
    )
    page = f"<main><h1>Glossary</h1><dl class=glossary>{terms}</dl></main>"
    documents = [item for item in _read(page) if isinstance(item, Document)]
    assert len(documents) == 30_000
    assert documents[-1].title == "Glossary › term 29999"


def test_a_lone_heading_before_thousands_of_chrome_elements_is_read_in_one_pass() -> None:
    # The search for its section's text (past the element around the heading) reads each
    # element after the heading once, and finds none: chrome, bars of links, empty boxes.
    bars = '<div><a href="a">a</a><a href="b">b</a></div>'
    after = ("<nav>menu</nav>" + bars + "<span><i></i></span>") * 10_000
    page = f"<body><div><div><div><h1>Alone</h1></div></div>{after}</div></body>"
    origin = SourceFile(Path("page.html"), "page", "page.html")
    assert list(html.read(page, origin)) == [Omitted(html.HEADINGS_ONLY, 1)]


def test_a_page_larger_than_a_page_may_be_is_refused_unread(corpus: Corpus, tmp_path: Path) -> None:
    folder = _site(tmp_path / "site", "<html></html>")
    with (folder / "hostile.html").open("wb") as file:
        file.truncate(MAX_PAGE_BYTES + 1)  # sparse: refused by its size, never read
    report = corpus.ingest(folder)
    [problem] = report.skipped
    assert "larger" in problem.reason and "MB a page may be" in problem.reason
    assert [document.id for document in corpus.documents()] == ["good"]


def test_any_exception_the_parser_raises_is_that_files_reason(
    corpus: Corpus, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from selectolax.lexbor import LexborHTMLParser, SelectolaxError

    def parser(source: str) -> LexborHTMLParser:
        if "HOSTILE" in source:
            raise SelectolaxError("Can't initialize object for HTML Document.")
        return LexborHTMLParser(source)

    monkeypatch.setattr(html, "LexborHTMLParser", parser)
    report = corpus.ingest(_site(tmp_path / "site", "<p>HOSTILE</p>"))
    [problem] = report.skipped
    assert "SelectolaxError" in problem.reason
    assert [document.id for document in corpus.documents()] == ["good"]


@pytest.mark.parametrize("name", ["pipe.md", "pipe.html", "pipe.jsonl"])
def test_a_named_pipe_in_the_folder_is_skipped_with_its_reason_without_blocking(
    corpus: Corpus, tmp_path: Path, name: str
) -> None:
    # Issue 29, item 14: a pipe with no writer, opened as a file is, holds the ingest forever;
    # passed over in silence, its owner never learns why it is missing from the index.
    folder = _site(tmp_path / "site", "<p>fine too</p>", name="other.html")
    with watched_pipe(folder / name) as pipe:
        report = corpus.ingest(folder)
    assert not pipe.waited, "the ingest waited on the named pipe"
    [problem] = report.skipped
    assert problem.path.endswith(name) and "not a regular file" in problem.reason
    assert sorted(document.id for document in corpus.documents()) == ["good", "other"]


def test_a_named_pipe_given_alone_is_skipped_with_its_reason_without_blocking(
    corpus: Corpus, tmp_path: Path
) -> None:
    with watched_pipe(tmp_path / "pipe.md") as pipe:
        report = corpus.ingest(tmp_path / "pipe.md")
    assert not pipe.waited, "the ingest waited on the named pipe"
    [problem] = report.skipped
    assert "not a regular file" in problem.reason


def test_a_file_swapped_for_a_named_pipe_is_refused_without_blocking(tmp_path: Path) -> None:
    folder = _site(tmp_path / "site", "<p>soon a pipe</p>")
    [_, hostile] = source_files(folder)
    (folder / "hostile.html").unlink()
    # No writer: a blocking open would wait forever (the watch lets it go, and says so).
    with watched_pipe(folder / "hostile.html") as pipe:
        items = list(read_source(hostile))
    assert not pipe.waited, "the read waited on the named pipe"
    [item] = items
    assert isinstance(item, Rejected) and "not a regular file" in item.reason


def test_twenty_thousand_entries_each_with_a_labelled_part_are_read_in_one_pass() -> None:
    # gtk-doc's shape, twenty thousand times: judged label by label against every other
    # entry's, the page took 19 s.
    entries = "".join(
        f'<a name="f{i}"></a><h3>f{i} ()</h3><p>Does {i}.</p>'
        f'<a name="f{i}.parameters"></a><h4>Parameters</h4><p>n {i}</p>'
        for i in range(20_000)
    )
    documents = [
        item for item in _read(f"<main><h1>API</h1>{entries}</main>") if isinstance(item, Document)
    ]
    assert len(documents) == 20_000
    assert documents[-1].text.endswith("Parameters\n\nn 19999")


def test_a_synopsis_of_twenty_thousand_rows_is_read_in_one_pass() -> None:
    rows = "".join(f'<tr><td>int</td><td><a href="#f{i}">f{i}</a></td></tr>' for i in range(20_000))
    entries = "".join(
        f'<a name="f{i}"></a><h3>f{i} ()</h3><pre>int f{i} (void);</pre>' for i in range(20_000)
    )
    page = (
        f"<main><h1>API</h1><h2>Functions</h2><table>{rows}</table><h2>Details</h2>{entries}</main>"
    )
    documents = [item for item in _read(page) if isinstance(item, Document)]
    assert len(documents) == 20_000 and "f19999" not in documents[0].text


def _parsers() -> int:
    """How many HTML trees the process holds."""
    from selectolax.lexbor import LexborHTMLParser

    gc.collect()
    return sum(1 for thing in gc.get_objects() if isinstance(thing, LexborHTMLParser))


def test_a_page_hands_over_its_sections_holding_neither_its_tree_nor_its_text() -> None:
    # The tree is 8 times the page's size, its source once more: held while the page's text
    # was cut into sections and its documents handed over, a 32 MB page took 740 MB at its
    # peak (benchmarks/hostile_files.py --only 8 measures it).
    steps = "".join(f"<h2>Step {n}</h2><p>Text of step {n}.</p>" for n in range(50))
    page = f"<main><h1>Guide</h1><p>How to.</p>{steps}</main>"
    held, parsers = sys.getrefcount(page), _parsers()
    origin = SourceFile(Path("page.html"), "page", "page.html")
    items = html.read(page, origin)
    first = next(items)
    assert sys.getrefcount(page) == held, "the reader still holds the page's source"
    assert _parsers() == parsers, "the reader still holds the page's tree"
    documents = [first, *items]
    assert [d.title for d in documents] == ["Guide"] + [f"Guide › Step {n}" for n in range(50)]
    assert documents[-1].text == "Step 49\n\nText of step 49."


def test_a_files_text_is_held_by_its_reader_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # So that the reader can let it go once it needs it no more (the HTML reader: parsed).
    holders: list[tuple[int, int]] = []

    def reader(text: str, origin: SourceFile) -> Iterator[Document]:
        alone = "".join(["held by ", "this reader alone"])
        holders.append((sys.getrefcount(text), sys.getrefcount(alone)))
        yield Document(origin.default_id, "Page", text)

    monkeypatch.setitem(READERS, ".html", reader)
    (tmp_path / "page.html").write_text("<p>The page.</p>", "utf-8")
    [source] = source_files(tmp_path / "page.html")
    [document] = read_source(source)
    assert isinstance(document, Document) and document.text == "<p>The page.</p>"
    [(text, alone)] = holders
    assert text == alone, "the file's text is held beside its reader"
