"""An MkDocs project's Markdown, ingested from its repository as real projects lay it out
(``pyproject.toml`` at the root, ``docs/en/mkdocs.yml``, pages in ``docs/en/docs``, code
examples in ``docs_src`` at the root pulled in as ``../../docs_src/...``): every include
directive is replaced by the file it names, code as code, and an include that reaches
outside the include root, names no file, loops or names a huge file is left out with its
reason in the ingest report."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citeline.corpus import Corpus, Document
from citeline.corpus.formats.includes import MAX_INCLUDE_BYTES, expand
from citeline.corpus.formats.line_bound import MAX_LINES_PER_MB, TOO_MANY_LINES

BASE = "https://fastapi.example/"
TUTORIAL = """\
# Query Parameters { #query-parameters }

Declare parameters that are not part of the path:

{* ../../docs_src/query_params/tutorial001_py310.py hl[9] *}

## Only some lines { #some-lines }

{* ../../docs_src/query_params/tutorial001_py310.py ln[3:4] hl[4] *}

## Old style { #old-style }

```Python hl_lines="3"
{!../../docs_src/query_params/tutorial001_py310.py!}
```

## Shared text { #shared }

--8<-- "snippets/warning.md"

{% include-markdown "../partials/footer.md" %}

## Literal { #literal }

```{literalinclude} ../../../../docs_src/query_params/run.sh
:lines: 2
```
"""
CODE = """\
from fastapi import FastAPI

app = FastAPI()


@app.get("/items/")
async def read_item(skip: int = 0, limit: int = 10):
    return {"skip": skip, "limit": limit}
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "fastapi"
    (root / "docs" / "en" / "docs" / "tutorial").mkdir(parents=True)
    (root / "docs" / "en" / "docs" / "partials").mkdir()
    (root / "docs" / "en" / "snippets").mkdir()
    (root / "docs_src" / "query_params").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[project]\nname = 'fastapi'\n", "utf-8")
    (root / "docs" / "en" / "mkdocs.yml").write_text(
        "site_name: FastAPI\nmarkdown_extensions:\n"
        "  - pymdownx.superfences:\n      custom_fences:\n        - name: mermaid\n"
        "          format: !!python/name:pymdownx.superfences.fence_code_format\n"
        "  - markdown_include.include:\n      base_path: docs\n",
        "utf-8",
    )
    (root / "docs_src" / "query_params" / "tutorial001_py310.py").write_text(CODE, "utf-8")
    (root / "docs_src" / "query_params" / "run.sh").write_text(
        "#!/bin/sh\n$ fastapi dev main.py\n", "utf-8"
    )
    (root / "docs" / "en" / "snippets" / "warning.md").write_text(
        "!!! warning\n    Query parameters are **strings** until declared otherwise.\n", "utf-8"
    )
    (root / "docs" / "en" / "docs" / "partials" / "footer.md").write_text(
        "Read the *next* chapter for request bodies.\n", "utf-8"
    )
    (root / "docs" / "en" / "docs" / "tutorial" / "query-params.md").write_text(TUTORIAL, "utf-8")
    return root


def _documents(corpus: Corpus) -> dict[str, Document]:
    return {document.id: document for document in corpus.documents()}


def test_every_include_of_a_fastapi_layout_is_resolved_and_its_code_is_code(
    corpus: Corpus, project: Path
) -> None:
    report = corpus.ingest(project / "docs" / "en" / "docs", base_url=BASE)
    assert report.ok, report.skipped
    assert "include directives" not in report.summary()
    documents = _documents(corpus)
    page = documents["tutorial/query-params"]
    # The whole file, its lines and indentation kept, in the section that includes it.
    assert "path:\n\n" + CODE.rstrip("\n") in page.text
    lines = documents["tutorial/query-params#some-lines"].text
    assert "app = FastAPI()" in lines and "read_item" not in lines
    assert 'async def read_item(skip: int = 0, limit: int = 10):\n    return {"skip"' in (
        documents["tutorial/query-params#old-style"].text
    )
    shared = documents["tutorial/query-params#shared"].text
    assert "Query parameters are strings until declared otherwise." in shared
    assert "Read the next chapter for request bodies." in shared
    assert documents["tutorial/query-params#literal"].text.endswith("$ fastapi dev main.py")
    for document in documents.values():
        for markup in ("{*", "{!", "--8<--", "{%", "literalinclude", "hl["):
            assert markup not in document.text, (markup, document.id)
    # The code is in the passage search finds, as the section's own.
    [hit] = corpus.search("read_item skip limit", k=1)
    assert hit.doc_id.startswith("tutorial/query-params")
    assert "async def read_item" in hit.text


