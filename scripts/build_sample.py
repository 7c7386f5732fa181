# /// script
# requires-python = ">=3.11"
# dependencies = ["markdownify>=1.2", "pyyaml>=6.0"]
# ///
"""Regenerate the demo's sample collection from the Python 3.11 documentation.

The sample under ``src/citeline/sample/python-docs/`` is the tutorial, the FAQ, a few
HOWTOs and the glossary of the Python documentation as Debian ships it in the
``python3.11-doc`` package (PSF licence), one Markdown file per section (or glossary
entry) with YAML front matter: ``id`` is the section's address relative to the docs
root (``tutorial/introduction.html#text``), ``url`` its page on docs.python.org, and
``title`` what a chip shows. Sections are the unit because a citation should take the
reader to the paragraph that says it, not the top of a 40-screen page.

Run it by hand when the sample should change; it is never run at install time:

    apt-get install python3.11-doc        # or: apt-get download + dpkg-deb -x
    pip install 'markdownify>=1.2' pyyaml  # or: uv run scripts/build_sample.py
    python scripts/build_sample.py [--source /usr/share/doc/python3.11/html]

It deliberately keeps no links (a link in corpus text would reach the model as an
anchor to something no tool returned) and no images; code blocks stay as fenced code.
It does not ingest anything: ``citeline demo`` does that.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import yaml
from bs4 import BeautifulSoup, Tag
from markdownify import MarkdownConverter

DOCS_URL = "https://docs.python.org/3.11/"
DEFAULT_SOURCE = Path("/usr/share/doc/python3.11/html")
REPO = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO / "src" / "citeline" / "sample" / "python-docs"

# Pages a general reader of Python asks about. Left out on purpose: the library
# reference (28 MB of HTML, far past the repo's ~3 MB budget for the sample) and the
# C API, extending and Windows pages, which answer few questions a newcomer has.
# fmt: off
PARTS = {
    "tutorial": ["appetite", "interpreter", "introduction", "controlflow", "datastructures",
                 "modules", "inputoutput", "errors", "classes", "stdlib", "stdlib2", "venv",
                 "whatnow", "interactive", "floatingpoint", "appendix"],
    "faq": ["general", "programming", "design", "library", "gui", "installed"],
    "howto": ["sorting", "regex", "functional", "logging", "unicode", "urllib2", "argparse",
              "enum", "descriptor", "ipaddress"],
}
# fmt: on
PAGES = [f"{part}/{name}.html" for part, names in PARTS.items() for name in names]
GLOSSARY = "glossary.html"

# A section whose own text (before its first subsection) is shorter than this is a
# container heading ("Using Python as a Calculator" followed at once by subsections):
# as a document it would match queries by its title alone and cite an empty page.
MIN_SECTION_CHARS = 80

SECTION_NUMBER = re.compile(r"^\s*\d+(\.\d+)*\.\s+")


@dataclass(frozen=True)
class SampleDocument:
    id: str
    url: str
    title: str
    text: str


def _code_language(pre: Tag) -> str:
    """Sphinx marks a block's lexer on the wrapper (``highlight-python3``), not on ``pre``."""
    for parent in pre.parents:
        for cls in parent.get("class") or []:
            if cls.startswith("highlight-"):
                lexer = cls.removeprefix("highlight-")
                if lexer in {"python3", "python", "pycon", "default"}:
                    return "python"
                return "" if lexer in {"text", "none"} else lexer
    return ""


class _DocsMarkdown(MarkdownConverter):
    """Sphinx HTML to Markdown: headings as ATX, code fenced, links reduced to their text."""

    def __init__(self) -> None:
        super().__init__(
            heading_style="ATX",
            bullets="-",
            code_language_callback=_code_language,
            strip=["a", "img"],
            escape_misc=False,
        )


def _heading_text(heading: Tag) -> str:
    for link in heading.select("a.headerlink"):
        link.decompose()
    return SECTION_NUMBER.sub("", heading.get_text(" ", strip=True)).strip()


def _markdown(nodes: list[Tag]) -> str:
    html = "".join(str(node) for node in nodes)
    text = _DocsMarkdown().convert(html)
    text = text.replace("¶", "")
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def _own_content(section: Tag) -> list[Tag]:
    """The section's children up to its first subsection, without its heading."""
    own: list[Tag] = []
    for child in section.children:
        if not isinstance(child, Tag):
            continue
        if child.name == "section":
            break
        if child.name in {"h1", "h2", "h3", "h4", "h5", "h6"}:
            continue
        own.append(child)
    return own


