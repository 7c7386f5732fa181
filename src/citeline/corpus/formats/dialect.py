"""What a Markdown page's generator makes of the syntax that some dialects render and others
show as written, read from the ``mkdocs.yml`` that governs the page.

The same characters publish differently by generator: ``3.`` before a list's first item is
its first number under CommonMark (Docusaurus, Hugo, GitHub) but Python-Markdown counts
every ordered list from 1 unless ``sane_lists`` is on; ``- [x] Done`` is a checkbox under
GitHub-flavoured renderers and under MkDocs only with ``pymdownx.tasklist``;
``:material-github:`` is an icon only with ``pymdownx.emoji``, a comment's ``(1)`` in
a code block is an annotation only with Material's ``content.code.annotate`` feature, and a
fence's ``title="setup.py"`` is shown above its block only by pymdownx.superfences. A page
under no ``mkdocs.yml`` is read as CommonMark with GitHub's task lists and Docusaurus' code
titles. It deliberately reads no more of the settings than those choices, and runs nothing
they name.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from citeline.corpus.formats.includes import markdown_extensions, mkdocs_settings


@dataclass(frozen=True, slots=True)
class Dialect:
    """How a page's generator renders what dialects disagree on.

    ``list_start``: an ordered list counts from the first number written, not from 1.
    ``task_lists``: ``[x]`` or ``[ ]`` opening a list item is a checkbox.
    ``icons``: an emoji or icon shortcode (``:material-github:``) is an image.
    ``code_annotations``: every code block's comment markers (``# (1)!``) are annotations
    that the ordered list right after it holds (a block marked ``.annotate`` is, anywhere).
    ``code_titles``: a fence's ``title="..."`` is a line shown above its code block.
    ``attribute_lists``: attr_list reads any braces a heading ends with as its attributes,
    words without a value too (``{: #platform cmd-line env-var }``).
    ``keys``: ``++ctrl+alt+delete++`` is a key combination, shown as its keys' names.
    ``definition_lists``: a line ``:   text`` after a term is the term's definition.
    """

    list_start: bool = True
    task_lists: bool = True
    icons: bool = False
    code_annotations: bool = False
    code_titles: bool = True
    attribute_lists: bool = False
    keys: bool = False
    definition_lists: bool = False


COMMONMARK = Dialect()
# The extensions under which an ordered list counts from its first number: sane_lists, and
# pymdownx.fancylists ("ordered lists are sensitive to the starting value", its docs say;
# read as Python-Markdown's count from 1, pymdown-extensions' own page of list rules
# numbered its items 2 to 7 as 1 to 6).
_COUNTED_FROM_FIRST = {"sane_lists", "markdown.extensions.sane_lists", "pymdownx.fancylists"}

# The extensions that read definition lists: def_list, and Python-Markdown's Extra, which
# bundles it.
_DEFINITION_LISTS = {
    "def_list",
    "markdown.extensions.def_list",
    "extra",
    "markdown.extensions.extra",
}


def dialect_of(page: Path) -> Dialect:
    """The dialect of the page at ``page``: its ``mkdocs.yml``'s, else ``COMMONMARK``."""
    found = mkdocs_settings(page.parent)
    if found is None:
        return COMMONMARK
    _, settings = found
    extensions = markdown_extensions(settings)
    return Dialect(
        list_start=bool(_COUNTED_FROM_FIRST & extensions.keys()),
        task_lists="pymdownx.tasklist" in extensions,
        icons="pymdownx.emoji" in extensions,
        code_annotations="content.code.annotate" in _theme_features(settings),
        code_titles=_code_titles(extensions),
        attribute_lists="attr_list" in extensions or "markdown.extensions.attr_list" in extensions,
        keys="pymdownx.keys" in extensions,
        definition_lists=bool(_DEFINITION_LISTS & extensions.keys()),
    )


def _code_titles(extensions: dict[str, dict[Any, Any]]) -> bool:
    """Whether a fence's ``title`` is shown: pymdownx.superfences passes it to Pygments'
    highlighting, which prints it above the block (Material's "Adding a title"); without
    Pygments (``use_pygments: false``) it is an attribute of the element, and Python-Markdown's
    own fenced_code shows none (an attribute, or an option Pygments uses for whole documents
    only)."""
    highlight = extensions.get("pymdownx.highlight", {})
    return "pymdownx.superfences" in extensions and highlight.get("use_pygments", True) is not False


def _theme_features(settings: dict[Any, Any]) -> list[str]:
    """The features the theme turns on (Material's ``theme: features:``)."""
    theme = settings.get("theme")
    features = theme.get("features") if isinstance(theme, dict) else None
    return [str(feature) for feature in features] if isinstance(features, list) else []
