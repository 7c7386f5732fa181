"""The one exception that stops ``citeline serve`` before it listens.

Misconfiguration (a missing key, a bad setting, an unusable storage URL) must stop the
process at start-up with a sentence that says what to fix; a failure while answering
never raises this: that ends one stream with ``done{state: failed}`` instead.
"""

from __future__ import annotations

from citeline.errors import CitelineError


class StartupError(CitelineError):
    """The server cannot start as configured; ``str(error)`` says how to fix it."""
