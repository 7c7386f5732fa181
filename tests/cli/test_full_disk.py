"""A full disk is a sentence and exit status 2 in every command, a read-only search answers
from the last commit, and nothing stored is lost (issue 29, item 15).

Each case runs the real ``citeline`` commands on a real full disk: a small tmpfs mounted in a
private mount namespace (``unshare``), filled with a file, so the kernel itself answers
``ENOSPC``. Where the machine does not allow such a namespace the cases are skipped, saying so.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

# Runs inside the namespace: mounts the tmpfs, ingests, fills the disk, and reports what
# each command printed and how it ended, as one JSON object.
DRIVER = r"""
import json, os, subprocess, sys
mount, leave = sys.argv[1], int(sys.argv[2])
subprocess.run(["mount", "-t", "tmpfs", "-o", "size=24m", "tmpfs", mount], check=True)
docs = os.path.join(mount, "docs")
os.mkdir(docs)
for n in range(30):
    with open(os.path.join(docs, f"zebra{n}.md"), "w") as page:
        page.write(f"# Zebra {n}\n\nZebra crossing number {n} has stripes.\n")
db = os.path.join(mount, "x.db")
def citeline(*args):
    run = subprocess.run([sys.executable, "-m", "citeline", *args], capture_output=True, text=True)
    return {"rc": run.returncode, "out": run.stdout, "err": run.stderr}
results = {"first": citeline("ingest", docs, "--db", db)}
questions = os.path.join(mount, "q.jsonl")
with open(questions, "w") as lines:
    lines.write(json.dumps({"id": "z", "question": "What does a zebra crossing have?"}) + "\n")
for n in range(600):
    with open(os.path.join(docs, f"giraffe{n}.md"), "w") as page:
        page.write(f"# Giraffe {n}\n\nGiraffe {n} " + os.urandom(1500).hex() + "\n")
free = os.statvfs(mount)
fill = free.f_bavail * free.f_frsize - leave * 1024
with open(os.path.join(mount, "fill"), "wb") as filler:
    try:
        filler.write(b"\0" * max(fill, 0))
    except OSError:
        pass
results["ingest"] = citeline("ingest", docs, "--db", db)
results["search"] = citeline("search", "zebra", "--db", db, "-k", "1")
report = os.path.join(mount, "reports", "report.json")
results["report"] = citeline(
    "eval", "citations", "--db", db, "--questions", questions, "--out", report
)
os.remove(os.path.join(mount, "fill"))
results["again"] = citeline("ingest", docs, "--db", db)
results["giraffe"] = citeline("search", "giraffe", "--db", db, "-k", "1")
print(json.dumps(results))
"""


def _namespaces_allowed() -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(
        ["unshare", "-rm", "sh", "-c", "mount -t tmpfs tmpfs /mnt 2>/dev/null || exit 1"],
        capture_output=True,
    )
    return probe.returncode == 0


pytestmark = pytest.mark.skipif(
    not _namespaces_allowed(),
    reason="this machine allows no private mount namespace (unshare -rm) to fill a disk in",
)


# Left free when the ingest starts: the store fills first with little room, the search
# index with more (the store's batches fit, the index's segments do not).
@pytest.mark.parametrize("leave_kib", [0, 400, 3000, 8000])
def test_commands_on_a_full_disk_say_so_and_lose_nothing(tmp_path: Path, leave_kib: int) -> None:
    mount = tmp_path / "disk"
    mount.mkdir()
    run = subprocess.run(
        ["unshare", "-rm", sys.executable, "-c", DRIVER, str(mount), str(leave_kib)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    results = json.loads(run.stdout)
    assert results["first"]["rc"] == 0, results["first"]
    for step in ("ingest", "search", "report", "again", "giraffe"):
        assert "Traceback" not in results[step]["err"], (step, results[step]["err"])
    for step in ("ingest", "report"):
        if results[step]["rc"] != 0:
            assert results[step]["rc"] == 2, results[step]
            assert "full" in results[step]["err"] and "free some space" in results[step]["err"]
    if leave_kib == 0:
        assert results["ingest"]["rc"] == results["report"]["rc"] == 2
    # A read-only search answers from the last commit.
    assert results["search"]["rc"] == 0, results["search"]
    assert "Zebra" in results["search"]["out"]
    # Once there is space, the same ingest finishes and nothing is lost.
    assert results["again"]["rc"] == 0, results["again"]
    assert "630 documents" in results["again"]["out"]
    assert results["giraffe"]["rc"] == 0 and "Giraffe" in results["giraffe"]["out"]
