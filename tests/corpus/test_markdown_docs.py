"""A Markdown docs folder as the common generators write it (MkDocs, Material, FastAPI's
docs) reads as plain text: attribute lists become anchors, admonitions paragraphs, include
directives are replaced by what they include, pages link where the generators publish
them, and sections are titled under the heading the page opens with."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from citeline.cli import app
from citeline.corpus import Corpus, Document
from citeline.corpus.formats.markdown import plain_text, read
from citeline.corpus.formats.origin import SourceFile

BASE = "https://docs.example.org/"
QUERY_PARAMS = """\
# Query Parameters { #query-parameters }

When you declare other function parameters that are not part of the path parameters,
they are automatically interpreted as **"query"** parameters.

{* ../../docs_src/query_params/tutorial001_py310.py hl[9] *}

The query is the set of key-value pairs after the `?` in a URL, see
[the spec](https://example.org/rfc3986 "RFC").

## Defaults { #defaults }

As query parameters are not a fixed part of a path, they can be *optional*.

/// note | Technical Details

FastAPI will know that the value of `q` is **not required** because of the default `= None`.

///

!!! tip "Pro tip"
    Use `Optional` on [older Pythons](https://docs.python.org/3/).

```python
def read_item(skip: int = 0, limit: int = 10):
    return fake_items_db[skip : skip + limit]
```

## Required query parameters {: #required .important }

--8<-- "snippets/required.md"

Sign your requests with a <abbr title="JSON Web Tokens">JWT</abbr> in the header.

<div class="admonition">A block of <em>inline</em> HTML.</div>
"""
FAQ = """\
---
url: /help/faq/
title: Frequently asked `questions`
---
# FAQ

## Why does `a_tuple[i] += ['item']` raise an exception?

Because tuples are immutable.
"""
MARKUP = re.compile(r"\{ ?#|\{:|///|\{\*|--8<--|!!!|\*\*|`|\]\(|</?[a-z][^>]*>")


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    # A project as MkDocs sites lay one out: the included code and snippets at its root.
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'example'\n", "utf-8")
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: Example\nmarkdown_extensions:\n  - pymdownx.snippets:\n"
        "      base_path: [snippets]\n",
        "utf-8",
    )
    (tmp_path / "snippets").mkdir()
    (tmp_path / "snippets" / "required.md").write_text(
        "A required parameter has **no default**.\n", "utf-8"
    )
    (tmp_path / "docs_src" / "query_params").mkdir(parents=True)
    (tmp_path / "docs_src" / "query_params" / "tutorial001_py310.py").write_text(
        "from fastapi import FastAPI\n\napp = FastAPI()\n", "utf-8"
    )
    folder = tmp_path / "docs"
    (folder / "tutorial").mkdir(parents=True)
    (folder / "tutorial" / "query-params.md").write_text(QUERY_PARAMS, "utf-8")
    (folder / "tutorial" / "index.md").write_text("# Tutorial\n\nStart here.\n", "utf-8")
    (folder / "faq.md").write_text(FAQ, "utf-8")
    return folder


def _documents(corpus: Corpus) -> dict[str, Document]:
    return {document.id: document for document in corpus.documents()}


def test_no_title_snippet_or_passage_keeps_docs_markup(corpus: Corpus, docs: Path) -> None:
    report = corpus.ingest(docs, base_url=BASE)
    assert report.ok
    documents = _documents(corpus)
    assert documents, "nothing was indexed"
    for document in documents.values():
        assert not MARKUP.search(document.title), document.title
        assert not MARKUP.search(document.text), document.text
    for query in ("query parameters", "JWT header", "optional pro tip", "read_item skip", "app"):
        for hit in corpus.search(query):
            assert not MARKUP.search(hit.text) and not MARKUP.search(hit.title)


def test_attribute_lists_become_each_sections_anchor_and_url(corpus: Corpus, docs: Path) -> None:
    corpus.ingest(docs, base_url=BASE)
    documents = _documents(corpus)
    page = documents["tutorial/query-params"]
    assert page.title == "Query Parameters"
    assert page.url == "https://docs.example.org/tutorial/query-params/"
    defaults = documents["tutorial/query-params#defaults"]
    assert defaults.title == "Query Parameters › Defaults"
    assert defaults.url == "https://docs.example.org/tutorial/query-params/#defaults"
    required = documents["tutorial/query-params#required"]
    assert required.title == "Query Parameters › Required query parameters"
    assert required.url == "https://docs.example.org/tutorial/query-params/#required"
    assert "Sign your requests with a JWT in the header." in required.text
    assert "A block of inline HTML." in required.text


def test_admonitions_read_as_paragraphs_and_code_stays_code(corpus: Corpus, docs: Path) -> None:
    corpus.ingest(docs, base_url=BASE)
    text = _documents(corpus)["tutorial/query-params#defaults"].text
    assert "Technical Details\n\nFastAPI will know that the value of q is not required" in text
    assert "Pro tip\n\nUse Optional on older Pythons." in text
    assert (
        "def read_item(skip: int = 0, limit: int = 10):\n"
        "    return fake_items_db[skip : skip + limit]"
    ) in text


def test_include_directives_become_the_text_they_include(corpus: Corpus, docs: Path) -> None:
    report = corpus.ingest(docs, base_url=BASE)
    assert report.ok and "include directives" not in report.summary()
    documents = _documents(corpus)
    page = documents["tutorial/query-params"].text
    # Code is included as code, its lines kept, where the directive was.
    assert '"query" parameters.\n\nfrom fastapi import FastAPI\n\napp = FastAPI()\n\nThe query' in (
        page
    )
    # A Markdown snippet, found in the base path mkdocs.yml names, is read as Markdown.
    assert "A required parameter has no default." in (
        documents["tutorial/query-params#required"].text
    )


def test_include_directives_that_cannot_be_resolved_are_dropped_counted_and_named(
    tmp_path: Path, docs: Path
) -> None:
    (docs / "faq.md").write_text("# FAQ\n\nSee below.\n\n{! missing/part.md !}\n", "utf-8")
    result = CliRunner().invoke(
        app, ["ingest", str(docs), "--db", str(tmp_path / "i.sqlite"), "--base-url", BASE]
    )
    assert result.exit_code == 1, result.output
    assert "dropped 1 include directives" in result.stdout
    assert "faq.md: skipped, its include of 'missing/part.md' was left out: no such file" in (
        result.stderr
    )


def test_index_pages_and_front_matter_urls_map_as_the_generators_publish_them(
    corpus: Corpus, docs: Path
) -> None:
    corpus.ingest(docs, base_url=BASE)
    documents = _documents(corpus)
    assert documents["tutorial/index"].url == "https://docs.example.org/tutorial/"
    # The page's top heading has no text of its own: only its one section is indexed.
    [question] = [d for d in documents.values() if d.id.startswith("faq")]
    # Brackets in a title are the title's own text, never turned into anything else.
    assert question.title == (
        "Frequently asked questions › Why does a_tuple[i] += ['item'] raise an exception?"
    )
    assert question.url is not None and question.url.startswith(
        "https://docs.example.org/help/faq/#why-does-a_tuplei"
    )


@given(st.text(alphabet=st.sampled_from("ab *_`[]()<>{}#:!/-\n"), max_size=80))
def test_a_markdown_title_of_any_shape_renders_without_error(title: str) -> None:
    rendered = plain_text(title)
    assert "\n" not in rendered and rendered == rendered.strip()


def test_sections_are_linked_at_the_anchors_mkdocs_publishes(
    corpus: Corpus, tmp_path: Path
) -> None:
    docs = tmp_path / "docs"
    (docs / "overrides").mkdir(parents=True)
    (docs / "options.md").write_text(
        "## Only `--force`\n\nForce it.\n\n## Short names\n\nOne.\n\n## Short names\n\n"
        "Two, see [First Steps](first-steps.md){.internal-link target=_blank}.\n",
        "utf-8",
    )
    # A theme's template beside the pages is no page of the site.
    (docs / "overrides" / "main.html").write_text('{% extends "base.html" %}\n', "utf-8")
    report = corpus.ingest(docs, base_url=BASE)
    assert report.ok and "dropped 1 theme templates" in report.summary()
    documents = {d.url: d for d in corpus.documents()}
    # A page opening with a subheading has that section at its anchor, like the rest; runs
    # of hyphens are one, and a repeated heading is numbered as Python-Markdown numbers it.
    assert set(documents) == {
        BASE + "options/#only-force",
        BASE + "options/#short-names",
        BASE + "options/#short-names_1",
    }
    assert documents[BASE + "options/#short-names_1"].text.endswith("see First Steps.")


def test_the_theme_overrides_mkdocs_yml_names_are_no_pages_whatever_they_open_with(
    corpus: Corpus, tmp_path: Path
) -> None:
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: Demo\ntheme:\n  name: material\n  custom_dir: docs/overrides\n", "utf-8"
    )
    docs = tmp_path / "docs"
    (docs / "overrides" / "partials").mkdir(parents=True)
    (docs / "index.md").write_text("# Demo\n\nThe project's front page.\n", "utf-8")
    # A partial opens with a comment and writes Jinja inside HTML: no template marker first.
    (docs / "overrides" / "partials" / "toc-item.html").write_text(
        "<!-- Copied from the theme's issue tracker -->\n<li class=md-nav__item>"
        '<a href="{{ toc_item.url }}">{{ toc_item.title }}</a></li>\n',
        "utf-8",
    )
    report = corpus.ingest(docs, base_url=BASE)
    assert report.ok and "dropped 1 theme templates" in report.summary()
    assert [d.url for d in corpus.documents()] == [BASE]


def test_a_custom_dir_naming_the_pages_own_folder_takes_no_page_away(
    corpus: Corpus, tmp_path: Path
) -> None:
    (tmp_path / "mkdocs.yml").write_text("site_name: Demo\ntheme:\n  custom_dir: docs\n", "utf-8")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Demo\n\nThe project's front page.\n", "utf-8")
    (docs / "page.html").write_text("<main><h1>Page</h1><p>A page of its own.</p></main>", "utf-8")
    corpus.ingest(docs, base_url=BASE)
    assert sorted(d.url for d in corpus.documents()) == [BASE, BASE + "page.html"]


def test_a_heading_that_is_a_reference_link_is_named_by_its_text_as_mkdocs_names_it(
    corpus: Corpus, tmp_path: Path
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "schemas.md").write_text(
        "# Schemas\n\nHow to build them.\n\n#### [apispec plugin][apispec]\n\nA plugin.\n\n"
        "[apispec]: https://example.org/apispec\n",
        "utf-8",
    )
    corpus.ingest(docs, base_url=BASE)
    plugin = next(d for d in corpus.documents() if d.url == BASE + "schemas/#apispec-plugin")
    assert plugin.title.endswith("apispec plugin") and "[" not in plugin.title


# A page of several top-level headings

GALAXY = (
    "# galaxy\n\nThis rule identifies if the collection version ...\n\n"
    "## Problematic code\n\n```yaml\n# galaxy.yml\nversion: 0.2.3\n```\n\n"
    "# Changelog Details\n\nThis rule also looks for a changelog file ...\n\n"
    "## Minimum required changelog.yaml/changelog.yml file\n\n```yaml\nreleases: {}\n```\n\n"
    "# Required Tag Details\n\n## Problematic code\n\n```yaml\ntags: [bad]\n```\n"
)


def _titles(markdown: str) -> dict[str | None, str]:
    origin = SourceFile(Path("galaxy.md"), "rules/galaxy", "rules/galaxy.md", BASE + "galaxy/")
    documents = [item for item in read(markdown, origin) if isinstance(item, Document)]
    return {document.url: document.title for document in documents}


def test_later_top_level_headings_are_sections_of_the_page_the_first_one_titles() -> None:
    # Ansible Lint 26.10.1's rules/galaxy.md: "# galaxy", then "# Changelog Details" and
    # "# Required Tag Details", all on the page MkDocs titles "galaxy" (the h1 it opens
    # with); the index titled their sections as pages of their own.
    assert _titles(GALAXY) == {
        BASE + "galaxy/": "galaxy",
        BASE + "galaxy/#problematic-code": "galaxy › Problematic code",
        BASE + "galaxy/#changelog-details": "galaxy › Changelog Details",
        BASE + "galaxy/#minimum-required-changelogyamlchangelogyml-file": (
            "galaxy › Changelog Details › Minimum required changelog.yaml/changelog.yml file"
        ),
        BASE + "galaxy/#problematic-code_1": "galaxy › Required Tag Details › Problematic code",
    }
    # A title of its own (front matter's) heads them the same way.
    titled = _titles("---\ntitle: Galaxy rule\n---\n" + GALAXY)
    assert titled[BASE + "galaxy/#changelog-details"] == "Galaxy rule › Changelog Details"


def test_top_level_headings_after_text_are_side_by_side_under_no_title_of_theirs() -> None:
    # A page that opens with text is titled by its navigation entry or file name, not by
    # any of its headings: none of them heads the others.
    assert _titles("Intro text.\n\n# One\n\nText.\n\n# Two\n\nText.\n") == {
        BASE + "galaxy/": "Galaxy",
        BASE + "galaxy/#one": "One",
        BASE + "galaxy/#two": "Two",
    }
