"""Ruby API references read whole: RDoc's entries without a heading and YARD's controls, and
Crystal's entries (RDoc's shape, a permalink in each signature line), hand-written in the
generators' shapes (RDoc 6 and YARD 0.9 as Debian's ruby-*-doc packages ship them; Crystal
1.6's API pages, crystal-doc)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

from citeline.corpus import Document
from citeline.corpus.formats import html
from citeline.corpus.formats.origin import SourceFile


def _read(source: str, page: str = "Acme/Header") -> list[Document]:
    origin = SourceFile(Path(f"{page}.html"), page, f"{page}.html")
    return [d for d in html.read(source, origin) if isinstance(d, Document)]


def _method(anchor: str, name: str, args: str, text: str, advice: bool = True) -> str:
    label = '<span class="method-click-advice">click to toggle source</span>' if advice else ""
    return f"""<div id="{anchor}" class="method-detail">
      <div class="method-heading"><span class="method-name">{name}</span><span
        class="method-args">{args}</span>
        {label}
      </div>
      <div class="method-description"><p>{text}</p>
        <div class="method-source-code" id="{anchor}-source"><pre><span
        class="ruby-comment"># File lib/acme/header.rb, line 12</span>
def {name}{args}
  @fields.size
end</pre></div></div>
    </div>"""


def _attribute(anchor: str, name: str, text: str) -> str:
    return f"""<div id="{anchor}" class="method-detail">
      <div class="method-heading attribute-method-heading"><span
        class="method-name">{name}</span><span class="attribute-access-type">[RW]</span></div>
      <div class="method-description"><p>{text}</p></div>
    </div>"""


def _rdoc(methods: str, attributes: str = "", menu: str = "") -> str:
    return f"""<html><head><title>class Acme::Header - Acme Documentation</title></head>
<body><nav id="navigation"><div id="method-list-section"><h3>Methods</h3>
<ul class="link-list">{menu}</ul></div></nav>
<main role="main"><h1 id="class-Acme::Header" class="class">class Acme::Header</h1>
<section class="description"><p>A mail header, a little like a Hash.</p></section>
<section class="attribute-method-details"><header><h3>Attributes</h3></header>
{attributes}</section>
<section id="public-instance-5Buntitled-5D-method-details" class="method-section">
<header><h3>Public Instance Methods</h3></header>
{methods}</section></main></body></html>"""


_METHODS = _method(
    "method-i-add", "add", "(name, value)", "Adds a field with the given name and value."
) + _method("method-i-length", "length", "()", "Returns the number of fields in the header.")
_MENU = """<li><a href="#method-i-add">#add</a></li>
<li><a href="#method-i-length">#length</a></li>"""


def test_an_anchored_block_opening_with_a_signature_line_is_a_section_titled_by_it() -> None:
    documents = {d.id: d for d in _read(_rdoc(_METHODS, menu=_MENU))}
    add = documents["Acme/Header#method-i-add"]
    assert add.title == "class Acme::Header › Public Instance Methods › add(name, value)"
    assert "Adds a field with the given name and value." in add.text
    # Its source stays as code; the other method is no text of it.
    assert "def add(name, value)\n  @fields.size\nend" in add.text
    assert "number of fields" not in add.text
    length = documents["Acme/Header#method-i-length"]
    assert length.title.endswith("› length()")
    # The label every method's line repeats is no word of the page.
    assert not any("click to toggle" in d.title + d.text for d in documents.values())


def test_entries_side_by_side_that_no_link_reaches_are_sections_and_one_alone_is_text() -> None:
    attributes = _attribute("attribute-i-fields", "fields", "The header's fields.") + _attribute(
        "attribute-i-mbox_from", "mbox_from", "The mbox From line."
    )
    documents = {d.id: d for d in _read(_rdoc(_METHODS, attributes, _MENU))}
    fields = documents["Acme/Header#attribute-i-fields"]
    # An attribute's access is part of its signature, not a label, though both repeat it.
    assert fields.title == "class Acme::Header › Attributes › fields[RW]"
    assert "The header's fields." in fields.text
    alone = {d.id: d for d in _read(_rdoc(_method("method-i-add", "add", "(name)", "Adds."), ""))}
    assert "Acme/Header#method-i-add" not in alone
    assert "add(name)" in alone["Acme/Header#public-instance-5Buntitled-5D-method-details"].text


def test_a_block_opening_with_a_caption_or_a_sentence_is_no_entry() -> None:
    # A code block's file name or a caption naming a call after its words (two side by
    # side), an admonition's title, a sentence: each linked and with text after it, none a
    # signature.
    blocks = """<div id="id1" class="literal-block-wrapper"><div class="code-block-caption"><span
      class="caption-text">conf.py</span></div><div class="highlight"><pre>extensions = []</pre>
      </div></div>
    <div id="id2" class="literal-block-wrapper"><div class="code-block-caption"><span
      class="caption-text">Examples of find_package() basic signature</span></div><div
      class="highlight"><pre>find_package(Catch2)</pre></div></div>
    <div id="id3" class="literal-block-wrapper"><div class="code-block-caption"><span
      class="caption-text">Examples of find_package() full signature</span></div><div
      class="highlight"><pre>find_package(Boost 1.79 COMPONENTS date_time)</pre></div></div>
    <div id="note-1" class="admonition note"><p class="admonition-title">Note</p>
      <p>Call setup() before anything else.</p></div>
    <div id="usage"><p>Call add(name) to add a field.</p><p>Then read it back.</p></div>"""
    page = f"""<html><head><title>Guide</title></head><body><main>
    <h1>Guide</h1><p>See <a href="#id1">the file</a>, <a href="#id2">the examples</a>,
    <a href="#note-1">the note</a> and
    <a href="#usage">the usage</a>.</p>{blocks}</main></body></html>"""
    documents = _read(page, "guide")
    assert [d.title for d in documents] == ["Guide"]
    assert "Note" in documents[0].text and "conf.py" in documents[0].text
    assert "Examples of find_package() full signature" in documents[0].text


