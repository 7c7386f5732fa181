"""Which settings file governs a docs page, and its settings, read bounded.

MkDocs reads ``mkdocs.yml`` (or ``mkdocs.yaml``) in the folder it is run in. The projects
that build the same docs folder with another generator of MkDocs' settings keep them in
another file: of seven PyPI sdists surveyed on 7 December 2026 with a docs folder, one held
an ``mkdocs.yml``'s settings in ``properdocs.yml`` (cibuildwheel 4.3.5), one in a
``zensical.yml`` (pymdown-extensions 13.1.2) and four in a ``zensical.toml`` (griffe,
mkdocstrings, mkdocs-autorefs, markdown-exec), the TOML form of the same settings under
its ``[project]`` table. Read as no project, their pages lost the snippets' base paths and
appended files, the dialect (icon shortcodes stayed as words in 43 places of one site) and
the ``docs_dir`` and ``exclude_docs`` settings.

So a folder's settings file is its ``mkdocs.yml`` or ``mkdocs.yaml`` where it has one;
else the first (by name) of its other YAML and TOML files that holds ``site_name``, the
one setting both generators require, and whose ``docs_dir`` (``docs`` by default) is the
page's folder or one above it. A workflow file (``action.yml``) names no site; a settings
file of some other docs folder names another ``docs_dir``. Settings come back in
``mkdocs.yml``'s shape: a TOML file's ``markdown_extensions`` table of tables becomes the
list of ``{name: options}`` that YAML writes, and a Zensical settings file that names no
``markdown_extensions`` holds the ones Zensical enables then (``ZENSICAL_EXTENSIONS``).

It deliberately reads no setting's meaning: the modules that need one read it here.
"""

from __future__ import annotations

import functools
import tomllib
from pathlib import Path
from typing import Any

import yaml

from citeline.corpus.formats.front_matter import BoundedLoader, FrontMatterError
from citeline.corpus.formats.limits import RefusedFileError, read_bytes

# The names MkDocs itself reads, always preferred.
_MKDOCS_NAMES = ("mkdocs.yml", "mkdocs.yaml")
# The suffixes another generator's settings file is written with.
_OTHER_SUFFIXES = {".yml", ".yaml", ".toml"}
# How many other YAML or TOML files of one folder are read looking for settings: the
# surveyed roots held at most four (cibuildwheel: action.yml, azure-pipelines.yml,
# properdocs.yml, and .readthedocs.yml, which is hidden); a folder of thousands costs
# no more than this many reads.
MAX_CANDIDATES = 16
# An ``mkdocs.yml`` is a few KiB; the largest surveyed (pymdown-extensions' zensical.yml)
# is 9 KiB.
CONFIG_BYTES = 256 * 1024
# How far above a page its settings file may be: FastAPI's pages lie up to four folders
# deep under docs/en.
CONFIG_LEVELS = 8
# The extensions Zensical enables when its settings name none (its config.py,
# ``_apply_defaults``; "Default configuration" in its docs' extensions page): an empty
# ``markdown_extensions`` table turns them all off, as it names none. Read as no
# extensions, such a project's tabs, task lists, icons and attribute lists would read as
# written. Options are kept where the dialect reads them; the emoji generator Zensical
# names as Python objects is left out.
ZENSICAL_EXTENSIONS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("abbr", {}),
    ("admonition", {}),
    ("attr_list", {}),
    ("def_list", {}),
    ("footnotes", {}),
    ("md_in_html", {}),
    ("toc", {"permalink": True}),
    ("pymdownx.arithmatex", {"generic": True}),
    ("pymdownx.betterem", {}),
    ("pymdownx.caret", {}),
    ("pymdownx.details", {}),
    ("pymdownx.emoji", {}),
    ("pymdownx.highlight", {"anchor_linenums": True, "pygments_lang_class": True}),
    ("pymdownx.inlinehilite", {}),
    ("pymdownx.keys", {}),
    ("pymdownx.magiclink", {}),
    ("pymdownx.mark", {}),
    ("pymdownx.smartsymbols", {}),
    ("pymdownx.superfences", {}),
    ("pymdownx.tabbed", {"alternate_style": True}),
    ("pymdownx.tasklist", {"custom_checkbox": True}),
    ("pymdownx.tilde", {}),
)
# The settings files Zensical reads: its own names (it reads an ``mkdocs.yml`` too, but so
# does MkDocs, which enables none).
_ZENSICAL_NAMES = {"zensical.toml", "zensical.yml", "zensical.yaml"}
# The parts of an extension's dotted name: three in the surveyed files
# (``pymdownx.blocks.tab``, ``zensical.extensions.preview``); a TOML file nesting tables
# thousands deep is read no deeper.
MAX_NAME_PARTS = 4


