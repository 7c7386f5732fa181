"""mkdocstrings' ``::: package.module`` directives, rendered from the project's source.

The API reference of a Python project's MkDocs site is very often nothing but directives
(``::: markdown.util``, an indented YAML ``options:`` block under it) that mkdocstrings
fills at build time with the object's docstring and its members' signatures and
docstrings. Indexed as written, such a page is a remnant ("options: summary: ...") that no
question can be answered from. So, on a page under an ``mkdocs.yml`` that configures the
mkdocstrings plugin, each directive is replaced by the Markdown mkdocstrings publishes in
substance: the object's signature in a code block and its docstring as written, then the
public members of a module or class, each under its dotted path (``markdown.util.AtomicString``)
with its own. Only the object a directive names is a heading (with ``show_root_heading``, at
its dotted-path anchor, autorefs' address); its members are text of that section, as a
Sphinx API page's entries are text of the heading around them. The options that decide what a
reader sees are honoured (``heading_level``, ``show_root_heading``, ``members``,
``filters``, ``show_if_no_docstring``, ``merge_init_into_class``, ``members_order``,
``show_root_full_path``, ``show_object_full_path``), globally and per directive.

The source is read statically with griffe's ``visit`` (the parser mkdocstrings uses), one
module file at a time: nothing of the site is imported or executed, and griffe's own
loader is not used because it also runs ``git`` in the package's folder (a hostile
repository's ``core.fsmonitor`` is a command). Only files under the include root are read,
each bounded (``MAX_SOURCE_BYTES``), so are the objects one directive renders
(``MAX_OBJECTS``), the text a page gains (``MAX_RENDERED_CHARS``) and the time
(``MAX_SECONDS``). A directive that cannot be resolved is dropped, counted and named with
its reason, never indexed as text. It deliberately does not render docstring sections into
tables, inherited members, submodules, or anything a griffe extension would add.
"""

from __future__ import annotations

import functools
import logging
import re
import textwrap
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import griffe

from citeline.corpus.formats.front_matter import FrontMatterError, load_front_matter
from citeline.corpus.formats.includes import (
    FENCE,
    MAX_INCLUDE_BYTES,
    Expansion,
    closes_fence,
    mkdocs_settings,
    opens_fence,
)
from citeline.corpus.formats.limits import RefusedFileError, read_bytes
from citeline.errors import CitelineError

# A module file is read whole and parsed: the bound of any file a directive names. The
# largest real modules measured parse fast (fastapi/applications.py, 198 KB of docstrings:
# 0.02 s); object count is what costs: 50,000 one-line functions (740 KB) took 1.4 s.
MAX_SOURCE_BYTES = MAX_INCLUDE_BYTES
# Objects one directive renders (itself and its members, all levels): Python-Markdown's
# largest reference page (markdown.inlinepatterns) is about 180, pandas' DataFrame a few
# hundred. A module of 50,000 functions renders its first 1,000.
MAX_OBJECTS = 1000
# What one page may gain from its directives: Python-Markdown's 30 reference pages render
# to at most ~60 KB each, fastapi.applications (docstrings in every parameter) to ~200 KB.
MAX_RENDERED_CHARS = 4 * 1024 * 1024
# Module files parsed for one page (the directive's module and those its re-exports name).
MAX_MODULES = 64
# Seconds of the ingest thread's CPU for one page's directives, checked between module
# parses and objects: a module within MAX_SOURCE_BYTES parses in under 2 s, so a page takes
# at most about 12 s. CPU, not wall time: with wall time a page of 50,000 functions lost its
# whole reference on a machine at load 5 (9 s wall for 2.6 s of CPU), so what a site's
# index holds depended on what else the machine ran.
MAX_SECONDS = 10.0
# Seconds of module parsing one ingest may spend on every page's directives together
# (``ParseBudget``): the page bound alone let a tree of many tiny pages, each naming more
# costly modules than the parse cache holds, cost 10 s a page. Python-Markdown's whole
# reference takes 0.2 s; a thousand reference pages of a 50 KB module each about 50 s.
MAX_INGEST_SECONDS = 120.0
_clock = time.thread_time
# An option block is a few lines; a larger one is not YAML a site would write.
MAX_OPTIONS_CHARS = 16 * 1024
# Re-exports followed to their definition: `from .core import Markdown` is one.
MAX_ALIAS_HOPS = 5
# An attribute's value in its signature line: a long literal is data, not documentation.
MAX_VALUE_CHARS = 200