def page_documents(source: Path, page: str) -> Iterator[SampleDocument]:
    soup = BeautifulSoup((source / page).read_text(encoding="utf-8"), "html.parser")
    body = soup.select_one('div.body[role="main"]')
    if body is None:
        raise SystemExit(f"{page}: no main body found; is {source} a Sphinx HTML build?")
    # A page's own table of contents is a list of headings: as text it would match most
    # questions about the page and answer none of them.
    for navigation in body.select("nav.contents, div.toctree-wrapper"):
        navigation.decompose()
    top = body.find("section")
    if not isinstance(top, Tag) or top.find(["h1"]) is None:
        raise SystemExit(f"{page}: no top-level section found.")
    page_title = _heading_text(top.find("h1"))
    is_faq = page.startswith("faq/")
    for section in [top, *top.find_all("section")]:
        heading = section.find(["h1", "h2", "h3", "h4", "h5", "h6"], recursive=False)
        if heading is None:
            continue
        section_title = _heading_text(heading)
        text = _markdown(_own_content(section))
        if len(text) < MIN_SECTION_CHARS:
            continue
        if section is top:
            title = page_title
            anchor = ""
        else:
            # A FAQ heading is a whole question; elsewhere "Text" alone says nothing.
            title = section_title if is_faq else f"{page_title}: {section_title}"
            anchor = f"#{section['id']}"
        doc_id = f"{page}{anchor}"
        yield SampleDocument(id=doc_id, url=DOCS_URL + doc_id, title=title, text=text)


def glossary_documents(source: Path) -> Iterator[SampleDocument]:
    soup = BeautifulSoup((source / GLOSSARY).read_text(encoding="utf-8"), "html.parser")
    for term in soup.select("dl.glossary > dt[id]"):
        definition = term.find_next_sibling("dd")
        if not isinstance(definition, Tag):
            continue
        for link in term.select("a.headerlink"):
            link.decompose()
        name = term.get_text(" ", strip=True)
        title = f"Glossary: {name}"
        doc_id = f"{GLOSSARY}#{term['id']}"
        text = _markdown(list(definition.children))
        yield SampleDocument(id=doc_id, url=DOCS_URL + doc_id, title=title, text=text)


def _file_name(doc_id: str) -> str:
    """A portable file name: the id is the identity, the name only has to be unique."""
    page, _, anchor = doc_id.partition("#")
    stem = page.removesuffix(".html")
    # Lower-cased because macOS and Windows fold case: "term-BDFL" and a future
    # "term-bdfl" must not overwrite each other there; ``write`` checks for clashes.
    anchor = re.sub(r"[^a-z0-9_-]", "_", anchor.lower())
    return f"{stem}--{anchor}.md" if anchor else f"{stem}.md"


def licence_text(source: Path) -> str:
    """The documentation's own terms: its copyright notice and the licence section.

    Taken from the same build as the text, so the terms shipped are the terms that
    came with it (the PSF licence stack, and Zero-Clause BSD for the code examples).
    """
    notice = BeautifulSoup((source / "copyright.html").read_text(encoding="utf-8"), "html.parser")
    terms = BeautifulSoup((source / "license.html").read_text(encoding="utf-8"), "html.parser")
    notice_body = notice.select_one('div.body[role="main"] section')
    terms_section = terms.select_one(
        "section#terms-and-conditions-for-accessing-or-otherwise-using-python"
    )
    if notice_body is None or terms_section is None:
        raise SystemExit(f"{source}: copyright.html or license.html is not where expected.")
    return f"{_markdown([notice_body])}\n\n{_markdown([terms_section])}\n"


def write(documents: list[SampleDocument], out: Path) -> None:
    if out.exists():
        shutil.rmtree(out)
    names: dict[str, str] = {}
    for doc in documents:
        name = _file_name(doc.id)
        if name in names:
            raise SystemExit(f"{doc.id} and {names[name]} would both be written to {name}.")
        names[name] = doc.id
        path = out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        front = yaml.safe_dump(
            {"id": doc.id, "url": doc.url, "title": doc.title},
            sort_keys=False,
            allow_unicode=True,
            width=1000,
        )
        path.write_text(f"---\n{front}---\n\n{doc.text}\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    if not (args.source / "tutorial").is_dir():
        sys.exit(
            f"{args.source} holds no Python HTML docs: install Debian's python3.11-doc, "
            "or pass --source pointing at its html/ folder."
        )
    documents = [doc for page in PAGES for doc in page_documents(args.source, page)]
    documents.extend(glossary_documents(args.source))
    write(documents, args.out)
    (args.out.parent / "LICENSE").write_text(licence_text(args.source), encoding="utf-8")
    size = sum(p.stat().st_size for p in args.out.rglob("*.md"))
    print(f"{len(documents)} documents, {size / 1e6:.2f} MB, in {args.out}")


if __name__ == "__main__":
    main()
