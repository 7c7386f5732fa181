"""The checks the development collections' tests run (tests/support/question_sets) catch what
they are there to catch: on a two-section Sphinx page and a set written to break them, on
real pages of each generator (tests/corpus/fixtures/sites), and on Markdown sources."""

from __future__ import annotations

import json
from pathlib import Path

from selectolax.lexbor import LexborHTMLParser
from tests.support.question_sets.checks import (
    Least,
    shape_problems,
    terms_outside_gold,
    unread_gold,
)
from tests.support.question_sets.html_pages import page_sections, site_sections
from tests.support.question_sets.markdown_pages import published_sections

from citeline.evaluation.collections import Collection, read_collection

SITES = Path(__file__).parents[1] / "corpus" / "fixtures" / "sites"

BASE = "https://docs.example.org/en/1.0/"
PAGE = """<html><head><title>Guide &#8212; Example documentation</title></head><body>
<div class="sphinxsidebar">Quick search</div>
<div class="body" role="main">
<section id="guide"><span id="id1"></span><h1>Guide<a class="headerlink" href="#guide">¶</a></h1>
<p>Read this first.</p>
<section id="query-strings"><h2>Query strings<a class="headerlink" href="#query-strings">¶</a></h2>
<div class="highlight"><pre><span>r</span> <span>=</span> <span>get</span><span>(</span>\
<span>url</span><span>,</span> <span>params</span><span>=</span><span>payload</span><span>)</span>
</pre></div>
</section>
<div class="section" id="timeouts"><h2>Timeouts</h2>
<p>Pass <code class="docutils literal"><span class="pre">timeout</span></code> in seconds.</p>
</div>
</section>
</div></body></html>
"""


def _collection(
    tmp_path: Path, main: list[dict[str, object]], **files: list[dict[str, object]]
) -> Collection:
    site = tmp_path / "html"
    site.mkdir()
    (site / "guide.html").write_text(PAGE, encoding="utf-8")
    folder = tmp_path / "example"
    folder.mkdir()
    (folder / "collection.toml").write_text(
        f'name = "example"\nsite = "{site}"\nbase_url = "{BASE}"\n'
        'questions = "q.jsonl"\nfollowups = "f.jsonl"\noff_topic = "o.jsonl"\n',
        encoding="utf-8",
    )
    contents = {
        "q.jsonl": main,
        "f.jsonl": files.get("followups", []),
        "o.jsonl": files.get("off_topic", []),
    }
    for name, records in contents.items():
        (folder / name).write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return read_collection(folder)


def _question(qid: str, gold: list[str], terms: list[str], kind: str = "how") -> dict[str, object]:
    return {
        "id": qid,
        "question": f"Question {qid}?",
        "kind": kind,
        "gold_ids": gold,
        "answer_terms": terms,
    }


def test_a_page_reads_as_its_sections_with_code_as_the_page_shows_it(tmp_path: Path) -> None:
    collection = _collection(tmp_path, [])
    assert collection.site is not None
    sections = page_sections(collection.site / "guide.html", "sphinx")
    assert sections[""] == sections["guide"] == "Guide Read this first."
    assert sections["query-strings"] == "Query strings r = get(url, params=payload)"
    assert sections["timeouts"] == "Timeouts Pass timeout in seconds."
    assert not any("Quick search" in text or "¶" in text for text in sections.values())


def test_gold_that_is_no_section_or_holds_no_term_is_reported(tmp_path: Path) -> None:
    collection = _collection(
        tmp_path,
        [
            _question(
                "right",
                [BASE + "guide.html#query-strings", BASE + "guide.html"],
                ["params=", "first"],
            ),
            _question("no-term-there", [BASE + "guide.html#timeouts"], ["params="]),
            _question("no-such-anchor", [BASE + "guide.html#cookies"], ["timeout"]),
            _question("no-such-page", [BASE + "other.html"], ["timeout"]),
        ],
    )
    assert collection.site is not None
    sections = site_sections(collection.site, BASE, "sphinx")
    assert unread_gold(collection.answerable(), sections) == [
        ("no-term-there", BASE + "guide.html#timeouts"),
        ("no-such-anchor", BASE + "guide.html#cookies"),
        ("no-such-page", BASE + "other.html"),
    ]


def test_a_term_no_gold_section_holds_is_reported(tmp_path: Path) -> None:
    collection = _collection(
        tmp_path, [_question("q", [BASE + "guide.html#timeouts"], ["timeout", "retries"])]
    )
    assert collection.site is not None
    sections = site_sections(collection.site, BASE, "sphinx")
    assert terms_outside_gold(collection.answerable(), sections) == [("q", "retries")]


