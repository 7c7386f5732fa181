"""A set of tabs read as a reader reads it: each tab's label, then its panel.

Generators write a tab set's labels together and its panels apart, tied by ids or by
order, and a browser shows the row of labels over one panel. Two structures carry it:

- WAI-ARIA's tabs: elements of ``role=tab`` whose ``aria-controls`` names their panel
  (sphinx-tabs writes each label as a ``<button>``, so the labels went with the buttons:
  all 27 of Flask's, python-flask-doc's "Bash", "Fish", "CMD", "Powershell" over each
  way to set a variable on 4 pages, and "netstat (Linux)", "lsof (macOS / Linux)");
- WAI-ARIA's tabs that name no panel: a ``role=tablist`` of ``role=tab`` items, and after it
  the ``role=tabpanel`` elements of the set, in the same order (Docusaurus writes its
  ``<Tabs>`` so, ``<li role=tab>`` items without ``aria-controls``, and a block of ``<div
  role=tabpanel>``, all but the chosen one ``hidden``): paired by their order where as many
  panels as tabs follow the list;
- WAI-ARIA's tabs whose panels name them instead (``aria-labelledby``): Astro Starlight's;
- tabs of radio inputs, styled by CSS: a ``<label for=ID>`` of each ``<input type=radio
  id=ID>``, whose panel is the element right after the label (sphinx-design) or, where the
  labels stand in a row of their own, the panel at the same place in the next element that
  holds as many panels as the group has inputs (MkDocs Material's content tabs, from
  ``pymdownx.tabbed``: read as they stood, the labels ran together as one line, "pipconda",
  above both panels).

Measured on Flask's pages and on a page built by each of mkdocs-material 8.2 (pymdownx
9.5) and sphinx-tabs 3.4; sphinx-design's (no Debian package) as its tab-set writes it,
where the label ran into its panel's first sentence ("condaUse the forge channel:").
This module moves each label's words to the top of its panel, a paragraph of their own.
Several tabs that name one panel filter its rows rather than label parts of it (Javadoc
17's "All Methods", "Static Methods" over one table): they are dropped as controls.
It deliberately leaves a label whose panel it cannot tell (no element of that id, or
panels that do not match the inputs one to one) and every control that is no tab.
"""

from __future__ import annotations

from selectolax.lexbor import LexborHTMLParser, LexborNode

from citeline.corpus.formats.nodes import written

# The most elements after a tab list read for its panels: Docusaurus puts them in the next.
_PANELS_AFTER = 4
# The elements the tab sets measured put a panel in.
_PANELS = frozenset({"div", "section"})


def label_panels(content: LexborNode) -> None:
    """Moves each tab's label in ``content`` to the top of its panel (see the module)."""
    panels = {str(node.id): node for node in content.css("[role=tabpanel][id]")}
    controlling: dict[str, list[LexborNode]] = {}
    for tab in content.css("[role=tab][aria-controls]"):
        name = str(tab.attributes.get("aria-controls") or "").strip()
        controlling.setdefault(name, []).append(tab)
    for name, tabs in controlling.items():
        panel = panels.get(name)
        if panel is None:
            continue
        if len(tabs) > 1:
            # Tabs over one panel filter its rows, each a label of no part of it: Javadoc
            # 17's "All Methods", "Static Methods", "Instance Methods" over one table of
            # methods, which each row's own modifiers already say. Each moved to the top
            # of the panel, they stood in reverse ("Concrete Methods", "Static Methods",
            # "All Methods") over every summary of commons-lang3's 210 classes.
            for tab in tabs:
                tab.decompose()
        else:
            _open_with(panel, tabs[0])
    # A panel that names its tab (``aria-labelledby``) where the tab names no panel:
    # Starlight 0.37's tabs are links (``<a role=tab href="#tab-panel-0" id="tab-0">``) in
    # a list of their own wrapper, their panels after that wrapper, not after the list.
    named = {str(node.id): node for node in content.css("[role=tab][id]")}
    for panel in content.css("[role=tabpanel][aria-labelledby]"):
        label = named.pop(str(panel.attributes.get("aria-labelledby") or "").strip(), None)
        if label is not None:
            _open_with(panel, label)
    for tablist in content.css("[role=tablist]"):
        for tab, panel in _ordered_pairs(tablist):
            _open_with(panel, tab)
    radios = {str(node.id): node for node in content.css("input[type=radio][id]")}
    groups = _Groups()
    for label in content.css("label[for]"):
        radio = radios.get(str(label.attributes.get("for") or "").strip())
        panel = None if radio is None else _radio_panel(label, radio, groups)
        if panel is not None:
            _open_with(panel, label)


