"""An API reference's controls are no text of it: its links to source lines, its toggles,
its "Run" links, its tooltips' marks, the summary labels every page repeats, its "Read more"
and "More..." links; each beside the link or mark of the same shape that is text. Hand-written
in the generators' shapes (rustdoc 1.63 and current, Node.js' doc tool, Sphinx, Doxygen 1.9)."""

from __future__ import annotations

from pathlib import Path

from citeline.corpus import Document
from citeline.corpus.formats import html, read_source, source_files
from citeline.corpus.formats.origin import SourceFile


def _read(source: str, page: str = "page") -> dict[str, Document]:
    origin = SourceFile(Path(f"{page}.html"), page, f"{page}.html")
    return {d.id: d for d in html.read(source, origin) if isinstance(d, Document)}


def _page(body: str, title: str = "Struct std::collections::HashMap") -> str:
    return f"<html><head><title>{title}</title></head><body><main>{body}</main></body></html>"


def _method(name: str, rightside: str, doc: str, heading_link: str = "") -> str:
    """A method's box as rustdoc writes it: its controls beside its heading, its text after."""
    named = f'<a href="{heading_link}">{name}</a>' if heading_link else name
    return f"""<details open><summary><section id="method.{name}" class="method"><span
class="rightside">{rightside}</span><a href="#method.{name}" class="anchor"></a><h4
class="code-header">pub fn {named}(&amp;self)</h4></section></summary><div
class="docblock">{doc}</div></details>"""


def test_a_link_labelled_source_to_a_line_of_a_listing_is_no_word_of_any_section() -> None:
    methods = _method(
        "len",
        '<span class="since">1.0.0</span> · <a href="../src/map.rs.html#232-234">source</a>',
        "<p>Returns the number of elements in the map.</p>",
    ) + _method("clear", '<a href="../src/map.rs.html#250">source</a>', "<p>Clears the map.</p>")
    documents = _read(_page(f"<h1>Struct HashMap</h1><p>A hash map.</p>{methods}"))
    text = "\n".join(d.text for d in documents.values())
    assert "source" not in text and "·" not in text
    assert documents["page#method.clear"].text == "pub fn clear(&self)\n\nClears the map."


def test_a_link_to_a_line_of_a_listing_that_a_sentence_names_is_text() -> None:
    # A paragraph's link to a line says what it points at; so does a line's number.
    body = """<h1>Loops</h1><p>The scheduler keeps <a href="https://example.org/x.c#L10">this
    loop</a> short.</p><p>Definition at line <a href="x_8h_source.html#l00054">54</a> of file
    x.h.</p>"""
    (page,) = _read(_page(body, "Loops")).values()
    assert "keeps this loop short." in page.text
    assert "Definition at line 54 of file x.h." in page.text


def test_a_source_label_after_a_heading_or_a_signature_leaves_their_words_alone() -> None:
    # Node.js' "[src]" to GitHub's line, inside the heading; Sphinx's "[source]" into the
    # folder of listings viewcode writes (``_modules``), inside the signature's term.
    body = """<h1>Assert</h1><section><h3>Class: assert.AssertionError<a class="srclink"
    href="https://github.com/nodejs/node/blob/v18.20.4/lib/assert.js#L178">[src]</a><span><a
    class="mark" href="#class-assertassertionerror" id="class-assertassertionerror">#</a>
    </span></h3>
    <p>Indicates the failure of an assertion.</p></section><dl><dt id="json.dumps">json.dumps(obj)<a
    href="../_modules/json.html#dumps"><span class="viewcode-link">[source]</span></a></dt>
    <dd><p>Serialize obj to a JSON formatted str.</p></dd></dl>"""
    documents = _read(_page(body, "Assert"))
    titles = [d.title for d in documents.values()]
    assert "Assert › Class: assert.AssertionError" in titles
    assert not any("[src]" in d.text or "[source]" in d.text for d in documents.values())
    assert "json.dumps(obj)\nSerialize obj" in "\n".join(d.text for d in documents.values())


def test_a_link_into_a_generators_folder_that_names_a_file_is_text() -> None:
    body = """<h1>Example</h1><p>Download <a href="_downloads/3f2a/example.py">example.py</a>
    and run it.</p>"""
    (page,) = _read(_page(body, "Example")).values()
    assert "Download example.py and run it." in page.text