_DIRECTIVE = re.compile(r"^(?P<heading>#{1,6} *|)::: ?(?P<name>.+?) *$")
_IDENTIFIER_PATH = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
# autorefs' cross-references in docstrings, "[text][package.Object]" and "[package.Object][]":
# read as their text, as the published page shows them.
_CROSS_REFERENCE = re.compile(r"\[([^\[\]\n]+)\]\[(?:[A-Za-z_][\w.]*)?\]")
# mkdocstrings-python's defaults for the options honoured here.
_DEFAULTS: dict[str, Any] = {
    "heading_level": 2,
    "show_root_heading": False,
    "show_root_full_path": True,
    "show_object_full_path": False,
    "members": None,
    "filters": ["!^_[^_]"],
    "show_if_no_docstring": False,
    "merge_init_into_class": False,
    "members_order": "alphabetical",
}

# griffe logs each unresolvable import at debug level and a bad docstring at warning.
logging.getLogger("griffe").setLevel(logging.ERROR)


def might_document(text: str) -> bool:
    """Whether ``text`` may hold a directive (the cheap test before any settings are read)."""
    return ":::" in text


@dataclass
class ParseBudget:
    """What one ingest's pages may spend parsing modules for their directives, together
    (one object shared by the ingest's files, ``SourceFile.parse_budget``)."""

    seconds: float = MAX_INGEST_SECONDS


def expand_api_docs(
    text: str, page: Path, *, include_root: Path, budget: ParseBudget | None = None
) -> Expansion:
    """``text`` (the Markdown of the page at ``page``) with its mkdocstrings directives
    rendered; unchanged where no ``mkdocs.yml`` above the page configures mkdocstrings.
    ``budget`` is the ingest's, charged for every module parsed (none for one page alone,
    which the page's own bounds hold)."""
    if not might_document(text):
        return Expansion(text)
    handler = _handler(page.parent)
    if handler is None:
        return Expansion(text)
    config_folder, settings = handler
    context = _Context(
        root=include_root.resolve(),
        search_paths=_search_paths(config_folder, settings, include_root.resolve()),
        defaults={**_DEFAULTS, **_mapping(settings.get("options"))},
        deadline=_clock() + MAX_SECONDS,
        budget=budget,
    )
    out: list[str] = []
    lines = text.splitlines()
    fence: str | None = None
    index = 0
    while index < len(lines):
        line = lines[index]
        opener = FENCE.match(line)
        if opener and fence is None and not opens_fence(opener):
            opener = None
        if fence is not None or opener:
            # A ::: line inside a code block is code.
            if fence is None:
                fence = opener.group(2) if opener else None
            elif opener and closes_fence(opener, fence):
                fence = None
            out.append(line)
            index += 1
            continue
        directive = _DIRECTIVE.match(line)
        if directive is None:
            out.append(line)
            index += 1
            continue
        end = index + 1
        while end < len(lines) and lines[end].strip() and lines[end][:1] in {" ", "\t"}:
            end += 1
        out.extend(_directive(directive, lines[index + 1 : end], context))
        index = end
    return Expansion("\n".join(out), context.dropped, context.problems)


@dataclass
class _Context:
    root: Path
    search_paths: list[Path]
    defaults: dict[str, Any]
    deadline: float
    budget: ParseBudget | None = None
    chars: int = 0
    modules: int = 0
    dropped: int = 0
    problems: list[str] = field(default_factory=list)

    def refuse(self, name: str, reason: str) -> list[str]:
        self.dropped += 1
        self.problems.append(f"its API directive '::: {name}' was left out: {reason}")
        return []


class _UnresolvedError(CitelineError):
    """A directive, or a re-export it renders, that names nothing that can be read: caught
    here, it becomes the directive's line of the ingest report."""


def _handler(folder: Path) -> tuple[Path, dict[Any, Any]] | None:
    """The folder of the ``mkdocs.yml`` governing ``folder`` and its mkdocstrings Python
    handler settings, when it configures the plugin; None otherwise (a ``:::`` line is then
    some other generator's, Docusaurus' admonitions among them)."""
    found = mkdocs_settings(folder)
    if found is None:
        return None
    config, settings = found
    plugins = settings.get("plugins")
    entries = plugins if isinstance(plugins, list) else [plugins] if plugins else []
    for entry in entries:
        if entry == "mkdocstrings":
            return config.parent, {}
        if isinstance(entry, dict) and "mkdocstrings" in entry:
            plugin = _mapping(entry["mkdocstrings"])
            return config.parent, _mapping(_mapping(plugin.get("handlers")).get("python"))
    return None


