"""The query workers (``citeline.data.worker``) below a process, found through ``/proc``: a
demo's or a server's, which run their answers in worker processes of their own, so the
query workers are grandchildren (they run in sessions of their own, so not in its group)."""

from __future__ import annotations

from pathlib import Path


def query_workers(ancestor: int) -> set[int]:
    """The ``citeline.data.worker`` processes ``ancestor`` started, itself or through its
    server workers."""
    parents: dict[int, int] = {}
    commands: dict[int, bytes] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            commands[int(entry.name)] = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        # Field 4 is the parent's pid; the command name (field 2) may hold spaces, so count
        # from the closing parenthesis.
        parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])

    def below(pid: int) -> bool:
        while pid in parents and pid != ancestor:
            pid = parents[pid]
        return pid == ancestor

    return {
        pid
        for pid, command in commands.items()
        if pid != ancestor and b"citeline.data.worker" in command and below(pid)
    }
