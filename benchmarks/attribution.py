"""Citations the server finds, measured on recorded real-model answers replayed.

One command, prints a table:

    .venv/bin/python benchmarks/attribution.py [--fit] [--context-tokens 3000]

The answers are the ones a real small model wrote (Qwen2.5-Coder-1.5B,
``../shared/data/real-model-transcripts/``) to questions of the development sets
(``benchmarks/questions/python-docs.jsonl``), recorded with the passages it was given and,
for some, from memory. Each is replayed byte for byte by a scripted OpenAI-compatible
server to ``citeline.answer`` over the bundled sample it was recorded against, so the
server searches first, streams the recorded text through the pipeline and attributes
its sentences as it would for a live model. Printed: attribution precision (the share of
server-found citations whose source is a gold section of the question; per answer, then
over all citations), the share of answers with at least one citation, and how many
citations the model itself wrote (none: it never links).

``--fit`` scores every sentence against every passage once, then sweeps the weight of
words against meaning and the threshold, and prints precision and answers cited for
each: the row kept in ``citeline.agent.attribution.ATTRIBUTION`` is the lowest threshold
whose precision is at least 0.85 (docs/benchmarks.md). A threshold is fitted over all
the recorded questions, never one.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.support.openai_stub import ScriptedOpenAIServer  # noqa: E402
from tests.support.transcripts import answers  # noqa: E402

from citeline import answer  # noqa: E402
from citeline.agent.attribution import (  # noqa: E402
    ATTRIBUTION,
    ATTRIBUTION_WORDS,
    AttributionSettings,
    Attributor,
    Candidate,
    decide,
)
from citeline.agent.context_budget import DEFAULT_CONTEXT_TOKENS, ContextBudget  # noqa: E402
from citeline.agent.corpus_tools import corpus_tools  # noqa: E402
from citeline.agent.meaning import new_similarity  # noqa: E402
from citeline.corpus import Corpus  # noqa: E402
from citeline.corpus.embedding import dense_installed  # noqa: E402
from citeline.events import Citation, Done, Event  # noqa: E402
from citeline.models import Similarity, resolve_model  # noqa: E402
from citeline.sample import sample_path  # noqa: E402
from citeline.stream import Pipeline  # noqa: E402
from citeline.stream.quotes import TrustedText  # noqa: E402

QUESTIONS = REPO / "benchmarks" / "questions" / "python-docs.jsonl"
TARGET_PRECISION = 0.85
TARGET_CITED = 0.80


@dataclass(frozen=True)
class Case:
    """One recorded answer: its question, its text, the gold sections, and how to play it
    back (the recorded body, or the text streamed as a scripted reply)."""

    question: str
    text: str
    gold: frozenset[str]
    reply: dict[str, object]
    # The context budget the answer was recorded under (None: the run's --context-tokens).
    context_tokens: int | None = None


def recorded_python_docs() -> list[Case]:
    """The transcripts' answers to questions of the Python-docs development set."""
    gold = {}
    for line in QUESTIONS.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        gold[row["question"]] = frozenset(row["gold_ids"])
    return [
        Case(e.question, e.text, gold[e.question], e.reply())
        for e in answers()
        if gold.get(e.question)
    ]


def recorded_file(path: Path) -> list[Case]:
    """Answers `benchmarks/real_model.py --record` kept (one JSON object a line)."""
    cases = []
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if row.get("gold_ids") and row.get("text", "").strip():
            reply = {"text": [row["text"]]}
            gold = frozenset(row["gold_ids"])
            budget = row.get("context_tokens")
            cases.append(Case(row["question"], row["text"], gold, reply, budget))
    return cases


async def replay(corpus: Corpus, chosen: list[Case], context_tokens: int) -> None:
    server = ScriptedOpenAIServer()
    server.start()
    os.environ["OPENAI_BASE_URL"] = server.base_url
    os.environ.setdefault("OPENAI_API_KEY", "replay")
    answered = cited_answers = model_cited = 0
    hits = total = 0
    per_answer: list[float] = []
    started = time.process_time()
    try:
        for case in chosen:
            server.script = [case.reply]
            handle = resolve_model(
                "openai:replayed", context_tokens=case.context_tokens or context_tokens
            )
            events: list[Event] = [
                e async for e in answer(case.question, corpus=corpus, model=handle)
            ]
            done = events[-1]
            assert isinstance(done, Done)
            found = [e for e in events if isinstance(e, Citation) and e.found_by == "server"]
            model_cited += sum(isinstance(e, Citation) and e.found_by is None for e in events)
            answered += done.state == "answered"
            if found:
                cited_answers += 1
                right = sum(c.id in case.gold for c in found)
                hits += right
                total += len(found)
                per_answer.append(right / len(found))
    finally:
        server.stop()
    cpu = time.process_time() - started
    n = len(chosen)
    print(f"| answers replayed | {n} ({answered} answered) |")
    print(f"| answers with a server-found citation | {cited_answers} ({cited_answers / n:.0%}) |")
    mean = sum(per_answer) / len(per_answer) if per_answer else 0.0
    print(f"| attribution precision, mean over cited answers | {mean:.3f} |")
    print(f"| attribution precision, over all {total} citations | {hits / max(total, 1):.3f} |")
    print(f"| citations the model wrote itself | {model_cited} |")
    print(f"| CPU | {cpu:.1f} s ({cpu / n * 1000:.0f} ms an answer) |")