def test_a_broken_set_is_reported_line_by_line(tmp_path: Path) -> None:
    main = [
        _question("a", [BASE + "guide.html#timeouts"], ["timeout"], kind="what"),
        _question("b", [BASE + "guide.html#timeouts", BASE + "guide.html#timeouts"], ["timeout"]),
        _question("elsewhere", ["https://elsewhere.org/guide.html"], ["timeout"], kind="why"),
        _question("no-terms", [BASE + "guide.html"], [], kind="howto"),
    ]
    followups: list[dict[str, object]] = [
        {
            "id": "a",
            "history": ["Never asked?"],
            "question": "And then?",
            "gold_ids": [BASE + "guide.html"],
            "answer_terms": ["first"],
        }
    ]
    off_topic: list[dict[str, object]] = [
        {
            "id": "off",
            "question": "Capital of France?",
            "gold_ids": [BASE + "guide.html"],
            "expects": "nothing_found",
        },
        {
            "id": "off-in-a-conversation",
            "history": ["Question a?"],
            "question": "And Spain's?",
            "gold_ids": [],
            "expects": "nothing_found",
        },
    ]
    collection = _collection(tmp_path, main, followups=followups, off_topic=off_topic)
    assert shape_problems(collection, Least(questions=5, followups=1, off_topic=1)) == [
        ("questions", "4 lines, fewer than 5"),
        ("a", "id used twice"),
        ("elsewhere", "https://elsewhere.org/guide.html"),
        ("no-terms", "no gold or no answer terms"),
        ("b", "a gold address twice"),
        ("a", "does not continue a question of the set"),
        ("off", "answerable"),
        ("off-in-a-conversation", "answerable"),
        ("kind", "howto"),
        ("kind", "no difference question"),
    ]


def test_a_set_without_follow_ups_or_off_topic_files_is_short_of_both(tmp_path: Path) -> None:
    collection = _collection(
        tmp_path,
        [
            _question(kind, [BASE + "guide.html"], ["first"], kind=kind)
            for kind in ("how", "what", "why", "difference")
        ],
    )
    bare = read_collection(collection.folder)
    manifest = (bare.folder / "collection.toml").read_text(encoding="utf-8")
    (bare.folder / "collection.toml").write_text(
        manifest.replace('followups = "f.jsonl"\n', "").replace('off_topic = "o.jsonl"\n', ""),
        encoding="utf-8",
    )
    bare = read_collection(bare.folder)
    assert (bare.followups, bare.off_topic) == (None, None)
    assert shape_problems(bare, Least(questions=4, followups=1, off_topic=1)) == [
        ("follow-ups", "0 lines, fewer than 1"),
        ("off-topic", "0 lines, fewer than 1"),
    ]


def test_an_asciidoc_manual_page_reads_by_its_headings_ids_without_an_opening() -> None:
    sections = page_sections(SITES / "git-docs" / "git-stage.html", "asciidoc")
    assert sorted(sections) == ["_description", "_git", "_synopsis"]
    assert sections["_synopsis"] == "SYNOPSIS git stage <arg>…"
    # The page's opening (its title and NAME line) is no section a gold address names.
    assert "" not in sections and not any("NAME" in text for text in sections.values())


def test_docbook_anchors_and_glossary_terms_are_places_and_an_unnamed_heading_is_not(
    tmp_path: Path,
) -> None:
    page = tmp_path / "manual.html"
    page.write_text(
        "<html><body><h1>Manual</h1>"
        '<h2 class="title"><a name="branches"></a>Branches</h2><p>A branch is a line.</p>'
        "<h3>Pitfalls</h3><p>Detached heads.</p>"
        '<dl><dt><a id="def_index"></a>index</dt><dd>The staging area.</dd>'
        "<dt>ref</dt><dd>A name.</dd></dl>"
        # An id used twice names its first place, as a browser scrolls to it.
        '<h2 class="title"><a name="branches"></a>Branches again</h2><p>Later.</p>'
        "</body></html>",
        encoding="utf-8",
    )
    assert page_sections(page, "asciidoc") == {
        "branches": "Branches A branch is a line. Pitfalls Detached heads.",
        "def_index": "index The staging area. ref A name.",
    }


