"""How many cores this process may run on: the one count the server's workers and the
embedding model's threads are sized by."""

from __future__ import annotations

import os


def usable_cores() -> int:
    """The cores this process may run on (its affinity, where the system says; a container's
    CPU set is one), else every core the machine has; at least one."""
    cores = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    return max(1, len(cores) if cores else (os.cpu_count() or 1))
