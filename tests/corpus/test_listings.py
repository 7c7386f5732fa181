"""A listing's line numbers are no code of it, and a signature laid out in a table's cells
reads as one line; each beside the numbers and the tables that are text. Hand-written in the
generators' shapes (Doxygen 1.9 and its old source pages, Pygments inline and as a table,
rustdoc's source pages)."""

from __future__ import annotations

from pathlib import Path

from citeline.corpus import Document
from citeline.corpus.formats import html
from citeline.corpus.formats.origin import SourceFile


def _text(body: str, title: str = "SDL_atomic.h Source File") -> str:
    source = f"<html><head><title>{title}</title></head><body><main>{body}</main></body></html>"
    origin = SourceFile(Path("page.html"), "page", "page.html")
    return "\n".join(d.text for d in html.read(source, origin) if isinstance(d, Document))


def _doxygen_line(number: int, code: str, linked: bool = False) -> str:
    shown = f"{number:5d}"
    if linked:  # Doxygen links the number of a line that defines an entry
        shown = f'<a class="line" href="x_8h.html#a1">{shown}</a>'
    return (
        f'<div class="line"><a id="l{number:05d}" name="l{number:05d}"></a><span '
        f'class="lineno">{shown}</span>{code}</div>'
    )


def test_doxygens_numbers_before_each_line_of_a_source_page_are_no_code() -> None:
    lines = [
        _doxygen_line(41, '<span class="preprocessor">#include &lt;SDL_stdinc.h&gt;</span>'),
        _doxygen_line(
            42, '<span class="keyword">typedef</span> <span>int</span> SDL_SpinLock;', True
        ),
        _doxygen_line(43, '<span class="comment">/* Lock */</span>'),
    ]
    fragment = f'<div class="fragment">{"".join(lines)}</div>'
    body = f"<h1>SDL_atomic.h</h1><p>Go to the documentation of this file.</p>{fragment}"
    text = _text(body)
    assert "#include <SDL_stdinc.h>\ntypedef int SDL_SpinLock;\n/* Lock */" in text
    assert not any(number in text for number in ("41", "42", "43"))


def test_pygments_numbers_inside_a_code_block_go_and_its_indentation_stays() -> None:
    code = (
        '<div class="highlight"><pre><span></span><span class="linenos">1</span><span class="k">'
        'def</span> <span class="nf">setup</span>(app):\n<span class="linenos">2</span>    '
        '<span class="n">app</span>.add_directive(<span class="mi">1</span>)\n'
        '<span class="linenos">3</span>    <span class="k">return</span> <span class="mi">2'
        "</span>\n</pre></div>"
    )
    text = _text(f"<h1>Writing the extension</h1><p>Start with setup:</p>{code}", "Tutorial")
    assert "def setup(app):\n    app.add_directive(1)\n    return 2" in text


def test_a_code_blocks_own_numbers_at_the_start_of_its_lines_are_code() -> None:
    # Pygments marks a number literal the same way wherever it stands: not a line's number.
    code = (
        '<pre><span class="mi">1</span> <span class="o">+</span> <span class="mi">1</span>\n'
        '<span class="mi">2</span> <span class="o">+</span> <span class="mi">2</span></pre>'
    )
    text = _text(f"<h1>Arithmetic</h1>{code}<p>A program's output:</p><pre>1\n2\n3</pre>", "Sums")
    assert "1 + 1\n2 + 2" in text and "\n1\n2\n3" in text


def test_a_column_of_line_numbers_beside_the_code_is_no_code() -> None:
    rustdoc = (
        '<div class="example-wrap"><pre class="line-numbers"><span id="1">1</span>\n<span '
        'id="2">2</span>\n<span id="3">3</span>\n</pre><pre class="rust"><code>use std::mem;\n'
        "\nfn main() {}\n</code></pre></div>"
    )
    pygments = (
        '<table class="highlighttable"><tr><td class="linenos"><div class="linenodiv"><pre>7\n8'
        '</pre></div></td><td class="code"><div class="highlight"><pre>x = 1\ny = 2\n</pre></div>'
        "</td></tr></table>"
    )
    text = _text(f"<h1>mem.rs</h1>{rustdoc}<p>And in Python:</p>{pygments}", "mem.rs - source")
    assert "mem.rs\n\nuse std::mem;\n\nfn main() {}" in text
    assert "x = 1\ny = 2" in text and "7" not in text and "8" not in text


def test_a_column_that_leaves_the_lines_of_a_file_note_unnumbered_is_no_code() -> None:
    # YARD 0.9 (Debian's yard-doc): each method's source is a two-cell row; the numbers
    # column opens with a blank line for the "# File" note and for the blank line after it.
    yard = (
        '<table class="source_code"><tr><td><pre class="lines">\n\n\n109\n110\n111</pre></td>'
        '<td><pre class="code"><span class="info file"># File \'lib/registry.rb\', line 109'
        "</span>\n\ndef load(files = [])\n  parse(files)\nend</pre></td></tr></table>"
    )
    text = _text(f"<h1>Registry</h1><p>Loads the registry.</p>{yard}", "Registry")
    assert "# File 'lib/registry.rb', line 109\n\ndef load(files = [])" in text
    assert "109\n" not in text.replace("line 109", "") and "110" not in text


