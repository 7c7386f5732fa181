"""Why answers miss, leave one collection out: each follow-up that cites no gold section and
each off-topic question that is answered, put in a class, with the counts by class.

Run from the repository root, after ``crossval.py`` has built and cached the indexes and
features (the same options):

    .venv/bin/python benchmarks/questions/misses.py --retrieval lexical [--list]

A follow-up's miss is one of: answered ``nothing_found``; no gold section among the search's
results, when a search that also carries the earlier question's every word finds one
("history not carried") or not ("not found"); a gold section among the results but not
among those read ("not read"); a gold section read but another chosen ("another chosen").
An off-topic question answered is classed by its subject words as the search's results hold
them: one no result holds ("a word held nowhere": the confidence model let it through),
one only a single result holds and in no title ("a word held in passing"), else every
subject word held by two results or more ("all words held"). ``--list`` prints each one.

It changes nothing; it reads what ``crossval.py`` fits and simulates.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import crossval
import dev_collections
from ranker_fit import choice_of, fit

from citeline.agent.corpus_tools import corpus_tools
from citeline.agent.meaning import MEANING_ENV
from citeline.corpus import Corpus
from citeline.corpus.embedding import dense_installed
from citeline.models.embedded.model import ToolOutcome, search_request, sources_of
from citeline.models.embedded.tuning import shipped_tuning
from citeline.text.answer_terms import content_terms, subject_terms, title_terms

FOLLOWUP_CLASSES = (
    "nothing found",
    "history not carried",
    "not found",
    "not read",
    "another chosen",
)
OFF_TOPIC_CLASSES = ("a word held nowhere", "a word held in passing", "all words held")


async def _search(tools: dict[str, object], query: str, k: int) -> list[tuple[str, str, str]]:
    found = await tools["search"].run({"query": query, "k": k})  # type: ignore[attr-defined]
    return [
        (s.id or "", s.title, s.passage) for s in sources_of([ToolOutcome("search", found.value)])
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--collections")
    parser.add_argument("--retrieval", choices=("lexical", "dense", "hybrid"))
    parser.add_argument("--list", action="store_true", help="Print every miss.")
    options = parser.parse_args(argv)
    crossval.RETRIEVAL = options.retrieval or ""
    names = options.collections.split(",") if options.collections else None
    every = dev_collections.load_collections()
    crossval.TRAIN_EVERY.update({c.name: c.train_every for c in every if c.kind == "claims"})
    tuning = shipped_tuning()
    meaning = dense_installed()
    if not meaning:
        os.environ[MEANING_ENV] = "0"
    records = {c.name: crossval.collection_records(c, tuning, meaning) for c in every}
    followup_counts: dict[str, Counter[str]] = {}
    off_counts: dict[str, Counter[str]] = {}
    for collection in every:
        if collection.kind == "claims" or (names and collection.name not in names):
            continue
        fitted = fit(crossval.training(records, collection.name), tuning)
        index = dev_collections.built_index(collection, retrieval=crossval.RETRIEVAL, log=False)
        sets = dev_collections.collection_questions(collection, index)
        questions = {q.id: q for q in [*sets.followups, *sets.off_topic]}
        f_count: Counter[str] = Counter()
        o_count: Counter[str] = Counter()
        with Corpus.open(index) as corpus:
            tools = {t.name: t for t in corpus_tools(corpus, in_thread=False)}
            for record in records[collection.name]:
                if record.kind not in {"followup", "off_topic"}:
                    continue
                question = questions[record.id]
                choice = choice_of(record, fitted, tuning)
                answered = choice.answers and choice.section is not None
                if record.kind == "followup":
                    if not record.has_gold:
                        continue
                    if answered and record.sections[choice.section].gold:  # type: ignore[index]
                        f_count["cites gold"] += 1
                        continue
                    read = choice.order[: tuning.documents_to_read]
                    if not answered:
                        kind = "nothing found"
                    elif not any(s.gold for s in record.sections):
                        whole = f"{question.question} {' '.join(question.history)}"
                        request = search_request(question.question, question.history, tuning)
                        found = asyncio.run(_search(tools, whole, int(request.args["k"])))
                        gold = set(question.gold_ids)
                        kind = (
                            "history not carried"
                            if any(i in gold for i, _, _ in found)
                            else "not found"
                        )
                    elif not any(record.sections[i].gold for i in read):
                        kind = "not read"
                    else:
                        kind = "another chosen"
                    f_count[kind] += 1
                    if options.list:
                        chosen = (
                            record.sections[choice.section].id
                            if answered and choice.section is not None
                            else "-"
                        )
                        print(
                            f"{collection.name}\tfollowup\t{kind}\t{question.history} -> "
                            f"{question.question}\tchosen {chosen}"
                        )
                    continue
                if not answered:
                    o_count["nothing found"] += 1
                    continue
                request = search_request(question.question, question.history, tuning)
                found = asyncio.run(
                    _search(tools, str(request.args["query"]), int(request.args["k"]))
                )
                subjects = subject_terms(question.question)
                held = {
                    term: (
                        sum(1 for _, t, p in found if term in title_terms(t) | content_terms(p)),
                        any(term in title_terms(t) for _, t, _ in found),
                    )
                    for term in sorted(subjects)
                }
                if any(n == 0 for n, _ in held.values()):
                    kind = "a word held nowhere"
                elif any(n == 1 and not titled for n, titled in held.values()):
                    kind = "a word held in passing"
                else:
                    kind = "all words held"
                o_count[kind] += 1
                if options.list:
                    chosen = (
                        found[choice.section][1]
                        if choice.section is not None and choice.section < len(found)
                        else "?"
                    )
                    described = ", ".join(
                        f"{t}:{n}{'T' if titled else ''}" for t, (n, titled) in held.items()
                    )
                    print(
                        f"{collection.name}\toff-topic\t{kind}\t{question.question}\t"
                        f"p={choice.confidence:.2f}>={fitted.threshold:.2f}\t{described}\t"
                        f"chosen {chosen!r}"
                    )
        followup_counts[collection.name] = f_count
        off_counts[collection.name] = o_count
    print()
    print("| collection | cites gold | " + " | ".join(FOLLOWUP_CLASSES) + " |")
    print("|---|" + "---:|" * (len(FOLLOWUP_CLASSES) + 1))
    for name, count in followup_counts.items():
        cells = [str(count["cites gold"]), *(str(count[c]) for c in FOLLOWUP_CLASSES)]
        print(f"| {name} | " + " | ".join(cells) + " |")
    total = sum(followup_counts.values(), Counter())
    cells = [str(total["cites gold"]), *(str(total[c]) for c in FOLLOWUP_CLASSES)]
    print("| **all** | " + " | ".join(cells) + " |")
    print()
    print("| collection | nothing found | " + " | ".join(OFF_TOPIC_CLASSES) + " |")
    print("|---|" + "---:|" * (len(OFF_TOPIC_CLASSES) + 1))
    for name, count in off_counts.items():
        if not sum(count.values()):
            continue
        cells = [str(count["nothing found"]), *(str(count[c]) for c in OFF_TOPIC_CLASSES)]
        print(f"| {name} | " + " | ".join(cells) + " |")
    total = sum(off_counts.values(), Counter())
    cells = [str(total["nothing found"]), *(str(total[c]) for c in OFF_TOPIC_CLASSES)]
    print("| **all** | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