def _mapping(value: object) -> dict[Any, Any]:
    return value if isinstance(value, dict) else {}


def _search_paths(config_folder: Path, handler: dict[Any, Any], root: Path) -> list[Path]:
    """Where modules are looked for: the handler's ``paths`` (relative to the ``mkdocs.yml``
    folder; by default that folder and its ``src``), those inside the include root only."""
    paths = handler.get("paths")
    named = [str(p) for p in paths if isinstance(p, str | int)] if isinstance(paths, list) else []
    folders = [config_folder / p for p in named] or [config_folder, config_folder / "src"]
    inside = []
    for folder in folders:
        try:
            real = folder.resolve()
        except (OSError, RuntimeError):
            continue
        if real.is_relative_to(root) and real.is_dir() and real not in inside:
            inside.append(real)
    return inside


def _directive(match: re.Match[str], block: list[str], context: _Context) -> list[str]:
    name = match.group("name").strip()
    if _clock() > context.deadline:
        return context.refuse(name, f"the page's API directives took over {MAX_SECONDS:.0f} s")
    options = dict(context.defaults)
    local = _options(block)
    if isinstance(local, str):
        return context.refuse(name, local)
    options.update(local)
    if match.group("heading"):
        options["heading_level"] = len(match.group("heading").strip())
        options["show_root_heading"] = True
    if not _IDENTIFIER_PATH.fullmatch(name):
        return context.refuse(name, "it is not a dotted Python path (package.module.Object)")
    if not context.search_paths:
        return context.refuse(
            name, f"the mkdocstrings paths lie outside the include root {context.root}"
        )
    try:
        found = _object(name, context, 0)
        rendered = _Renderer(context, options).root(found, name)
    except _UnresolvedError as error:
        return context.refuse(name, str(error))
    text_size = sum(len(line) + 1 for line in rendered)
    if context.chars + text_size > MAX_RENDERED_CHARS:
        return context.refuse(
            name, f"the page would grow past {MAX_RENDERED_CHARS // 1048576} MB with it"
        )
    context.chars += text_size
    return ["", *rendered, ""]


def _options(block: list[str]) -> dict[str, Any] | str:
    """The directive's ``options:`` mapping, or why it cannot be read."""
    if not block:
        return {}
    written = textwrap.dedent("\n".join(line.replace("\t", "    ") for line in block))
    if len(written) > MAX_OPTIONS_CHARS:
        return f"its options are over {MAX_OPTIONS_CHARS // 1024} KiB"
    try:
        loaded = load_front_matter(written)
    except FrontMatterError as error:
        return "its options " + str(error)
    return dict(_mapping(_mapping(loaded).get("options")))


def _object(path: str, context: _Context, hops: int) -> griffe.Object:
    """The object at the dotted ``path``: the longest prefix that is a module file under a
    search path, then members down from it, re-exports followed to their definition."""
    parts = path.split(".")
    for length in range(len(parts), 0, -1):
        module_file = _module_file(parts[:length], context)
        if module_file is None:
            continue
        current: griffe.Object = _parsed(".".join(parts[:length]), module_file, context)
        for part in parts[length:]:
            member = current.members.get(part)
            if member is None:
                raise _UnresolvedError(f"{current.path} has no member {part!r}")
            current = _definition(member, context, hops)
        return current
    raise _UnresolvedError(
        f"no module of it was found under the mkdocstrings paths "
        f"({', '.join(str(p) for p in context.search_paths)})"
    )


def _definition(
    member: griffe.Object | griffe.Alias, context: _Context, hops: int
) -> griffe.Object:
    if not isinstance(member, griffe.Alias):
        return member
    if hops >= MAX_ALIAS_HOPS:
        raise _UnresolvedError(f"{member.path} re-exports past {MAX_ALIAS_HOPS} modules")
    return _object(member.target_path, context, hops + 1)


def _module_file(parts: list[str], context: _Context) -> Path | None:
    for folder in context.search_paths:
        for candidate in (
            folder.joinpath(*parts, "__init__.py"),
            folder.joinpath(*parts[:-1], f"{parts[-1]}.py"),
        ):
            try:
                if not candidate.is_file():
                    continue
                real = candidate.resolve()
            except (OSError, RuntimeError):
                continue
            if real.is_relative_to(context.root):
                return real
    return None


