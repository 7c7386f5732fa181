"""What one hostile file costs an ingest: the nesting, repetition, size and pipe attacks.

Run: ``.venv/bin/python benchmarks/hostile_files.py [--retrieval hybrid] [--only N ...]``.
Each attack is one page written into a fresh folder beside one good page and ingested for real
(``Corpus.ingest`` into a fresh SQLite index, lexical by default: the reader's own cost;
``--retrieval hybrid`` adds the vectors ``citeline ingest`` stores, each section's passages and
the texts the embedded model reads it by for meaning, 2 to 25 ms of CPU a text on an AVX2 core,
which a page of many small sections multiplies); the table gives the page's size, the ingest's
CPU and wall seconds, seconds of CPU per MB, its peak memory above the process's resident size
before it began (Linux ``VmHWM``, reset through ``/proc/self/clear_refs``), and what became of
the page (indexed as N sections, and what the report counts as left out of it, or skipped
with its reason). Targets (issue 29): under 2 s per MB, or skipped with a reason; peak memory
under ``TARGET_PEAK_MB``; the good page is always indexed. The 200 MB page is written sparse,
so it costs no disk; the named pipe has no writer, so an ingest that opened it as a file
would never end.

The Markdown attacks are pages of an MkDocs project (its ``mkdocs.yml`` above the ingested
``docs/`` folder sets the dialect they attack), and some attack the settings themselves.
Their pages are small, so their target is seconds of CPU, not seconds per MB: the reader
is linear where it must be (each of them took seconds to minutes before its bound). The
tests beside each rule check what the page becomes; what it costs is measured here, never
timed inside a unit test.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.table import Table

from citeline.agent.meaning import ingest_reading
from citeline.corpus import Corpus
from citeline.corpus.formats import api_docs
from citeline.corpus.formats.limits import MAX_PAGE_BYTES
from citeline.corpus.ingest_report import IngestReport

TARGET_SECONDS_PER_MB = 2.0
# The largest page the size limit reads peaks at 11 times its size in the HTML reader (369
# MB at 32 MB, its tree 240 MB of it), above the 104 MB of the embedded model an ingest loads
# where the dense extra is installed (454 MB in all, docs/benchmarks.md); no page may cost
# more than that and a margin. A page of links costs more a byte: the largest index the limit
# reads (643,000 links, three nodes of the tree each) parses to 493 MB and peaks at 459 MB
# above the resident size, 915 MB while each link's marks were nodes of its tree.
TARGET_PEAK_MB = 600
# A small Markdown page or a settings attack: measured at 0.02 to 0.6 s each at load 6 (7
# December) where the readings before their bounds took 2 s to minutes.
TARGET_SECONDS_SMALL = 2.0


def _nested_divs(path: Path) -> None:
    path.write_text("<div>" * 1_000_000 + "x" + "</div>" * 1_000_000, "utf-8")


def _nested_sections(path: Path) -> None:
    sections = "".join(f"<section id=s{i}><h2>H{i}</h2><p>t</p>" for i in range(20_000))
    path.write_text(f"<main>{sections}</main>", "utf-8")


def _shared_id(path: Path) -> None:
    headings = "".join(f"<h2 id=a>Same</h2><p>text {i}</p>" for i in range(20_000))
    path.write_text(f"<main>{headings}</main>", "utf-8")


def _one_line_sections(path: Path) -> None:
    headings = "".join(f"<h2 id=s{i}>Step {i}</h2><p>text {i}</p>" for i in range(20_000))
    path.write_text(f"<main>{headings}</main>", "utf-8")


def _glossary(path: Path) -> None:
    terms = "".join(
        f"<dt id=term-{i}>term {i}</dt><dd><p>meaning {i}</p></dd>" for i in range(30_000)
    )
    path.write_text(f"<main><h1>Glossary</h1><dl class=glossary>{terms}</dl></main>", "utf-8")


def _flat_headings(path: Path) -> None:
    body = "".join(f"<h2 id=h{i}>H{i}</h2><p>words of section {i}</p>" for i in range(50_000))
    path.write_text(f"<body>{body}</body>", "utf-8")


def _large(path: Path) -> None:
    with path.open("wb") as file:
        file.truncate(200 * 1024 * 1024)


def _largest_read(path: Path) -> None:
    section = "<h2>Section</h2>" + "<p>Zebra crossings have broad white stripes.</p>" * 60
    count = int(0.99 * MAX_PAGE_BYTES) // len(section)
    path.write_text(f"<main>{section * count}</main>", "utf-8")


def _largest_link_list(path: Path) -> None:
    # An index page at the size limit: each link's words are marked in the page's text, and
    # what is held per link, not per byte, sets its peak.
    entry = '<li><a href="page{0}.html#x">word {0}</a></li>'
    size = int(0.99 * MAX_PAGE_BYTES) - 40
    entries, count = [], 0
    while size > 0:
        size -= len(entry.format(count))
        entries.append(entry.format(count))
        count += 1
    path.write_text(f"<main><h1>Index</h1><ul>{''.join(entries)}</ul></main>", "utf-8")


def _largest_linked_prose(path: Path) -> None:
    # Links inside paragraphs of prose, sections of 60 paragraphs, at the size limit.
    paragraphs = "".join(
        f'<p>Zebra crossings have <a href="page{n}.html#x">broad white stripes</a> on roads.</p>'
        for n in range(60)
    )
    section = f"<h2>Section</h2>{paragraphs}"
    count = int(0.99 * MAX_PAGE_BYTES) // len(section)
    path.write_text(f"<main>{section * count}</main>", "utf-8")


def _named_pipe(path: Path) -> None:
    os.mkfifo(path)


def _anchor_runs(path: Path) -> None:
    # texi2html writes a run of anchors before each heading; each heading reads a bounded run.
    run = "".join(f'<a name="n{i}"></a>' for i in range(100_000))
    nodes = "".join(
        f'<a name="node-{i}"></a><a name="SEC{i}"></a><h2>Node {i}</h2><p>Text {i}.</p>'
        for i in range(20_000)
    )
    path.write_text(f"<body><h1>Manual</h1><p>Intro.</p>{run}<h2>Long</h2><p>x</p>{nodes}")


def _nested_contents(path: Path) -> None:
    # Lists classed as a table of contents, each judged once, not with all it holds.
    words = " ".join(f"word{i}" for i in range(400))
    nested = ('<ul class="toc"><li>' + words) * 500 + "</li></ul>" * 500
    path.write_text(f"<body><main><h1>T</h1><p>x</p>{nested}</main></body>", "utf-8")


def _index_of_links(path: Path) -> None:
    # An index page (Sphinx's genindex) of entries that all point elsewhere, read in one pass.
    entries = "".join(
        f'<li><a href="api.html#m.A{i}">a{i}() (m.M method)</a></li>' for i in range(100_000)
    )
    path.write_text(
        '<body><div class="body" role="main"><h1 id="index">Index</h1><h2 id="A">A</h2>'
        f'<table class="indextable genindextable"><tr><td><ul>{entries}</ul></td></tr>'
        "</table></div></body>",
        "utf-8",
    )


def _radio_tabs(path: Path) -> None:
    # A tab set's labels in a row of their own over as many panels, each label moved to its
    # panel: looked up again for every label, 5,000 took 31 s.
    count = 20_000
    inputs = "".join(f'<input type="radio" name="g" id="r{i}">' for i in range(count))
    labels = "".join(f'<label for="r{i}">Tab {i}</label>' for i in range(count))
    panels = "".join(f"<div><p>panel {i}</p></div>" for i in range(count))
    path.write_text(
        f"<main><h1>Tabs</h1><div>{inputs}<div>{labels}</div><div>{panels}</div></div></main>",
        "utf-8",
    )


def _block_lines(path: Path) -> None:
    # A listing whose lines are blocks (Docusaurus's, Starlight's), read in one walk however
    # deep its blocks nest.
    lines = "".join(f'<div class="l"><span>x = {i}</span><br></div>' for i in range(200_000))
    deep = "<div>" * 500 + "y = 1" + "</div>" * 500
    path.write_text(f"<main><h1>Code</h1><pre><code>{lines}{deep}</code></pre></main>", "utf-8")


def _glued_blocks(path: Path) -> None:
    # Minified markup (VitePress, Hugo, Astro write no whitespace between tags): every
    # item's words glued to the blocks it holds, each block starting a line of its own.
    items = "".join(
        f"<li>Step {i}<ol><li>Click {i}<p>then</p><div>wait</div></li></ol></li>"
        for i in range(100_000)
    )
    path.write_text(f"<main><h1>Steps</h1><ul>{items}</ul></main>", "utf-8")


def _one_reader_words(path: Path) -> None:
    # Titles hidden under their label, permalinks after their headings, a frame of captions:
    # each element read once.
    asides = "".join(
        f'<aside aria-label="Note {i}"><p aria-hidden="true">Note {i}</p><p>Text {i}.</p></aside>'
        for i in range(30_000)
    )
    headings = "".join(
        f'<h2 id="h{i}">Part {i}</h2><a href="#h{i}"><span class="sr-only">Section {i}</span></a>'
        f"<p>Text {i}.</p>"
        for i in range(20_000)
    )
    captions = '<span class="sr-only">Terminal window</span></figcaption><figcaption>' * 20_000
    figure = f"<figure><figcaption>{captions}</figcaption><pre>ls</pre></figure>"
    path.write_text(f"<main><h1>Notes</h1>{asides}{figure}{headings}</main>", "utf-8")


def _numbered_items(path: Path) -> None:
    items = "".join(f"{999_999_990 + n}. item\n" for n in range(10_000))
    path.write_text(f"# Long\n\n{items}", "utf-8")


def _link_items(path: Path) -> None:
    items = "".join(f"- [Page {n}](page-{n}.md#part-{n})\n" for n in range(100_000))
    path.write_text(f"# Contents\n\nEvery page.\n\n{items}", "utf-8")


def _nested_link_items(path: Path) -> None:
    # 11,111 nests of 9 lists, 8 of links, the innermost holding an item of prose: a list is
    # known to be no list of links only there, and each of the 8 around it is marked once.
    # (markdown-it reads no deeper than its maxNesting, 20 tokens: a 9th list's item of
    # prose is the deepest it keeps.) At the target's edge before the rule and after it
    # (1.95 to 2.09 s per MB, 7 December, load 3.5, both arms alternated): markdown-it's
    # block parse of 100,000 short items is half of it, the lists of links none of it.
    # Under the line bound (``line_bound``) its first 91,700 of 111,111 lines are read, its
    # parse with the cycle collector paused: 1.41 to 1.50 s per MB and 268 to 297 MB, where
    # read whole 1.92 to 2.15 and 353 MB (7 December, load 1.8 to 3.6, alternated).
    nest = "".join(f"{' ' * 4 * level}- [Page {level}](page-{level}.md)\n" for level in range(8))
    items = (nest + " " * 32 + "- Prose.\n\n") * 11_111
    path.write_text(f"# Contents\n\n{items}", "utf-8")


def _lazy_quote(path: Path) -> None:
    # One quote as deep as markdown-it reads, its paragraph continued by 500,000 lazy lines
    # (lines without ``>``): markdown-it reads each of them again at every open level. 24.5
    # to 29.7 s of CPU and 371 to 422 MB read whole (7 December, load 2 to 5); the same page
    # 3 quotes deep took 9.5 s, and with no quote 6.1 to 8.8 s (the next row), so no bound
    # on a quote's depth alone reaches the target: the floor is short lines. Read up to its
    # 25,000th line (``line_bound``): 1.3 to 1.4 s and 9 to 22 MB (load 2 to 3.6).
    path.write_text("# Quoted\n\n" + ">" * 20 + " Quoted.\n" + "x\n" * 500_000, "utf-8")


def _short_lines(path: Path) -> None:
    # One paragraph of 500,000 one-letter lines: markdown-it looks for a setext underline
    # over all of them, then for each line's end of paragraph, then makes each line break
    # a token. 6.1 to 8.8 s of CPU and 257 to 295 MB read whole (7 December, load 2 to 5);
    # read up to its 25,000th line, 0.29 to 0.33 s and 9 to 11 MB.
    path.write_text("# Lines\n\n" + "x\n" * 500_000, "utf-8")


def _definitions(path: Path) -> None:
    # def_list makes each line a paragraph of its own below the text above it: read whole,
    # 200,000 took 4.7 to 5.7 s of CPU and 260 to 288 MB (7 December, load 2 to 3.5; 6.4 s
    # against 4.4 as CommonMark at load 1 to 2), up to its 30,000th line 0.55 to 0.6 s and
    # 31 to 36 MB.
    path.write_text("# Terms\n\nTerm\n" + ":   x\n" * 200_000, "utf-8")


def _definitions_after_blanks(path: Path) -> None:
    # Each definition looks for text above it: from the page's start, across every blank
    # line before its first text, it took 10.6 s of CPU; from the end, 0.6 s. Definitions
    # of 80 characters, so that the page (1.6 MB) is read whole under the line bound.
    definition = ":   A definition as long as a sentence of prose, with a few more words to stop."
    path.write_text("\n" * 20_000 + (definition + "\n") * 20_000, "utf-8")


def _wide_table(path: Path) -> None:
    # A table's cost is per cell, not per line, so the line bound does not reach it: each
    # cell is three tokens and an inline parse of its own (profiled: markdown-it's inline
    # parse 43 %, its table rule 25 %, our sections 21 %). Read whole, 2.1 to 2.2 s of CPU
    # and 255 MB; read up to 50,000 cells (``cell_bound``), 0.57 s and 62 MB (7 December,
    # load 1.8, alternated).
    row = "|" + "x|" * 1_000 + "\n"
    path.write_text("# Wide\n\n" + row + "|" + "-|" * 1_000 + "\n" + row * 200, "utf-8")


def _one_line_of_links(path: Path) -> None:
    # One list item of 400,000 links on one line: never cut by the line bound. Its peak is
    # markdown-it's 1.6 million inline tokens, 460 bytes each (737 MB in the parse alone,
    # our sections 15 to 35 more): read whole 10.9 to 11.7 s and 779 MB; up to 600,000
    # tokens (``inline_bound``) 4.7 to 4.8 s and 330 MB (7 December, load 2 to 2.5).
    links = " ".join(f"[word {n}](page-{n}.md#part-{n})" for n in range(400_000))
    path.write_text(f"# Links\n\nIntro.\n\n- {links}\n", "utf-8")


def _heading_of_links(path: Path) -> None:
    # One heading of 40,000 links (427,000 characters of title, 214 passages): its title
    # was written into each passage's row of the search index, twice its terms, so its cost
    # grew as the square of the heading (20,000 links 2.2 s and 167 MB, 40,000 7.4 s and
    # 535 MB, 80,000 23 s and 1.9 GB, 7 December, load 6). Its title is cut to
    # ``MAX_HEADING_CHARS`` (``heading_bound``), its text kept whole: 2.4 to 2.5 s and
    # 127 MB where main took 8.0 s and 495 MB (7 December, load 7, alternated).
    links = " ".join(f"[word {n}](page-{n}.md#part-{n})" for n in range(40_000))
    path.write_text(f"# {links}\n\nText.\n", "utf-8")


def _html_heading_of_links(path: Path) -> None:
    # The same heading in HTML: 6.2 to 6.8 s and 578 MB before the bound, 0.85 to 0.89 s
    # and 36 MB after it (7 December, load 7, alternated).
    links = " ".join(f'<a href="page-{n}.html#part-{n}">word {n}</a>' for n in range(40_000))
    path.write_text(f"<main><h1>Page</h1><p>Intro.</p><h2>{links}</h2><p>Text.</p></main>")


def _shortcodes(path: Path) -> None:
    line = ":material-" + "a-" * 20_000 + " " + ":material-x:" * 1000 + " end"
    path.write_text(f"# Page\n\n{line}\n", "utf-8")


def _annotation_markers(path: Path) -> None:
    lines = "x = 1  # (1)!\n" * 1000 + "# " + "(1) /* (2)! " * 20_000 + "\n"
    path.write_text(f"# Page\n\n```py\n{lines}```\n\n1. The note.\n2. Second.\n", "utf-8")


def _info_string(path: Path) -> None:
    path.write_text("# Page\n\n```python " + 'title="x title=' * 100_000 + "\ncode\n```\n")


def _nested_tabs(path: Path) -> None:
    tabs = "".join(f'{" " * 4 * level}=== "T{level}"\n' for level in range(3000))
    path.write_text(f"# Deep\n\n{tabs}{' ' * 4 * 3000}The bottom.\n", "utf-8")


def _space_runs(path: Path) -> None:
    # Each took seconds a line while two parts of a pattern could match the same spaces.
    run = " " * 20_000
    constructs = (
        f"# a{{{run}}}x",
        f"!!!{run}x!",
        "<div " + "markdown " * 20_000,
        f"`code`:a:{{.x {run}{{",
        f"| a {{.x{run} |\n|---|\n| b |",
        f"## a{run}#x {{: #x }}",
    )
    path.write_text("\n\n".join(constructs), "utf-8")


def _spaced_braces(path: Path) -> None:
    heading = "## Name" + " {" * 20_000 + " }" + " " * 20_000 + "x}"
    path.write_text(f"# Page\n\nx\n\n{heading}\n\nBody.\n", "utf-8")


def _dashed_snippet(path: Path) -> None:
    snippets = path.parent.parent / "snippets"
    snippets.mkdir()
    line = "-" * 50_000 + "8<" + " [start:a]" * 5_000
    (snippets / "big.md").write_text(line + "\nkept\n", "utf-8")
    path.write_text('# Page\n\n--8<-- "big.md"\n', "utf-8")


def _plain_page(path: Path) -> None:
    path.write_text("# Page\n\nText.\n", "utf-8")


def _pages_to_exclude(path: Path) -> None:
    for n in range(200):
        (path.parent / f"page{n}.md").write_text(f"# Page {n}\n\nText.\n", "utf-8")
    _plain_page(path)


def _names_to_backtrack_on(path: Path) -> None:
    (path.parent / ("a" * 120 + ".md")).write_text("# Long\n\nText.\n", "utf-8")
    deep = path.parent.joinpath(*["a"] * 60)
    deep.mkdir(parents=True)
    (deep / "c.md").write_text("# Deep\n\nText.\n", "utf-8")
    _plain_page(path)


def _huge_module(path: Path) -> None:
    package = path.parent.parent / "src" / "pkg"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text('"""The pkg."""\n', "utf-8")
    functions = "".join(f'def f{i}():"D"\n' for i in range(50_000))  # 860 KB
    (package / "huge.py").write_text(functions, "utf-8")
    path.write_text("# Reference\n\n::: pkg.huge\n", "utf-8")


def _resident_kb(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


@dataclass(frozen=True)
class Attack:
    name: str
    write: Callable[[Path], None]  # writes the page, and any file it needs beside or above it
    page: str = "hostile.html"
    # The project's mkdocs.yml above the ingested docs/ folder, where the attack needs one
    # (it sets the Markdown dialect attacked, or is itself the attack).
    settings: str | None = None
    # Seconds of CPU the attack may cost in all, where the reader's own bound allows more
    # than TARGET_SECONDS_SMALL.
    target_seconds: float = TARGET_SECONDS_SMALL


_PATTERNS = "".join(f"  section{n}/page{n}-*.md\n" for n in range(5_000))  # 118 KiB
_MISSING = ", ".join(f"missing{n}.txt" for n in range(10_000))
ATTACKS: list[Attack] = [
    Attack("1,000,000 nested div", _nested_divs),
    Attack("20,000 nested sections", _nested_sections),
    Attack("20,000 headings sharing one id", _shared_id),
    Attack("20,000 one-line sections", _one_line_sections),
    Attack("30,000 glossary terms", _glossary),
    Attack("50,000 headings, no content marker", _flat_headings),
    Attack("a 200 MB page", _large),
    Attack("the largest page the limit reads", _largest_read),
    Attack("the largest index of links the limit reads", _largest_link_list),
    Attack("the largest page of linked prose the limit reads", _largest_linked_prose),
    Attack("a named pipe with no writer", _named_pipe),
    Attack("100,000 anchors before 20,000 headings", _anchor_runs),
    Attack("500 nested lists classed as contents", _nested_contents),
    Attack("an index of 100,000 links", _index_of_links),
    Attack("20,000 radio tabs in one row", _radio_tabs),
    Attack("10,000 items from a nine-digit start", _numbered_items, "hostile.md"),
    Attack("100,000 items of links under an intro", _link_items, "hostile.md"),
    Attack("100,000 items in nests of 9 lists", _nested_link_items, "hostile.md"),
    Attack(
        "1,000 shortcodes on one line",
        _shortcodes,
        "hostile.md",
        "markdown_extensions:\n  - pymdownx.emoji\n",
    ),
    Attack(
        "20,000 markers of two code notes",
        _annotation_markers,
        "hostile.md",
        "theme:\n  name: material\n  features:\n    - content.code.annotate\n",
    ),
    Attack("an info string of 100,000 titles", _info_string, "hostile.md"),
    Attack("3,000 nested content tabs", _nested_tabs, "hostile.md"),
    Attack("runs of 20,000 spaces in six constructs", _space_runs, "hostile.md"),
    Attack(
        "a heading of 20,000 spaced braces",
        _spaced_braces,
        "hostile.md",
        "markdown_extensions:\n  - attr_list\n",
    ),
    Attack(
        "a snippet line of 50,000 dashes, 5,000 markers",
        _dashed_snippet,
        "hostile.md",
        "markdown_extensions:\n  - pymdownx.snippets:\n      base_path: [snippets]\n",
    ),
    Attack(
        "5,000 exclude_docs patterns, 200 pages",
        _pages_to_exclude,
        "hostile.md",
        "exclude_docs: |\n" + _PATTERNS,
    ),
    Attack(
        "exclude_docs wildcards that backtrack",
        _names_to_backtrack_on,
        "hostile.md",
        "exclude_docs: |\n  " + "*a" * 15 + "b\n  a/**/a/**/b\n",
    ),
    Attack(
        "10,000 snippets appended to every page",
        _plain_page,
        "hostile.md",
        f"markdown_extensions:\n  - pymdownx.snippets:\n      auto_append: [{_MISSING}]\n",
    ),
    Attack(
        "an API directive on 50,000 functions",
        _huge_module,
        "hostile.md",
        "plugins:\n  - mkdocstrings:\n      handlers:\n        python:\n          paths: [src]\n",
        # The page's own bound: its directives stop past MAX_SECONDS of CPU, checked between
        # module parses of under 2 s each.
        target_seconds=api_docs.MAX_SECONDS + 2.0,
    ),
    Attack("a listing of 200,000 block lines", _block_lines),
    Attack("70,000 words for one kind of reader", _one_reader_words),
    Attack("100,000 minified items glued to their blocks", _glued_blocks),
    Attack("a quote 20 deep, 500,000 lazy lines", _lazy_quote, "hostile.md"),
    Attack("a paragraph of 500,000 one-letter lines", _short_lines, "hostile.md"),
    Attack(
        "200,000 definitions under def_list",
        _definitions,
        "hostile.md",
        "markdown_extensions:\n  - def_list\n",
    ),
    Attack(
        "20,000 blank lines, then 20,000 definitions",
        _definitions_after_blanks,
        "hostile.md",
        "markdown_extensions:\n  - def_list\n",
    ),
    Attack("a table of 200 rows of 1,000 cells", _wide_table, "hostile.md"),
    Attack("one item of 400,000 links on one line", _one_line_of_links, "hostile.md"),
    Attack("a heading of 40,000 links", _heading_of_links, "hostile.md"),
    Attack("an HTML heading of 40,000 links", _html_heading_of_links),
]


def _ingest(
    attack: Attack, folder: Path, arguments: argparse.Namespace
) -> tuple[float, float, float, IngestReport, int]:
    """The attack's page beside a good one, ingested into a fresh index: CPU and wall
    seconds, peak MB above the resident size before it, the report and the page's sections."""
    project = folder / "project"
    site = project / "docs"
    site.mkdir(parents=True)
    if attack.settings is not None:
        (project / "pyproject.toml").write_text("[project]\nname = 'pkg'\n", "utf-8")
        (project / "mkdocs.yml").write_text("site_name: Hostile\n" + attack.settings, "utf-8")
    if attack.page.endswith(".md"):
        (site / "good.md").write_text("# Good\n\nFine.\n", "utf-8")
    else:
        (site / "good.html").write_text("<main><h1>Good</h1><p>Fine.</p></main>", "utf-8")
    attack.write(site / attack.page)
    # As ``citeline ingest`` runs it: with the extra, the texts the embedded model reads
    # each section by for meaning are embedded too (none where the extra is missing).
    reading = ingest_reading() if arguments.retrieval == "hybrid" else None
    with Corpus.open(folder / "index.sqlite") as corpus:
        # The high-water mark starts again at the resident size (Linux, value 5).
        Path("/proc/self/clear_refs").write_text("5")
        before_kb = _resident_kb("VmRSS")
        wall, cpu = time.perf_counter(), time.process_time()
        report = corpus.ingest(site, retrieval=arguments.retrieval, reading=reading)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        peak_mb = max(_resident_kb("VmHWM") - before_kb, 0) / 1024
        sections = sum(1 for d in corpus.documents() if d.id.startswith("hostile"))
        assert corpus.get("good") is not None, "the good page was not indexed"
    return cpu, wall, peak_mb, report, sections