def _ordered_pairs(tablist: LexborNode) -> list[tuple[LexborNode, LexborNode]]:
    """The tabs of ``tablist`` and their panels, paired by order, when none of its tabs
    names its panel (``aria-controls``) and the first of the next ``_PANELS_AFTER``
    elements after the list that is a panel or holds one starts as many panels as the list
    has tabs: that panel and the panels right after it, or the panels among that
    element's own children; else none."""
    tabs = tablist.css("[role=tab]")
    if not tabs or any(tab.attributes.get("aria-controls") for tab in tabs):
        return []
    after = _next_element(tablist)
    for _ in range(_PANELS_AFTER):
        if after is None or after.attributes.get("role") == "tabpanel":
            break
        if after.css_first("[role=tabpanel]") is not None:
            break
        after = _next_element(after)
    if after is None or (
        after.attributes.get("role") != "tabpanel" and after.css_first("[role=tabpanel]") is None
    ):
        return []
    if after.attributes.get("role") == "tabpanel":
        panels = [after]
        sibling = _next_element(after)
        while sibling is not None and sibling.attributes.get("role") == "tabpanel":
            panels.append(sibling)
            sibling = _next_element(sibling)
    else:
        panels = [child for child in _elements(after) if child.attributes.get("role") == "tabpanel"]
    if len(panels) != len(tabs):
        return []
    return list(zip(tabs, panels, strict=True))


class _Groups:
    """Each radio group's place of every input and each row's panels, found once: looked up
    again for every label, a set of 5,000 tabs in one row took 31 s (each label walked the
    whole group and the whole row of panels)."""

    def __init__(self) -> None:
        self._places: dict[tuple[int, str], dict[int, int]] = {}
        self._holders: dict[tuple[int, int], LexborNode | None] = {}
        self._panels: dict[int, list[LexborNode]] = {}

    def place(self, radio: LexborNode) -> tuple[int, int]:
        """The place of ``radio`` among the inputs of its name in its parent, and how many
        they are (a radio of no name, or no parent, is a group of its own)."""
        parent = radio.parent
        name = radio.attributes.get("name")
        if parent is None or not name:
            return 0, 1
        key = (parent.mem_id, name)
        places = self._places.get(key)
        if places is None:
            group = [
                node
                for node in _elements(parent)
                if node.tag == "input" and node.attributes.get("name") == name
            ]
            places = self._places[key] = {node.mem_id: at for at, node in enumerate(group)}
        return places.get(radio.mem_id, 0), len(places)

    def panels_after(self, label: LexborNode, count: int) -> list[LexborNode] | None:
        """The panels of the first element after the row that holds ``label`` (the row or
        an element above it, at most two steps up) whose elements are ``count`` panels."""
        row = label.parent
        if row is None:
            return None
        key = (row.mem_id, count)
        if key not in self._holders:
            self._holders[key] = self._holder(row, count)
        holder = self._holders[key]
        return None if holder is None else self._panels[holder.mem_id]

    def _holder(self, row: LexborNode, count: int) -> LexborNode | None:
        node: LexborNode | None = row
        for _ in range(2):
            if node is None:
                return None
            after = _next_element(node)
            if after is not None and count > 1:
                elements = self._panels.setdefault(after.mem_id, _elements(after))
                if len(elements) == count:
                    return after
            node = node.parent
        return None


def _radio_panel(label: LexborNode, radio: LexborNode, groups: _Groups) -> LexborNode | None:
    """The panel of the tab that ``label`` names by its ``radio`` input: the element right
    after the label, when that is no label or input; else, for labels in a row of their
    own, the one at the radio's place among the group's panels."""
    after = _next_element(label)
    if after is not None and after.tag not in {"label", "input"}:
        return after
    place, count = groups.place(radio)
    panels = groups.panels_after(label, count)
    return None if panels is None else panels[place]


def _open_with(panel: LexborNode, label: LexborNode) -> None:
    """Puts ``label``'s words at the top of ``panel`` as a paragraph, and drops ``label``;
    leaves both where ``panel`` is no block of words (a radio button's label before a
    ``<br>`` in a form is no tab's)."""
    if panel.tag not in _PANELS or not written(panel):
        return
    words = " ".join(str(label.text(deep=True)).split())
    if words and written(label):
        paragraph = LexborHTMLParser("<p></p>").css_first("p")
        if paragraph is not None:
            paragraph.insert_child(words)
            if panel.child is None:
                panel.insert_child(paragraph)
            else:
                panel.child.insert_before(paragraph)
    label.decompose()


def _next_element(node: LexborNode) -> LexborNode | None:
    sibling = node.next
    while sibling is not None and sibling.tag in {"-text", "-comment"}:
        sibling = sibling.next
    return sibling


def _elements(node: LexborNode) -> list[LexborNode]:
    return [child for child in node.iter() if child.tag not in {"-text", "-comment"}]
