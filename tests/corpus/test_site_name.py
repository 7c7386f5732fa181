"""The collection's own name, read at ingest: what the empty page greets its owner with.

The title part a site's pages share is learned once, by the ingest (``formats/site.py``);
``_named_by_ingest`` hands what one ingest learned to ``site_name`` as ``Corpus`` does.
"""

from __future__ import annotations

from pathlib import Path

from tests.support.named_pipes import watched_pipe

from citeline.corpus import Corpus
from citeline.corpus.formats.site import MIN_PAGES, SiteProfile
from citeline.corpus.site_name import HEAD_BYTES, folder_name, site_name

SITES = Path(__file__).parent / "fixtures" / "sites"


def page(folder: Path, name: str, title: str, body: str = "<h1>Page</h1><p>Text.</p>") -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        f"<!doctype html><html><head><title>{title}</title></head><body>{body}</body></html>",
        "utf-8",
    )
    return path


def _named_by_ingest(folder: Path, index: Path) -> str | None:
    with Corpus.open(index) as corpus:
        report = corpus.ingest(folder, base_url="https://docs.example.org/")
    return site_name(folder, report.site_name)


def test_a_built_sphinx_site_is_named_by_the_title_part_its_pages_share(tmp_path: Path) -> None:
    site = tmp_path / "html"
    page(site, "index.html", "Acme 2.1 documentation")
    page(site, "howto/widgets.html", "Widgets HOWTO &#8212; Acme 2.1 documentation")
    page(site, "faq.html", "Acme FAQ &#8212; Acme 2.1 documentation")
    page(site, "gears.html", "Gears &#8212; Acme 2.1 documentation")
    assert _named_by_ingest(site, tmp_path / "index.sqlite") == "Acme 2.1 documentation"


def test_one_page_alone_shares_its_title_with_no_other_so_its_folder_names_it(
    tmp_path: Path,
) -> None:
    # A real Sphinx page ("Sorting HOW TO — Python 3.11.2 documentation"), alone.
    assert _named_by_ingest(SITES / "python-docs", tmp_path / "index.sqlite") is None
    assert folder_name(SITES / "python-docs") == "python-docs"


def test_mkdocs_and_docusaurus_separators_are_read(tmp_path: Path) -> None:
    for separator in (" - ", " | "):
        site = tmp_path / separator.strip().replace("|", "bar")
        for number in range(MIN_PAGES):
            page(site, f"{number}.html", f"Page {number}{separator}Tidewater")
        assert _named_by_ingest(site, tmp_path / f"{site.name}.sqlite") == "Tidewater"


def test_a_javadoc_site_is_named_by_the_parenthesised_part_its_titles_share(
    tmp_path: Path,
) -> None:
    site = tmp_path / "api"
    for name in ("ArchUtils", "StringUtils", "Range", "Validate (deprecated)"):
        body = f"<p>What {name} holds and does.</p>"
        page(site, f"{name.split()[0]}.html", f"{name} (Acme Lang 3.12.0 API)", body)
    assert _named_by_ingest(site, tmp_path / "api.sqlite") == "Acme Lang 3.12.0 API"
    with Corpus.open(tmp_path / "api.sqlite") as corpus:
        titles = sorted(document.title for document in corpus.documents())
    # Each page keeps its own title, a parenthesis of its own included.
    assert titles == ["ArchUtils", "Range", "StringUtils", "Validate (deprecated)"]


def test_a_title_that_opens_with_its_separator_names_its_page_by_the_rest(
    tmp_path: Path,
) -> None:
    # Javadoc without a window title writes "{window title}: Class Hierarchy" with nothing
    # before the separator.
    site = tmp_path / "api"
    titles = (": Class Hierarchy", "- Overview", ": All Classes", ": Deprecated List")
    for number, title in enumerate(titles):
        page(site, f"{number}.html", title, f"<p>What page {title[2:]} lists.</p>")
    assert _named_by_ingest(site, tmp_path / "api.sqlite") is None
    with Corpus.open(tmp_path / "api.sqlite") as corpus:
        found = sorted(document.title for document in corpus.documents())
    assert found == ["All Classes", "Class Hierarchy", "Deprecated List", "Overview"]
    # The front page names the site by the rest too.
    page(site, "index.html", ": Acme Lang API")
    assert site_name(site, None) == "Acme Lang API"


