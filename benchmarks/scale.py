"""Past one machine: answers per second for one and two server processes against PostgreSQL,
and retrieval latency at a large synthetic collection for SQLite and PostgreSQL.

One command, prints a table (PostgreSQL and Redis from ``eval "$(.ci/services start)"``):

    .venv/bin/python -m benchmarks.scale [--passages 100000] [--seconds 20] [--rounds 2]

(as a module from the repository root: the server processes are the scale tests' own,
``tests.support.server_processes``, and the collection is ``benchmarks.scale_corpus``'s).

1. Answers: the bundled sample collection is ingested into a fresh PostgreSQL schema; then
   ``citeline serve`` runs as one process, and again as two, each on its own port, sharing
   that database and one Redis for rate limits (as behind a load balancer). Requests go
   round-robin to the processes, ``--concurrency`` in flight, for ``--seconds``, each with
   a signed token of its own reader and the embedded model; ``--rounds`` alternate the two
   configurations. Reported: answered per second, p50/p95 latency of the whole stream
   (request to ``done``), and errors.
2. Retrieval: ``--passages`` synthetic passages (generated at run time with the recipe of
   ``benchmarks/scale_corpus.py``: Zipf-distributed words from a made-up vocabulary) are
   indexed through each store's own ``put``, then the same queries are timed on each:
   p50/p95 of ``search(query, k=10)``, index size and build rate. 1,000,000 passages take
   tens of minutes to build on a small machine, hence the smaller default.

The load generator runs on the same machine as the servers and the databases and takes
CPU from them: the figures are what the whole machine does, not a server alone.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import secrets
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import psycopg

# The server-process helper of the scale tests and the corpus benchmark's generator are
# reused as they are, so the benchmark runs servers and builds collections the same way.
from benchmarks.scale_corpus import PASSAGES_PER_DOCUMENT, QUERIES, synthetic_collection
from rich.console import Console
from rich.table import Table
from tests.support.server_processes import running

from citeline.corpus import Corpus
from citeline.corpus.ingest import INGEST_BATCH, content_hash
from citeline.corpus.search_index import SearchIndex
from citeline.corpus.stores.base import CorpusStore, DocumentVersion
from citeline.corpus.stores.postgres import PostgresStore
from citeline.corpus.stores.sqlite import SQLiteStore
from citeline.database import PostgresUrl
from citeline.evaluation.percentiles import percentile
from citeline.server.tokens import generate_key_pair, mint_token

ROOT = Path(__file__).resolve().parents[1]

SAMPLE = ROOT / "src" / "citeline" / "sample" / "python-docs"
QUESTIONS = (
    "What is a generator?",
    "How do I read a file line by line?",
    "What does the with statement do?",
    "How are exceptions raised and caught?",
    "What is a list comprehension?",
    "How do virtual environments work?",
    "What is the difference between a tuple and a list?",
    "What does __slots__ do?",
)
# Tokens are minted up front: signing is the site's cost, not the server's.
READERS = 2_000


@dataclass(frozen=True)
class LoadResult:
    answered: int
    other_states: int
    errors: int
    seconds: float
    latencies_ms: list[float]


@contextmanager
def fresh_schema(base_url: str) -> Iterator[str]:
    """A URL whose connections work in a new schema, dropped afterwards."""
    schema = f"bench_{secrets.token_hex(4)}"
    with psycopg.connect(base_url, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {schema}")
    separator = "&" if "?" in base_url else "?"
    try:
        yield f"{base_url}{separator}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(base_url, autocommit=True) as connection:
            connection.execute(f"DROP SCHEMA {schema} CASCADE")


async def _load(urls: list[str], tokens: list[str], seconds: float, concurrency: int) -> LoadResult:
    latencies: list[float] = []
    counts = {"answered": 0, "other": 0, "errors": 0}
    targets = itertools.cycle(urls)
    readers = itertools.cycle(tokens)
    questions = itertools.cycle(QUESTIONS)
    deadline = time.perf_counter() + seconds

    async def worker(client: httpx.AsyncClient) -> None:
        while time.perf_counter() < deadline:
            body = {"question": next(questions), "caller_token": next(readers)}
            started = time.perf_counter()
            state = None
            try:
                async with client.stream("POST", f"{next(targets)}/v1/answer", json=body) as reply:
                    event = None
                    async for line in reply.aiter_lines():
                        if line.startswith("event:"):
                            event = line[6:].strip()
                        elif line.startswith("data:") and event == "done":
                            state = json.loads(line[5:])["state"]
            except httpx.HTTPError:
                counts["errors"] += 1
                continue
            latencies.append((time.perf_counter() - started) * 1000)
            if state == "answered":
                counts["answered"] += 1
            elif state is None:
                counts["errors"] += 1
            else:
                counts["other"] += 1

    limits = httpx.Limits(max_connections=concurrency * 2)
    async with httpx.AsyncClient(timeout=120, limits=limits) as client:
        started = time.perf_counter()
        await asyncio.gather(*(worker(client) for _ in range(concurrency)))
        elapsed = time.perf_counter() - started
    return LoadResult(
        counts["answered"], counts["other"], counts["errors"], elapsed, sorted(latencies)
    )


def measure_answers(
    postgres: str, redis: str, seconds: float, concurrency: int, rounds: int, scratch: Path
) -> list[tuple[int, LoadResult]]:
    pair = generate_key_pair()
    key_file = scratch / "public.pem"
    key_file.write_bytes(pair.public_pem)
    now = time.time()
    tokens = [
        mint_token(
            pair.private_pem, subject=f"reader-{n}", ttl_seconds=3600, audience="citeline", now=now
        )
        for n in range(READERS)
    ]
    results = []
    with fresh_schema(postgres) as database:
        with Corpus.open(database) as corpus:
            corpus.ingest(SAMPLE, release="bench")
        env = {
            "CITELINE_DATABASE_URL": database,
            "CITELINE_RATE_LIMIT_STORAGE": redis,
            "CITELINE_CALLER_KEY_FILE": str(key_file),
            "CITELINE_RATE_LIMIT": "1000000",
            "CITELINE_MODEL": "embedded",
            "CITELINE_LOG_FORMAT": "json",
        }
        # Rounds alternate one and two processes, so a burst of other work on the machine
        # lands on both configurations instead of deciding the comparison.
        runs: dict[int, list[LoadResult]] = {1: [], 2: []}
        for round_number in range(rounds):
            for processes in (1, 2):
                logs = scratch / f"servers-{round_number}-{processes}"
                logs.mkdir()
                with running(env, logs, processes) as servers:
                    urls = [server.url for server in servers]
                    # Warm each process (imports, first model call, pools) before timing.
                    asyncio.run(_load(urls, tokens, 2.0, len(urls)))
                    result = asyncio.run(_load(urls, tokens, seconds, concurrency))
                runs[processes].append(result)
                rate = result.answered / result.seconds
                print(f"round {round_number + 1}, {processes} process(es): {rate:.1f} answers/s")
        for processes, each in runs.items():
            merged = LoadResult(
                sum(r.answered for r in each),
                sum(r.other_states for r in each),
                sum(r.errors for r in each),
                sum(r.seconds for r in each),
                sorted(latency for r in each for latency in r.latencies_ms),
            )
            results.append((processes, merged))
    return results


@dataclass(frozen=True)
class RetrievalResult:
    backend: str
    passages: int
    build_seconds: float
    size_mb: float
    latencies_ms: list[float]


def _build(store: CorpusStore, total: int, folder: Path) -> tuple[float, list[str]]:
    documents, queries = synthetic_collection(total)
    started = time.perf_counter()
    batch: list[DocumentVersion] = []
    for done, (document, passages) in enumerate(documents, start=1):
        batch.append(DocumentVersion(document, passages, content_hash(document), "synthetic"))
        if len(batch) == INGEST_BATCH:
            store.put_many(batch)
            batch.clear()
        if done % 10_000 == 0:
            print(f"  {done * PASSAGES_PER_DOCUMENT:,} passages stored", flush=True)
    store.put_many(batch)
    SearchIndex(folder, store)
    return time.perf_counter() - started, queries


def _time_queries(store: CorpusStore, folder: Path, queries: list[str]) -> list[float]:
    index = SearchIndex(folder, store)
    store.hits(index.lexical(queries[0], 10))
    latencies = []
    for query in queries:
        started = time.perf_counter()
        store.hits(index.lexical(query, 10))
        latencies.append((time.perf_counter() - started) * 1000)
    return sorted(latencies)


def _folder_mb(folder: Path) -> float:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 1e6


def measure_retrieval(postgres: str, total: int, scratch: Path) -> list[RetrievalResult]:
    results = []
    print(f"SQLite: indexing {total:,} passages", flush=True)
    path = scratch / "retrieval.sqlite"
    store: CorpusStore = SQLiteStore(path)
    folder = scratch / "sqlite.search-index"
    build, queries = _build(store, total, folder)
    latencies = _time_queries(store, folder, queries)
    store.close()
    size = _folder_mb(folder) + sum(p.stat().st_size for p in scratch.glob(path.name + "*")) / 1e6
    results.append(RetrievalResult("SQLite + tantivy", total, build, size, latencies))

    print(f"PostgreSQL: indexing {total:,} passages", flush=True)
    with fresh_schema(postgres) as database:
        # Bulk load without waiting for each commit to reach the disk: a crash mid-load
        # loses the last commits, never consistency, and the benchmark starts over anyway.
        loader = PostgresStore(PostgresUrl(f"{database}%20-csynchronous_commit%3Doff"))
        folder = scratch / "postgres.search-index"
        build, queries = _build(loader, total, folder)
        loader.close()
        with psycopg.connect(database, autocommit=True) as connection:
            # What an operator runs after a bulk load, so searches read the index alone.
            connection.execute("VACUUM ANALYZE")
            row = connection.execute(
                "SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c "
                "JOIN pg_namespace n ON n.oid = c.relnamespace "
                "WHERE n.nspname = current_schema() AND c.relkind = 'r'"
            ).fetchone()
            size = float(row[0]) / 1e6 if row and row[0] else 0.0
        store = PostgresStore(PostgresUrl(database))
        latencies = _time_queries(store, folder, queries)
        store.close()
    results.append(
        RetrievalResult("PostgreSQL + tantivy", total, build, size + _folder_mb(folder), latencies)
    )
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--postgres",
        default=os.environ.get("CITELINE_TEST_POSTGRES_URL"),
        help="PostgreSQL URL (default: $CITELINE_TEST_POSTGRES_URL)",
    )
    parser.add_argument(
        "--redis",
        default=os.environ.get("CITELINE_TEST_REDIS_URL"),
        help="Redis URL (default: $CITELINE_TEST_REDIS_URL)",
    )
    parser.add_argument("--passages", type=int, default=100_000, help="synthetic passages")
    parser.add_argument(
        "--seconds", type=float, default=20.0, help="load per configuration and round"
    )
    parser.add_argument("--concurrency", type=int, default=16, help="answers in flight")
    parser.add_argument("--rounds", type=int, default=2, help="alternating runs of 1 and 2")
    parser.add_argument("--skip-answers", action="store_true")
    parser.add_argument("--skip-retrieval", action="store_true")
    args = parser.parse_args()
    if not args.postgres or not args.redis:
        parser.error('needs PostgreSQL and Redis: run eval "$(.ci/services start)" first')

    table = Table(title="citeline past one machine")
    for column in ("measure", "configuration", "rate", "p50 ms", "p95 ms", "notes"):
        table.add_column(column, justify="left" if column in {"measure", "notes"} else "right")
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)
        if not args.skip_answers:
            for processes, load in measure_answers(
                args.postgres, args.redis, args.seconds, args.concurrency, args.rounds, scratch
            ):
                table.add_row(
                    "answers (embedded model)",
                    f"{processes} process{'es' if processes > 1 else ''}, PostgreSQL + Redis",
                    f"{load.answered / load.seconds:,.1f}/s",
                    f"{percentile(load.latencies_ms, 50):.0f}",
                    f"{percentile(load.latencies_ms, 95):.0f}",
                    f"{args.concurrency} in flight, {args.rounds} x {args.seconds:.0f} s, "
                    f"{load.answered} answered, "
                    f"{load.other_states} other states, {load.errors} errors",
                )
        if not args.skip_retrieval:
            for result in measure_retrieval(args.postgres, args.passages, scratch):
                table.add_row(
                    "retrieval, search(k=10)",
                    f"{result.backend}, {result.passages:,} passages",
                    f"{result.passages / result.build_seconds:,.0f} passages/s built",
                    f"{percentile(result.latencies_ms, 50):.1f}",
                    f"{percentile(result.latencies_ms, 95):.1f}",
                    f"index {result.size_mb:,.0f} MB, {QUERIES} queries",
                )
    Console(width=160).print(table)


if __name__ == "__main__":
    main()
