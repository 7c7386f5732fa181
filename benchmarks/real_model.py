"""A development question set asked of a real model behind an OpenAI-compatible server.

Not in CI: it needs a model server (docs/models.md names the setups that work). One
command, prints a table:

    OPENAI_BASE_URL=http://127.0.0.1:8080/v1 .venv/bin/python benchmarks/real_model.py \\
        --model 'openai:qwen2.5-coder-1.5b' [--db INDEX] [--questions FILE] [--limit 10] \\
        [--context-tokens 1200] [--max-tokens 256] [--record answers.jsonl]

Without ``--db`` it indexes the bundled Python-docs sample and asks
``benchmarks/questions/python-docs.jsonl``; with ``--db`` give the id-form question file
of that index (``benchmarks/questions/gold_ids.py`` writes one). Each question goes
through ``citeline.answer`` as ``citeline ask`` sends it: the server's own search first,
then the model, the stream pipeline and the server's attribution. Printed: citation
precision against the gold sections (over answers that cite, and over all citations),
the share of answers with at least one citation, how many of those the server found
(``found_by: server``) and how many the model wrote, the share whose text holds an
expected term, how many replies were cut at ``--max-tokens``, tool calls removed from
the text, and the time to the first token and to the end (wall) beside this process's CPU.
``--record`` keeps every answer (question, gold, text, citations, timings) for
``benchmarks/attribution.py --collection``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from citeline import answer  # noqa: E402
from citeline.agent.context_budget import DEFAULT_CONTEXT_TOKENS  # noqa: E402
from citeline.corpus import Corpus  # noqa: E402
from citeline.evaluation.answer_checks import contains_expected_term  # noqa: E402
from citeline.evaluation.questions import EvalQuestion, load_questions  # noqa: E402
from citeline.events import Citation, Done, Token  # noqa: E402
from citeline.models import ModelHandle, resolve_model  # noqa: E402
from citeline.sample import sample_path  # noqa: E402

QUESTIONS = REPO / "benchmarks" / "questions" / "python-docs.jsonl"


async def ask_all(
    corpus: Corpus, asked: list[EvalQuestion], handle: ModelHandle, record: Path | None
) -> list[dict[str, object]]:
    rows = []
    for question in asked:
        started = time.perf_counter()
        cpu = time.process_time()
        first_token: float | None = None
        text: list[str] = []
        citations: list[Citation] = []
        done: Done | None = None
        async for event in answer(question.question, corpus=corpus, model=handle):
            if isinstance(event, Token):
                if first_token is None:
                    first_token = time.perf_counter() - started
                text.append(event.text)
            elif isinstance(event, Citation):
                citations.append(event)
            elif isinstance(event, Done):
                done = event
        assert done is not None
        row: dict[str, object] = {
            "id": question.id,
            "question": question.question,
            "gold_ids": list(question.gold_ids),
            "answer_terms": list(question.answer_terms),
            "text": "".join(text),
            "citations": [c.payload() for c in citations],
            "state": done.state,
            "truncated": done.truncated,
            "tool_call_text": done.tool_call_text,
            "failure": done.failure,
            "first_token_s": first_token,
            "total_s": time.perf_counter() - started,
            "cpu_s": time.process_time() - cpu,
            "model": handle.name,
            "context_tokens": handle.context_tokens,
            "max_tokens": handle.max_tokens,
        }
        rows.append(row)
        print(
            f"{question.id}: {done.state}, {len(citations)} citation(s), {row['total_s']:.0f} s",
            file=sys.stderr,
            flush=True,
        )
        if record is not None:
            with record.open("a", encoding="utf-8") as out:
                out.write(json.dumps(row, ensure_ascii=False) + "\n")
    return rows


def report(rows: list[dict[str, object]]) -> None:
    n = len(rows)
    cited = [r for r in rows if r["citations"]]
    per_answer = []
    hits = total = found = written = 0
    for row in cited:
        gold = set(row["gold_ids"])  # type: ignore[arg-type]
        ids = [c.get("id") or c.get("url") for c in row["citations"]]  # type: ignore[union-attr]
        right = sum(i in gold for i in ids)
        per_answer.append(right / len(ids))
        hits += right
        total += len(ids)
        found += sum(c.get("found_by") == "server" for c in row["citations"])  # type: ignore[union-attr]
        written += sum(c.get("found_by") is None for c in row["citations"])  # type: ignore[union-attr]
    with_terms = [r for r in rows if r["answer_terms"]]
    term_hits = sum(
        contains_expected_term(str(r["text"]), r["answer_terms"])  # type: ignore[arg-type]
        for r in with_terms
    )
    first = [float(r["first_token_s"]) for r in rows if r["first_token_s"] is not None]  # type: ignore[arg-type]
    totals = [float(r["total_s"]) for r in rows]  # type: ignore[arg-type]
    cpu = sum(float(r["cpu_s"]) for r in rows)  # type: ignore[arg-type]
    print("| measure | value |\n|---|---|")
    print(f"| answers | {n} ({sum(r['state'] == 'answered' for r in rows)} answered) |")
    print(f"| answers cited | {len(cited)} ({len(cited) / n:.0%}) |")
    mean = statistics.fmean(per_answer) if per_answer else 0.0
    print(f"| citation precision, mean over cited answers | {mean:.3f} |")
    print(f"| citation precision, over all {total} citations | {hits / max(total, 1):.3f} |")
    print(f"| citations found by the server / written by the model | {found} / {written} |")
    if with_terms:
        print(f"| expected term in the answer | {term_hits / len(with_terms):.0%} |")
    print(f"| replies cut at max tokens | {sum(bool(r['truncated']) for r in rows)} |")
    print(f"| tool calls removed from the text | {sum(int(r['tool_call_text']) for r in rows)} |")  # type: ignore[call-overload]
    if first:
        print(
            f"| first token, median / max | {statistics.median(first):.1f} s / {max(first):.1f} s |"
        )
    print(
        f"| whole answer, median / max | {statistics.median(totals):.1f} s / {max(totals):.1f} s |"
    )
    print(f"| this process's CPU (search, pipeline, attribution) | {cpu:.1f} s |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default=os.environ.get("CITELINE_MODEL", ""))
    parser.add_argument("--db", type=Path, help="an index (default: the bundled sample)")
    parser.add_argument("--questions", type=Path, default=QUESTIONS)
    parser.add_argument("--limit", type=int)
    parser.add_argument("--context-tokens", type=int, default=DEFAULT_CONTEXT_TOKENS)
    parser.add_argument("--max-tokens", type=int, default=2048)
    parser.add_argument("--record", type=Path, help="append every answer to this JSONL file")
    args = parser.parse_args()
    if not args.model or args.model == "embedded":
        parser.error("name a real model: --model openai:<model> (and OPENAI_BASE_URL)")
    handle = resolve_model(
        args.model, max_tokens=args.max_tokens, context_tokens=args.context_tokens
    )
    asked = load_questions(args.questions, limit=args.limit)
    with tempfile.TemporaryDirectory() as folder:
        if args.db is None:
            corpus = Corpus.open(Path(folder) / "sample.db")
            corpus.ingest(sample_path())
        else:
            corpus = Corpus.open(args.db)
        try:
            rows = asyncio.run(ask_all(corpus, asked, handle, args.record))
        finally:
            corpus.close()
    print(
        f"{handle.name}, {len(asked)} questions of {args.questions.name}, "
        f"context {args.context_tokens} tokens, max {args.max_tokens} tokens a reply"
    )
    report(rows)


if __name__ == "__main__":
    main()