def test_a_title_that_opens_with_a_sign_that_is_no_separator_keeps_it() -> None:
    profile = SiteProfile(title_suffix="Acme Reference Manual")
    # An option's page, a separator alone, a separator between two words.
    assert profile.page_title("-v option: Acme Reference Manual") == "-v option"
    assert profile.page_title("—") == "—"
    assert profile.page_title("Main Event Loop: Timeouts") == "Main Event Loop: Timeouts"


def test_a_colon_after_a_word_separates_the_site_name_gtk_doc_and_doxygen_write(
    tmp_path: Path,
) -> None:
    # gtk-doc: "Hash Tables: GLib Reference Manual"; Doxygen: "SDL: SDL_main.h File Reference".
    gtkdoc = tmp_path / "glib"
    for name in ("Hash Tables", "Arrays", "Strings", "Main Event Loop: Timeouts"):
        body = f"<p>What {name} holds and does.</p>"
        page(gtkdoc, f"{name.split()[0]}.html", f"{name}: Acme Reference Manual", body)
    assert _named_by_ingest(gtkdoc, tmp_path / "glib.sqlite") == "Acme Reference Manual"
    with Corpus.open(tmp_path / "glib.sqlite") as corpus:
        titles = sorted(document.title for document in corpus.documents())
    # The page's own colon stays: only the shared part is the site's.
    assert titles == ["Arrays", "Hash Tables", "Main Event Loop: Timeouts", "Strings"]
    doxygen = tmp_path / "sdl"
    for name in ("SDL_main.h File Reference", "SDL_Rect Struct Reference", "Globals", "Todo"):
        page(doxygen, f"{name.split()[0]}.html", f"Acme: {name}", f"<p>{name} text.</p>")
    assert _named_by_ingest(doxygen, tmp_path / "sdl.sqlite") == "Acme"
    with Corpus.open(tmp_path / "sdl.sqlite") as corpus:
        assert "SDL_Rect Struct Reference" in {document.title for document in corpus.documents()}


def test_a_zensical_projects_name_names_its_docs_folder(tmp_path: Path) -> None:
    # Zensical keeps mkdocs.yml's settings in zensical.toml, under [project].
    (tmp_path / "zensical.toml").write_text(
        '[project]\nsite_name = "Griffon"\n\n[project.markdown_extensions.admonition]\n',
        "utf-8",
    )
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\nWelcome.\n", "utf-8")
    assert _named_by_ingest(docs, tmp_path / "docs.sqlite") == "Griffon"


def test_an_mkdocs_site_name_wins_even_beside_tags_only_mkdocs_loads(tmp_path: Path) -> None:
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: 'Tidewater: the guide'\n"
        "theme:\n  name: material\n"
        "markdown_extensions:\n"
        "  - pymdownx.emoji:\n      emoji_index: !!python/name:material.extensions.emoji.twemoji\n"
        "extra:\n  analytics: !ENV [ANALYTICS, none]\n",
        "utf-8",
    )
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\nWelcome.\n", "utf-8")
    built = tmp_path / "site"
    for number in range(MIN_PAGES):
        page(built, f"{number}.html", f"Page {number} - Other")
    assert _named_by_ingest(docs, tmp_path / "docs.sqlite") == "Tidewater: the guide"
    assert _named_by_ingest(built, tmp_path / "site.sqlite") == "Tidewater: the guide"


def test_a_site_whose_pages_share_nothing_is_named_by_its_front_page(tmp_path: Path) -> None:
    site = tmp_path / "html"
    page(site, "index.html", "PostgreSQL 15.20 Documentation")
    page(site, "sql-delete.html", "DELETE")
    page(site, "tutorial-select.html", "Querying a Table")
    page(site, "sql-insert.html", "INSERT")
    assert _named_by_ingest(site, tmp_path / "index.sqlite") == "PostgreSQL 15.20 Documentation"


