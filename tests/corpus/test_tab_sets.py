"""A set of tabs is read as a reader reads it: each tab's label, then its panel. The cases
are the structures MkDocs Material's content tabs (pymdownx.tabbed), sphinx-tabs (Flask's
"Bash / Fish / CMD / Powershell" tabs) and sphinx-design write, and the neighbouring
structures that are no tabs."""

from __future__ import annotations

from pathlib import Path

from citeline.corpus import Document
from citeline.corpus.formats import html
from citeline.corpus.formats.origin import SourceFile

PIP = '<div class="highlight"><pre><span></span><code>pip install foo\n</code></pre></div>'
CONDA = '<p>Use the forge channel:</p><div class="highlight"><pre>conda install foo\n</pre></div>'
READ = (
    "Install\n\nInstall the tool with the package manager you use.\n\n"
    "pip\n\npip install foo\n\nconda\n\nUse the forge channel:\n\nconda install foo"
)


def _text(tabs: str) -> str:
    page = f"""<html><head><title>Install</title></head><body><main><h1>Install</h1>
    <p>Install the tool with the package manager you use.</p>{tabs}</main></body></html>"""
    origin = SourceFile(Path("install.html"), "install", "install.html")
    [document] = [d for d in html.read(page, origin) if isinstance(d, Document)]
    return document.text


def test_a_row_of_tab_labels_over_their_panels_puts_each_label_above_its_own_panel() -> None:
    # MkDocs Material: the radio inputs, a row of labels, then a block of the panels.
    tabs = f"""<div class="tabbed-set" data-tabs="1:2"><input checked="checked"
    id="__tabbed_1_1" name="__tabbed_1" type="radio" /><input id="__tabbed_1_2"
    name="__tabbed_1" type="radio" /><div class="tabbed-labels"><label
    for="__tabbed_1_1">pip</label><label for="__tabbed_1_2">conda</label></div>
    <div class="tabbed-content"><div class="tabbed-block">{PIP}</div>
    <div class="tabbed-block">{CONDA}</div></div></div>"""
    assert _text(tabs) == READ


def test_tab_buttons_that_name_their_panels_keep_their_labels_above_them() -> None:
    # sphinx-tabs: ARIA tabs, each label a button (which goes with the controls).
    tabs = f"""<div class="sphinx-tabs"><div role="tablist" aria-label="Tabbed content">
    <button role="tab" id="tab-0-0" aria-controls="panel-0-0" aria-selected="true">pip</button>
    <button role="tab" id="tab-0-1" aria-controls="panel-0-1">conda</button></div>
    <div role="tabpanel" id="panel-0-0" aria-labelledby="tab-0-0">{PIP}</div>
    <div role="tabpanel" id="panel-0-1" aria-labelledby="tab-0-1" hidden="true">{CONDA}</div>
    </div>"""
    assert _text(tabs) == READ


def test_tab_links_in_a_list_of_their_own_whose_panels_name_them_open_their_panels() -> None:
    # Astro Starlight 0.37.7: the tabs are links in a list inside a wrapper, and each panel,
    # after the wrapper, names its tab by ``aria-labelledby``; neither names by
    # ``aria-controls``.
    tabs = f"""<starlight-tabs><div class="tablist-wrapper not-content"><ul role="tablist">
    <li role="presentation" class="tab"><a role="tab" href="#tab-panel-0" id="tab-0"
    aria-selected="true" tabindex="0">  pip </a></li><li role="presentation" class="tab"><a
    role="tab" href="#tab-panel-1" id="tab-1" aria-selected="false" tabindex="-1">  conda </a>
    </li></ul></div><div id="tab-panel-0" aria-labelledby="tab-0" role="tabpanel">{PIP}</div>
    <div id="tab-panel-1" aria-labelledby="tab-1" role="tabpanel" hidden>{CONDA}</div>
    </starlight-tabs>"""
    assert _text(tabs) == READ


def test_a_panel_labelled_by_an_element_that_is_no_tab_keeps_its_words_as_they_stand() -> None:
    tabs = f"""<p id="pip-label">With pip:</p>
    <div role="tabpanel" id="panel" aria-labelledby="pip-label">{PIP}</div>"""
    assert _text(tabs) == (
        "Install\n\nInstall the tool with the package manager you use.\n\n"
        "With pip:\n\npip install foo"
    )


