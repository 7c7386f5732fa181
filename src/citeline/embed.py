"""The Ask box on a site's pages: the HTML that adds ``<citeline-ask>`` to a page.

``citeline serve`` serves the component (``server/static/embed/``) at ``COMPONENT_PATH``;
a site adds it with the snippet this module writes. The Sphinx extension
(``citeline.sphinx``), the MkDocs plugin (``citeline.mkdocs``) and docs/page.md's
copy-paste snippet all come from here, so every site gets the same element the same way.
It imports neither Sphinx nor MkDocs: they are the owner's build tools, not citeline's.

Deliberately not here: tokens. A guarded server's box asks the owner's ``token_url`` for a
caller token before each question; the site mints it with its private key, which never
reaches a page (docs/server.md, "How a site mints caller tokens").
"""

from __future__ import annotations

import html
import json
import re
from urllib.parse import urlsplit

from citeline.errors import CitelineError

# Where ``citeline serve`` serves the component; stable, since owners' sites link to it.
COMPONENT_PATH = "embed/citeline-ask.js"


class EmbedError(CitelineError, ValueError):
    """An integration setting cannot be used; the message names it and what to give."""


def server_address(url: str, setting: str) -> str:
    """``url`` as the server's address ending in ``/``, or EmbedError naming ``setting``."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise EmbedError(
            f"{setting} {url!r} is not the address of `citeline serve`; "
            "give one like https://answers.example.org"
        )
    return parts._replace(path=parts.path.rstrip("/") + "/").geturl()


def _attributes(
    server_url: str, token_url: str | None, setting: str, *, floating: bool = True
) -> dict[str, str]:
    server = server_address(server_url, setting)
    attributes = {"server": server}
    if floating:
        attributes["floating"] = ""
    if token_url:
        attributes["token-url"] = token_url.strip()
    return attributes


def snippet(
    server_url: str, token_url: str | None = None, *, floating: bool = True, setting: str = "url"
) -> str:
    """The element and its module script: floating, for the end of a page's ``<body>``;
    else a box in the page's flow, for where the page puts it (beside its own search)."""
    attributes = _attributes(server_url, token_url, setting, floating=floating)
    script = attributes["server"] + COMPONENT_PATH
    written = "".join(
        f" {name}" if value == "" else f' {name}="{html.escape(value)}"'
        for name, value in attributes.items()
    )
    return (
        f"<citeline-ask{written}></citeline-ask>\n"
        f'<script type="module" src="{html.escape(script)}"></script>\n'
    )


def mount_script(server_url: str, token_url: str | None = None, *, setting: str = "url") -> str:
    """A module script that adds the element to ``<body>`` itself, for a page ``<head>``.

    For builders that place scripts but not markup (Sphinx's themes); the values travel as
    JSON with every ``<`` escaped, so nothing in them can close the script.
    """
    attributes = _attributes(server_url, token_url, setting)
    source = (
        f"import {json.dumps(attributes['server'] + COMPONENT_PATH)};\n"
        'const box = document.createElement("citeline-ask");\n'
        f"for (const [name, value] of Object.entries({json.dumps(attributes)})) "
        "box.setAttribute(name, value);\n"
        "document.body.append(box);\n"
    )
    return source.replace("<", "\\u003c")


_BODY_END = re.compile(r"</body\s*>", re.IGNORECASE)


def add_to_page(page: str, html_snippet: str) -> str:
    """``page`` with ``html_snippet`` just before its last ``</body>`` (or at its end)."""
    ends = list(_BODY_END.finditer(page))
    if not ends:
        return page + html_snippet
    at = ends[-1].start()
    return page[:at] + html_snippet + page[at:]
