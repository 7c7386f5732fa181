"""The Ask box's snippet and the two integrations that put it on every page of a built site.

Real builds, no browser: the Sphinx and MkDocs projects of ``tests/web/fixtures/ask-sites``
built as their owners build them, then every page read back. What a reader does with the
box on those pages is ``tests/web/test_ask_box.py``'s.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from citeline.embed import COMPONENT_PATH, EmbedError, add_to_page, mount_script, snippet

SITES = Path(__file__).parents[1] / "web" / "fixtures" / "ask-sites"
SERVER = "https://answers.example.org"


def test_the_snippet_is_the_element_and_its_module_from_the_server() -> None:
    assert snippet(SERVER, "/citeline-token") == (
        '<citeline-ask server="https://answers.example.org/" floating'
        ' token-url="/citeline-token"></citeline-ask>\n'
        '<script type="module" src="https://answers.example.org/embed/citeline-ask.js"></script>\n'
    )
    inline = snippet(f"{SERVER}/citeline/", floating=False)
    assert 'server="https://answers.example.org/citeline/">' in inline
    assert 'src="https://answers.example.org/citeline/embed/citeline-ask.js"' in inline


def test_a_token_url_cannot_break_out_of_its_attribute_or_script() -> None:
    hostile = '/t?a=1&b="><script>alert(1)</script>'
    html = snippet(SERVER, hostile)
    assert "<script>alert" not in html and "&quot;&gt;&lt;script&gt;" in html
    script = mount_script(SERVER, hostile)
    assert "<" not in script
    assert f'import "{SERVER}/{COMPONENT_PATH}";' in script


@pytest.mark.parametrize("url", ["", "answers.example.org", "ftp://answers.example.org", "/v1"])
def test_a_server_address_that_is_not_one_names_its_setting(url: str) -> None:
    with pytest.raises(EmbedError, match=r"^citeline_url .* give one like https://"):
        snippet(url, setting="citeline_url")


def test_the_box_goes_before_the_last_closing_body_tag() -> None:
    page = "<html><body><p>a</body> text </BODY ></html>"
    assert add_to_page(page, "<x>") == "<html><body><p>a</body> text <x></BODY ></html>"
    assert add_to_page("<p>fragment", "<x>") == "<p>fragment<x>"


def test_the_sphinx_extension_puts_the_box_on_every_html_page(tmp_path: Path) -> None:
    from sphinx.application import Sphinx

    app = Sphinx(
        str(SITES / "sphinx"), str(SITES / "sphinx"), str(tmp_path / "html"),
        str(tmp_path / "doctrees"), "html", status=None, warning=io.StringIO(),
        confoverrides={"citeline_url": SERVER, "citeline_token_url": "/citeline-token"},
    )  # fmt: skip
    app.build()
    pages = sorted(path.name for path in (tmp_path / "html").glob("*.html"))
    assert {"index.html", "install.html", "predictions.html", "search.html"} <= set(pages)
    for name in pages:
        html = (tmp_path / "html" / name).read_text()
        assert html.count(f'import "{SERVER}/{COMPONENT_PATH}";') == 1, name
        assert '"token-url": "/citeline-token"' in html, name


def test_a_sphinx_site_without_citeline_url_stops_saying_what_to_set(tmp_path: Path) -> None:
    from sphinx.application import Sphinx
    from sphinx.errors import ConfigError

    with pytest.raises(ConfigError, match=r"citeline_url is not set: .* in conf\.py"):
        Sphinx(
            str(SITES / "sphinx"), str(SITES / "sphinx"), str(tmp_path / "html"),
            str(tmp_path / "doctrees"), "html", status=None, warning=io.StringIO(),
        )  # fmt: skip


def test_a_sphinx_citeline_url_that_is_no_server_address_stops_the_build(tmp_path: Path) -> None:
    from sphinx.application import Sphinx
    from sphinx.errors import ConfigError

    with pytest.raises(ConfigError, match=r"^citeline_url 'answers\.example\.org' is not the"):
        Sphinx(
            str(SITES / "sphinx"), str(SITES / "sphinx"), str(tmp_path / "html"),
            str(tmp_path / "doctrees"), "html", status=None, warning=io.StringIO(),
            confoverrides={"citeline_url": "answers.example.org"},
        )  # fmt: skip


def test_the_mkdocs_plugin_puts_the_box_on_every_page_and_the_404(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.plugins import get_plugins

    assert get_plugins()["citeline"].value == "citeline.mkdocs:CitelinePlugin"
    monkeypatch.setenv("CITELINE_URL", SERVER)
    build(load_config(str(SITES / "mkdocs" / "mkdocs.yml"), site_dir=str(tmp_path)))
    pages = sorted(tmp_path.rglob("*.html"))
    assert {path.relative_to(tmp_path).as_posix() for path in pages} >= {
        "index.html", "404.html", "signals/lights/index.html", "signals/flags/index.html"
    }  # fmt: skip
    for path in pages:
        html = path.read_text()
        assert re.search(
            r"<citeline-ask [^>]*floating></citeline-ask>\s*<script [^>]*></script>\s*</body>", html
        ), path
    assert "citeline" not in (tmp_path / "sitemap.xml").read_text()


def test_an_mkdocs_site_with_a_bad_url_stops_saying_what_to_give(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import Abort

    monkeypatch.setenv("CITELINE_URL", "answers.example.org")
    with pytest.raises(Abort):
        build(load_config(str(SITES / "mkdocs" / "mkdocs.yml"), site_dir=str(tmp_path)))
    assert (
        "The citeline plugin's url 'answers.example.org' is not the address of `citeline "
        "serve`; give one like https://answers.example.org" in caplog.text
    )
    assert not list(tmp_path.rglob("*.html"))


def test_citeline_itself_never_imports_sphinx_or_mkdocs() -> None:
    source = Path(__file__).parents[2] / "src" / "citeline"
    importers = {
        path.relative_to(source).as_posix()
        for path in source.rglob("*.py")
        if re.search(r"^\s*(from|import) (sphinx|mkdocs)\b", path.read_text(), re.MULTILINE)
    }
    assert importers == {"sphinx.py", "mkdocs.py"}
