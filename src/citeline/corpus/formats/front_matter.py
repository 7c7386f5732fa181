"""YAML front matter, loaded with bounds that a hostile author cannot get past.

Aliases (``*name``) are refused: measured, a 450-byte "billion laughs" block ran 90 s
without finishing and a recursive alias raised ``RecursionError``, and no front matter a
docs site writes needs one. Nesting deeper than ``MAX_NESTING`` and blocks longer than
``MAX_FRONT_MATTER_CHARS`` are refused too, each as a ``FrontMatterError`` whose message
says what to fix. It deliberately knows nothing about which keys a document uses.
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.nodes import Node

# Docs generators' front matter is a few flat keys; 32 levels is far beyond any of them
# and far below where PyYAML's recursive composer would exhaust the stack.
MAX_NESTING = 32
# The largest front matter in the python3.11-doc and sample sets is under 1 KiB.
MAX_FRONT_MATTER_CHARS = 64 * 1024


class FrontMatterError(ValueError):
    """Front matter that is not safe, bounded YAML; the message completes "its front matter"."""


class BoundedLoader(yaml.SafeLoader):
    """PyYAML's safe loader, refusing aliases and nesting past ``MAX_NESTING``."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent: Node | None, index: Any) -> Node | None:
        if self.check_event(yaml.AliasEvent):
            raise FrontMatterError("uses a YAML alias (*name); write the value out instead")
        self._depth += 1
        try:
            if self._depth > MAX_NESTING:
                raise FrontMatterError(f"nests deeper than {MAX_NESTING} levels; flatten it")
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def load_front_matter(text: str) -> Any:
    """The value of the YAML in ``text``; ``FrontMatterError`` when it is unsafe or invalid."""
    if len(text) > MAX_FRONT_MATTER_CHARS:
        raise FrontMatterError(
            f"is over {MAX_FRONT_MATTER_CHARS // 1024} KiB; keep front matter to metadata"
        )
    try:
        # Built inside the guard: PyYAML reads the text for characters it refuses (a control
        # character raises its ReaderError) as the loader is made, not when it loads.
        loader = BoundedLoader(text)
        try:
            return loader.get_single_data()
        finally:
            loader.dispose()
    except yaml.YAMLError as error:
        detail = str(error).strip().splitlines()[0] if str(error).strip() else "invalid"
        raise FrontMatterError(f"is not valid YAML ({detail}); fix it") from error
