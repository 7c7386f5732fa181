"""Words a page writes for one kind of reader only: hidden from screen readers, or shown
to nothing but them.

Today's JavaScript generators write both beside the words every reader gets:

- a title hidden from assistive technology (``aria-hidden``) because the element around
  it says the same words as its ``aria-label``: a sighted reader sees that title, so it is
  the element's text. Astro Starlight 0.37 titles each aside so (``<aside aria-label="Note
  - Black is now stable!"><p aria-hidden="true">Note - Black is now stable!``): dropped with
  what else is hidden, all 12 asides of the site built from Black's docs lost their titles;
- words shown to a screen reader alone (a visually hidden class) where they name a thing
  a sighted reader sees as a mark: the permalink written right after a heading, a link to
  that heading (Starlight's ``<a href="#usage"><span aria-hidden>[icon]</span><span
  class="sr-only">Section titled “Usage”</span></a>``: 183 section texts opened with those
  words), and a code frame's caption (Starlight's Expressive Code writes "Terminal window"
  in the caption of each shell listing: 40 listings).

HTML has no attribute for "visually hidden": CSS does it, and the frameworks' utility
classes name it (``_SPOKEN_ONLY``). Those words are dropped only in the two places above,
where the visible mark says nothing a reader loses; elsewhere (an icon's "Yes" in a table
cell) a screen reader's words may be all a page says, and they stay.
"""

from __future__ import annotations

from selectolax.lexbor import LexborNode

from citeline.corpus.formats.nodes import drop_permalink, words_in, written

# The visually hidden utility classes: Tailwind's and Bootstrap 3 and 4's ``sr-only``
# (Starlight's), Bootstrap 5's, HTML5 Boilerplate's and VitePress's ``visually-hidden``
# (Boilerplate's formerly ``visuallyhidden``), WordPress's ``screen-reader-text``.
_SPOKEN_ONLY = ".sr-only, .visually-hidden, .visuallyhidden, .screen-reader-text"
# The outermost of them, so that each word is read once however deep they nest (one
# ``:not(... *)`` each: lexbor reads ``:not(:is(a, b) *)`` as if only ``a``).
_OUTERMOST_SPOKEN = ", ".join(
    name + "".join(f":not({outer} *)" for outer in _SPOKEN_ONLY.split(", "))
    for name in _SPOKEN_ONLY.split(", ")
)
# How far up from an ``aria-hidden`` title its labelled element may be: Starlight's aside
# is its parent.
_LABEL_STEPS = 3
_HEADINGS = "h1, h2, h3, h4, h5, h6"


def read_as_seen(content: LexborNode) -> None:
    """Reads the words of ``content`` written for one kind of reader as a sighted reader
    sees them (see the module)."""
    show_labelled_titles(content)
    clear_frame_labels(content)
    for link in heading_permalinks_after(content):
        drop_permalink(link)


def show_labelled_titles(content: LexborNode) -> None:
    """Lets every element in ``content`` hidden from assistive technology whose words are
    those of an ``aria-label`` on an element around it be read: it is that element's
    visible title (see the module)."""
    # The outermost only, each read once: a hidden element's words are read only where a
    # label stands near it, and nested ones would read the same words again.
    for hidden in content.css("[aria-hidden=true]:not([aria-hidden=true] *)"):
        labels = []
        around = hidden.parent
        for _ in range(_LABEL_STEPS):
            if around is None:
                break
            label = _words(str(around.attributes.get("aria-label") or ""))
            if label:
                labels.append(label)
            around = around.parent
        if labels and _words(str(hidden.text(deep=True))) in labels:
            del hidden.attrs["aria-hidden"]


def heading_permalinks_after(content: LexborNode) -> list[LexborNode]:
    """The links in ``content`` written right after a heading, to that heading's own id,
    whose words (if any) are all visually hidden: its permalink, placed beside it."""
    found = []
    for heading in content.css(_HEADINGS):
        target = heading.id
        link = _next_written(heading)
        if not target or link is None or link.tag != "a":
            continue
        if str(link.attributes.get("href") or "") == f"#{target}" and _spoken_only(link):
            found.append(link)
    return found


def clear_frame_labels(content: LexborNode) -> None:
    """Drops the visually hidden words from the caption of each figure in ``content`` whose
    own child is a code listing (Expressive Code's ``<pre>``): they name the frame's kind
    to a screen reader (see the module); a caption's visible words (a file's name) stay."""
    listings: dict[int, bool] = {}  # each figure's children read once, however many captions
    for caption in content.css("figure > figcaption"):
        figure = caption.parent
        if figure is None:
            continue
        if figure.mem_id not in listings:
            listings[figure.mem_id] = any(child.tag == "pre" for child in figure.iter())
        if listings[figure.mem_id]:
            for spoken in caption.css(_OUTERMOST_SPOKEN):
                spoken.decompose()


def _spoken_only(node: LexborNode) -> bool:
    """Whether every word of ``node`` lies in a visually hidden element."""
    spoken = sum(words_in(str(part.text(deep=True))) for part in node.css(_OUTERMOST_SPOKEN))
    return words_in(str(node.text(deep=True))) <= spoken


def _next_written(node: LexborNode) -> LexborNode | None:
    """The next sibling of ``node`` that is an element or holds a word (blank text and
    comments are passed over)."""
    sibling = node.next
    while sibling is not None and (
        sibling.tag == "-comment" or (sibling.tag == "-text" and not written(sibling))
    ):
        sibling = sibling.next
    return sibling


def _words(text: str) -> str:
    return " ".join(text.split())
