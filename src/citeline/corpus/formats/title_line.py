"""Where the text of a page without headings starts: at the line that shows its title.

A page with no heading element and no element marking its content is read whole, and what
stands above its title then opens its text: Doxygen writes a page's title in a ``<div>``,
under the project's name and number and a trail of links to the page's parents, on every
page ("libsigc++ 3.4.0", "sigc", "bound_argument"). Its member lists, hierarchies and
directory pages have no heading at all, and 60 of the 238 pages of libsigc++'s reference
(libsigc++-3.0-doc) opened with that banner; 46 of them were titled "Member List" by their
``<title>`` alone, while each shows "sigc::bound_argument< T_type > Member List".

This module finds the line that shows the ``<title>``'s words (the same, or ending with
them) among the first short lines of such a page, and reads the page from there, titled by
it. It deliberately leaves a page where that line comes after prose (``MAX_WORDS_ABOVE``)
or after more lines than a banner holds (``MAX_LINES_ABOVE``): what stands above it there
may be the page's own text.
"""

from __future__ import annotations

from citeline.corpus.formats.sections import Section

# The most lines above the title line, and the most words in each: a banner and a trail
# of links. Doxygen's are 1 to 4 lines ("libsigc++ 3.4.0", then one line per parent: a
# namespace, a folder), of 1 to 2 words.
MAX_LINES_ABOVE = 8
MAX_WORDS_ABOVE = 6
# The most words a line may hold to be the title shown: Doxygen's longest in libsigc++'s
# reference is 13 ("sigc::bound_mem_functor< T_func, T_arg... > Member List").
MAX_TITLE_WORDS = 24


def opened_at_title(section: Section, title: str) -> Section:
    """``section``, the whole text of a page without headings, titled by ``title``: from
    the line that shows that title on, and titled by that line, when one stands among its
    first lines below a banner's (see the module); else titled by ``title`` as it is."""
    offset, above = 0, 0
    for line in section.text.splitlines(keepends=True):
        shown = line.strip()
        if _shows(shown, title):
            return Section((shown,), section.anchor, section.text[offset:].strip())
        if shown:
            above += 1
            if above > MAX_LINES_ABOVE or len(shown.split()) > MAX_WORDS_ABOVE:
                break
        offset += len(line)
    return Section((title,), section.anchor, section.text)


def _shows(line: str, title: str) -> bool:
    """Whether ``line`` shows ``title``: it is the title, or ends with it after a space."""
    if len(line.split()) > MAX_TITLE_WORDS:
        return False
    return line == title or line.endswith(f" {title}")
