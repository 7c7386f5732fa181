"""The search alone over every development collection, at each weight of the hybrid fusion:
where the gold section stands in what the search returns.

Run from the repository root (the dense extra installed; the indexes are the ones
``crossval.py`` builds, in ``CITELINE_COLLECTIONS_CACHE``):

    .venv/bin/python benchmarks/questions/search_fusion.py
    .venv/bin/python benchmarks/questions/search_fusion.py --weights 0.4,0.5,0.6 --collections git
    .venv/bin/python benchmarks/questions/search_fusion.py --weights 0.6,1 --title-weight 3

For each documentation collection, every question and follow-up with a gold section is
searched as the embedded model first searches (``search_request``: the question, or a
follow-up with its conversation's subject words, as many results as it asks for), and the
sections of the results are read in order, as every model sees them. It prints, at each
lexical weight of ``citeline.corpus.fusion`` (the dense ranking has the rest): how many
questions have a gold section first, in the first three and anywhere in the results, and the
mean reciprocal rank of the first gold section. SciFact's train claims (BEIR) give nDCG@10 of
a ten-document search, as ``benchmarks/retrieval.py`` measures it.

The last row chooses the weight by leaving one collection out: each collection is read at the
weight with the best mean reciprocal rank over the other collections, the way a weight fitted
here meets a site nobody measured. Every weight is searched with the same query vectors (one
embedding a question, cached), so the arms differ only in the fusion. A weight of 1 is the
words alone (BM25 over the search index), as a plain install without the dense extra searches.

``--title-weight`` and ``--heading-weight`` set how many times the search index writes a
passage's title and heading terms (``citeline.corpus.search_index``); other than the shipped
ones, the index is built for them in its own folder beside each collection's (one to two
minutes for all of them), so each pair is one run and the shipped indexes stay as they are.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import dev_collections

from citeline.agent.corpus_tools import corpus_tools
from citeline.corpus import Corpus, fusion, search_index
from citeline.corpus.judged_queries import load_beir_queries, ndcg_at, rank_documents
from citeline.models.embedded.model import ToolOutcome, search_request, sources_of
from citeline.models.embedded.tuning import shipped_tuning

WEIGHTS = (0.4, 0.5, 0.55, 0.6, 0.7)
SHIPPED_TERM_WEIGHTS = (search_index.TITLE_WEIGHT, search_index.HEADING_WEIGHT)


@dataclass(frozen=True, slots=True)
class Places:
    """Where each question's first gold section stands in the results (``None``: absent)."""

    places: tuple[int | None, ...]

    def within(self, depth: int) -> int:
        return sum(1 for p in self.places if p is not None and p < depth)

    @property
    def found(self) -> int:
        return sum(1 for p in self.places if p is not None)

    def shares(self) -> tuple[float, float, float, float]:
        """First, first three and anywhere as shares of the questions, and the reciprocal
        rank."""
        n = len(self.places)
        return self.within(1) / n, self.within(3) / n, self.found / n, self.reciprocal

    @property
    def reciprocal(self) -> float:
        return statistics.fmean(1 / (p + 1) if p is not None else 0.0 for p in self.places)


def collection_places(
    collection: dev_collections.Collection, weights: Sequence[float]
) -> dict[float, Places]:
    """Each weight's places over the collection's questions and follow-ups with gold."""
    index = dev_collections.built_index(collection, retrieval="hybrid", log=False)
    sets = dev_collections.collection_questions(collection, index)
    questions = [q for q in (*sets.questions, *sets.followups) if q.gold_ids]
    tuning = shipped_tuning()
    found: dict[float, list[int | None]] = {w: [] for w in weights}
    with Corpus.open(index, search_index=arm_folder(index)) as corpus:
        search = next(t for t in corpus_tools(corpus, in_thread=False) if t.name == "search")

        async def run_all() -> None:
            for question in questions:
                request = search_request(question.question, tuple(question.history), tuning)
                gold = set(question.gold_ids)
                # The weights interleaved, question by question.
                for weight in weights:
                    fusion.LEXICAL_WEIGHT = weight
                    result = await search.run(dict(request.args))
                    ids = [s.id for s in sources_of([ToolOutcome("search", result.value)])]
                    found[weight].append(next((i for i, x in enumerate(ids) if x in gold), None))

        asyncio.run(run_all())
    return {w: Places(tuple(p)) for w, p in found.items()}