def test_a_folder_without_a_site_is_named_by_itself_or_above_its_output_folder(
    tmp_path: Path,
) -> None:
    notes = tmp_path / "team-notes"
    notes.mkdir()
    (notes / "a.md").write_text("# A\n\ntext\n", "utf-8")
    assert _named_by_ingest(notes, tmp_path / "index.sqlite") is None
    assert folder_name(notes) == "team-notes"
    assert folder_name(notes / "a.md") == "team-notes"
    built = tmp_path / "acme-docs" / "html"
    built.mkdir(parents=True)
    assert folder_name(built) == "acme-docs"


def test_a_front_page_title_past_the_head_bytes_or_a_link_out_of_the_folder_is_not_read(
    tmp_path: Path,
) -> None:
    outside = tmp_path / "outside"
    page(outside, "index.html", "Secret Intranet")
    linked = tmp_path / "site-root"
    linked.mkdir()
    (linked / "index.html").symlink_to(outside / "index.html")
    late = tmp_path / "late"
    late.mkdir()
    (late / "index.html").write_text(
        "<!doctype html><html><head>" + " " * HEAD_BYTES + "<title>Too late</title>", "utf-8"
    )
    assert site_name(linked, None) is None
    assert site_name(late, None) is None


def test_an_endless_title_is_cut_to_a_name(tmp_path: Path) -> None:
    site = tmp_path / "s"
    for number in range(MIN_PAGES):
        page(site, f"{number}.html", f"{number} - " + "Very " * 100)
    name = _named_by_ingest(site, tmp_path / "index.sqlite")
    assert name is not None and len(name) <= 120 and name.endswith("…")


def test_ingest_keeps_the_name_and_a_loose_file_does_not_rename_the_site(tmp_path: Path) -> None:
    site = tmp_path / "html"
    for topic in ("Widgets", "Gears", "Teeth", "Levers"):
        title = f"{topic} &#8212; Acme 2.1 documentation"
        page(site, f"{topic}.html", title, f"<h1>{topic}</h1><p>About {topic.lower()}.</p>")
    extra = tmp_path / "notes" / "extra.md"
    extra.parent.mkdir()
    extra.write_text("# Extra\n\nMore text.\n", "utf-8")
    with Corpus.open(tmp_path / "index.sqlite") as corpus:
        assert corpus.site_name is None
        corpus.ingest(extra)
        assert corpus.site_name == "notes"  # a folder's name stands in until a site's is read
        corpus.ingest(site, base_url="https://acme.example/docs/")
        assert corpus.site_name == "Acme 2.1 documentation"
        corpus.ingest(extra)
        assert corpus.site_name == "Acme 2.1 documentation"
    with Corpus.open(tmp_path / "index.sqlite") as reopened:
        assert reopened.site_name == "Acme 2.1 documentation"


def test_a_control_character_in_the_mkdocs_site_name_leaves_the_name_to_the_next_rule(
    tmp_path: Path,
) -> None:
    # Issue 29: PyYAML's ReaderError escaped the front matter guard and ended the ingest in
    # a traceback after its documents were stored.
    (tmp_path / "mkdocs.yml").write_text("site_name: Tide\x01water\n", "utf-8")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\nWelcome.\n", "utf-8")
    with Corpus.open(tmp_path / "index.sqlite") as corpus:
        report = corpus.ingest(docs)
        assert report.added == 1
        assert corpus.site_name == folder_name(docs)  # the next rule that names it


def test_a_named_pipe_among_the_pages_is_passed_over_not_waited_on(tmp_path: Path) -> None:
    # Issue 29, item 14: the ingest read its files without blocking, then waited forever on
    # a named pipe's <title> when it named the site.
    site = tmp_path / "html"
    page(site, "a.html", "Widgets - Acme", "<h1>Widgets</h1><p>Gears.</p>")
    page(site, "b.html", "Gears - Acme", "<h1>Gears</h1><p>Teeth.</p>")
    with Corpus.open(tmp_path / "index.sqlite") as corpus, watched_pipe(site / "c.html") as pipe:
        report = corpus.ingest(site)
    assert not pipe.waited, "the ingest waited on the named pipe"
    assert report.added == 2
