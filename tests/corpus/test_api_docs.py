"""A Python project's MkDocs API reference (``::: pkg.mod`` directives of mkdocstrings),
ingested as the published site shows it: each object's heading at its dotted-path anchor,
its signature and docstring, its public members a level deeper, read from the source
without running it; a directive that names nothing readable (no such module, a syntax
error, a path out of the include root) is left out with its reason, never indexed as text,
and a huge module stays within the bounds."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from citeline.corpus import Corpus, Document
from citeline.corpus.formats import api_docs
from citeline.corpus.formats.api_docs import MAX_OBJECTS, ParseBudget, expand_api_docs

BASE = "https://pkg.example/"
MODULE = '''\
"""Tools to shape widgets.

Widgets are shaped in place.
"""

import os

os.makedirs("ran-at-import", exist_ok=True)
raise RuntimeError("importing this module runs it")

__all__ = ["Shaper", "shape", "_helper"]


class Shaper:
    """Shapes one widget at a time."""

    def __init__(self, width: int = 3) -> None:
        self.width = width

    def stretch(self, factor: float) -> "Shaper":
        """Stretch the widget by ``factor``."""
        return self

    def _secret(self) -> None:
        """A private helper."""


def shape(widget: str, *, round_corners: bool = False) -> str:
    """Shape a widget.

    Args:
        widget: The widget's name.
        round_corners: Whether corners are rounded.

    Returns:
        The shaped widget.
    """
    return widget


def _helper() -> None:
    """Never shown."""


def undocumented():
    pass
'''
PAGE = """\
# Reference