def scifact_ndcg(collection: dev_collections.Collection, weights: Sequence[float]) -> list[float]:
    """nDCG@10 of SciFact's train claims at each weight (a ten-document search)."""
    index = dev_collections.built_index(collection, retrieval="hybrid", log=False)
    queries = load_beir_queries(dev_collections.shared_data() / "beir-scifact", "train")
    scores: dict[float, list[float]] = {w: [] for w in weights}
    with Corpus.open(index, search_index=arm_folder(index)) as corpus:
        for query in queries:
            for weight in weights:
                fusion.LEXICAL_WEIGHT = weight
                ranked = rank_documents(corpus, query.text, 10)
                scores[weight].append(ndcg_at(ranked, query.relevant, 10))
    return [statistics.fmean(scores[w]) for w in weights]


def arm_folder(index: Path) -> Path | None:
    """The search index folder for the title and heading weights in force: ``None`` (the
    collection's own) for the shipped ones, else one of their own beside it."""
    weights = (search_index.TITLE_WEIGHT, search_index.HEADING_WEIGHT)
    if weights == SHIPPED_TERM_WEIGHTS:
        return None
    return index.with_name(f"{index.name}.search-index-title{weights[0]}-heading{weights[1]}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--weights",
        default=",".join(map(str, WEIGHTS)),
        help="Comma-separated lexical weights to compare (default: %(default)s).",
    )
    parser.add_argument(
        "--collections", help="Comma-separated names (default: every collection found)."
    )
    parser.add_argument(
        "--title-weight",
        type=int,
        default=search_index.TITLE_WEIGHT,
        help="Times the index writes a title's terms (default: %(default)s, shipped).",
    )
    parser.add_argument(
        "--heading-weight",
        type=int,
        default=search_index.HEADING_WEIGHT,
        help="Times the index writes a heading's terms (default: %(default)s, shipped).",
    )
    options = parser.parse_args(argv)
    if options.title_weight < 1 or options.heading_weight < 1:
        raise SystemExit("--title-weight and --heading-weight are whole numbers from 1.")
    search_index.TITLE_WEIGHT = options.title_weight
    search_index.HEADING_WEIGHT = options.heading_weight
    # Each weight once: the places are kept by weight, and a weight named twice would
    # append its searches twice to one list.
    weights = tuple(dict.fromkeys(float(w) for w in options.weights.split(",") if w))
    if not weights or any(not 0 <= w <= 1 for w in weights):
        raise SystemExit("--weights are lexical weights between 0 and 1, comma-separated.")
    shipped = fusion.LEXICAL_WEIGHT
    names = options.collections.split(",") if options.collections else None
    rows: dict[str, dict[float, Places]] = {}
    ndcg: list[float] | None = None
    for collection in dev_collections.load_collections(names):
        if collection.kind == "claims":
            ndcg = scifact_ndcg(collection, weights)
        else:
            rows[collection.name] = collection_places(collection, weights)
        print(f"{collection.name}: done", file=sys.stderr, flush=True)
    fusion.LEXICAL_WEIGHT = shipped
    print(
        "Gold section first / in the first three / anywhere in the results, and the mean "
        "reciprocal rank, at each lexical weight of the fusion (shipped: "
        f"{shipped:g}); title terms written {options.title_weight} times, heading terms "
        f"{options.heading_weight} times\n"
    )
    print("| collection | questions | " + " | ".join(f"{w:g}" for w in weights) + " |")
    print("|---|---:|" + "---|" * len(weights))
    for name, places in rows.items():
        n = len(places[weights[0]].places)
        cells = [
            f"{p.within(1)} / {p.within(3)} / {p.found}, {p.reciprocal:.3f}"
            for p in (places[w] for w in weights)
        ]
        print(f"| {name} | {n} | " + " | ".join(cells) + " |")
    if rows:
        means = []
        for w in weights:
            shares = [p.shares() for p in (places[w] for places in rows.values())]
            mean = [statistics.fmean(column) for column in zip(*shares, strict=True)]
            means.append("{:.3f} / {:.3f} / {:.3f}, {:.3f}".format(*mean))
        print("| mean (shares) | | " + " | ".join(means) + " |")
    if ndcg is not None:
        print("| SciFact train nDCG@10 | | " + " | ".join(f"{v:.4f}" for v in ndcg) + " |")
    if len(rows) > 1:
        print("\nEach collection at the weight the others choose (best mean reciprocal rank):\n")
        chosen_mrr = []
        for name, places in rows.items():
            others = [p for n, p in rows.items() if n != name]
            best = max(weights, key=lambda w: statistics.fmean(p[w].reciprocal for p in others))
            at = places[best]
            chosen_mrr.append(at.reciprocal)
            print(
                f"- {name}: {best:g}, first {at.within(1)}, first three {at.within(3)}, "
                f"reciprocal rank {at.reciprocal:.3f}"
            )
        print(f"- mean reciprocal rank, left out: {statistics.fmean(chosen_mrr):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
