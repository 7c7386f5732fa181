"""Which files of an MkDocs project's docs folder its built site publishes, and as what.

``mkdocs build`` walks the ``docs_dir`` its ``mkdocs.yml`` names: each Markdown file is
rendered as a page; every other file is copied to the site unchanged, a static file
(``licenses/LICENSE.mit.txt``, a search engine's verification ``google….html``) and no
page of its own. It leaves out what ``exclude_docs`` names (MkDocs 1.5+: gitignore
patterns, after the two it always puts first, ``.*`` and ``/templates/``) and what
``draft_docs`` names (1.6+: drafts that ``mkdocs serve`` shows and ``mkdocs build``
leaves out). Both settings are read with pathspec's ``GitIgnoreSpec``, the class MkDocs
itself reads them with, against each file's path under the docs folder. MkDocs publishes
a folder whose name starts with ``_`` like any other.

It deliberately reads nothing else of the settings: ``nav`` and ``not_in_nav`` choose what
the navigation lists, not which pages exist.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from pathspec import GitIgnoreSpec

from citeline.corpus.formats.includes import mkdocs_settings

# The patterns MkDocs puts before a site's own exclude_docs (mkdocs.structure.files:
# ``_default_exclude``): hidden files and folders, and the top-level templates folder.
_ALWAYS_EXCLUDED = (".*", "/templates/")
# Bounds on what the two settings may hold, since every file is matched against every
# pattern (a regular expression each, matched by backtracking). Real sites write a line or
# two (Ansible Lint's ``_autofix_rules.md``, Schemathesis' ``_*.md``). Measured with
# pathspec 1.1.1: 30,000 patterns took 2.9 s to compile and 8.1 s to match 1,000 paths;
# four ``*`` in one name took 0.43 s to fail on one 250-character name, and fifteen 12 s
# on a 30-character one; two ``**`` took 6.1 s on a path 1,000 folders deep. Within these
# bounds the worst of 19,313 patterns of up to six pieces (``a``, ``b``, ``*``, ``**``,
# ``/``, ``?``) was 6 ms on a 4,096-character path (the longest Linux opens): at most 0.6 s
# a file, and microseconds on a docs site's paths.
MAX_PATTERNS = 100
# A ``*`` matches within a name; a ``**`` standing as a path segment (``**/``, ``/**/``,
# ``/**``) matches across folders and counts once; one elsewhere (``a**b``) is two ``*``.
# ``*.md`` holds one wildcard, ``**/secret-*.md`` and ``drafts/**/*.md`` two.
MAX_WILDCARDS = 2
MAX_SEGMENT_STARS = 1
_SEGMENT_STARS = re.compile(r"(?:^|/)\*\*(?=/|$)")
# What MkDocs renders as a page (``mkdocs.utils.markdown_extensions``) that citeline reads.
_PAGES = {".md", ".markdown"}
# Static files a browser shows as a page: read as one when the file is an HTML document
# with a title or a heading (``html``), since the site serves it at its path as it is.
_SHOWN = {".html", ".htm"}


@dataclass(frozen=True, slots=True)
class DocsFolder:
    """An MkDocs project's docs folder: ``root`` (resolved), the ``config`` naming it, what
    its build leaves out, and, when its patterns could not be read within the bounds, why
    (then only MkDocs' own two are applied, so that no page the site has goes missing)."""

    root: Path
    config: Path
    left_out: GitIgnoreSpec
    refused: str | None = None

    def holds(self, path: Path) -> bool:
        """Whether ``path`` (resolved, or lying under a resolved folder) is in the folder."""
        return path.is_relative_to(self.root)

    def publishes(self, path: Path) -> bool:
        """Whether the build puts ``path``, a file in the folder, on the site."""
        relative = PurePosixPath(path.relative_to(self.root).as_posix())
        return not self.left_out.match_file(str(relative))


def docs_folder(folder: Path) -> DocsFolder | None:
    """The docs folder of the MkDocs project governing ``folder`` (the ``mkdocs.yml``
    nearest above it), None without one."""
    found = mkdocs_settings(folder)
    if found is None:
        return None
    config, settings = found
    named = settings.get("docs_dir", "docs")
    root = (config.parent / (named if isinstance(named, str) and named else "docs")).resolve()
    lines: list[str] = []
    for name in ("exclude_docs", "draft_docs"):
        lines.extend(_lines(settings.get(name)))
    refused = _refusal(lines)
    if refused is None:
        try:
            return DocsFolder(root, config, GitIgnoreSpec.from_lines([*_ALWAYS_EXCLUDED, *lines]))
        except (ValueError, re.error) as error:  # "!" alone, a range "[z-a]": MkDocs fails
            refused = f"one is not a gitignore pattern ({error})"
    reason = (
        f"its exclude_docs and draft_docs were not applied: {refused}; every page they name "
        "is indexed, so shorten or fix them"
    )
    return DocsFolder(root, config, GitIgnoreSpec.from_lines(_ALWAYS_EXCLUDED), reason)


def is_page(path: Path) -> bool:
    """Whether a file in a docs folder may be a page of the site: a Markdown page, or an
    HTML file its reader keeps when it is a titled document. Any other file (a ``.txt``
    licence or robots file, a ``.jsonl`` download) is copied unchanged, no page."""
    return path.suffix.lower() in _PAGES | _SHOWN


def is_static(path: Path) -> bool:
    """Whether a file the site may show as a page is a static file copied as it is."""
    return path.suffix.lower() in _SHOWN


def _lines(setting: object) -> list[str]:
    """A setting's lines as MkDocs hands them to pathspec: a string's lines; a list of
    strings (which MkDocs refuses) is read as their lines. A ``#`` later in a line is no
    comment (gitignore has none), whatever MkDocs' documentation shows."""
    values: Iterable[object] = setting if isinstance(setting, list) else [setting]
    return [line for value in values if isinstance(value, str) for line in value.splitlines()]


def _refusal(lines: list[str]) -> str | None:
    """Why ``lines`` are beyond the bounds, or None. A blank line, or one starting with
    ``#`` (a comment), is no pattern."""
    patterns = [line for line in lines if line.strip() and not line.startswith("#")]
    if len(patterns) > MAX_PATTERNS:
        return f"they hold {len(patterns):,} patterns, more than the {MAX_PATTERNS} read"
    for line in patterns:
        segments = len(_SEGMENT_STARS.findall(line))
        if line.count("*") - segments > MAX_WILDCARDS or segments > MAX_SEGMENT_STARS:
            shown = line if len(line) <= 80 else line[:77] + "..."
            return (
                f"the pattern {shown!r} holds more wildcards than the {MAX_WILDCARDS} (one "
                "of them a '**' folder) a pattern may hold"
            )
    return None