def _hostile_page(project: Path, directives: str) -> Path:
    page = project / "docs" / "en" / "docs" / "hostile.md"
    page.write_text(f"# Hostile\n\nText of its own.\n\n{directives}\n", "utf-8")
    return page


def _problems(corpus: Corpus, project: Path) -> list[str]:
    report = corpus.ingest(project / "docs" / "en" / "docs", base_url=BASE)
    assert "Text of its own." in _documents(corpus)["hostile"].text
    return [p.reason for p in report.skipped if p.path.endswith("hostile.md")]


def test_an_include_outside_the_include_root_is_left_out_with_its_reason(
    corpus: Corpus, project: Path, tmp_path: Path
) -> None:
    (tmp_path / "secret.py").write_text("PASSWORD = 'hunter2'\n", "utf-8")
    (project / "docs_src" / "escape.py").symlink_to(tmp_path / "secret.py")
    _hostile_page(project, '{* ../../../secret.py *}\n\n--8<-- "../../docs_src/escape.py"')
    problems = _problems(corpus, project)
    assert len(problems) == 2
    assert all("outside the include root" in reason for reason in problems)
    assert all("hunter2" not in d.text for d in corpus.documents())


def test_a_missing_file_and_a_loop_are_left_out_with_their_reasons(
    corpus: Corpus, project: Path
) -> None:
    docs = project / "docs" / "en" / "docs"
    (docs / "a.md").write_text('# A\n\nFrom a.\n\n--8<-- "b.md"\n', "utf-8")
    (docs / "b.md").write_text('From b.\n\n--8<-- "a.md"\n', "utf-8")
    _hostile_page(project, '{* ../../docs_src/nothing_here.py *}\n\n--8<-- "a.md"')
    problems = _problems(corpus, project)
    assert any("'../../docs_src/nothing_here.py'" in r and "no such file" in r for r in problems)
    assert any("loop" in reason for reason in problems)
    # The loop is cut where it closes: each file's text is there once.
    page = " ".join(d.text for d in corpus.documents() if d.id.startswith("hostile"))
    assert page.count("From a.") == 1 and page.count("From b.") == 1


def test_a_fifty_megabyte_include_is_refused_unread(corpus: Corpus, project: Path) -> None:
    huge = project / "docs_src" / "huge.py"
    with huge.open("wb") as file:
        file.truncate(50 * 1024 * 1024)  # sparse: refused by its size, never read
    _hostile_page(project, "{* ../../docs_src/huge.py *}")
    [problem] = _problems(corpus, project)
    assert "huge.py" in problem and "larger" in problem
    assert os.path.getsize(huge) > MAX_INCLUDE_BYTES


def test_the_lines_an_include_adds_past_the_pages_bound_are_left_out_and_counted(
    corpus: Corpus, project: Path
) -> None:
    lines = "".join(f"line{n}\n" for n in range(MAX_LINES_PER_MB))
    (project / "docs" / "en" / "snippets" / "long.md").write_text(lines, "utf-8")
    _hostile_page(project, '--8<-- "snippets/long.md"')
    report = corpus.ingest(project / "docs" / "en" / "docs", base_url=BASE)
    assert report.omitted[TOO_MANY_LINES] == 1
    words = _documents(corpus)["hostile"].text.split()
    # The page's 4 lines above the include and the included lines, to the bound.
    assert words[-1] == f"line{MAX_LINES_PER_MB - 5}"


def test_the_include_root_can_be_given(corpus: Corpus, project: Path) -> None:
    docs = project / "docs" / "en" / "docs"
    report = corpus.ingest(docs, base_url=BASE, include_root=docs)
    reasons = [problem.reason for problem in report.skipped]
    assert reasons and all("outside the include root" in reason for reason in reasons)


_FRAGMENTS = [
    "{* ",
    " *}",
    "{!",
    "!}",
    '--8<-- "',
    "--8<--",
    '"',
    "{% include '",
    "' %}",
    "```{literalinclude} ",
    "```",
    "\n",
    ":lines: 1-2\n",
    "ln[1:2]",
    "../",
    "/etc/passwd",
    "secret.txt",
    "page.md",
    "inside.md",
    ":intro",
    " [start:intro]",
    " [end:intro]",
    "    ",
    "text ",
]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(_FRAGMENTS), max_size=30))
def test_any_markdown_expands_within_the_include_root_and_never_raises(
    tmp_path_factory: pytest.TempPathFactory, parts: list[str]
) -> None:
    base = tmp_path_factory.mktemp("includes")
    root = base / "root"
    root.mkdir()
    (base / "secret.txt").write_text("OUTSIDE-SECRET", "utf-8")
    (root / "inside.md").write_text(
        "inside words\n--8<-- [start:intro]\nintro words\n--8<-- [end:intro]\n", "utf-8"
    )
    text = "".join(parts)
    (root / "page.md").write_text(text, "utf-8")
    expanded = expand(text, root / "page.md", include_root=root, ingest_folder=root)
    assert "OUTSIDE-SECRET" not in expanded.text
    assert expanded.dropped == len(expanded.problems)