def _parsed(name: str, path: Path, context: _Context) -> griffe.Module:
    if context.modules >= MAX_MODULES:
        raise _UnresolvedError(f"the page's directives read over {MAX_MODULES} modules")
    if _clock() > context.deadline:
        raise _UnresolvedError(f"the page's API directives took over {MAX_SECONDS:.0f} s")
    if context.budget is not None and context.budget.seconds <= 0:
        raise _UnresolvedError(
            f"the ingest's API directives took over {MAX_INGEST_SECONDS:.0f} s of parsing"
        )
    context.modules += 1
    try:
        stat = path.stat()
    except OSError as error:
        raise _UnresolvedError(f"{path} cannot be read ({error.strerror})") from error
    started = _clock()
    parsed = _parse(name, str(path), stat.st_mtime_ns, stat.st_size)
    if context.budget is not None:
        context.budget.seconds -= _clock() - started
    if isinstance(parsed, str):
        raise _UnresolvedError(parsed)
    return parsed


@functools.lru_cache(maxsize=64)
def _parse(name: str, path: str, stamp: int, size: int) -> griffe.Module | str:
    """The module ``name`` parsed from the file at ``path`` (cached while it is unchanged:
    each of Python-Markdown's 30 reference pages names the same package), or why not."""
    try:
        code = read_bytes(Path(path), MAX_SOURCE_BYTES).decode("utf-8-sig")
    except RefusedFileError as refused:
        return f"{path}: {str(refused).replace('a page may be', 'a module may be')}"
    except UnicodeDecodeError:
        return f"{path} is not UTF-8 text"
    *packages, module_name = name.split(".")
    parent: griffe.Module | None = None
    for package in packages:  # placeholders, so relative imports name their full paths
        placeholder = griffe.Module(package, filepath=Path(path))
        if parent is not None:
            parent.set_member(package, placeholder)
        parent = placeholder
    try:
        return griffe.visit(module_name, filepath=Path(path), code=code, parent=parent)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as error:
        return f"{path} cannot be parsed ({type(error).__name__}: {error})"
    except Exception as error:  # griffe's own errors on inputs it does not expect
        return f"{path} cannot be read by griffe ({type(error).__name__})"


class _Renderer:
    """One directive's objects as Markdown, bounded by ``MAX_OBJECTS``."""

    def __init__(self, context: _Context, options: dict[str, Any]) -> None:
        self.context = context
        self.options = options
        self.objects = 0
        level = options.get("heading_level")
        self.level = level if isinstance(level, int) and 1 <= level <= 6 else 2
        self.filters = _filters(options.get("filters"))

    def root(self, obj: griffe.Object, path: str) -> list[str]:
        """The object the directive names, documented at ``path`` as written there."""
        if self.options.get("show_root_heading"):
            full = self.options.get("show_root_full_path", True)
            return self._object(obj, path, self.level, path if full else obj.name, root=True)
        self.objects += 1
        return [*self._body(obj), *self._members(obj, path, self.level, root=True)]

    def _object(
        self, obj: griffe.Object, path: str, level: int, title: str, *, root: bool = False
    ) -> list[str]:
        # A re-export is documented where it is re-exported (`markdown.Markdown`, not
        # `markdown.core.Markdown`): its anchor is that path, as autorefs publishes it.
        self.objects += 1
        # Only the object the directive names is a heading: its members are text of its
        # section, each under its dotted path, as a Sphinx API page's entries are text of
        # the heading around them. As sections of their own, methods' two-line docstrings
        # out-ranked the guide pages for user questions that share their words (Python-
        # Markdown's held-out set: gold 0.467 as sections, 0.633 as text).
        title_line = f"{'#' * min(level, 6)} `{title}` {{ #{path} }}" if root else f"`{path}`"
        return [title_line, "", *self._body(obj), *self._members(obj, path, level + 1, root=root)]

    def _body(self, obj: griffe.Object) -> list[str]:
        out: list[str] = []
        signature = _signature(obj)
        if signature:
            out.extend(["```python", signature, "```", ""])
        docstrings = [obj.docstring.value if obj.docstring else ""]
        init = obj.members.get("__init__") if isinstance(obj, griffe.Class) else None
        if self.options.get("merge_init_into_class") and isinstance(init, griffe.Function):
            docstrings.append(init.docstring.value if init.docstring else "")
        for docstring in docstrings:
            if docstring.strip():
                out.extend([*_docstring_lines(docstring), ""])
        return out

    def _members(self, obj: griffe.Object, path: str, level: int, *, root: bool) -> list[str]:
        if not isinstance(obj, griffe.Module | griffe.Class):
            return []
        listed = self.options.get("members") if root else None
        out: list[str] = []
        for name, member in self._chosen(obj, listed):
            if self.objects >= MAX_OBJECTS or _clock() > self.context.deadline:
                break
            full = self.options.get("show_object_full_path")
            member_path = f"{path}.{name}"
            out.extend(self._object(member, member_path, level, member_path if full else name))
        return out

    def _chosen(
        self, obj: griffe.Module | griffe.Class, listed: object
    ) -> Iterable[tuple[str, griffe.Object]]:
        """The members mkdocstrings would show: those ``members:`` lists (when it is a list),
        else the public ones its filters keep; a module's re-exports only when ``__all__``
        names them; submodules never (``show_submodules`` is off by default)."""
        if listed is False:
            return []
        names = [str(n) for n in listed] if isinstance(listed, list) else None
        exported = (
            {str(n) for n in (obj.exports or [])} if isinstance(obj, griffe.Module) else set()
        )
        candidates = names if names is not None else list(obj.members)
        if names is None and self.options.get("members_order", "alphabetical") != "source":
            candidates = sorted(candidates)
        chosen = []
        for name in candidates:
            member = obj.members.get(name)
            if member is None:
                continue
            if names is None and not self._kept(name):
                continue
            if name == "__init__" and self.options.get("merge_init_into_class"):
                continue
            if isinstance(member, griffe.Alias):
                if names is None and name not in exported:
                    continue
                try:
                    target = _definition(member, self.context, 0)
                except _UnresolvedError:
                    continue
            else:
                target = member
            if isinstance(target, griffe.Module) and names is None:
                continue
            if not self.options.get("show_if_no_docstring") and not _documented(target, 0):
                continue
            chosen.append((name, target))
        return chosen

    def _kept(self, name: str) -> bool:
        kept = True
        for negated, pattern in self.filters:
            if pattern.search(name):
                kept = not negated
        return kept


