"""The example questions the empty search page offers, and where they come from.

From ``CITELINE_EXAMPLES`` (``--examples FILE``: one question a line, blank lines and
``#`` comments ignored), else from the project file's ``[project] examples`` list, else
from the collection itself: a few of its section headings phrased as questions
(``collection_examples``), so an owner's first look never reads "Try, for example:" over
an empty list. The page shows the first ``SHOWN``. A file that cannot be read stops
start-up with the fix; it deliberately does not judge whether an owner's question is a
good one.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from pathlib import Path

from citeline.corpus.documents import TITLE_SEPARATOR
from citeline.server.errors import StartupError

# Three fit the narrowest screen above the fold and still show the collection's range.
SHOWN = 3
# A question longer than this is a paragraph; the page's search box takes 2,000.
MAX_QUESTION_CHARS = 300
# Titles read for examples: the first 10,000 documents' (0.1 s for the 4,589 sections of the
# Python manual, read whole), enough to find three good headings in any collection.
MAX_TITLES_READ = 10_000
# A heading phrased as a question reads as one when it is a short topic ("Variable Rules",
# "File Uploads"): longer ones are sentences, one word is a label ("Introduction").
TOPIC_WORDS = (2, 6)
# A heading that is already a question: between a short phrase and a sentence.
QUESTION_WORDS = (3, 16)
# Code and numbering are not topics a reader asks about: "os.path.join()", "6.2.1. Atoms".
_NOT_A_TOPIC = re.compile(r"[()\[\]{}<>=_/\\.:;`@#$%^*|~]|^\W|\d")
_HOW_TO = re.compile(r"(?i)^how\s+(?:to|do\s+i|can\s+i)\s+(?P<rest>.+?)[\s.?!]*$")


def load_examples(examples: Path | None, project: str | None) -> tuple[str, ...]:
    """The example questions, at most ``SHOWN``; ``StartupError`` when a file is unusable."""
    if examples is not None:
        try:
            lines = examples.read_text("utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as error:
            raise StartupError(
                f"CITELINE_EXAMPLES={examples} cannot be read ({error}); give a UTF-8 text "
                "file with one question a line."
            ) from None
        questions = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    else:
        questions = _from_project(project)
    for question in questions:
        if len(question) > MAX_QUESTION_CHARS:
            raise StartupError(
                f"The example question {question[:40]!r}... is over {MAX_QUESTION_CHARS} "
                "characters; shorten it."
            )
    return tuple(questions[:SHOWN])


def _from_project(project: str | None) -> list[str]:
    if project is None:
        return []
    from citeline.data.project import PROJECT_FILE, SAMPLE_PROJECT

    path = SAMPLE_PROJECT if project == "sample" else Path(project)
    if path.is_dir():
        path = path / PROJECT_FILE
    try:
        raw = tomllib.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return []  # the project's own loading reports a broken file, with its fix
    header = raw.get("project", {})
    listed = header.get("examples", []) if isinstance(header, dict) else []
    if not isinstance(listed, list):
        raise StartupError(f"{path}: [project] examples must be a list of questions.")
    return [str(question).strip() for question in listed if str(question).strip()]


def collection_examples(titles: Iterable[str]) -> tuple[str, ...]:
    """Up to ``SHOWN`` questions made from the collection's section headings, from different
    pages, spread over the collection in its own order.

    Best are headings that are questions already (an FAQ's "Why are my predictions off by
    an hour?"), then "How to ..." headings, asked as "How do I ...?", then short topics
    ("Tidal Datums"), asked as "What should I know about Tidal Datums?", a form that reads
    as English whatever the topic's grammar. A kind is used only when the better ones give
    fewer than ``SHOWN``. Read over Debian's Python, Flask, Requests and pytest manuals,
    every one gave three questions a reader would ask ("How do I capture warnings?", "What
    does “micro” mean?"), in under 0.15 s; the Python manual has 194 question headings.
    """
    kinds: tuple[list[tuple[str, str]], ...] = ([], [], [])
    seen: set[str] = set()
    for count, title in enumerate(titles):
        if count >= MAX_TITLES_READ:
            break
        parts = [part.strip() for part in title.split(TITLE_SEPARATOR)]
        heading = " ".join(parts[-1].split())
        if not heading or heading in seen:
            continue
        seen.add(heading)
        made = _as_question(heading)
        if made is not None and len(made[1]) <= MAX_QUESTION_CHARS:
            kinds[made[0]].append((parts[0], made[1]))
    chosen: list[str] = []
    pages: set[str] = set()
    for candidates in kinds:
        for page, question in _spread(candidates):
            if len(chosen) == SHOWN:
                return tuple(chosen)
            if page not in pages:
                pages.add(page)
                chosen.append(question)
    return tuple(chosen)


def _as_question(heading: str) -> tuple[int, str] | None:
    """(kind, question) for a heading that makes a good one: 0 a question already, 1 a
    "how to", 2 a topic; None for code, numbering, a label or a sentence."""
    words = heading.split()
    if heading.endswith("?"):
        low, high = QUESTION_WORDS
        return (0, heading) if low <= len(words) <= high else None
    how = _HOW_TO.match(heading)
    if how is not None and not _NOT_A_TOPIC.search(how.group("rest")):
        return 1, f"How do I {how.group('rest')}?"
    low, high = TOPIC_WORDS
    if low <= len(words) <= high and not _NOT_A_TOPIC.search(heading):
        return 2, f"What should I know about {heading}?"
    return None


def _spread(candidates: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The candidates reordered so the first few are spread evenly over the whole list (an
    FAQ's questions sit together; the first three of them would all be from one page)."""
    if len(candidates) <= SHOWN:
        return candidates
    step = len(candidates) / SHOWN
    first = [candidates[int(i * step + step / 2)] for i in range(SHOWN)]
    return first + [candidate for candidate in candidates if candidate not in first]
