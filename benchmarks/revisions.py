"""Other revisions' source trees, to run beside this one (``ingest_cpu.py``,
``store_cpu.py``, ``search_cpu.py``, ``ingest_fingerprint.py``): each is ``git archive``d
into a scratch folder, never checked out, so the working tree and its index stay as they
are; what runs in a tree runs in a new process of its own (``run_in_tree``), in a schema of
its own when the store is PostgreSQL (``scratch_schema``), and the rounds of every tree are
printed as one table (``revision_table``)."""

from __future__ import annotations

import os
import secrets
import statistics
import subprocess
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]


def source_trees(scratch: Path, revisions: Sequence[str]) -> dict[str, Path]:
    """``src`` of this tree (as "this tree") and of each of ``revisions``, unpacked in
    ``scratch``, by name."""
    trees = {"this tree": ROOT / "src"}
    for revision in revisions:
        folder = scratch / revision.replace("/", "_")
        folder.mkdir()
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", revision, "src"], check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
        trees[revision] = folder / "src"
    return trees


def run_in_tree(source: Path, child: str, arguments: Sequence[str], *, what: str) -> str:
    """The standard output of ``child`` (Python source) run in a new process that imports
    citeline from ``source``; a failure ends the benchmark naming ``what`` failed."""
    done = subprocess.run(
        [sys.executable, "-c", child, *arguments],
        env={**os.environ, "PYTHONPATH": str(source)},
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"{what} by {source} failed:\n{done.stderr.strip()}")
    return done.stdout


@contextmanager
def scratch_schema(url: str | None, prefix: str) -> Iterator[str | None]:
    """A PostgreSQL URL whose connections use a fresh schema of ``url``'s database, dropped
    after; None (SQLite: the caller's own file) when ``url`` is None."""
    if url is None:
        yield None
        return
    schema = f"{prefix}_{secrets.token_hex(6)}"
    _admin(url, f"CREATE SCHEMA {schema}")
    try:
        yield _in_schema(url, schema)
    finally:
        _admin(url, f"DROP SCHEMA {schema} CASCADE")


def _admin(url: str, statement: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(statement)


def _in_schema(url: str, schema: str) -> str:
    """``url`` with every connection's search_path set to ``schema``."""
    parts = urlsplit(url)
    query = [(key, value) for key, value in parse_qsl(parts.query) if key != "options"]
    query.append(("options", f"-csearch_path={schema}"))
    return urlunsplit(parts._replace(query=urlencode(query)))


def load_average() -> str:
    return ", ".join(f"{value:.1f}" for value in os.getloadavg())


def revision_table(
    title: str,
    unit: str,
    cpu: Mapping[str, Sequence[float]],
    wall: Mapping[str, Sequence[float]],
    *,
    scale: float = 1.0,
    digits: int = 2,
) -> None:
    """Print each tree's CPU per round, its median, the ratio of that median to this
    tree's, and its median wall time; values are multiplied by ``scale`` (1,000: ms)."""
    table = Table(title=title)
    columns = [
        "revision",
        f"CPU {unit}, per round",
        f"median {unit}",
        "/ this tree",
        f"wall {unit}",
    ]
    for column in columns:
        table.add_column(column, justify="left" if column == "revision" else "right")
    ours = statistics.median(cpu["this tree"])
    for name, values in cpu.items():
        median = statistics.median(values)
        table.add_row(
            name,
            " ".join(f"{value * scale:.{digits}f}" for value in values),
            f"{median * scale:.{digits}f}",
            f"{median / ours:.2f}x",
            f"{statistics.median(wall[name]) * scale:.{digits}f}",
        )
    Console(width=160).print(table)
