"""JSON Lines in the BEIR layout: one object per line with ``_id``, ``title``, ``text``,
``metadata`` (``id`` is accepted for ``_id``; ``url`` at the top level or in metadata).

A line without an id, that is not a JSON object, or whose metadata nests deeper than
``MAX_NESTING``, is rejected on its own; the other lines of the file are still read. An
id is never made up for a record that lacks one.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from citeline.corpus.documents import Document
from citeline.corpus.formats.jsonable import jsonable
from citeline.corpus.formats.origin import SourceFile
from citeline.corpus.formats.rejected import Rejected

# BEIR records are flat; metadata a few levels deep is the most any export writes. The
# bound keeps every later walk of the metadata (hashing, JSON encoding) far from the
# interpreter's recursion limit: measured, a line of 100,000 nested brackets raised
# RecursionError in json.loads and stopped the whole ingest.
MAX_NESTING = 32


def read(source: str, origin: SourceFile) -> Iterator[Document | Rejected]:
    del origin  # every record names its own id
    for number, line in enumerate(source.splitlines(), start=1):
        if not line.strip():
            continue
        # Counting brackets is C-fast and bounds the depth from above: the walk below cost
        # 1.2 s of SciFact's ingest (5,183 lines) when run on every line.
        brackets = line.count("[") + line.count("{")
        if brackets > MAX_NESTING and _bracket_depth(line) > MAX_NESTING:
            yield Rejected(
                f"line {number} nests deeper than {MAX_NESTING} levels; flatten that record"
            )
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            yield Rejected(f"line {number} is not valid JSON ({error.msg}); fix that line")
            continue
        if not isinstance(record, dict):
            yield Rejected(f"line {number} is not a JSON object; each line must be one")
            continue
        yield _document(record, number)


def _bracket_depth(line: str) -> int:
    """The deepest nesting of ``[`` and ``{`` in ``line``, outside JSON strings; an upper
    bound on the nesting ``json.loads`` would build, found without recursion."""
    depth = deepest = 0
    in_string = escaped = False
    for character in line:
        if in_string:
            if escaped:
                escaped = False
            elif character == "\\":
                escaped = True
            elif character == '"':
                in_string = False
        elif character == '"':
            in_string = True
        elif character in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif character in "]}":
            depth -= 1
    return deepest


def _document(record: Mapping[str, Any], number: int) -> Document | Rejected:
    raw_id = record.get("_id", record.get("id"))
    if raw_id is None or isinstance(raw_id, dict | list) or str(raw_id).strip() == "":
        return Rejected(f"line {number} has no _id; give every record its source's id")
    doc_id = str(raw_id).strip()
    text = record.get("text")
    if not isinstance(text, str):
        return Rejected(f"line {number} has no text string", doc_id)
    metadata = record.get("metadata")
    metadata = dict(metadata) if isinstance(metadata, Mapping) else {}
    url = record.get("url") or metadata.get("url")
    title = record.get("title")
    return Document(
        id=doc_id,
        title=title.strip() if isinstance(title, str) and title.strip() else doc_id,
        text=text,
        url=str(url).strip() if url else None,
        metadata=jsonable(metadata),
    )
