"""Markdown include directives, resolved the way the docs generators resolve them.

The forms: pymdownx's snippets (``--8<-- "file"``, ``file:3:10`` for lines, and the block
form between two ``--8<--`` lines), markdown-include's ``{!file!}``, Jinja's and
mkdocs-macros' ``{% include "file" %}``, mkdocs-include-markdown's
``{% include-markdown "file" %}``, FastAPI's ``{* file hl[2] ln[1:4] *}`` and MyST's
```` ```{literalinclude} file ```` fence (with ``:lines:``). A Markdown file's text is
included as Markdown (its own directives resolved in turn); any other file is code, put in
a fenced code block, unless the directive already sits inside one, where the file's text
is the block's. A path is tried where the generators look: beside the including file, in
the folder that holds the project's ``mkdocs.yml`` (and in the ``base_path`` its
snippets or markdown-include settings name), then in the ingested folder. The files the
snippets settings append to every page (``auto_append``) are read the same way, as Markdown.

Every include is bounded: only a regular file whose real path (links followed) lies under
the include root is read (by default the nearest ancestor of the ingested folder that is
a project's root, else that folder), at most ``MAX_INCLUDE_BYTES`` a file and
``MAX_EXPANDED_CHARS`` a page, ``MAX_INCLUDE_DEPTH`` includes deep, and never a file that
is already being included (a loop). A directive that cannot be resolved is dropped,
counted, and named with its reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from citeline.corpus.formats.docs_config import find_config, settings_of
from citeline.corpus.formats.limits import RefusedFileError, read_bytes

# What marks a project's root, the default include root: the folder a generator is run
# in holds one of these (FastAPI's docs/en/docs includes ../../docs_src from the root).
PROJECT_ROOT_MARKERS = (".git", "pyproject.toml", "setup.py", "package.json")
# A code example or snippet is a few KiB; the largest file FastAPI's 440 directives name
# is 9 KiB. A 50 MB file named by a directive is refused, not read.
MAX_INCLUDE_BYTES = 1024 * 1024
# What one page may grow to with everything it includes, the limit of a page read whole.
MAX_EXPANDED_CHARS = 32 * 1024 * 1024
# Includes within includes: snippets of snippets are two deep in the sites measured.
MAX_INCLUDE_DEPTH = 8
# Files appended to every page by the snippets settings: Hatch, the one site measured that
# appends any, appends two (links.txt, abbrs.txt); a list of thousands costs every page.
MAX_AUTO_APPENDED = 16
_MARKDOWN = {".md", ".markdown", ".mdx"}
_LAST_LINE = 1 << 30  # "to the end" in a line range
_LANGUAGES = {
    ".py": "python", ".js": "javascript", ".ts": "typescript", ".sh": "bash", ".toml": "toml",
    ".yml": "yaml", ".yaml": "yaml", ".json": "json", ".html": "html", ".css": "css",
    ".rs": "rust", ".go": "go", ".sql": "sql", ".ini": "ini", ".txt": "",
}  # fmt: skip

# A fence line, at any indentation: pymdownx.superfences (which the Material sites measured
# all enable) reads fences nested in admonitions, content tabs and list items, 4 to 12
# spaces in (Typer's docs hold 318 such fence lines, Hatch's 84); where CommonMark would
# read one as an indented code block instead, its lines are code either way.
FENCE = re.compile(r"^([ \t]*)(`{3,}|~{3,})(.*)$")
_QUOTED = r"(?:\"([^\"]+)\"|'([^']+)')"
# One directive in a line, its path in a group of its own form.
_DIRECTIVE = re.compile(
    r"\{\*\s*(?P<star>\S+)(?P<options>[^*]*?)\s*\*\}"
    r"|\{!\s*(?P<bang>[^!]+?)\s*!\}"
    rf"|^(?P<indent>\s*)-{{2}}8<-{{2}}\s*{_QUOTED}\s*$"
    rf"|\{{%-?\s*include(?:-markdown)?\s+{_QUOTED}[^%]*-?%\}}"
)
_SNIPPET_BLOCK = re.compile(r"^\s*-{2}8<-{2}\s*$")
_LITERALINCLUDE = re.compile(r"^\s*\{literalinclude\}\s+(\S+)\s*$")
_OPTION = re.compile(r"^\s*:([\w-]+):\s*(.*)$")
_LINE_RANGES = re.compile(r"ln\[([\d:,\s-]+)\]")
_BANG_LINES = re.compile(r"\[ln:([\d,:\s-]+)\]$")
_SNIPPET_LINES = re.compile(r"^(.*?):(\d+)?:(\d+)?$|^(.*?):(\d+)$")
# A snippet's section: "file.md:name" names the lines between "--8<-- [start:name]" and
# "--8<-- [end:name]" in the file (pymdownx.snippets' sections; names as it reads them). A
# Windows drive ("C:name") is one letter, no file's name.
_SNIPPET_SECTION_NAME = re.compile(r"(?i)^(.{2,}?):([a-z][-_0-9a-z]*)$")
# A section's marker, anywhere in a line; ";--8<--" is an escaped one, shown as written.
# (Its dashes are matched from a run's start only, so the search stays linear.)
_SECTION_MARKER = re.compile(
    r"(?i)(?<![;-])-+8<-+[ \t]+\[[ \t]*(start|end)[ \t]*:[ \t]*([a-z][-_0-9a-z]*)[ \t]*\]"
)


def default_include_root(path: Path) -> Path:
    """The nearest ancestor of ``path`` (a folder, or a file's folder) that is a project's
    root, else that folder itself."""
    start = (path if path.is_dir() else path.parent).resolve()
    for folder in (start, *start.parents):
        if any((folder / marker).exists() for marker in PROJECT_ROOT_MARKERS):
            return folder
    return start


@dataclass
class Expansion:
    """A page's Markdown with its includes resolved, and what could not be."""

    text: str
    dropped: int = 0
    problems: list[str] = field(default_factory=list)


@dataclass
class _Context:
    root: Path  # the include root, resolved
    ingest_folder: Path
    chars: int = 0
    dropped: int = 0
    problems: list[str] = field(default_factory=list)


def expand(text: str, page: Path, *, include_root: Path, ingest_folder: Path) -> Expansion:
    """``text`` (the Markdown of the file at ``page``) with its include directives resolved,
    and the files the snippets settings append to every page (``auto_append``) after it."""
    context = _Context(include_root.resolve(), ingest_folder)
    appended = _auto_appended(page)
    if not appended and not _might_include(text):
        return Expansion(text)
    chain = (page.resolve(),)
    expanded = _expand(text, page, context, chain) if _might_include(text) else text
    for name in appended:
        # pymdownx.snippets reads an appended file as the page's own Markdown, whatever its
        # name ends with (Hatch appends links.txt, its link reference definitions).
        included = _include(name, page, context, chain, None)
        if included is not None:
            path, snippet = included
            expanded += "\n\n" + _expand(snippet, path, context, (*chain, path))
    return Expansion(expanded, context.dropped, context.problems)


def _might_include(text: str) -> bool:
    return any(mark in text for mark in ("{*", "{!", "--8<--", "include", "{literalinclude}"))


def opens_fence(line: re.Match[str]) -> bool:
    """Whether the ``FENCE`` line ``line`` opens a code block: CommonMark's rule, the info
    string of a backtick fence holds no backtick (```` ```code``` ```` is code in a line)."""
    return line.group(2)[0] != "`" or "`" not in line.group(3)


def closes_fence(line: re.Match[str], fence: str) -> bool:
    """Whether the ``FENCE`` line ``line`` closes a code block opened by ``fence``:
    CommonMark's rule, a run of the opening character at least as long, nothing after it."""
    return line.group(2).startswith(fence) and not line.group(3).strip()


def _expand(text: str, page: Path, context: _Context, chain: tuple[Path, ...]) -> str:
    out: list[str] = []
    lines = text.splitlines()
    fence: str | None = None
    index = 0
    while index < len(lines):
        line = lines[index]
        opener = FENCE.match(line)
        if fence is not None:
            if opener and closes_fence(opener, fence):
                fence = None
                out.append(line)
            else:
                # Inside a code block a directive puts the file's text as the block's.
                out.extend(_directive_lines(line, page, context, chain, in_code=True))
            index += 1
            continue
        if opener and opens_fence(opener):
            literal = _LITERALINCLUDE.match(opener.group(3))
            if literal:
                index = _literalinclude(lines, index, opener, literal.group(1), page, context, out)
                continue
            fence = opener.group(2)
            out.append(line)
            index += 1
            continue
        if _SNIPPET_BLOCK.match(line):
            index = _snippet_block(lines, index, page, context, chain, out)
            continue
        out.extend(_directive_lines(line, page, context, chain, in_code=False))
        index += 1
    return "\n".join(out)


def _directive_lines(
    line: str, page: Path, context: _Context, chain: tuple[Path, ...], *, in_code: bool
) -> list[str]:
    match = _DIRECTIVE.search(line)
    if match is None:
        return [line]
    indent = match.group("indent") or line[: len(line) - len(line.lstrip())]
    groups = match.groupdict()
    snippet = False
    written = ""
    if groups["star"]:
        target, lines_wanted = groups["star"], _line_ranges(groups["options"] or "")
        as_code = True
    else:
        if groups["bang"]:
            target, lines_wanted = _bang_target(groups["bang"])
        else:
            written = next(g for g in match.groups()[4:] if g)
            target, lines_wanted = _snippet_lines(written)
            snippet = True
        as_code = False
    included = _include(target, page, context, chain, lines_wanted)
    if included is not None and snippet:
        included = _snippet_section(included, written, context)
    if included is None:
        rest = (line[: match.start()] + line[match.end() :]).strip()
        return [indent + rest] if rest else []
    path, text = included
    if path.suffix.lower() in _MARKDOWN and not as_code and not in_code:
        text = _expand(text, path, context, (*chain, path))
        return [indent + part if part else part for part in text.splitlines()]
    body = text.splitlines()
    if in_code:
        return [indent + part if part else part for part in body]
    return _fenced(body, path, indent)


def _fenced(body: list[str], path: Path, indent: str) -> list[str]:
    ticks = max([3, *(len(run) + 1 for line in body for run in re.findall(r"`{3,}", line))])
    fence = "`" * ticks
    language = _LANGUAGES.get(path.suffix.lower(), "")
    return [
        f"{indent}{fence}{language}",
        *(indent + part if part else part for part in body),
        indent + fence,
    ]


def _literalinclude(
    lines: list[str],
    index: int,
    opener: re.Match[str],
    target: str,
    page: Path,
    context: _Context,
    out: list[str],
) -> int:
    """A MyST ```` ```{literalinclude} ```` fence at ``index``: its options are read and the
    fence replaced by the file's code; the index after the fence is returned."""
    fence = opener.group(2)
    options: dict[str, str] = {}
    end = index + 1
    while end < len(lines):
        closing = FENCE.match(lines[end])
        if closing and closes_fence(closing, fence):
            break
        option = _OPTION.match(lines[end])
        if option:
            options[option.group(1)] = option.group(2).strip()
        end += 1
    wanted = _line_ranges(f"ln[{options['lines']}]") if "lines" in options else None
    included = _include(target, page, context, (), wanted)
    if included is not None:
        path, text = included
        out.extend(_fenced(text.splitlines(), path, opener.group(1)))
    return end + 1


def _snippet_block(
    lines: list[str],
    index: int,
    page: Path,
    context: _Context,
    chain: tuple[Path, ...],
    out: list[str],
) -> int:
    """A snippets block (file names between two ``--8<--`` lines); the index after it."""
    end = index + 1
    while end < len(lines) and not _SNIPPET_BLOCK.match(lines[end]):
        end += 1
    if end >= len(lines):  # no closing line: a lone marker, left as text
        out.append(lines[index])
        return index + 1
    for name in lines[index + 1 : end]:
        if name.strip() and not name.strip().startswith(";"):
            out.extend(
                _directive_lines(f'--8<-- "{name.strip()}"', page, context, chain, in_code=False)
            )
    return end + 1


def _line_ranges(options: str) -> list[tuple[int, int]] | None:
    """``ln[1:4,7]`` (FastAPI's) or ``lines: 1-4,7`` (MyST's) as inclusive 1-based ranges."""
    found = _LINE_RANGES.search(options)
    if found is None:
        return None
    ranges = []
    for part in found.group(1).split(","):
        bounds = re.split(r"[:-]", part.strip(), maxsplit=1)
        try:
            start = int(bounds[0]) if bounds[0] else 1
            stop = (
                int(bounds[1])
                if len(bounds) > 1 and bounds[1]
                else (start if len(bounds) == 1 else 1 << 30)
            )
        except ValueError:
            continue
        ranges.append((start, stop))
    return ranges or None


def _bang_target(directive: str) -> tuple[str, list[tuple[int, int]] | None]:
    """markdown-include's ``{!file!}``, ``{!> file!}`` (FastAPI's docs, the same file) and
    ``{!file[ln:7-13]!}`` as the file and its lines."""
    target = directive.lstrip("> \t").strip()
    ranges = _BANG_LINES.search(target)
    if ranges is None:
        return target, None
    return target[: ranges.start()], _line_ranges(f"ln[{ranges.group(1)}]")


def _snippet_section(
    included: tuple[Path, str], written: str, context: _Context
) -> tuple[Path, str] | None:
    """A snippet's text as pymdownx.snippets includes it: for ``file.md:name``, the lines
    between the file's ``--8<-- [start:name]`` and ``--8<-- [end:name]`` markers; for any
    other, the whole text; marker lines left out either way (None, noted, when the file
    has no such section). Both as its ``RE_SNIPPET_SECTION`` and ``RE_SNIPPET_FILE`` read
    them: a marker may stand after other text on its line (``# --8<-- [start:func]``)."""
    path, text = included
    named = _SNIPPET_SECTION_NAME.match(written)
    if named is None and "8<-" not in text:
        return included
    wanted = named.group(2).lower() if named else None
    kept: list[str] = []
    inside = wanted is None
    found = False
    for line in text.splitlines():
        marker = _SECTION_MARKER.search(line)
        if marker is None:
            if inside:
                kept.append(line)
            continue
        if wanted is not None and marker.group(2).lower() == wanted:
            if marker.group(1).lower() == "start" and not found:
                inside = found = True
            elif marker.group(1).lower() == "end" and inside:
                break
    if wanted is not None and not found:
        context.dropped += 1
        context.problems.append(
            f"its include of {written!r} was left out: {path.name} marks no section "
            f"{wanted!r} (--8<-- [start:{wanted}] ... --8<-- [end:{wanted}])"
        )
        return None
    return path, "\n".join(kept)


def _snippet_lines(target: str) -> tuple[str, list[tuple[int, int]] | None]:
    """A snippet's ``file:3:10`` (or ``file:3``) as the file and its lines; ``file:name``
    (a section, ``_snippet_section``) as the file."""
    named = _SNIPPET_SECTION_NAME.match(target)
    if named is not None:
        return named.group(1), None
    found = _SNIPPET_LINES.match(target)
    if found is None:
        return target, None
    if found.group(4) is not None:
        line = int(found.group(5))
        return found.group(4), [(line, line)]
    start = int(found.group(2)) if found.group(2) else 1
    stop = int(found.group(3)) if found.group(3) else _LAST_LINE
    return found.group(1), [(start, stop)]


def _include(
    target: str,
    page: Path,
    context: _Context,
    chain: tuple[Path, ...],
    lines_wanted: list[tuple[int, int]] | None,
) -> tuple[Path, str] | None:
    """The file ``target`` names and its (selected) text, or None with the reason noted."""

    def refuse(reason: str) -> None:
        context.dropped += 1
        context.problems.append(f"its include of {target!r} was left out: {reason}")

    if "://" in target:
        refuse("it names a URL, and only files are included")
        return None
    if len(chain) > MAX_INCLUDE_DEPTH:
        refuse(f"includes nest deeper than {MAX_INCLUDE_DEPTH}; include the file directly")
        return None
    outside: Path | None = None
    for folder in _search_folders(page, context):
        # A snippets base path may be a file: a snippet named as that file is that file.
        candidate = folder if folder.name == target and folder.is_file() else folder / target
        try:
            if not candidate.exists():
                continue
            real = candidate.resolve()
        except (OSError, RuntimeError):  # a link loop, a name too long
            continue
        if not real.is_relative_to(context.root):
            outside = outside or real
            continue
        if real in chain:
            refuse("it includes itself (a loop); remove the directive that closes the loop")
            return None
        text = _included_text(real, context, lines_wanted)
        if isinstance(text, _LeftOut):
            refuse(text.reason)
            return None
        return real, text
    if outside is not None:
        refuse(
            f"it lies outside the include root {context.root}; "
            "give a wider one with --include-root if it belongs in the index"
        )
    else:
        refuse("no such file beside the page, in the project's docs settings or the folder")
    return None


@dataclass(frozen=True, slots=True)
class _LeftOut:
    """An include found but not taken, and why."""

    reason: str


def _included_text(
    real: Path, context: _Context, lines_wanted: list[tuple[int, int]] | None
) -> str | _LeftOut:
    """The text of the included file ``real`` (its wanted lines), counted against the page's
    bound; ``_LeftOut`` when it is too big, not UTF-8, or would grow the page too far."""
    try:
        raw = read_bytes(real, MAX_INCLUDE_BYTES)
    except RefusedFileError as refused:
        return _LeftOut(str(refused).replace("a page may be", "an included file may be"))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return _LeftOut("it is not UTF-8 text; save it as UTF-8")
    if context.chars + len(text) > MAX_EXPANDED_CHARS:
        return _LeftOut(f"the page would grow past {MAX_EXPANDED_CHARS // 1048576} MB with it")
    context.chars += len(text)
    if lines_wanted is None:
        return text
    return "\n".join(
        line
        for number, line in enumerate(text.splitlines(), start=1)
        if any(start <= number <= stop for start, stop in lines_wanted)
    )


def _search_folders(page: Path, context: _Context) -> list[Path]:
    """Where a generator looks for an included path: beside the including file, in the
    folder of the nearest ``mkdocs.yml`` and its configured base paths, the ingested folder."""
    folders = [page.parent]
    config = find_config(page.parent)
    if config is not None:
        folders.append(config.parent)
        folders.extend(config.parent / base for base in _base_paths(config))
    folders.append(context.ingest_folder)
    return folders


def mkdocs_settings(folder: Path) -> tuple[Path, dict[Any, Any]] | None:
    """The ``mkdocs.yml`` governing ``folder`` (the nearest above it) and its settings, read
    bounded; None without one."""
    config = find_config(folder.resolve())
    return None if config is None else (config, settings_of(config))


def mkdocs_theme_folder(folder: Path) -> Path | None:
    """The folder of theme overrides (``theme: custom_dir``) that the ``mkdocs.yml`` governing
    ``folder`` names, resolved: templates and partials of the theme, which MkDocs never
    publishes as pages; None without one."""
    config = find_config(folder.resolve())
    if config is None:
        return None
    theme = settings_of(config).get("theme")
    custom = theme.get("custom_dir") if isinstance(theme, dict) else None
    if not isinstance(custom, str) or not custom.strip():
        return None
    # MkDocs reads it relative to the configuration file's folder.
    return (config.parent / custom.strip()).resolve()


def _base_paths(config: Path) -> tuple[str, ...]:
    """The ``base_path`` folders the snippets and markdown-include settings name."""
    found: list[str] = []
    for extension in ("pymdownx.snippets", "markdown_include.include"):
        found.extend(_names(_extension_options(config, extension).get("base_path")))
    return tuple(found)


def _auto_appended(page: Path) -> tuple[str, ...]:
    """The files pymdownx.snippets appends to every page (its ``auto_append`` setting in the
    ``mkdocs.yml`` governing ``page``), at most ``MAX_AUTO_APPENDED``."""
    config = find_config(page.parent.resolve())
    if config is None:
        return ()
    names = _names(_extension_options(config, "pymdownx.snippets").get("auto_append"))
    return tuple(names[:MAX_AUTO_APPENDED])


def _extension_options(config: Path, extension: str) -> dict[Any, Any]:
    """The options ``config`` gives the Markdown extension named ``extension``."""
    return markdown_extensions(settings_of(config)).get(extension, {})


def markdown_extensions(settings: dict[Any, Any]) -> dict[str, dict[Any, Any]]:
    """The Markdown extensions a docs settings file's ``settings`` enable, by name, each with
    the options it is given (empty for one named alone: ``- admonition``)."""
    extensions = settings.get("markdown_extensions")
    entries = extensions if isinstance(extensions, list) else [extensions or {}]
    enabled: dict[str, dict[Any, Any]] = {}
    for entry in entries:
        if isinstance(entry, str):
            enabled.setdefault(entry, {})
        elif isinstance(entry, dict):
            for name, options in entry.items():
                enabled[str(name)] = options if isinstance(options, dict) else {}
    return enabled


def _names(setting: object) -> list[str]:
    """A setting that names one file or folder, or a list of them, as its names."""
    values = setting if isinstance(setting, list) else [setting]
    return [str(value) for value in values if isinstance(value, str | int) and str(value)]