def _filters(value: object) -> list[tuple[bool, re.Pattern[str]]]:
    """mkdocstrings' ``filters``: regular expressions a member's name must match, ``!``
    ones it must not, the last that matches deciding."""
    written = value if isinstance(value, list) else _DEFAULTS["filters"]
    compiled = []
    for item in written[:32]:
        text = str(item)
        negated = text.startswith("!")
        try:
            compiled.append((negated, re.compile(text[1:] if negated else text)))
        except re.error:
            continue
    return compiled


def _documented(obj: griffe.Object, depth: int) -> bool:
    """Whether ``obj`` or a member it defines has a docstring (griffe's ``has_docstrings``,
    without resolving re-exports)."""
    if obj.docstring is not None and obj.docstring.value.strip():
        return True
    if depth >= 3:
        return False
    return any(
        not isinstance(member, griffe.Alias) and _documented(member, depth + 1)
        for member in obj.members.values()
    )


def _signature(obj: griffe.Object) -> str:
    try:
        if isinstance(obj, griffe.Function):
            return obj.signature(return_type=True)
        if isinstance(obj, griffe.Class):
            init = obj.members.get("__init__")
            if isinstance(init, griffe.Function):
                return init.signature(return_type=False, name=obj.name)
            bases = ", ".join(str(base) for base in obj.bases)
            return f"class {obj.name}({bases})" if bases else f"class {obj.name}"
        if isinstance(obj, griffe.Attribute):
            line = obj.name
            if obj.annotation is not None:
                line += f": {obj.annotation}"
            if obj.value is not None:
                value = " ".join(str(obj.value).split())
                if len(value) > MAX_VALUE_CHARS:
                    value = value[:MAX_VALUE_CHARS] + " ..."
                line += f" = {value}"
            return line
    except Exception:  # an expression griffe cannot print; the docstring still stands
        return ""
    return ""


def _docstring_lines(docstring: str) -> list[str]:
    """A docstring's Markdown as written, cross-references read as their text, and a fence
    it leaves open closed here (mkdocstrings renders each docstring on its own, so an open
    fence never swallows the next object)."""
    lines = _CROSS_REFERENCE.sub(r"\1", docstring).splitlines()
    fence: str | None = None
    for line in lines:
        opener = FENCE.match(line)
        if opener is None:
            continue
        if fence is None:
            if opens_fence(opener):
                fence = opener.group(2)
        elif closes_fence(opener, fence):
            fence = None
    return [*lines, fence] if fence is not None else lines