def test_a_scripts_toggle_is_no_text_and_a_link_of_a_sentence_to_a_script_stays() -> None:
    body = """<h1>Module binary_heap</h1><span class="out-of-band">1.0.0 · <a
    href="javascript:void(0)" title="collapse all docs">[<span>&#x2212;</span>]</a></span>
    <p>A priority queue. <a href="javascript:show()">Show every method of the queue, with
    its examples</a>.</p>"""
    (page,) = _read(_page(body, "Module binary_heap")).values()
    assert "\u2212" not in page.text and "1.0.0" in page.text
    assert "Show every method of the queue, with its examples." in page.text


def test_an_items_own_name_glued_to_its_path_stays_in_the_title_a_control_beside_goes() -> None:
    # rustdoc 1.63: the item's name leads to the page's top ("#"), written straight after
    # its path; YARD's "collapse" leads nowhere too, apart from the title it sits beside.
    body = """<h1 class="fqn"><span class="in-band">Struct <a href="../index.html">std</a>::<wbr><a
    href="index.html">vec</a>::<wbr><a class="struct" href="#">Vec</a></span></h1>
    <p>A contiguous growable array type.</p>
    <h2>Instance Method Summary <small><a href="#" class="summary_toggle">collapse</a></small></h2>
    <p>Each method of the type.</p>"""
    titles = [d.title for d in _read(_page(body, "Vec in std::vec - Rust")).values()]
    assert titles[0] == "Struct std::vec::Vec"
    assert titles[1] == "Struct std::vec::Vec › Instance Method Summary"


def _example(code: str, run: str) -> str:
    return f'<div class="example-wrap"><pre class="rust"><code>{code}</code></pre>{run}</div>'


def test_a_link_that_runs_the_code_above_it_is_no_text() -> None:
    code = "let mut map = HashMap::new();\nmap.insert(1, 2);"
    playground = (
        "https://play.rust-lang.org/?code=fn%20main()%20%7B%0Alet%20mut%20map%20%3D%20"
        "HashMap%3A%3Anew()%3B%0Amap.insert(1%2C%202)%3B%0A%7D&amp;edition=2021"
    )
    run = f'<a href="{playground}">Run</a>'
    body = f"<h1>Struct HashMap</h1><p>Basic usage:</p>{_example(code, run)}"
    (page,) = _read(_page(body)).values()
    assert "Run" not in page.text and "map.insert(1, 2);" in page.text
    # A link after the code whose address carries none of it is the page's own.
    other = _example(code, '<a href="https://example.org/issues?id=5">Run</a>')
    (page,) = _read(_page(f"<h1>Struct HashMap</h1>{other}")).values()
    assert page.text.endswith("Run")


def test_a_tooltips_mark_goes_with_its_tooltip_from_the_heading_it_ends() -> None:
    notable = """<span class="notable-traits"><span class="notable-traits-tooltip">&#9432;<span
    class="notable-traits-tooltiptext"><span class="notable">Notable traits for Keys</span>
    </span></span></span>"""
    current = '<a href="#" class="tooltip" data-notable-ty="Iter">&#9432;</a>'
    body = f"""<h1>Struct HashMap</h1><section id="method.keys"><h4>pub fn keys(&amp;self) -&gt;
    Keys{notable}</h4></section><p>Visits every key.</p><section id="method.iter"><h4>pub fn
    iter(&amp;self) -&gt; Iter{current}</h4></section><p>Visits every pair.</p>"""
    documents = _read(_page(body))
    assert documents["page#method.keys"].title.endswith("pub fn keys(&self) -> Keys")
    assert documents["page#method.iter"].title.endswith("pub fn iter(&self) -> Iter")


def test_a_sign_alone_before_an_example_is_its_mark_and_a_sign_in_a_sentence_stays() -> None:
    panics = "<div class='information'><div class='tooltip should_panic'>&#9432;</div></div>"
    body = f"""<h1>Method unwrap</h1><p>Panics on None:</p>{panics}{_example("None.unwrap();", "")}
    <p>&#9733;</p><p>Rated &#9733; by its readers.</p>"""
    (page,) = _read(_page(body, "Method unwrap")).values()
    assert "\u24d8" not in page.text and "None.unwrap();" in page.text
    assert "\u2605" in page.text.split("\n") and "Rated \u2605 by its readers." in page.text


