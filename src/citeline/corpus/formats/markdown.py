"""Markdown with optional YAML front matter.

Front matter keys ``id``, ``url`` and ``title`` fill the document's fields; every other key
becomes metadata. ``id`` defaults to the path relative to the ingest root without its
extension, ``title`` to the first ATX heading (``# Title``), else the file's name. The text
is the Markdown after the front matter, as written: this reader does not render Markdown.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import yaml

from citeline.corpus.documents import Document
from citeline.corpus.formats.jsonable import jsonable
from citeline.corpus.formats.rejected import Rejected

_FRONT_MATTER = re.compile(
    r"\A---[ \t]*\r?\n(.*?\r?\n)?(?:---|\.\.\.)[ \t]*(?:\r?\n|\Z)", re.DOTALL
)
_ATX_HEADING = re.compile(r"^[ ]{0,3}#{1,6}[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$", re.MULTILINE)


def read(source: str, default_id: str) -> Iterator[Document | Rejected]:
    front: dict[str, Any] = {}
    body = source
    match = _FRONT_MATTER.match(source)
    if match:
        try:
            loaded = yaml.safe_load(match.group(1) or "")
        except yaml.YAMLError as error:
            yield Rejected(f"its front matter is not valid YAML ({_first_line(error)}); fix it")
            return
        if loaded is not None and not isinstance(loaded, dict):
            yield Rejected("its front matter is not a mapping of keys to values; fix it")
            return
        front = loaded or {}
        body = source[match.end() :]
    doc_id = front.pop("id", None)
    if doc_id is None or str(doc_id).strip() == "":
        doc_id = default_id
    title = front.pop("title", None)
    if title is None or str(title).strip() == "":
        heading = _ATX_HEADING.search(body)
        title = heading.group(1).strip() if heading else default_id.rsplit("/", 1)[-1]
    url = front.pop("url", None)
    yield Document(
        id=str(doc_id).strip(),
        title=str(title).strip(),
        text=body,
        url=str(url).strip() if url else None,
        metadata=jsonable(front),
    )


def _first_line(error: Exception) -> str:
    return str(error).strip().splitlines()[0]
