"""The example questions the empty search page offers, and where an owner sets them.

From ``CITELINE_EXAMPLES`` (``--examples FILE``: one question a line, blank lines and
``#`` comments ignored), else from the project file's ``[project] examples`` list, else
none. The page shows the first ``SHOWN``. A file that cannot be read stops start-up with
the fix; it deliberately does not judge whether a question is a good one.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from citeline.server.errors import StartupError

# Three fit the narrowest screen above the fold and still show the collection's range.
SHOWN = 3
# A question longer than this is a paragraph; the page's search box takes 2,000.
MAX_QUESTION_CHARS = 300


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