def _written_mb(project: Path) -> float:
    """What the attack wrote, in MB (a sparse page counts its size; a pipe nothing)."""
    files = (path for path in project.rglob("*") if path.is_file())
    return sum(path.stat().st_size for path in files) / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--retrieval", choices=("lexical", "hybrid"), default="lexical")
    parser.add_argument(
        "--only", nargs="*", type=int, help="the attacks to run, by row number from 1"
    )
    arguments = parser.parse_args()
    chosen = [ATTACKS[n - 1] for n in arguments.only] if arguments.only else ATTACKS
    table = Table(title=f"One hostile page beside a good one, ingested ({arguments.retrieval})")
    columns = ("attack", "MB", "CPU s", "wall s", "s per MB", "peak MB", "held", "the page")
    for column in columns:
        table.add_column(column, justify="left" if column in {"attack", "the page"} else "right")
    for attack in chosen:
        with tempfile.TemporaryDirectory() as folder:
            cpu, wall, peak_mb, report, sections = _ingest(attack, Path(folder), arguments)
            megabytes = _written_mb(Path(folder) / "project")  # a pipe's is 0
            per_mb = cpu / megabytes if megabytes else 0.0
            cheap = per_mb < TARGET_SECONDS_PER_MB or cpu < attack.target_seconds
            held = (bool(report.skipped) or cheap) and peak_mb < TARGET_PEAK_MB
            outcome = (
                f"skipped: {report.skipped[0].reason[:60]}..."
                if report.skipped
                else ", ".join([f"{sections} sections", *sorted(report.omitted)])
            )
            table.add_row(
                attack.name,
                f"{megabytes:.1f}",
                f"{cpu:.2f}",
                f"{wall:.2f}",
                f"{per_mb:.2f}" if megabytes else "-",
                f"{peak_mb:.0f}",
                "yes" if held else "NO",
                outcome,
            )
    Console(width=180).print(table)
    print(
        f"targets: under {TARGET_SECONDS_PER_MB:g} s of CPU per MB (or under "
        f"{TARGET_SECONDS_SMALL:g} s in all) or skipped with a reason, "
        f"and under {TARGET_PEAK_MB} MB of peak memory; load average "
        f"{os.getloadavg()[0]:.2f} on {os.cpu_count()} cores (a shared machine)"
    )


if __name__ == "__main__":
    main()
