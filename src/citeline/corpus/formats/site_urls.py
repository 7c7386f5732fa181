"""The address a published site gives a source file, from the site's base URL.

Built HTML is served under its own file name (``howto/sorting.html``). Markdown sources
follow the common docs generators' rule (MkDocs, Docusaurus, Hugo): ``a/b.md`` is
published at ``a/b/`` and ``a/index.md`` (or ``README.md``) at ``a/``; a page's front
matter ``url`` overrides this. It deliberately does not read the generators' settings.
"""

from __future__ import annotations

from pathlib import PurePosixPath
from urllib.parse import quote

_MARKDOWN = {".md", ".markdown"}
_INDEX_NAMES = {"index", "readme", "_index"}


def page_url(base_url: str | None, relative: str) -> str | None:
    """The page address of the file at ``relative`` under the site at ``base_url``."""
    if base_url is None:
        return None
    base = base_url if base_url.endswith("/") else base_url + "/"
    path = PurePosixPath(relative)
    if path.suffix.lower() in _MARKDOWN:
        folder = path.parent.as_posix()
        parts = [] if folder == "." else [folder]
        if path.stem.lower() not in _INDEX_NAMES:
            parts.append(path.stem)
        published = "/".join(parts) + "/" if parts else ""
    else:
        published = path.as_posix()
    return base + quote(published, safe="/")


def with_anchor(url: str | None, anchor: str | None) -> str | None:
    """``url`` pointing at the element ``anchor`` of its page."""
    if url is None or not anchor:
        return url
    return f"{url.split('#', 1)[0]}#{quote(anchor, safe='')}"
