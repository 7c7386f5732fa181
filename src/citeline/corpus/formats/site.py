"""What the pages of one built site share, learned by comparing a sample of them.

A generator wraps every page of a site in the same chrome whatever its theme: a
``<title>`` that ends (or starts) with the site's name ("— Python 3.11.2 documentation",
"| Flask Documentation (2.2.x)"), and headings and lines of navigation, headers, footers
and sidebars that repeat on every page, and the labels of its pages' folding boxes
(rustdoc's "Expand description" on every ``<summary>`` that opens a page's text). Nothing
here knows a theme: the profile is what most sampled pages hold alike. ``Site`` is the
ingested folder's list of pages and learns its profile once, on the first page read (by
the reader's own ``learn``), so a single page read alone, or a folder of one page, simply
has none.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

# How many pages, spread evenly over the site's sorted list, are compared. Measured on
# python3.11-doc, celery's docs and the own-theme build of Flask's (benchmarks.md, issue
# #26): the shared title part was the same from 8 sampled pages up, and the own theme's
# chrome 8 or 9 lines at 8 to 48 pages; reading 24 cost 0.05 to 0.3 s of the 4.3 s
# python3.11-doc ingest (a shared machine at load 5 to 10).
SAMPLE_PAGES = 24
# A sampled page that teaches nothing (a redirect page, one that cannot be read) gives way
# to the next page of its share of the list, up to this many pages in all. Measured over the
# sorted pages of Debian's zsh-common (144 of 186 are redirect pages, in runs of up to 41),
# cargo's and rust-doc's API pages (211 of 671; 10,098 of 32,101): a share's first real page
# was at most its 7th (zsh), its 27th (cargo) and, in one share of rust-doc, its 383rd,
# which is passed over as the shares holding none are (five of zsh's, two of cargo's, six
# of rust-doc's); zsh is learned from 19 pages. At 32, a share costs at most 32 reads.
SAMPLE_TRIES = 32
# Below this many pages nothing is called shared: two pages of a small site may share a
# sentence of content.
MIN_PAGES = 4
# The share of sampled pages that must hold a line, a heading or a title part alike.
# Measured over 24 pages of each: a line of content reached at most 0.5 (PostgreSQL's
# "Description", pytest's release notes' "pytest-7.2.0"), the own theme's chrome 1.0; a
# manual's own repeated sections reach 0.83 (git's "NAME", "Part of the git(1) suite"),
# which is why lines are dropped only where no content marker said where the text is.
SHARED_SHARE = 0.6
# Separators between a page's own title and the site's name in ``<title>``; a colon needs
# no space before it: gtk-doc writes "Hash Tables: GLib Reference Manual" and Doxygen "SDL:
# SDL_main.h File Reference" on every page. Read without it, GLib's and libsoup's references
# had no site name (their front pages were titled "GLib Reference Manual: GLib Reference
# Manual"), and the site's name headed 4,146 of libsdl2-doc's 4,460 sections' titles.
TITLE_SEPARATORS = re.compile(r"\s+(?:[\u2014\u2013|\u00b7\u2022\u00bb\u00ab-]|::)\s+|\s*:\s+")
# A separator that opens a ``<title>``: the generator wrote "{site}: {page}" with no site name
# to put before it (Javadoc without a window title: ": Class Hierarchy", "- Overview"). The
# page is named by the rest alone; read whole, such a title kept its separator as the page's
# name, and every page of the site shared an empty name before it.
_LEADING_SEPARATOR = re.compile(r"\A\s*(?:[\u2014\u2013|\u00b7\u2022\u00bb\u00ab:-]|::)\s+")
# A site's name in parentheses after the page's own title: Javadoc writes every page's
# ``<title>`` so ("ArchUtils (Apache Commons Lang 3.12.0 API)").
_PARENTHESISED = re.compile(r"\s(\([^()]+\))\s*$")


@dataclass(frozen=True, slots=True)
class SiteProfile:
    """What every page of a site shares: the ``<title>`` part that names the site, before or
    after a separator, the lines and headings of its chrome, the top heading of its
    pages' content (``roots``: a banner, not a page's title), and the words of the
    ``<summary>`` labels most pages repeat (``labels``: a control, not a page's text)."""

    title_prefix: str = ""
    title_suffix: str = ""
    lines: frozenset[str] = frozenset()
    headings: frozenset[str] = frozenset()
    roots: frozenset[str] = frozenset()
    labels: frozenset[str] = frozenset()

    @property
    def name(self) -> str | None:
        """The site's own name, as its titles share it ("Python 3.11.2 documentation")."""
        suffix = self.title_suffix
        if suffix.startswith("(") and suffix.endswith(")"):
            suffix = suffix[1:-1]
        return suffix or self.title_prefix or None

    def page_title(self, title: str) -> str:
        """``title`` without the part every page shares, unless that is all of it, and
        without a separator it opens with (``without_leading_separator``)."""
        title = without_leading_separator(title)
        if self.title_suffix and title.endswith(self.title_suffix):
            rest = title[: -len(self.title_suffix)]
            cut = _trailing_separator(rest)
            if self.title_suffix.startswith("(") and rest[-1:].isspace() and rest.strip():
                title = rest.strip()
            elif cut is not None and rest[:cut].strip():
                title = rest[:cut].strip()
        if self.title_prefix and title.startswith(self.title_prefix):
            rest = title[len(self.title_prefix) :]
            separator = TITLE_SEPARATORS.match(rest)
            if separator is not None and rest[separator.end() :].strip():
                title = rest[separator.end() :].strip()
        return title


NO_PROFILE = SiteProfile()


def without_leading_separator(title: str) -> str:
    """``title`` without a separator it opens with (``_LEADING_SEPARATOR``), unless that
    is all of it."""
    opening = _LEADING_SEPARATOR.match(title)
    if opening is None or not title[opening.end() :].strip():
        return title
    return title[opening.end() :]


def _trailing_separator(text: str) -> int | None:
    found = None
    for match in TITLE_SEPARATORS.finditer(text):
        if match.end() == len(text):
            found = match.start()
    return found


@dataclass(frozen=True, slots=True)
class PageSample:
    """What the reader found on one sampled page: its ``<title>``, its section headings and
    the lines of its text (code excluded), the page it read (``page``), and the words of
    its ``<summary>`` labels (``labels``)."""

    title: str
    headings: frozenset[str]
    lines: frozenset[str]
    page: Path | None = None
    labels: frozenset[str] = frozenset()


@dataclass(slots=True)
class Site:
    """The pages of one ingested site, and their shared profile once it is learned."""

    pages: Sequence[Path]
    _profile: SiteProfile | None = field(default=None, repr=False)

    def profile(
        self,
        sample: Callable[[Path], PageSample | None],
        root: Callable[[Path, SiteProfile], str] | None = None,
    ) -> SiteProfile:
        """The site's profile, learned on first use from ``sample`` of spread pages, and
        their top headings, ``root`` of each read under the profile learned (``roots``)."""
        if self._profile is None:
            found = [] if len(self.pages) < MIN_PAGES else list(samples(self.pages, sample))
            profile = learn(found)
            if root is not None and profile != NO_PROFILE:
                tops = [root(page, profile) for page in (s.page for s in found) if page]
                profile = replace(profile, roots=_shared_roots(tops, len(found)))
            self._profile = profile
        return self._profile


def samples(
    pages: Sequence[Path],
    sample: Callable[[Path], PageSample | None],
    count: int = SAMPLE_PAGES,
) -> Iterator[PageSample]:
    """One sample from each of ``count`` even shares of ``pages``: of its first page, else
    of the next that gives one (``SAMPLE_TRIES``), so a site whose pages are mostly redirect
    pages is still learned from its real ones, and no page is sampled twice."""
    shares = min(count, len(pages))
    for index in range(shares):
        share = pages[index * len(pages) // shares : (index + 1) * len(pages) // shares]
        for page in share[:SAMPLE_TRIES]:
            found = sample(page)
            if found is not None:
                yield found
                break


def learn(samples: Iterable[PageSample | None]) -> SiteProfile:
    """The profile most of ``samples`` share; empty for too few pages to compare."""
    read = [sample for sample in samples if sample is not None]
    if len(read) < MIN_PAGES:
        return NO_PROFILE
    needed = max(MIN_PAGES - 1, int(SHARED_SHARE * len(read) + 0.999))
    titles = [without_leading_separator(sample.title) for sample in read]
    prefix, suffix = _title_parts(titles, needed)
    return SiteProfile(
        title_prefix=prefix,
        title_suffix=suffix,
        lines=_shared((sample.lines for sample in read), needed),
        headings=_shared((sample.headings for sample in read), needed),
        labels=_shared((sample.labels for sample in read), needed),
    )


def _shared_roots(roots: Sequence[str], read: int) -> frozenset[str]:
    """The top headings as many of ``read`` sampled pages' content share as ``learn``
    asks of a heading: the site's banner, which no page is titled by."""
    needed = max(MIN_PAGES - 1, int(SHARED_SHARE * read + 0.999))
    return _shared((frozenset({root} - {""}) for root in roots), needed)


def _shared(sets: Iterable[frozenset[str]], needed: int) -> frozenset[str]:
    counts: Counter[str] = Counter()
    for found in sets:
        counts.update(found)
    return frozenset(item for item, count in counts.items() if count >= needed)


def _title_parts(titles: list[str], needed: int) -> tuple[str, str]:
    """The ``<title>`` parts, before the first separator or after the last, that at least
    ``needed`` titles share."""
    prefixes: Counter[str] = Counter()
    suffixes: Counter[str] = Counter()
    for title in titles:
        cuts = list(TITLE_SEPARATORS.finditer(title))
        # Every cut, not only the last: "Page — Part — Site" and "Page — Site" share
        # "Site" only after their last separator, a versioned name may hold one itself.
        parenthesised = _PARENTHESISED.search(title)
        suffixes.update(
            {title[cut.end() :] for cut in cuts}
            | ({parenthesised.group(1)} if parenthesised else set())
        )
        prefixes.update({title[: cut.start()] for cut in cuts})
    return _most_shared(prefixes, needed), _most_shared(suffixes, needed)


def _most_shared(counts: Counter[str], needed: int) -> str:
    shared = [(count, len(part), part) for part, count in counts.items() if count >= needed]
    # The longest of the most shared: "Python 3.11.2 documentation" over "documentation".
    return max(shared)[2] if shared else ""