def find_config(folder: Path) -> Path | None:
    """The settings file governing ``folder`` (resolved): the nearest above it, as above.
    It is searched past the include root (only where files may be read is bounded)."""
    folder = folder.resolve()
    for candidate_folder in (folder, *folder.parents)[:CONFIG_LEVELS]:
        found = _config_in(candidate_folder, folder)
        if found is not None:
            return found
    return None


def _config_in(candidate_folder: Path, folder: Path) -> Path | None:
    for name in _MKDOCS_NAMES:
        if (candidate_folder / name).is_file():
            return candidate_folder / name
    for candidate in _other_candidates(str(candidate_folder)):
        settings = settings_of(candidate)
        if "site_name" in settings and folder.is_relative_to(_docs_dir(candidate, settings)):
            return candidate
    return None


@functools.lru_cache(maxsize=64)
def _other_candidates(folder: str) -> tuple[Path, ...]:
    """The YAML and TOML files of ``folder`` that are not hidden, the first ``MAX_CANDIDATES``
    by name (cached: every page of a site asks of the same folders)."""
    try:
        names = sorted(
            entry.name
            for entry in Path(folder).iterdir()
            if entry.suffix.lower() in _OTHER_SUFFIXES and not entry.name.startswith(".")
        )
    except OSError:
        return ()
    return tuple(Path(folder) / name for name in names[:MAX_CANDIDATES])


def _docs_dir(config: Path, settings: dict[Any, Any]) -> Path:
    named = settings.get("docs_dir", "docs")
    return (config.parent / (named if isinstance(named, str) and named else "docs")).resolve()


def settings_of(config: Path) -> dict[Any, Any]:
    """``config``'s settings, read once for each time it is written (cached by its mtime);
    empty when it cannot be read."""
    try:
        stamp = config.stat().st_mtime_ns
    except OSError:
        return {}
    return _read_settings(str(config), stamp)


@functools.lru_cache(maxsize=32)
def _read_settings(config: str, stamp: int) -> dict[Any, Any]:
    """A settings file's settings, read bounded; empty when they cannot be read."""
    try:
        text = read_bytes(Path(config), CONFIG_BYTES).decode("utf-8-sig")
        if config.lower().endswith(".toml"):
            settings = _from_toml(tomllib.loads(text))
        else:
            loader = _ConfigLoader(text)
            try:
                settings = loader.get_single_data()
            finally:
                loader.dispose()
    except (
        RefusedFileError,
        UnicodeDecodeError,
        yaml.YAMLError,
        tomllib.TOMLDecodeError,
        FrontMatterError,
        RecursionError,
        OSError,
    ):
        return {}
    if not isinstance(settings, dict):
        return {}
    if Path(config).name.lower() in _ZENSICAL_NAMES and "markdown_extensions" not in settings:
        settings["markdown_extensions"] = [
            {name: dict(options)} for name, options in ZENSICAL_EXTENSIONS
        ]
    return settings


def _from_toml(document: dict[str, Any]) -> dict[Any, Any]:
    """A TOML settings file's settings in ``mkdocs.yml``'s shape. Zensical keeps them under
    ``[project]``; its extensions are tables named by their dotted names, so
    ``[project.markdown_extensions.pymdownx.snippets]`` nests ``snippets`` in ``pymdownx``."""
    project = document.get("project")
    settings = dict(project if isinstance(project, dict) else document)
    extensions = settings.get("markdown_extensions")
    if isinstance(extensions, dict):
        settings["markdown_extensions"] = [
            {name: options} for name, options in _extension_tables(extensions, "")
        ]
    return settings


def _extension_tables(
    table: dict[str, Any], prefix: str, parts: int = 1
) -> list[tuple[str, dict[Any, Any]]]:
    """Each extension a table of tables names, with its options. A table is an extension's
    options when it is empty or holds a value that is no table (``base_path = [...]``);
    one holding tables only is a part of their names (``pymdownx``, ``pymdownx.blocks``),
    to ``MAX_NAME_PARTS`` parts."""
    found: list[tuple[str, dict[Any, Any]]] = []
    for key, value in table.items():
        name = f"{prefix}{key}"
        if not isinstance(value, dict):
            continue
        leaf = not value or any(not isinstance(inner, dict) for inner in value.values())
        if leaf or parts >= MAX_NAME_PARTS:
            found.append((name, value))
        else:
            found.extend(_extension_tables(value, f"{name}.", parts + 1))
    return found


class _ConfigLoader(BoundedLoader):
    """The bounded loader, reading an ``mkdocs.yml``'s Python and environment tags as
    nothing rather than failing on them."""


def _nothing(loader: Any, suffix: str, node: Any) -> None:
    return None


_ConfigLoader.add_multi_constructor("", _nothing)