def test_a_column_of_one_number_on_the_line_of_a_one_line_method_is_no_code() -> None:
    # YARD 0.9: a one-line method's column holds its one number, on the method's line.
    yard = (
        '<table class="source_code"><tr><td><pre class="lines">\n\n\n15</pre></td>'
        '<td><pre class="code"><span class="info file"># File \'lib/array.rb\', line 15'
        "</span>\n\ndef place(*values) Insertion.new(self, values) end</pre></td></tr></table>"
    )
    text = _text(f"<h1>Array</h1><p>Places values.</p>{yard}", "Array")
    assert text == (
        "Array\n\nPlaces values.\n\n# File 'lib/array.rb', line 15\n\n"
        "def place(*values) Insertion.new(self, values) end"
    )


def test_one_number_beside_code_of_other_lines_stays() -> None:
    # A number that stands on no line of the code beside it (or beside code of more lines)
    # numbers nothing: it is a value.
    cells = (
        "<table><tr><td><pre>42</pre></td><td><pre>answer\nof all</pre></td></tr>"
        "<tr><td><pre>\n\n7</pre></td><td><pre>seven\n</pre></td></tr></table>"
    )
    text = _text(f"<h1>Values</h1><p>The values.</p>{cells}", "Values")
    assert "42" in text and "7" in text


def test_a_program_followed_by_its_output_of_numbers_keeps_the_output() -> None:
    code = '<pre>for i in 1..=3 {\n    println!("{i}");\n}</pre><pre>1\n2\n3</pre>'
    text = _text(f"<h1>Ranges</h1>{code}", "Ranges")
    assert "}\n\n1\n2\n3" in text


def test_numbers_written_at_the_start_of_each_line_of_an_old_source_page_are_no_code() -> None:
    listing = (
        '<pre class="fragment"><a name="l00001"></a>00001 <span class="comment">/* SDL */</span>\n'
        '<a name="l00002"></a>00002 <span class="keyword">int</span> x;\n'
        '<a name="l00003"></a>00003     x = 1;\n</pre>'
    )
    text = _text(f"<h1>SDL.h</h1>{listing}", "SDL.h")
    assert "/* SDL */\nint x;\n    x = 1;" in text and "0000" not in text


def test_numbers_written_before_code_lose_their_gutter_and_keep_its_indentation() -> None:
    listing = "<pre>\n01  #!/usr/bin/tclsh\n02  if {$argc!=2} {\n03    exit 1\n04  }\n</pre>"
    text = _text(f"<h1>Quick start</h1>{listing}", "Quick start")
    assert "#!/usr/bin/tclsh\nif {$argc!=2} {\n  exit 1\n}" in text


def test_a_programs_output_that_numbers_its_lines_keeps_its_numbers() -> None:
    # Node.js' page on process.argv: the output of ``console.log(`${index}: ${val}`)``.
    output = (
        "<pre><code>0: /usr/local/bin/node\n1: process-args.js\n2: one\n3: two=three</code></pre>"
    )
    text = _text(f"<h1>process.argv</h1><p>Would generate the output:</p>{output}", "Process")
    assert "0: /usr/local/bin/node\n1: process-args.js\n2: one" in text


def _memname(rows: str) -> str:
    return f'<div class="memproto"><table class="memname">{rows}</table></div>'


def test_a_signature_laid_out_in_cells_reads_as_one_line() -> None:
    rows = (
        '<tr><td class="memname">void SDLTest_RandomInit </td><td>(</td><td class="paramtype">'
        '<a href="x.html">SDLTest_RandomContext</a> *&#160;</td><td class="paramname"><em>'
        'rndContext</em>, </td></tr><tr><td class="paramkey"></td><td></td><td class="paramtype">'
        'unsigned int&#160;</td><td class="paramname"><em>xi</em>&#160;</td></tr><tr><td></td>'
        "<td>)</td><td></td><td></td></tr>"
    )
    macro = (
        '<tr><td class="memname">#define SDL_min</td><td>(</td><td class="paramtype">&#160;</td>'
        '<td class="paramname">x</td><td>)</td><td>&#160;&#160;(((x) &lt; 0) ? 0 : (x))</td></tr>'
    )
    body = f"""<h1>SDL_test_random.h</h1><h2 id="a1">SDLTest_RandomInit()</h2>{_memname(rows)}
    <p>Initialize random number generator.</p><h2 id="a2">SDL_min</h2>{_memname(macro)}"""
    text = _text(body, "SDL_test_random.h File Reference")
    assert "\nvoid SDLTest_RandomInit(SDLTest_RandomContext * rndContext, unsigned int xi)\n" in (
        text
    )
    assert "#define SDL_min(x) (((x) < 0) ? 0 : (x))" in text


def test_a_table_of_signs_that_lists_a_parenthesis_is_a_table() -> None:
    table = (
        "<table><tr><th>Sign</th><th>Meaning</th></tr><tr><td>(</td><td>opens a group</td></tr>"
        "<tr><td>)</td><td>closes it</td></tr></table>"
    )
    text = _text(f"<h1>Syntax</h1>{table}", "Syntax")
    assert "Sign\nMeaning\n\n(\nopens a group\n\n)\ncloses it" in text
