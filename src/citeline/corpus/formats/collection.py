"""Python's cycle collector paused while a reader reads one page.

Reading allocates a few objects per node, line or token that live until the page is read
(its sections, lines, nodes and tokens listed), and each allocation count the collector
waits for sets off a collection of them, each full one over the whole process: 0.15 s of the
0.85 s an HTML page of 20,000 one-line sections took to read, 0.3 s of 2.1 s for 50,000,
and 2 s of 7.7 a Markdown page of 100,000 items in nests of 9 lists. The readers
make no cycles (none left to collect after a Sphinx, DocBook, AsciiDoc or mdBook page, the
386 Markdown pages of the development trees and Node.js's API, or a hostile one): their
garbage is freed as it goes, and any cycle of a caller's at the next collection after it.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collection_paused() -> Iterator[None]:
    """The cycle collector paused inside the block, then as it was. Never around a
    ``yield`` of a generator, whose consumer would run paused too."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
