"""Time to first token and total time of the embedded model answering SciFact claims.

One command, prints a table:

    .venv/bin/python benchmarks/answer.py [--db FILE] [--questions 50] [--model embedded]

Without ``--db`` it builds the index in a temporary folder from
``../shared/data/beir-scifact/corpus.jsonl`` (beside the repository). Questions are
the first train-split claims in ``queries.jsonl`` order. Each answer runs to its
``done`` event; time to first token is measured to the first ``token`` event, as a
reader would see it. One answer is run first and reported separately as the cold
start (imports, first-use setup); the percentiles are over the warm answers.
Target: p50 time to first token under 100 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import tempfile
import time
from collections import Counter
from pathlib import Path

from citeline import answer
from citeline.corpus import Corpus
from citeline.evaluation.percentiles import percentile
from citeline.events import Citation, Done, Token

REPO = Path(__file__).resolve().parents[1]
SCIFACT = REPO.parent / "shared" / "data" / "beir-scifact"
TARGET_TTFT_MS = 100.0


def train_claims(count: int) -> list[str]:
    train_ids = {
        line.split("\t")[0]
        for line in (SCIFACT / "qrels" / "train.tsv").read_text(encoding="utf-8").splitlines()[1:]
        if line.strip()
    }
    claims = []
    with (SCIFACT / "queries.jsonl").open(encoding="utf-8") as lines:
        for line in lines:
            row = json.loads(line)
            if row["_id"] in train_ids:
                claims.append(row["text"])
            if len(claims) == count:
                break
    return claims


async def measure(
    question: str, corpus: Corpus, model: str
) -> tuple[float, float, str, int, float]:
    """Wall time to first token and to done, the state, citations, CPU time to first token."""
    started = time.perf_counter()
    cpu_started = time.process_time()
    cpu_first: float | None = None
    first: float | None = None
    cited = 0
    state = "?"
    async for event in answer(question, corpus=corpus, model=model):
        if isinstance(event, Token) and first is None:
            first = time.perf_counter() - started
            cpu_first = time.process_time() - cpu_started
        elif isinstance(event, Citation):
            cited += 1
        elif isinstance(event, Done):
            state = event.state
    total = time.perf_counter() - started
    cpu = cpu_first if cpu_first is not None else time.process_time() - cpu_started
    return (first if first is not None else total), total, state, cited, cpu


async def run(corpus: Corpus, questions: list[str], model: str) -> None:
    cold_ttft, cold_total, *_ = await measure(questions[0], corpus, model)
    results = [await measure(q, corpus, model) for q in questions]
    ttft = [r[0] * 1000 for r in results]
    total = [r[1] * 1000 for r in results]
    cpu_ttft = [r[4] * 1000 for r in results]
    states = Counter(r[2] for r in results)
    cited = sum(1 for r in results if r[3] > 0)

    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    # Other work on the machine inflates every figure; the load average says how much.
    print(f"{len(questions)} SciFact train claims, model {model}, load average {load}")
    print(f"{'metric':<26}{'p50 ms':>10}{'p95 ms':>10}")
    print(f"{'time to first token':<26}{percentile(ttft, 50):>10.1f}{percentile(ttft, 95):>10.1f}")
    print(f"{'total time':<26}{percentile(total, 50):>10.1f}{percentile(total, 95):>10.1f}")
    # CPU seconds this process spent (all threads) before the first token: what the time to
    # first token would be with the machine to itself, since the embedded model never waits.
    cpu = f"{percentile(cpu_ttft, 50):>10.1f}{percentile(cpu_ttft, 95):>10.1f}"
    print(f"{'CPU time to first token':<26}{cpu}")
    cold = f"{cold_ttft * 1000:>10.1f}{cold_total * 1000:>10.1f}"
    print(f"{'cold start: ttft, total':<26}{cold}")
    print(f"states: {dict(states)}; answers with at least one citation: {cited}/{len(results)}")
    verdict = "met" if percentile(ttft, 50) < TARGET_TTFT_MS else "MISSED"
    print(f"target p50 time to first token < {TARGET_TTFT_MS:.0f} ms: {verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--db", type=Path, help="an existing index (default: build SciFact's)")
    parser.add_argument("--questions", type=int, default=50)
    parser.add_argument("--model", default="embedded")
    args = parser.parse_args()
    questions = train_claims(args.questions)
    with tempfile.TemporaryDirectory() as scratch:
        db = args.db
        if db is None:
            db = Path(scratch) / "scifact.db"
            started = time.perf_counter()
            Corpus.open(db).ingest(SCIFACT / "corpus.jsonl")
            print(f"indexed SciFact in {time.perf_counter() - started:.1f} s")
        corpus = Corpus.open(db)
        asyncio.run(run(corpus, questions, args.model))


if __name__ == "__main__":
    main()
