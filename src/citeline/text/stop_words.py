"""The word lists each analysis sets aside: stop words, which say nothing of what a text is
about, and the words that frame a question rather than name its subject.

Two stop lists, because the two analyses were measured apart: the search index keeps
Lucene's short list (its terms are weighed by BM25, which discounts common words anyway),
the answerer the usual English function words (it compares small sets of terms, where one
shared "about" or "which" would make two texts look alike).
"""

from __future__ import annotations

__all__ = ["ANSWER_STOP_WORDS", "FRAME_WORDS", "INDEX_STOP_WORDS", "QUESTION_WORDS"]

# Lucene's English stop list, the index's: measured on SciFact's train split (809 queries,
# nDCG@10), it costs 0.002 (0.701 without it) and cuts query time from 17.9 ms to 7.0 ms
# p50, because the words it drops match nearly every passage.
INDEX_STOP_WORDS = frozenset(
    {
        "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into",
        "is", "it", "no", "not", "of", "on", "or", "such", "that", "the", "their", "then",
        "there", "these", "they", "this", "to", "was", "will", "with",
    }
)  # fmt: skip

# Words that make a query a question without saying what it is about: dropped from the
# index's queries only (a title or passage keeps them), unless nothing else is left.
# Measured on the development questions (benchmarks/questions/python-docs.jsonl): "how do I
# ..." matched every FAQ title that starts so, and lexical document hit@3 rose from 0.805 to
# 0.878; on SciFact train, nDCG@10 0.7041 before and 0.7050 after.
QUESTION_WORDS = frozenset(
    {
        "can", "could", "did", "do", "does", "how", "i", "me", "my", "should", "we", "what",
        "when", "where", "which", "who", "would", "you", "your",
    }
)  # fmt: skip

# English function words (the usual stop list), the answerer's: they say nothing of what a
# text is about.
ANSWER_STOP_WORDS = frozenset(
    """a about above after again against all also am an and any are as at be because been before
    being below between both but by can could did do does doing done down during each either
    few for from further had has have having he her here hers herself him himself his how i if
    in into is it its itself just may me might more most must my myself no nor not now of off
    on once only or other our ours ourselves out over own same shall she should so some such
    than that the their theirs them themselves then there these they this those through to too
    under until up upon us very was we were what when where which while who whom why will with
    would yet you your yours yourself""".split()  # noqa: SIM905 (a list literal is 70 lines)
)

# Words that frame a question rather than name its subject ("what is the difference
# between", "is there a way to", "which one"): a section using them is no closer to the
# answer, so the answerer weighs them nothing in choosing one. Kept in the search query all
# the same.
FRAME_WORDS = frozenset(
    """best better compare comparison difference differences different differ example explain
    get give got just like mean meaning means need one ones other possible something thing
    things use used using want way ways work works""".split()  # noqa: SIM905
)