def test_a_tab_label_right_before_its_panel_is_no_part_of_the_panels_first_sentence() -> None:
    # sphinx-design: each input, its label, then its panel.
    tabs = f"""<div class="sd-tab-set"><input checked="checked" id="sd-tab-item-0"
    name="sd-tab-set-0" type="radio"><label class="sd-tab-label" for="sd-tab-item-0">pip</label>
    <div class="sd-tab-content">{PIP}</div><input id="sd-tab-item-1" name="sd-tab-set-0"
    type="radio"><label class="sd-tab-label" for="sd-tab-item-1">conda</label>
    <div class="sd-tab-content">{CONDA}</div></div>"""
    assert _text(tabs) == READ


def test_a_radio_buttons_label_in_a_sentence_of_a_form_stays_where_it_is() -> None:
    choice = """<p>Pick a channel: <input type="radio" id="stable" name="channel">
    <label for="stable">stable</label><br><input type="radio" id="nightly" name="channel">
    <label for="nightly">nightly</label> and press the button.</p>"""
    text = _text(choice)
    assert "Pick a channel: stable\nnightly and press the button." in text


def test_a_tab_that_names_no_panel_on_the_page_is_left_as_it_was() -> None:
    tabs = f"""<div role="tablist"><button role="tab" aria-controls="elsewhere">pip</button>
    </div><div>{PIP}</div>"""
    assert _text(tabs) == (
        "Install\n\nInstall the tool with the package manager you use.\n\npip install foo"
    )


def test_two_thousand_tabs_in_one_row_each_open_their_own_panel() -> None:
    # What it costs is a row of benchmarks/hostile_files.py, not a timing here.
    count = 2000
    inputs = "".join(f'<input type="radio" name="g" id="r{i}">' for i in range(count))
    labels = "".join(f'<label for="r{i}">Tab{i}</label>' for i in range(count))
    panels = "".join(f"<div><p>panel {i}</p></div>" for i in range(count))
    text = _text(f"<div>{inputs}<div>{labels}</div><div>{panels}</div></div>")
    assert "Tab0\n\npanel 0" in text and "Tab1999\n\npanel 1999" in text


def test_tabs_that_name_no_panel_open_the_panels_after_their_list_in_order() -> None:
    # The ARIA tabs pattern as Docusaurus writes it: no ``aria-controls``, the panels in a
    # block after the list, all but the chosen one hidden.
    tabs = f"""<div class="tabs-container"><ul role="tablist" aria-orientation="horizontal">
    <li role="tab" tabindex="0" aria-selected="true">pip</li>
    <li role="tab" tabindex="-1" aria-selected="false">conda</li></ul>
    <div class="margin-top--md"><div role="tabpanel">{PIP}</div>
    <div role="tabpanel" hidden="">{CONDA}</div></div></div>"""
    assert _text(tabs) == READ


def test_tabs_that_name_no_panel_open_sibling_panels_in_order() -> None:
    tabs = f"""<div><div role="tablist"><span role="tab">pip</span><span role="tab">conda</span>
    </div><section role="tabpanel">{PIP}</section><section role="tabpanel">{CONDA}</section>
    </div>"""
    assert _text(tabs) == READ


def test_tabs_whose_panels_do_not_match_them_one_to_one_are_left_as_they_were() -> None:
    # Three tabs over two panels: which label is whose cannot be told.
    tabs = f"""<div><ul role="tablist"><li role="tab">pip</li><li role="tab">conda</li>
    <li role="tab">uv</li></ul><div><div role="tabpanel">{PIP}</div>
    <div role="tabpanel">{CONDA}</div></div></div>"""
    assert _text(tabs) == (
        "Install\n\nInstall the tool with the package manager you use.\n\npip\nconda\nuv\n\n"
        "pip install foo\n\nUse the forge channel:\n\nconda install foo"
    )


def test_tabs_that_all_name_one_panel_filter_it_and_leave_no_label() -> None:
    # Javadoc 17's member summary (commons-lang3 3.12.0 as Debian bookworm builds it): the
    # tabs filter one table's rows; moved to its top one by one, they read reversed.
    tabs = """<div id="method-summary-table"><div class="table-tabs" role="tablist"><button
    id="t0" role="tab" aria-controls="m.tabpanel">All Methods</button><button id="t1"
    role="tab" aria-controls="m.tabpanel">Static Methods</button><button id="t4" role="tab"
    aria-controls="m.tabpanel">Concrete Methods</button></div><div id="m.tabpanel"
    role="tabpanel" aria-labelledby="t0"><div class="summary-table"><div>Modifier and
    Type</div><div>Method</div><div><code>static boolean</code></div><div><code>equals(Annotation
    a1, Annotation a2)</code></div></div></div></div>"""
    text = _text(tabs)
    assert "Methods" not in text
    assert text.endswith(
        "use.\n\nModifier and Type\nMethod\nstatic boolean\nequals(Annotation a1, Annotation a2)"
    )