def _site(folder: Path, summary: str, extra: str = "") -> list[Document]:
    folder.mkdir()
    for name in ("binary_heap", "btree_map", "hash_map", "linked_list", "vec_deque"):
        (folder / f"{name}.html").write_text(
            f"<html><head><title>{name} - Rust</title></head><body><main><h1>Module {name}</h1>"
            f"<details open><summary>{summary}</summary><p>The {name} module holds one of the "
            f"standard collections.</p></details>{extra if name == 'hash_map' else ''}</main>"
            "</body></html>",
            "utf-8",
        )
    return [
        item
        for source in source_files(folder)
        for item in read_source(source)
        if isinstance(item, Document)
    ]


def test_a_summary_label_most_pages_of_the_site_repeat_is_no_text(tmp_path: Path) -> None:
    documents = _site(tmp_path / "site", "<span>Expand description</span>")
    assert len(documents) == 5
    assert not any("Expand description" in d.text for d in documents)
    assert all("standard collections." in d.text for d in documents)


def test_a_summary_one_page_holds_or_one_with_a_heading_is_text(tmp_path: Path) -> None:
    answer = "<details><summary>Show the answer</summary><p>Forty-two.</p></details>"
    documents = _site(tmp_path / "site", "<h4>pub fn new() -&gt; Self</h4>", answer)
    assert sum("Show the answer" in d.text for d in documents) == 1
    assert sum("pub fn new() -> Self" in d.text for d in documents) == 5


def test_a_read_more_link_to_where_the_heading_above_links_is_no_text() -> None:
    clone = "../clone/trait.Clone.html#tymethod.clone"
    more = f'<p>Returns a copy of the value. <a href="{clone}">Read more</a></p>'
    vec_deque = "struct.VecDeque.html"
    sentence = f'<p>Turn a Vec into a <a href="{vec_deque}"><code>VecDeque</code></a>.</p>'
    body = (
        "<h1>Struct VecDeque</h1><p>A double-ended queue.</p>"
        + _method("clone", "", more, heading_link=clone)
        + _method("from", "", sentence, heading_link=vec_deque).replace(
            'href="struct.VecDeque.html">from</a>', 'href="struct.VecDeque.html">VecDeque</a>'
        )
    )
    documents = _read(_page(body, "Struct VecDeque"))
    assert documents["page#method.clone"].text.endswith("Returns a copy of the value.")
    # A name that ends a sentence, the heading's own, is its text.
    assert documents["page#method.from"].text.endswith("Turn a Vec into a VecDeque.")


def _doxygen_struct(brief: str, details: str) -> str:
    return f"""<html><head><title>SDL: SDL_WindowEvent Struct Reference</title></head><body>
<div class="header"><div class="headertitle"><div class="title">SDL_WindowEvent Struct
Reference</div></div></div><div class="contents"><p>{brief}
<a href="#details">More...</a></p><h2 class="groupheader">Data Fields</h2><p>Uint32 type,
Uint32 timestamp, Uint32 windowID and the event's data.</p><a name="details"
id="details"></a><h2 class="groupheader">Detailed Description</h2><div class="textblock"><p>
{details}</p></div></div></body></html>"""


def test_a_more_link_to_the_detailed_description_that_repeats_the_brief_is_no_text() -> None:
    brief = "Window state change event data (event.window.*)"
    page = _doxygen_struct(brief, f"{brief} The event is sent for every window.")
    first = next(iter(_read(page, "struct_window_event").values()))
    assert first.text == brief
    # A link to a place that says something else is a sentence's end.
    other = _doxygen_struct(brief, "The event is sent for every window.")
    first = next(iter(_read(other, "struct_window_event").values()))
    assert first.text == f"{brief} More..."


