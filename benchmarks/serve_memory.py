"""``citeline serve``'s resident memory, idle and after answers, and what its imports weigh.

One command, prints a table:

    .venv/bin/python benchmarks/serve_memory.py [--db FILE] [--answers 200] [--rounds 3]
        [--against SRC] [--imports]

It starts ``citeline serve --open --workers 1`` on a free loopback port over the demo's
collection (``--db``, default: the sample built as ``citeline demo`` builds it, hybrid with
the vectors the embedded model reads for meaning), waits for ``/healthz`` and a few quiet
seconds, and reads the serving process's ``VmRSS`` (idle); then asks ``--answers`` questions
over real HTTP, four in flight, and reads it again (after). Targets (issue 30): idle <= 160
MB, after 200 answers <= 200 MB. ``--against SRC`` runs each round twice, interleaved: once
with the ``src`` folder of another checkout first on ``PYTHONPATH`` (main's code, say), once
with this one, so both arms see the same load.

``--imports`` adds a table of what each of the server's imports adds to the resident set,
in a fresh process, in about the order the server imports them (a row is what it added
beyond the rows above it), then the app built over the collection, and names the libraries
an open server over a collection without tables must not load.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import uvloop
from serving import cpu_seconds, free_port, sample_index, serve

from server import QUESTIONS, one_answer  # beside this script, first on sys.path

TARGET_IDLE_MB = 160.0
TARGET_AFTER_MB = 200.0
IN_FLIGHT = 4
# Seconds the idle server is left before its memory is read: start-up's freed heap is
# handed back to the system by then (glibc trims on free; measured, the figure settles
# within a second of /healthz first answering).
SETTLE_SECONDS = 3.0


def _status_mb(pid: int, field: str) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _start(db: Path, folder: Path, src: Path | None) -> tuple[subprocess.Popen[bytes], str]:
    env = {"CITELINE_RATE_LIMIT": "1000000", "CITELINE_LOG_FORMAT": "json"}
    if src is not None:
        env["PYTHONPATH"] = str(src)
    arguments = ["--db", str(db), "--open", "--workers", "1"]
    return serve(arguments, log=folder / f"server-{free_port()}.log", env=env, seconds=300)


async def _ask(url: str, count: int) -> int:
    """``count`` answers, ``IN_FLIGHT`` at a time; how many did not end answered or
    nothing_found."""
    slots = asyncio.Semaphore(IN_FLIGHT)

    async def one(n: int) -> bool:
        async with slots:
            answer = await one_answer(f"{url}/v1/answer", QUESTIONS[n % len(QUESTIONS)], "")
            return answer.ok

    results = await asyncio.gather(*(one(n) for n in range(count)))
    return sum(not ok for ok in results)


def measure(db: Path, folder: Path, src: Path | None, answers: int) -> tuple[float, ...]:
    """Idle and after-answers resident MB, start-up CPU seconds, answer CPU ms, errors."""
    process, url = _start(db, folder, src)
    try:
        time.sleep(SETTLE_SECONDS)
        idle = _status_mb(process.pid, "VmRSS")
        startup_cpu = cpu_seconds(process.pid)
        errors = uvloop.run(_ask(url, answers))
        time.sleep(SETTLE_SECONDS)
        after = _status_mb(process.pid, "VmRSS")
        answer_cpu = (cpu_seconds(process.pid) - startup_cpu) / max(answers, 1) * 1000
        peak = _status_mb(process.pid, "VmHWM")
    finally:
        process.terminate()
        process.wait(30)
    return idle, after, peak, startup_cpu, answer_cpu, float(errors)


# The server's imports, in about the order ``citeline serve`` makes them (``python -X
# importtime`` on a start-up lists them); each row is its module and what it pulls in that
# the rows above did not, then the app built over the collection, as ``citeline serve`` builds
# it in open mode, and the freed heap handed back as the server does before it listens.
IMPORT_STEPS = (
    "citeline.cli",
    "pydantic",
    "fastapi",
    "citeline.stream",
    "citeline.server.app",
    "uvicorn",
    "uvloop",
    "numpy",
    "tantivy",
    "citeline.corpus",
    "onnxruntime",
    "tokenizers",
    "citeline.corpus.minilm",
    "faiss",
    "citeline.corpus.vectors",
    "citeline.models",
    "citeline.agent",
    "citeline.models.embedded.session",
)

_IMPORT_PROBE = """
import ctypes, importlib, sys
def rss():
    for line in open('/proc/self/status'):
        if line.startswith('VmRSS:'):
            return int(line.split()[1]) / 1024
    return 0.0
