"""The embedded model answering SciFact claims: CPU per answer against its floor, and latency.

One command, prints two tables:

    .venv/bin/python benchmarks/answer.py [--collection scifact|demo] [--db FILE]
        [--questions 50] [--model embedded] [--retrieval hybrid]

Without ``--db`` it builds the index in a temporary folder, as ``citeline ingest`` (and
``citeline demo``) build one: from ``../shared/data/beir-scifact/corpus.jsonl`` (beside the
repository), or with ``--collection demo`` from the bundled sample the demo serves; for
``--retrieval``, the default where the dense extra is installed is hybrid, and every
ingest with the extra stores the vectors of what the embedded model reads for meaning
(``citeline.agent.meaning.reading``), so an answer embeds only its question. The ingest's
CPU is printed, its meaning stage apart. Questions are the first train-split claims in
``queries.jsonl`` order, or for the demo the development questions over the sample
(``benchmarks/questions/python-docs.jsonl``, in file order, again from the start when the
file runs out). Each answer runs to its
``done`` event; time to first token is measured to the first ``token`` event, as a
reader would see it. One answer is run first and reported separately as the cold
start (imports, first-use setup); the percentiles are over the warm answers.
Target: p50 time to first token under 100 ms.

The floor is the essential work of the same answer done directly, with nothing between
the parts: the embedded model's steps, the corpus tools' own work (search, two reads),
the stream pipeline, citation resolving and SSE encoding of every event. It must give
the same text and citations as ``answer`` (the run stops if not). Answer and floor run
interleaved, question by question, and each is timed in CPU (``time.process_time``, all
threads). Targets: an answer costs at most 2x its floor, and one core gives at least 50
answers a second.
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
from citeline.agent.citations import CitationResolver
from citeline.agent.corpus_tools import corpus_tools
from citeline.agent.meaning import ingest_reading, new_similarity
from citeline.agent.tools import Source
from citeline.corpus import Corpus, Retrieval
from citeline.corpus.embedding import dense_installed, load_embedder
from citeline.evaluation.percentiles import percentile
from citeline.events import Citation, Done, Start, Token, encode_sse
from citeline.models import Similarity
from citeline.models.embedded import model as embedded
from citeline.models.embedded.session import pieces
from citeline.stream import Pipeline
from citeline.text import answer_terms as embedded_terms

REPO = Path(__file__).resolve().parents[1]
SCIFACT = REPO.parent / "shared" / "data" / "beir-scifact"
DEVELOPMENT = REPO / "benchmarks" / "questions" / "python-docs.jsonl"
TARGET_TTFT_MS = 100.0
TARGET_FLOOR_RATIO = 2.0
TARGET_ANSWERS_PER_CORE_SECOND = 50.0


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


def demo_questions(count: int) -> list[str]:
    """The development questions over the bundled sample, as many as asked, cycling."""
    asked = [
        json.loads(line)["question"]
        for line in DEVELOPMENT.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    return [asked[n % len(asked)] for n in range(count)]


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


async def floor_answer(
    question: str, corpus: Corpus, similarity: Similarity | None = None
) -> list[str]:
    """The answer's SSE events (``done`` without its timing), made by the parts alone."""
    tools = {tool.name: tool for tool in corpus_tools(corpus)}
    sources: dict[str, Source] = {}
    outcomes: list[embedded.ToolOutcome] = []
    while isinstance(
        step := embedded.next_step(
            embedded.TurnView(question, (), tuple(outcomes), similarity=similarity)
        ),
        tuple,
    ):
        for request in step:
            output = await tools[request.tool].run(request.args)
            for source in output.sources:
                sources.setdefault(source.href, source)
            outcomes.append(embedded.ToolOutcome(request.tool, output.value))
    pipeline = Pipeline()
    resolver = CitationResolver(sources)
    encoded = [encode_sse(Start(release=corpus.release))]
    written = False
    for chunk in [*(pipeline.feed(piece) for piece in pieces(step)), pipeline.flush()]:
        if chunk.text:
            written = written or bool(chunk.text.strip())
            encoded.append(encode_sse(Token(chunk.text)))
        for anchor in chunk.anchors:
            citation = resolver.resolve(anchor)
            if citation is not None:
                encoded.append(encode_sse(citation))
    # The embedded model is extractive: an answer that cites nothing is its line saying
    # that nothing answers, as the engine decides too.
    state = "answered" if written and sources and resolver.cited else "nothing_found"
    encoded.append(encode_sse(Done(state=state, seconds=0.0)))
    return encoded


async def answer_events(question: str, corpus: Corpus) -> list[str]:
    """``answer``'s SSE events, ``done`` reduced as the floor's is, so the two compare."""
    encoded = []
    async for event in answer(question, corpus=corpus):
        if isinstance(event, Done):
            event = Done(state=event.state, seconds=0.0)
        encoded.append(encode_sse(event))
    return encoded


def _forget(corpus: Corpus) -> None:
    """Forget what the last run left in the process's caches (query vectors, the terms of the
    texts read), so the answer and its floor each pay for the question as a fresh one would."""
    embedded_terms._content_terms.cache_clear()
    embedded_terms._term_counts.cache_clear()
    retriever = getattr(corpus, "_retriever", None)
    cached = getattr(retriever, "_embed_query", None)
    if cached is not None and hasattr(cached, "cache_clear"):
        cached.cache_clear()
    if dense_installed():
        queries = getattr(load_embedder(), "_queries", None)
        if queries is not None:
            queries.clear()