::: pkg.mod
    options:
      show_root_heading: true
      heading_level: 2
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "docs").mkdir(parents=True)
    (root / "src" / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[project]\nname = 'pkg'\n", "utf-8")
    (root / "mkdocs.yml").write_text(
        "site_name: Pkg\nplugins:\n  - search\n  - mkdocstrings:\n      handlers:\n"
        "        python:\n          paths: [src]\n          options:\n"
        "            members_order: source\n",
        "utf-8",
    )
    (root / "src" / "pkg" / "__init__.py").write_text('"""The pkg."""\n', "utf-8")
    (root / "src" / "pkg" / "mod.py").write_text(MODULE, "utf-8")
    (root / "docs" / "reference.md").write_text(PAGE, "utf-8")
    return root


def _documents(corpus: Corpus) -> dict[str, Document]:
    return {document.id: document for document in corpus.documents()}


def test_a_module_directive_becomes_one_section_of_its_docstrings_and_signatures(
    corpus: Corpus, project: Path
) -> None:
    report = corpus.ingest(project / "docs", base_url=BASE)
    assert report.ok, report.skipped
    documents = _documents(corpus)
    module = documents["reference#pkg.mod"]
    assert module.url == BASE + "reference/#pkg.mod"
    text = module.text
    assert "Tools to shape widgets." in text
    assert "Shaper(width: int = 3)" in text and "Shapes one widget at a time." in text
    # Members are text of the directive's section under their dotted paths, as a Sphinx API
    # page's entries are: no section of their own to out-rank the guide's pages.
    assert "pkg.mod.Shaper.stretch" in text
    assert "stretch(factor: float) -> Shaper" in text
    assert "shape(widget: str, *, round_corners: bool = False) -> str" in text
    assert "round_corners: Whether corners are rounded." in text
    assert "The shaped widget." in text
    assert not any(key.startswith("reference#pkg.mod.") for key in documents)
    # Private members and undocumented ones are not published; nor is the directive.
    every = "\n".join(document.text for document in documents.values())
    for absent in ("_secret", "_helper", "Never shown", "undocumented", ":::", "options"):
        assert absent not in every, absent
    # Reading the source ran none of it.
    assert not (project / "ran-at-import").exists()
    assert not Path("ran-at-import").exists()


def test_the_members_option_lists_what_is_shown(corpus: Corpus, project: Path) -> None:
    (project / "docs" / "reference.md").write_text(
        "# Reference\n\n::: pkg.mod\n    options:\n      show_root_heading: true\n"
        "      members: [shape, _helper]\n",
        "utf-8",
    )
    corpus.ingest(project / "docs", base_url=BASE)
    text = _documents(corpus)["reference#pkg.mod"].text
    assert "pkg.mod.shape" in text and "pkg.mod._helper" in text
    assert "Shaper(width" not in text


def test_without_a_root_heading_the_object_is_text_of_the_pages_section(project: Path) -> None:
    page = project / "docs" / "reference.md"
    text = expand_api_docs("::: pkg.mod.Shaper\n", page, include_root=project).text
    assert "Shapes one widget at a time." in text and "`pkg.mod.Shaper.stretch`" in text
    assert not any(line.startswith("#") for line in text.splitlines())


def test_a_page_without_mkdocstrings_keeps_its_colons(tmp_path: Path) -> None:
    (tmp_path / "mkdocs.yml").write_text("site_name: Plain\n", "utf-8")
    page = tmp_path / "page.md"
    text = "::: note\n    Docusaurus-style.\n"
    assert expand_api_docs(text, page, include_root=tmp_path).text == text


def _problems(corpus: Corpus, project: Path, page: str) -> list[str]:
    (project / "docs" / "hostile.md").write_text(f"# Hostile\n\nText of its own.\n\n{page}\n")
    report = corpus.ingest(project / "docs", base_url=BASE)
    hostile = [d for d in corpus.documents() if d.id.startswith("hostile")]
    assert "Text of its own." in hostile[0].text
    for document in hostile:
        assert ":::" not in document.text and "options" not in document.text
    return [p.reason for p in report.skipped if p.path.endswith("hostile.md")]


def test_an_unknown_module_and_a_syntax_error_are_left_out_with_their_reasons(
    corpus: Corpus, project: Path
) -> None:
    (project / "src" / "pkg" / "broken.py").write_text('"""Half."""\ndef oops(:\n', "utf-8")
    problems = _problems(
        corpus,
        project,
        "::: pkg.nothing_here\n    options:\n      members: [x]\n\n::: pkg.broken\n\n"
        "::: pkg.mod.NoSuchClass",
    )
    assert len(problems) == 3
    assert any("pkg.nothing_here" in p and "no member 'nothing_here'" in p for p in problems)
    assert any("pkg.broken" in p and "SyntaxError" in p for p in problems)
    assert any("no member 'NoSuchClass'" in p for p in problems)


def test_a_path_out_of_the_include_root_is_never_read(
    corpus: Corpus, project: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    (outside / "secret").mkdir(parents=True)
    (outside / "secret" / "__init__.py").write_text('"""PASSWORD hunter2."""\n', "utf-8")
    (project / "src" / "escape").symlink_to(outside / "secret")
    problems = _problems(corpus, project, "::: ..\n\n::: ../../outside/secret\n\n::: escape")
    assert len(problems) == 3
    assert "hunter2" not in "\n".join(d.text for d in corpus.documents())
    # paths: set outside the root reads nothing there either.
    (project / "mkdocs.yml").write_text(
        "plugins:\n  - mkdocstrings:\n      handlers:\n        python:\n"
        "          paths: [../outside]\n",
        "utf-8",
    )
    page = project / "docs" / "reference.md"
    expansion = expand_api_docs("::: secret\n", page, include_root=project)
    assert "hunter2" not in expansion.text and expansion.dropped == 1
    assert "outside the include root" in expansion.problems[0]


def test_a_module_of_fifty_thousand_functions_stays_within_the_bound(project: Path) -> None:
    # What it costs is a row of benchmarks/hostile_files.py, not a timing here.
    functions = "".join(f'def f{i}():"D"\n' for i in range(50_000))  # 860 KB
    (project / "src" / "pkg" / "huge.py").write_text(functions, "utf-8")
    page = project / "docs" / "reference.md"
    text = expand_api_docs("::: pkg.huge\n", page, include_root=project).text
    assert text.count("```python") == MAX_OBJECTS - 1  # the module itself has no signature
    assert len(text) < 200_000


def test_a_page_waiting_on_a_busy_machine_keeps_its_reference(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The bound is on the CPU the page's directives cost, so a machine running other work
    # (here: a parse that waits a second of wall time) indexes the same reference.
    monkeypatch.setattr(api_docs, "MAX_SECONDS", 0.5)
    parse = api_docs._parse
    parse.cache_clear()

    def waiting(*arguments: Any) -> object:
        time.sleep(1.0)
        return parse(*arguments)

    monkeypatch.setattr(api_docs, "_parse", waiting)
    page = project / "docs" / "reference.md"
    expanded = expand_api_docs("::: pkg.mod\n\n::: pkg.mod.Shaper\n", page, include_root=project)
    assert expanded.dropped == 0, expanded.problems
    assert "Tools to shape widgets." in expanded.text and "Shapes one widget" in expanded.text


def test_a_directive_inside_a_longer_fence_stays_code(project: Path) -> None:
    page = project / "docs" / "reference.md"
    text = "````markdown\n```\n::: pkg.mod\n```\n````\n\n::: pkg.mod.Shaper\n"
    expanded = expand_api_docs(text, page, include_root=project).text
    # The four-backtick block is closed only by its own fence: the three inside are text.
    assert expanded.startswith("````markdown\n```\n::: pkg.mod\n```\n````\n")
    assert "Shapes one widget at a time." in expanded


def test_the_ingests_parse_budget_is_shared_and_a_spent_one_drops_the_directive(
    project: Path,
) -> None:
    page = project / "docs" / "reference.md"
    api_docs._parse.cache_clear()  # a parse another test left cached would cost nothing
    budget = ParseBudget()
    expanded = expand_api_docs("::: pkg.mod\n", page, include_root=project, budget=budget)
    assert "Tools to shape widgets." in expanded.text
    assert budget.seconds < ParseBudget().seconds  # the module's parse was charged
    spent = ParseBudget(seconds=0.0)
    refused = expand_api_docs("::: pkg.mod.Shaper\n", page, include_root=project, budget=spent)
    assert refused.dropped == 1 and "Shapes one widget" not in refused.text
    assert "ingest's API directives took over" in refused.problems[0]
