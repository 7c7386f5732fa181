"""Anchors become citations only for sources a tool returned, each source once."""

from __future__ import annotations

from citeline.agent import Source
from citeline.agent.citations import CitationResolver
from citeline.events import Citation
from citeline.stream import Anchor

REACTOME = Source(
    href="https://reactome.org/content/detail/R-HSA-109581",
    display_name="Apoptosis",
    id="R-HSA-109581",
    url="https://reactome.org/content/detail/R-HSA-109581",
)
SCIFACT = Source(href="cite:4983", display_name="Microstructural development", id="4983")
PAGE = Source(
    href="https://docs.example.org/install/",
    display_name="Install",
    url="https://docs.example.org/install/",
)


def _resolver() -> CitationResolver:
    return CitationResolver({s.href: s for s in (REACTOME, SCIFACT, PAGE)})


def test_the_source_href_cites_with_its_id_its_address_and_the_display_text_offsets() -> None:
    resolver = _resolver()
    citation = resolver.resolve(Anchor(REACTOME.href, "the pathway", 4, 15))
    assert citation == Citation(
        n=1, display_name="Apoptosis", id="R-HSA-109581", start=4, end=15, href=REACTOME.url
    )


def test_a_source_without_a_web_address_is_cited_without_an_href() -> None:
    relative = Source(
        href="/docs/install/", display_name="Install", id="install", url="/docs/install/"
    )
    resolver = CitationResolver({s.href: s for s in (SCIFACT, relative)})
    by_id = resolver.resolve(Anchor("cite:4983", "x", 0, 1))
    by_path = resolver.resolve(Anchor("/docs/install/", "y", 2, 3))
    assert by_id is not None and by_id.href is None and by_id.id == "4983"
    assert by_path is not None and by_path.href is None and by_path.id == "install"


def test_a_source_known_only_by_its_url_links_to_it() -> None:
    citation = _resolver().resolve(Anchor(PAGE.href, "Install", 0, 7))
    assert citation is not None
    assert (citation.id, citation.url, citation.href) == (None, PAGE.url, PAGE.url)


def test_a_cite_href_finds_a_source_that_has_a_url() -> None:
    citation = _resolver().resolve(Anchor("cite:R-HSA-109581", "x", 0, 1))
    assert citation is not None and citation.id == "R-HSA-109581"


def test_an_id_as_a_url_component_on_the_sources_own_host_finds_its_source() -> None:
    for href in (
        "https://reactome.org/pathway/R-HSA-109581",
        "https://reactome.org/pathway/R-HSA-109581.html",
        "https://REACTOME.org/view?id=R-HSA-109581",
        "http://reactome.org/PathwayBrowser/#R-HSA-109581",
    ):
        citation = _resolver().resolve(Anchor(href, "x", 0, 1))
        assert citation is not None and citation.id == "R-HSA-109581", href


def test_an_id_as_a_url_component_on_another_host_names_no_source() -> None:
    resolver = _resolver()
    for href in (
        "https://elsewhere.example/pathway/R-HSA-109581",
        "https://evil.example/R-HSA-109581.html",
        "https://elsewhere.example/view?id=R-HSA-109581",
        "https://elsewhere.example/view#R-HSA-109581",
        "https://evil.example/4983",
    ):
        assert resolver.resolve(Anchor(href, "x", 0, 1)) is None, href
    assert resolver.dropped == 5


def test_an_id_as_written_names_its_source() -> None:
    citation = _resolver().resolve(Anchor("4983", "x", 0, 1))
    assert citation is not None and citation.id == "4983"


def test_a_numeric_id_inside_an_unrelated_url_path_does_not_match() -> None:
    resolver = _resolver()
    assert resolver.resolve(Anchor("https://news.example/4983/story", "x", 0, 1)) is None
    assert resolver.dropped == 1


def test_a_source_without_an_id_is_cited_by_its_url_even_without_the_trailing_slash() -> None:
    citation = _resolver().resolve(Anchor("https://docs.example.org/install", "Install", 0, 7))
    assert citation is not None
    assert (citation.id, citation.url) == (None, "https://docs.example.org/install/")


def test_a_source_is_cited_once_and_numbered_by_first_appearance() -> None:
    resolver = _resolver()
    first = resolver.resolve(Anchor("cite:4983", "a", 0, 1))
    again = resolver.resolve(Anchor("cite:4983", "b", 5, 6))
    second = resolver.resolve(Anchor(PAGE.href, "c", 9, 10))
    assert first is not None and first.n == 1
    assert again is None
    assert second is not None and second.n == 2
    assert resolver.dropped == 0 and resolver.cited == 2


def test_an_anchor_only_in_the_dropped_sources_list_cites_with_null_offsets() -> None:
    citation = _resolver().resolve(Anchor("cite:4983", "Microstructural development", None, None))
    assert citation is not None and (citation.start, citation.end) == (None, None)


def test_unknown_and_empty_hrefs_are_dropped_and_counted() -> None:
    resolver = _resolver()
    assert resolver.resolve(Anchor("https://invented.example/paper", "x", 0, 1)) is None
    assert resolver.resolve(Anchor("   ", "y", 2, 3)) is None
    assert resolver.dropped == 2


def test_a_source_the_server_found_links_to_its_section_as_an_anchor_to_it_does() -> None:
    found = _resolver().resolve_found("R-HSA-109581", 0, 42)
    anchored = _resolver().resolve(Anchor(REACTOME.href, "the pathway", 0, 42))
    assert found == Citation(
        n=1,
        display_name="Apoptosis",
        id="R-HSA-109581",
        start=0,
        end=42,
        href=REACTOME.url,
        found_by="server",
    )
    assert anchored is not None and found is not None and found.href == anchored.href


def test_a_found_source_already_cited_or_past_the_cap_is_not_cited_nor_counted_dropped() -> None:
    resolver = CitationResolver({s.href: s for s in (REACTOME, SCIFACT)}, max_citations=1)
    assert resolver.resolve(Anchor("cite:4983", "x", 0, 1)) is not None
    assert resolver.resolve_found("4983", 2, 9) is None
    assert resolver.resolve_found("R-HSA-109581", 2, 9) is None
    assert resolver.resolve_found("unknown", 2, 9) is None
    assert resolver.dropped == 0