async def candidates_of(
    corpus: Corpus, question: str, text: str, context_tokens: int, similarity: Similarity | None
) -> list[list[Candidate]]:
    """Every sentence's candidates, as the engine would weigh them for this answer."""
    search = corpus_tools(corpus, in_thread=False, budget=ContextBudget(context_tokens))[0]
    output = await search.run({"query": question})
    passages: list[TrustedText] = list(output.trusted)
    pipeline = Pipeline()
    reader_text = pipeline.feed(text).text + pipeline.flush().text
    attributor = Attributor(question, lambda: passages, similarity)
    sentences = [*attributor.feed(reader_text), *attributor.flush()]
    return [attributor.candidates(sentence.text) for sentence in sentences]


def sweep(
    rows: Sequence[tuple[frozenset[str], list[list[Candidate]]]], settings: AttributionSettings
) -> tuple[float, float, float]:
    """(answers cited, mean precision over cited answers, precision over all citations)."""
    cited_answers = hits = total = 0
    per_answer = []
    for gold, sentences in rows:
        sources: list[str] = []
        for candidates in sentences:
            chosen = decide(candidates, settings)
            if chosen is not None and chosen.source_id not in sources:
                sources.append(chosen.source_id)
        if sources:
            cited_answers += 1
            right = sum(source in gold for source in sources)
            hits += right
            total += len(sources)
            per_answer.append(right / len(sources))
    mean = sum(per_answer) / len(per_answer) if per_answer else 0.0
    return cited_answers / max(len(rows), 1), mean, hits / max(total, 1)


async def fit(collections: dict[str, tuple[Corpus, list[Case]]], context_tokens: int) -> None:
    rows: dict[str, list[tuple[frozenset[str], list[list[Candidate]]]]] = {}
    meaning = dense_installed() and new_similarity() is not None
    for name, (corpus, chosen) in collections.items():
        similarity = new_similarity(corpus) if meaning else None
        rows[name] = [
            (
                case.gold,
                await candidates_of(
                    corpus,
                    case.question,
                    case.text,
                    case.context_tokens or context_tokens,
                    similarity,
                ),
            )
            for case in chosen
        ]
    names = list(rows)
    print(
        "| words weight | relevance weight | margin | threshold | "
        + " | ".join(f"{n}: cited, precision" for n in names)
        + " |"
    )
    print("|---" * (4 + len(names)) + "|")
    weights = (0.0, 0.3, 0.5, 1.0) if meaning else (1.0,)
    for words_weight in weights:
        for relevance_weight in (0.0, 0.5, 1.0):
            for margin in (0.0, 0.05, 0.08, 0.1, 0.15):
                for step in range(30, 160, 10):
                    settings = AttributionSettings(
                        words_weight, relevance_weight, step / 100, margin, ATTRIBUTION.min_terms
                    )
                    figures = [sweep(rows[name], settings) for name in names]
                    if min(f[0] for f in figures) < 0.5:
                        continue
                    cells = " | ".join(f"{c:.0%}, {p:.3f}" for c, p, _ in figures)
                    print(
                        f"| {words_weight:.1f} | {relevance_weight:.1f} | {margin:.2f} | "
                        f"{step / 100:.2f} | {cells} |"
                    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fit", action="store_true", help="sweep the weights and thresholds")
    parser.add_argument("--context-tokens", type=int, default=DEFAULT_CONTEXT_TOKENS)
    parser.add_argument(
        "--collection",
        nargs=3,
        action="append",
        default=[],
        metavar=("NAME", "INDEX", "ANSWERS"),
        help="another development collection: its index and the answers recorded over it "
        "(benchmarks/real_model.py --record)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        sample = Corpus.open(Path(folder) / "sample.db")
        sample.ingest(sample_path())
        collections = {"python-docs": (sample, recorded_python_docs())}
        for name, index, recorded in args.collection:
            collections[name] = (Corpus.open(index), recorded_file(Path(recorded)))
        try:
            if args.fit:
                asyncio.run(fit(collections, args.context_tokens))
            else:
                print(f"settings: {ATTRIBUTION if dense_installed() else ATTRIBUTION_WORDS}")
                for name, (corpus, chosen) in collections.items():
                    print(f"\n{name}: {len(chosen)} recorded answers replayed")
                    print("| measure | value |\n|---|---|")
                    asyncio.run(replay(corpus, chosen, args.context_tokens))
        finally:
            for corpus, _ in collections.values():
                corpus.close()


if __name__ == "__main__":
    main()