def test_a_link_that_ends_a_sentence_to_a_later_place_saying_it_again_is_text() -> None:
    # The Cargo Book's glossary: the "Crate" entry's sentence is said again under "Module".
    body = """<h1>Glossary</h1><h2 id="crate">Crate</h2><p>The source code for a given crate
    may be subdivided into <a href="#module"><em>modules</em></a>.</p><p>See <a
    href="#lock-file">lock file</a>.</p><h2 id="lock-file">Lock file</h2><p>See the lock
    file's format.</p><h2 id="module">Module</h2><p>The source code for a given crate may be
    subdivided into one or more separate modules.</p>"""
    crate = _read(_page(body, "Glossary"))["page#crate"]
    assert "subdivided into modules.\n\nSee lock file." in crate.text


def _doxygen_members(rows: str) -> str:
    """A namespace's table of classes as Doxygen 1.9 writes it (jsoncpp's namespace_json):
    the name's row, then its brief line's, ended by "More..."."""
    return f"""<html><head><title>JsonCpp: Json Namespace Reference</title></head><body>
<div class="header"><div class="headertitle"><div class="title">Json Namespace
Reference</div></div></div><div class="contents"><h2 class="groupheader">Classes</h2>
<table class="memberdecls">{rows}</table><p>The namespace holds the library.</p></div>
</body></html>"""


def _member(name: str, href: str, brief: str, more: str) -> str:
    return f"""<tr class="memitem:"><td class="memItemLeft">class &#160;</td><td
class="memItemRight"><a class="el" href="{href}">{name}</a></td></tr><tr class="memdesc:">
<td class="mdescLeft">&#160;</td><td class="mdescRight">{brief}  <a
href="{more}">More...</a><br /></td></tr>"""


def test_a_more_link_to_the_page_of_the_entry_named_above_it_is_no_text() -> None:
    rows = _member(
        "CharReader",
        "class_json_1_1_char_reader.html",
        "Interface for reading JSON from a char array.",
        "class_json_1_1_char_reader.html#details",
    ) + _member("UInt", "#a0b1c2", "An unsigned integer.", "namespace_json.html#a0b1c2")
    text = next(iter(_read(_doxygen_members(rows), "namespace_json").values())).text
    assert "More" not in text
    assert "Interface for reading JSON from a char array.\n\nclass\nUInt" in text
    assert "An unsigned integer.\n\nThe namespace holds the library." in text


def test_a_link_after_a_sentence_to_a_page_the_entry_above_does_not_name_is_text() -> None:
    # Where the entry above names another page, or no sentence ends before the link, the
    # link's words are the paragraph's own.
    rows = _member(
        "Reader", "class_reader.html", "Unserializes a document.", "class_writer.html#details"
    ) + _member("Path", "class_path.html", "Experimental and untested:", "class_path.html#x")
    text = next(iter(_read(_doxygen_members(rows), "namespace_json").values())).text
    assert "Unserializes a document. More..." in text
    assert "Experimental and untested: More..." in text


def test_a_footnotes_mark_after_a_sentence_stays_where_the_item_before_cites_it_too() -> None:
    # Python's c-api/bytes (Sphinx): each row of a table cites one footnote, "[1]".
    body = """<h1>Bytes</h1><table><tr><td><p>Equivalent to printf("%d"). <a
    class="footnote-reference" href="#id2">[1]</a></p></td></tr><tr><td><p>Equivalent to
    printf("%u"). <a class="footnote-reference" href="#id2">[1]</a></p></td></tr></table>
    <aside class="footnote" id="id2"><p>For integer specifiers, the width counts.</p></aside>"""
    text = next(iter(_read(_page(body, "Bytes")).values())).text
    assert 'Equivalent to printf("%u"). [1]' in text


def test_a_page_without_a_title_element_is_titled_by_its_first_heading() -> None:
    body = """<body><p>FOR IMMEDIATE RELEASE:</p><h2>SQLite Consortium Launches</h2><p>The
    SQLite Consortium was formally announced today.</p></body>"""
    documents = list(_read(f"<html>{body}</html>", "pressrelease").values())
    assert documents[0].text == "FOR IMMEDIATE RELEASE:"
    assert documents[0].title == "SQLite Consortium Launches"
    # A page with a <title> is titled by it, as before.
    titled = _read(f"<html><head><title>Press release</title></head>{body}</html>", "pr")
    assert next(iter(titled.values())).title == "Press release"