async def floor_run(corpus: Corpus, questions: list[str]) -> None:
    """CPU per answer and per floor, interleaved question by question."""
    # The floor reads for meaning as the answer does (the sentence model, when the dense
    # extra is installed: the model's own work, over the vectors the collection stored),
    # through a cache of its own, so that each pays for what it sees first and neither
    # rides on the other's.
    similarity = new_similarity(corpus)
    await answer_events(questions[0], corpus)
    await floor_answer(questions[0], corpus, similarity)
    answer_cpu: list[float] = []
    floor_cpu: list[float] = []
    for question in questions:
        _forget(corpus)
        started = time.process_time()
        whole = await answer_events(question, corpus)
        answer_cpu.append(time.process_time() - started)
        _forget(corpus)
        started = time.process_time()
        parts = await floor_answer(question, corpus, similarity)
        floor_cpu.append(time.process_time() - started)
        if whole != parts:
            raise SystemExit(f"the floor differs from the answer on {question!r}")
    a50, f50 = percentile(answer_cpu, 50) * 1000, percentile(floor_cpu, 50) * 1000
    mean = sum(answer_cpu) / len(answer_cpu)
    ratio = sum(answer_cpu) / sum(floor_cpu)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"CPU per embedded answer against its floor, {len(questions)} questions, load {load}")
    print(f"{'measure':<34}{'value':>12}{'target':>12}")
    print(f"{'answer CPU p50':<34}{a50:>9.2f} ms")
    print(f"{'floor CPU p50':<34}{f50:>9.2f} ms")
    print(f"{'answer / floor (total CPU)':<34}{ratio:>11.2f}x{'<= 2x':>12}")
    print(f"{'answers per core-second':<34}{1 / mean:>12.0f}{'>= 50':>12}")
    met = ratio <= TARGET_FLOOR_RATIO and 1 / mean >= TARGET_ANSWERS_PER_CORE_SECOND
    print(
        f"targets: {'met' if met else 'MISSED'}; same events as the floor: all {len(questions)}\n"
    )


async def run(corpus: Corpus, questions: list[str], model: str, label: str = "") -> None:
    cold_ttft, cold_total, *_ = await measure(questions[0], corpus, model)
    results = [await measure(q, corpus, model) for q in questions]
    ttft = [r[0] * 1000 for r in results]
    total = [r[1] * 1000 for r in results]
    cpu_ttft = [r[4] * 1000 for r in results]
    states = Counter(r[2] for r in results)
    cited = sum(1 for r in results if r[3] > 0)

    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    # Other work on the machine inflates every figure; the load average says how much.
    print(f"{len(questions)} questions{label}, model {model}, load average {load}")
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
    parser.add_argument("--db", type=Path, help="an existing index (default: build one)")
    parser.add_argument(
        "--collection",
        choices=["scifact", "demo"],
        default="scifact",
        help="what to build without --db: SciFact's abstracts, or the demo's bundled sample",
    )
    parser.add_argument("--questions", type=int, default=50)
    parser.add_argument("--model", default="embedded")
    parser.add_argument(
        "--retrieval",
        choices=[mode.value for mode in Retrieval],
        default=(Retrieval.HYBRID if dense_installed() else Retrieval.LEXICAL).value,
        help="the mode SciFact is built for without --db",
    )
    args = parser.parse_args()
    # Two sets of claims: the floor run's and the latency run's, so the latency run meets
    # sections the sentence model has not embedded yet, as a fresh question does.
    if args.collection == "demo":
        from citeline.sample import sample_path

        source = sample_path()
        claims = demo_questions(2 * args.questions)
    else:
        source = SCIFACT / "corpus.jsonl"
        claims = train_claims(2 * args.questions)
    questions, latency = claims[: args.questions], claims[args.questions :]
    with tempfile.TemporaryDirectory() as scratch:
        db = args.db
        if db is None:
            db = Path(scratch) / f"{args.collection}.db"
            started, cpu = time.perf_counter(), time.process_time()
            meaning_cpu: list[float] = []

            def meaning_stage(done: int, total: int) -> None:
                # Told (0, total) as the stage starts and (total, total) as it ends.
                if done == 0 or done == total:
                    meaning_cpu.append(time.process_time())

            with Corpus.open(db, retrieval="lexical") as building:
                building.ingest(
                    source,
                    retrieval=args.retrieval,
                    reading=ingest_reading(),
                    meaning_progress=meaning_stage,
                )
            load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
            meaning = meaning_cpu[-1] - meaning_cpu[0] if len(meaning_cpu) > 1 else 0.0
            print(
                f"indexed {args.collection} ({args.retrieval}) in "
                f"{time.perf_counter() - started:.1f} s, "
                f"{time.process_time() - cpu:.1f} s CPU, of which meaning vectors "
                f"{meaning:.1f} s; load {load}"
            )
        corpus = Corpus.open(db, retrieval=args.retrieval)
        if args.model == "embedded":
            asyncio.run(floor_run(corpus, questions))
        asyncio.run(run(corpus, latency, args.model, " (sections new to the model)"))
        # A server answers about the same sections again and again: the same claims once
        # more, every section's vector kept from the run above.
        asyncio.run(run(corpus, latency, args.model, " again (sections seen before)"))


if __name__ == "__main__":
    main()
