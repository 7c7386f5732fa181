"""Where a source file lies, and what its documents are called and linked as by default."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from citeline.corpus.formats.api_docs import ParseBudget
    from citeline.corpus.formats.site import Site


@dataclass(frozen=True, slots=True)
class SourceFile:
    """A file to read: its path, the id its document gets when the source names none,
    its path under the ingest root (``guide/install.md``), the address the published site
    gives it when ingest was given a base URL, and, for a file that must not be read, why.
    ``site`` is the built site the file is a page of (its pages compared to learn what they
    share), ``include_root`` the folder no include directive may reach outside of, and
    ``theme`` whether it lies in the theme overrides its ``mkdocs.yml`` names (no page),
    ``static`` whether its MkDocs docs folder copies it to the site as it is rather than
    rendering it (an HTML file there is a page only when it is one a reader would read),
    ``parse_budget`` what the ingest's API directives may still spend parsing, shared by
    its files, and ``navigation`` whether the site's script shell loads it as the
    navigation around its pages (``script_pages.navigation_files``): no page.
    """

    path: Path
    default_id: str
    relative: str
    url: str | None = None
    refused: str | None = None
    site: Site | None = None
    include_root: Path | None = None
    theme: bool = False
    static: bool = False
    parse_budget: ParseBudget | None = None
    navigation: bool = False
