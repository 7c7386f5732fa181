"""What a Markdown page's generator makes of the syntax that some dialects render and others
show as written, read from the ``mkdocs.yml`` that governs the page.

The same characters publish differently by generator: ``3.`` before a list's first item is
its first number under CommonMark (Docusaurus, Hugo, GitHub) but Python-Markdown counts
every ordered list from 1 unless ``sane_lists`` is on; ``- [x] Done`` is a checkbox under
GitHub-flavoured renderers and under MkDocs only with ``pymdownx.tasklist``;
``:material-github:`` is an icon only with ``pymdownx.emoji``, and a comment's ``(1)`` in
a code block is an annotation only with Material's ``content.code.annotate`` feature. A page
under no ``mkdocs.yml`` is read as CommonMark with GitHub's task lists. It deliberately reads
no more of the settings than those choices, and runs nothing they name.
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
    """

    list_start: bool = True
    task_lists: bool = True
    icons: bool = False
    code_annotations: bool = False


COMMONMARK = Dialect()


def dialect_of(page: Path) -> Dialect:
    """The dialect of the page at ``page``: its ``mkdocs.yml``'s, else ``COMMONMARK``."""
    found = mkdocs_settings(page.parent)
    if found is None:
        return COMMONMARK
    _, settings = found
    extensions = markdown_extensions(settings)
    return Dialect(
        list_start="sane_lists" in extensions or "markdown.extensions.sane_lists" in extensions,
        task_lists="pymdownx.tasklist" in extensions,
        icons="pymdownx.emoji" in extensions,
        code_annotations="content.code.annotate" in _theme_features(settings),
    )


def _theme_features(settings: dict[Any, Any]) -> list[str]:
    """The features the theme turns on (Material's ``theme: features:``)."""
    theme = settings.get("theme")
    features = theme.get("features") if isinstance(theme, dict) else None
    return [str(feature) for feature in features] if isinstance(features, list) else []
