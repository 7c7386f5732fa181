"""The checks the development collections' tests run (tests/support/question_sets.py) catch
what they are there to catch, on a two-section Sphinx page and a set written to break them."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.question_sets import (
    Collection,
    shape_problems,
    sphinx_sections,
    terms_outside_gold,
    unread_gold,
)

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
    return Collection.load(folder)


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
    sections = sphinx_sections(collection.site / "guide.html")
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
    assert unread_gold(collection) == [
        ("no-term-there", BASE + "guide.html#timeouts"),
        ("no-such-anchor", BASE + "guide.html#cookies"),
        ("no-such-page", BASE + "other.html"),
    ]


def test_a_term_no_gold_section_holds_is_reported(tmp_path: Path) -> None:
    collection = _collection(
        tmp_path, [_question("q", [BASE + "guide.html#timeouts"], ["timeout", "retries"])]
    )
    assert terms_outside_gold(collection) == [("q", "retries")]


def test_a_broken_set_is_reported_line_by_line(tmp_path: Path) -> None:
    main = [
        _question("a", [BASE + "guide.html#timeouts"], ["timeout"], kind="what"),
        _question("b", [BASE + "guide.html#timeouts", BASE + "guide.html#timeouts"], ["timeout"]),
        _question("elsewhere", ["https://elsewhere.org/guide.html"], ["timeout"], kind="why"),
        _question("no-terms", [BASE + "guide.html"], [], kind="howto"),
    ]
    followups = [
        {
            "id": "a",
            "history": ["Never asked?"],
            "question": "And then?",
            "gold_ids": [BASE + "guide.html"],
            "answer_terms": ["first"],
        }
    ]
    off_topic = [
        {
            "id": "off",
            "question": "Capital of France?",
            "gold_ids": [BASE + "guide.html"],
            "expects": "nothing_found",
        }
    ]
    collection = _collection(tmp_path, main, followups=followups, off_topic=off_topic)
    assert shape_problems(collection, questions=5, followups=1, off_topic=1) == [
        ("questions", "4 lines, fewer than 5"),
        ("a", "id used twice"),
        ("elsewhere", "https://elsewhere.org/guide.html"),
        ("no-terms", "no gold or no answer terms"),
        ("b", "a gold address twice"),
        ("a", "does not continue a question of the set"),
        ("off", "answerable"),
        ("kind", "howto"),
        ("kind", "no difference question"),
    ]
