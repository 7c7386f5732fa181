"""Fusing a lexical and a dense ranking into one: a normalised score mix.

Each list's scores are scaled to [0, 1] (min-max over that list) and summed with weights
``LEXICAL_WEIGHT`` and 1 - ``LEXICAL_WEIGHT``; a passage missing from one list scores 0
there. Chosen by measurement on SciFact train (809 queries, nDCG@10 of a 20-passage search)
and the development questions (``benchmarks/questions/python-docs.jsonl``, 82, document
hit@3), each list 100 deep, passages embedded at 128 word pieces by the int8 graph: the mix
at 0.6 scored 0.7314 and 0.951; at 0.5, 0.7244 and 0.976; at 0.55, 0.7298 and 0.951; at 0.65,
0.7306 and 0.951; at 0.7, 0.7305 and 0.927; reciprocal rank fusion (k 5) 0.7172 and 0.976,
(k 10) 0.7126 and 0.976, (k 60) 0.6993 and 0.963. Only 0.6 holds both targets (0.73, 0.95).
Over the ten development collections (``benchmarks/questions/search_fusion.py``), 0.5 puts a
gold section in the first three results for a mean 0.801 of a collection's questions against
0.767, more in every collection, but costs SciFact 0.0064 of nDCG@10 (0.7256, under its
0.73), and the embedded answers it feeds gain 0.007 of expected term with six cells past one
question; 0.6 stays (docs/corpus.md, "Fusion").
A passage whose title the query names stays first, as in lexical search.

It deliberately knows nothing about stores, models or text.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence

from citeline.corpus.stores.base import Candidate

LEXICAL_WEIGHT = 0.6


def fuse(lexical: Sequence[Candidate], dense: Sequence[Candidate], k: int) -> list[Candidate]:
    """The ``k`` best passages of the two rankings, by their weighted normalised scores."""
    scores: dict[int, float] = {}
    named: set[int] = {c.passage for c in lexical if c.names_title}
    for ranking, weight in ((lexical, LEXICAL_WEIGHT), (dense, 1.0 - LEXICAL_WEIGHT)):
        if not ranking:
            continue
        values = [c.score for c in ranking]
        low = min(values)
        span = max(values) - low
        for candidate, value in zip(ranking, values, strict=True):
            share = (value - low) / span if span > 0 else 1.0
            scores[candidate.passage] = scores.get(candidate.passage, 0.0) + weight * share
    # Named passages first, then by score, ties by id: one partial sort, and only the k
    # kept become candidates (a hybrid query fuses about 150 passages to keep 10).
    best = heapq.nsmallest(
        k, scores.items(), key=lambda item: (item[0] not in named, -item[1], item[0])
    )
    return [Candidate(passage, score, passage in named) for passage, score in best]
