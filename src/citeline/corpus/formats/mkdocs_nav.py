"""The title an MkDocs site's navigation gives a page, for the page that shows no ``h1``.

MkDocs takes a page's title first from its entry in ``nav`` (``- Background Tasks:
background.md``: ``Page(title, ...)`` sets it before the page's own ``title`` property,
front matter and first ``h1``, is read), and Material for MkDocs writes that title as the
page's ``h1`` when its Markdown holds none. Typer's pages open with a paragraph, not a
heading (56 of its 57), and Starlette's with an API reference (23 of 23): read without the
navigation they were titled by their file names ("alternatives", "background"), and their
sections by their own headings alone ("Intro"), where the site shows "Alternatives,
Inspiration and Comparisons" above them.

A navigation title is HTML as written (Python-Markdown's reference pages are titled
``<code>markdown.&#8203;blockparser</code>``): it is read as the text it shows, without
the zero-width spaces written to let a long name wrap.

It deliberately reads no order and no section of the navigation: only each page's title.
"""

from __future__ import annotations

import functools
import html
import re
from pathlib import Path, PurePosixPath
from typing import Any

from citeline.corpus.formats.docs_config import find_config, settings_of

# Entries read of one navigation: the largest surveyed (Typer's) holds 120; one of many
# thousands is read no further.
MAX_ENTRIES = 10_000
# How deep sections nest: the front matter loader refuses YAML deeper than 32 levels, so
# this bounds TOML's navigation alike.
MAX_DEPTH = 32
_TAG = re.compile(r"<[^<>]*>")
# Zero-width characters that show nothing: a space, a joiner and a non-joiner.
_INVISIBLE = re.compile("[\u200b\u200c\u200d\u2060\ufeff]")


def nav_title(page: Path) -> str | None:
    """The title the navigation of the project governing ``page`` gives it, or None."""
    config = find_config(page.parent)
    if config is None:
        return None
    settings = settings_of(config)
    named = settings.get("docs_dir", "docs")
    root = (config.parent / (named if isinstance(named, str) and named else "docs")).resolve()
    try:
        relative = page.resolve().relative_to(root).as_posix()
    except ValueError:
        return None
    try:
        stamp = config.stat().st_mtime_ns
    except OSError:
        return None
    return _titles(str(config), stamp).get(relative)


@functools.lru_cache(maxsize=8)
def _titles(config: str, stamp: int) -> dict[str, str]:
    """Each page's path under the docs folder and the title its navigation entry gives it
    (the first entry naming it), for the settings file at ``config``."""
    titles: dict[str, str] = {}
    pending: list[tuple[Any, int]] = [(settings_of(Path(config)).get("nav"), 0)]
    seen = 0
    while pending and seen < MAX_ENTRIES:
        value, depth = pending.pop()
        seen += 1
        if isinstance(value, list) and depth < MAX_DEPTH:
            pending.extend((item, depth + 1) for item in reversed(value))
        elif isinstance(value, dict):
            for key, target in reversed(list(value.items())):
                if isinstance(target, str):
                    path = _page_path(target)
                    title = shown(str(key))
                    if path is not None and title:
                        titles.setdefault(path, title)
                elif depth < MAX_DEPTH:
                    pending.append((target, depth + 1))
    return titles


def _page_path(target: str) -> str | None:
    """A navigation target as a path under the docs folder, None for a link elsewhere."""
    if "://" in target or target.startswith(("/", "#", "mailto:")):
        return None
    parts = [part for part in PurePosixPath(target.strip()).parts if part not in {".", ""}]
    return "/".join(parts) or None


def shown(title: str) -> str:
    """A navigation title as the text a reader sees: tags out, entities decoded, invisible
    characters dropped, spaces collapsed."""
    text = _INVISIBLE.sub("", html.unescape(_TAG.sub("", title)))
    return " ".join(text.split())