before = rss()
print(f'python itself\t{before:.1f}')
for name in sys.argv[2:]:
    importlib.import_module(name)
    now = rss()
    print(f'import {name}\t{now - before:.1f}')
    before = now
from citeline.server import ServerSettings, create_app
settings = ServerSettings.from_env(database_url=sys.argv[1], open=True, workers=1)
app = create_app(settings)
now = rss()
print(f'the app built (model, collection, stores)\t{now - before:.1f}')
ctypes.CDLL('libc.so.6').malloc_trim(0)
print(f'freed heap handed back\t{rss() - now:.1f}')
print(f'total\t{rss():.1f}')
unneeded = ('jwt', 'cryptography', 'duckdb', 'limits', 'markdown_it')
loaded = [name for name in unneeded if name in sys.modules]
print(f'not needed, loaded: {", ".join(loaded) or "none"}\t')
"""


def import_weights(db: Path, src: Path | None) -> list[tuple[str, str]]:
    env = {**os.environ, "CITELINE_LOG_FORMAT": "json"}
    if src is not None:
        env["PYTHONPATH"] = str(src)
    output = subprocess.run(
        [sys.executable, "-c", _IMPORT_PROBE, str(db), *IMPORT_STEPS],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [tuple(line.split("\t")) for line in output.splitlines()]  # type: ignore[misc]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--db", type=Path, help="an existing index (default: the demo's)")
    parser.add_argument("--answers", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--against", type=Path, help="another checkout's src, interleaved")
    parser.add_argument("--imports", action="store_true", help="what each import weighs")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        db = args.db
        if db is None:
            db = sample_index(folder / "demo.sqlite")
        arms: list[tuple[str, Path | None]] = [("this checkout", None)]
        if args.against is not None:
            arms.insert(0, (f"against {args.against}", args.against.resolve()))
        results: dict[str, list[tuple[float, ...]]] = {name: [] for name, _ in arms}
        loads = []
        for _ in range(args.rounds):
            for name, src in arms:
                loads.append(os.getloadavg()[0])
                results[name].append(measure(db, folder, src, args.answers))
        weights = {name: import_weights(db, src) for name, src in arms} if args.imports else {}

    load = f"{min(loads):.1f} to {max(loads):.1f}"
    print(
        f"citeline serve --open --workers 1, {args.answers} answers ({IN_FLIGHT} in flight), "
        f"{args.rounds} rounds, {os.cpu_count()} CPUs, load average {load}\n"
    )
    print("| arm | idle MB | after MB | peak MB | start-up CPU s | CPU an answer ms | errors |")
    print("|---|---|---|---|---|---|---|")
    for name, rows in results.items():
        for row in rows:
            idle, after, peak, startup, answer, errors = row
            print(
                f"| {name} | {idle:.1f} | {after:.1f} | {peak:.1f} | {startup:.2f} "
                f"| {answer:.1f} | {errors:.0f} |"
            )
        idle_median = statistics.median(r[0] for r in rows)
        after_median = statistics.median(r[1] for r in rows)
        print(
            f"| {name}, median | **{idle_median:.1f}** (<= {TARGET_IDLE_MB:.0f}) "
            f"| **{after_median:.1f}** (<= {TARGET_AFTER_MB:.0f}) | | | | |"
        )
    for name, rows in weights.items():
        print(f"\nresident MB each import adds, in order ({name}):\n")
        print("| step | MB |")
        print("|---|---|")
        for step, mb in rows:
            print(f"| {step} | {mb} |")


if __name__ == "__main__":
    main()