def test_a_block_that_holds_a_heading_of_its_own_is_no_entry() -> None:
    # Javadoc's and rustdoc's entries open with their heading: the heading is the section.
    page = """<html><head><title>Range</title></head><body><main><h1>Range</h1>
    <section class="detail" id="of(T,T)"><div class="member-signature">of(T from, T to)</div>
    <h3>of</h3><p>Obtains a range from two values.</p></section>
    <section class="detail" id="is(T)"><div class="member-signature">is(T element)</div>
    <h3>is</h3><p>Obtains a range of one value.</p></section></main></body></html>"""
    titles = [d.title for d in _read(page, "Range")]
    assert titles == ["Range", "Range › of", "Range › is"]


def _yard(heading: str) -> str:
    return f"""<html><head><title>Module: Acme::API — Acme 1.0</title></head><body>
<div id="content"><h1>Module: Acme::API</h1><p>Methods added to a test case.</p>
<h2>{heading}</h2><ul class="summary"><li>#mock(*arguments) ⇒ Mock: builds a mock.</li></ul>
<h2>Instance Method Details</h2><div class="method_details">
<h3 class="signature" id="mock-instance_method">#mock(*arguments) ⇒ Mock</h3>
<p>Builds a new mock object.</p></div></div></body></html>"""


def test_a_link_that_leads_nowhere_beside_a_headings_words_is_no_part_of_its_title() -> None:
    for control in ('<a href="#">collapse</a>', '<a href="javascript:void(0)">expand</a>'):
        heading = f"Instance Method Summary <small>{control}</small>"
        titles = [d.title for d in _read(_yard(heading), "Acme/API")]
        assert "Module: Acme::API › Instance Method Summary" in titles
        assert not any("collapse" in title or "expand" in title for title in titles)


def test_a_heading_all_such_a_link_and_such_a_link_in_a_sentence_keep_their_words() -> None:
    titles = [d.title for d in _read(_yard('<a href="#">Instance Method Summary</a>'), "Acme/API")]
    assert "Module: Acme::API › Instance Method Summary" in titles
    # HAProxy's keywords open a menu from inside a sentence: they are its words.
    page = """<html><head><title>Bind options</title></head><body><main><h1>Bind options</h1>
    <p>This keyword is available in sections: <a href="#" class="dropdown-toggle">bind</a>
    and defaults.</p></main></body></html>"""
    (document,) = _read(page, "bind")
    assert "available in sections: bind and defaults." in document.text


def _crystal(methods: str) -> str:
    return f"""<html><head><title>Atomic::Flag</title></head><body><div class="main-content">
<h1 class="type-name">struct Atomic::Flag</h1><p>An atomic flag, that can be set or not.</p>
<h2><a id="instance-method-detail" class="anchor" href="#instance-method-detail"></a>
Instance Method Detail</h2>{methods}</div></body></html>"""


def _crystal_method(anchor: str, signature: str, text: str) -> str:
    return f"""<div class="entry-detail" id="{anchor}"><div class="signature">
def <strong>{signature}</strong> <a class="method-permalink" href="#{quote(anchor)}">#</a>
</div><div class="doc"><p>{text}</p></div><br/><div></div></div>"""


def test_a_block_whose_first_line_holds_its_own_permalink_is_an_entry_at_its_id() -> None:
    # Crystal's API pages: "def clear : Nil" reads as no call, but its "#" names its place,
    # linked percent-encoded as a browser decodes it.
    page = _crystal(
        _crystal_method("clear:Nil-instance-method", "clear : Nil", "Atomically clears the flag.")
        + _crystal_method(
            "test_and_set:Bool-instance-method", "test_and_set : Bool", "Tries to set the flag."
        )
    )
    documents = {d.id: d for d in _read(page, "Atomic/Flag")}
    clear = documents["Atomic/Flag#clear:Nil-instance-method"]
    assert clear.title == "struct Atomic::Flag › Instance Method Detail › def clear : Nil"
    assert clear.text == "def clear : Nil\nAtomically clears the flag."
    assert (
        "Tries to set the flag." in documents["Atomic/Flag#test_and_set:Bool-instance-method"].text
    )
    assert not any("#" in d.text for d in documents.values())


def test_a_code_blocks_caption_with_its_permalink_is_no_entry() -> None:
    # Sphinx's captioned code blocks: the caption's "¶" names the block, a listing follows.
    block = """<div class="literal-block-wrapper docutils container" id="{id}">
<div class="code-block-caption"><span class="caption-text">{name}</span><a class="headerlink"
href="#{id}" title="Permalink to this code">¶</a></div><div class="highlight"><pre>
CELERY_TIMEZONE = "Australia/Tasmania"</pre></div></div>"""
    page = f"""<html><head><title>Django</title></head><body><div role="main">
<section id="using"><h2>Using Celery with Django<a class="headerlink" href="#using">¶</a></h2>
<p>A Django project's configuration file might include:</p>
{block.format(id="id1", name="settings.py")}{block.format(id="id2", name="celery.py")}
</section></div></body></html>"""
    documents = _read(page, "django")
    assert [d.id for d in documents] == ["django"]
    assert "settings.py" in documents[0].text and "celery.py" in documents[0].text