def test_a_docbook_xsl_heading_is_named_by_its_own_anchor_not_the_copy_html_makes_of_the_last(
    tmp_path: Path,
) -> None:
    # DocBook XSL's XHTML self-closes a heading's anchor; read as HTML the <a> stays open, and
    # the whitespace after it copies it into what follows, the next heading included, ahead of
    # that heading's own anchor (the Debian Reference's pages, laid out as they are).
    page = tmp_path / "ch01.en.html"
    page.write_text(
        '<html><body><div class="navheader">Prev Next</div>\n<div class="chapter">\n'
        '<div class="titlepage"><h1 class="title"><a id="_tutorials"/>Chapter 1. Tutorials</h1>'
        '</div>\n<div class="toc"><dl><dt>1.1. Links</dt></dl></div>\n<p>Learn.</p>\n'
        '<div class="section"><div class="titlepage">'
        '<h2 class="title"><a id="_links"/>1.1. Links</h2></div>\n<p>Use ln -s.</p>\n</div>\n'
        '<div class="section"><div class="titlepage">'
        '<h2 class="title"><a id="_pipes"/>1.2. Pipes</h2></div>\n<p>Use mkfifo.</p>\n</div>\n'
        '</div>\n<div class="navfooter">Home</div></body></html>',
        encoding="utf-8",
    )
    assert [
        [marked.id for marked in heading.css("[id]")]
        for heading in LexborHTMLParser(page.read_text(encoding="utf-8")).css("h2")
    ] == [["_tutorials", "_links"], ["_links", "_pipes"]]
    assert page_sections(page, "docbook") == {
        "": "Chapter 1. Tutorials Learn.",
        "_tutorials": "Chapter 1. Tutorials Learn.",
        "_links": "1.1. Links Use ln -s.",
        "_pipes": "1.2. Pipes Use mkfifo.",
    }


def test_an_mdbook_chapter_opens_at_its_own_address_and_at_its_title_s(tmp_path: Path) -> None:
    sections = page_sections(SITES / "rust-book" / "ch05-00-structs.html", "mdbook")
    title = "using-structs-to-structure-related-data"
    assert sections[""] == sections[title]
    assert sections[title].startswith("Using Structs to Structure Related Data A struct")
    # The book's table of contents beside the chapter is outside <main>.
    assert not any("Foreword" in text for text in sections.values())


def test_an_mkdocs_heading_without_an_id_stays_in_the_section_before_it(tmp_path: Path) -> None:
    page = tmp_path / "index.html"
    page.write_text(
        '<html><body><nav>Home</nav><div role="main">New in 1.4.<h1 id="mkdocs">MkDocs</h1>'
        "Intro.<p>Fast.</p><h2>Features</h2>Many.<ul><li>Themes</li><li>Search</li></ul>"
        '<h2 id="install">Install <a class="headerlink" href="#install">&para;</a></h2>'
        "<p>Run <code>pip</code>.</p></div></body></html>",
        encoding="utf-8",
    )
    # What comes before the first heading is the page's opening, at the page's own address.
    assert page_sections(page, "mkdocs") == {
        "": "New in 1.4. MkDocs Intro. Fast. Features Many. Themes Search",
        "mkdocs": "MkDocs Intro. Fast. Features Many. Themes Search",
        "install": "Install Run pip.",
    }
    sections = site_sections(tmp_path, "https://www.mkdocs.org/", "mkdocs")
    assert sections("https://www.mkdocs.org/#install") == "Install Run pip."
    assert sections("https://www.mkdocs.org/#features") is None
    assert sections("https://www.mkdocs.org/about/") is None


def test_markdown_sources_read_as_the_sections_mkdocs_publishes(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    (docs / "tutorial").mkdir(parents=True)
    (tmp_path / "docs_src").mkdir()
    (docs / "tutorial" / "options.md").write_text(
        "# Options\n\nIntro.\n\n## Only --force\n\n{!../docs_src/force.py!}\n\n"
        "## Only --force\n\nAgain.\n\n```\n# not a heading\n```\n",
        encoding="utf-8",
    )
    (docs / "index.md").write_text("Welcome.\n\n## [Install](install.md)\n\nRun it.\n", "utf-8")
    (tmp_path / "docs_src" / "force.py").write_text("force: bool = False\n", encoding="utf-8")
    published = published_sections(docs, "https://typer.example/")
    assert sorted(published) == [
        "https://typer.example/",
        "https://typer.example/#install",
        "https://typer.example/tutorial/options/",
        "https://typer.example/tutorial/options/#only-force",
        "https://typer.example/tutorial/options/#only-force_1",
    ]
    forced = published["https://typer.example/tutorial/options/#only-force"]
    assert "force: bool = False" in forced.text and "force: bool" not in forced.own_text
    again = published["https://typer.example/tutorial/options/#only-force_1"]
    assert again.text == "## Only --force Again. ``` # not a heading ```"
