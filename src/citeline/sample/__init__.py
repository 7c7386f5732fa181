"""The sample collection bundled for ``citeline demo``: where it lies and how to link it.

Sections of the Python 3.11 documentation (see ``README.md`` and ``LICENSE`` beside
this file), one Markdown file each with ``id``, ``url`` and ``title`` front matter.
This module only locates the files; ingesting them is the corpus's job, and
regenerating them is ``scripts/build_sample.py``'s.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

# A document's id is its address under the docs root (``tutorial/introduction.html#text``),
# so one template turns any cited id into the page a reader can open.
LINK_TEMPLATE = "https://docs.python.org/3.11/{id}"

# The release label answers carry in ``start``, so a cache keyed on it is dropped
# when the sample is regenerated from a newer documentation build.
RELEASE = "python-3.11.2-docs"


# What the demo's empty page calls the collection.
COLLECTION_NAME = "the Python 3.11 documentation (sample)"


def sample_path() -> Path:
    """The folder of Markdown documents, as a real path the corpus can walk."""
    return Path(str(files(__name__) / "python-docs"))


def examples_path() -> Path:
    """The demo's example questions for its empty page, one a line."""
    return Path(str(files(__name__) / "examples.txt"))


__all__ = ["COLLECTION_NAME", "LINK_TEMPLATE", "RELEASE", "examples_path", "sample_path"]