def test_a_directive_in_a_fence_nested_in_a_tab_puts_the_code_in_that_fence(
    tmp_path: Path,
) -> None:
    # Typer's tabs: the fence sits 4 spaces in, where superfences still reads it as one.
    (tmp_path / "app.py").write_text("import typer\n", "utf-8")
    page = '=== "Python 3.6+"\n\n    ```Python hl_lines="5"\n    {!> app.py!}\n    ```\n'
    expanded = expand(page, tmp_path / "page.md", include_root=tmp_path, ingest_folder=tmp_path)
    assert expanded.text.splitlines()[2:] == [
        '    ```Python hl_lines="5"',
        "    import typer",
        "    ```",
    ]


def test_code_in_a_line_opening_with_three_backticks_opens_no_fence(tmp_path: Path) -> None:
    # CommonMark: a backtick fence's info string holds no backtick, so this line is a
    # paragraph, and the file named after it is code of its own, not a code block's text.
    (tmp_path / "run.py").write_text("print(1)\n", "utf-8")
    page = '```x``` is inline code.\n\n--8<-- "run.py"\n'
    expanded = expand(page, tmp_path / "page.md", include_root=tmp_path, ingest_folder=tmp_path)
    assert expanded.text.endswith("```python\nprint(1)\n```")


# pymdownx.snippets' sections

README = """\
# Demo

<!-- --8<-- [start:intro] -->
Demo turns words into numbers.
<!-- --8<-- [end:intro] -->

## Install
--8<-- [start:install]
pip install demo
--8<-- [end:install]
"""


def _expanded(tmp_path: Path, page: str) -> tuple[str, list[str]]:
    expanded = expand(page, tmp_path / "page.md", include_root=tmp_path, ingest_folder=tmp_path)
    return expanded.text, expanded.problems


def test_a_snippet_naming_a_section_includes_the_lines_its_markers_hold(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text(README, "utf-8")
    (tmp_path / "app.py").write_text(
        "import os\n# --8<-- [start:main]\ndef main():\n    pass\n# --8<-- [end:main]\n", "utf-8"
    )
    text, problems = _expanded(
        tmp_path, '# Home\n\n--8<-- "README.md:intro"\n\n```python\n--8<-- "app.py:main"\n```\n'
    )
    assert text == (
        "# Home\n\nDemo turns words into numbers.\n\n```python\ndef main():\n    pass\n```"
    )
    assert problems == []


def test_a_whole_file_is_included_without_its_section_markers(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text(README, "utf-8")
    text, _ = _expanded(tmp_path, '--8<-- "README.md"\n')
    assert "8<" not in text and "pip install demo" in text and "Demo turns" in text


def test_a_section_the_file_does_not_mark_is_left_out_with_its_reason(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text(README, "utf-8")
    text, problems = _expanded(tmp_path, 'Before.\n\n--8<-- "README.md:usage"\n')
    assert text == "Before.\n"
    assert problems == [
        "its include of 'README.md:usage' was left out: README.md marks no section 'usage' "
        "(--8<-- [start:usage] ... --8<-- [end:usage])"
    ]


def test_line_numbers_and_an_escaped_marker_are_not_sections(tmp_path: Path) -> None:
    (tmp_path / "notes.md").write_text(
        "one\n;--8<-- [start:x]\ntwo\n;--8<-- [end:x]\nthree\n", "utf-8"
    )
    text, _ = _expanded(tmp_path, '--8<-- "notes.md:2:3"\n')
    assert text == ";--8<-- [start:x]\ntwo"
    text, problems = _expanded(tmp_path, '--8<-- "notes.md:x"\n')
    assert text == "" and len(problems) == 1


def test_a_line_of_many_dashes_and_markers_is_included_whole(tmp_path: Path) -> None:
    # What it costs is a row of benchmarks/hostile_files.py, not a timing here.
    line = "-" * 50_000 + "8<" + " [start:a]" * 5_000
    (tmp_path / "big.md").write_text(line + "\nkept\n", "utf-8")
    text, _ = _expanded(tmp_path, '--8<-- "big.md"\n')
    assert text.endswith("kept")
