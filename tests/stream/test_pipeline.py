"""The pipeline: anchors replaced, the source list dropped, each anchor's fate settled."""

from __future__ import annotations

from citeline.stream import Anchor, Pipeline, StreamChunk

REACTOME = "https://example.org/R-HSA-109581"


def run(fragments: list[str]) -> tuple[list[StreamChunk], StreamChunk]:
    pipeline = Pipeline()
    return [pipeline.feed(fragment) for fragment in fragments], pipeline.flush()


def test_a_link_split_inside_its_display_text_becomes_its_text_and_one_anchor() -> None:
    chunks, last = run(["CDK5 acts in [Apopto", f"sis]({REACTOME})."])
    assert [chunk.text for chunk in chunks] + [last.text] == ["CDK5 acts in ", "Apoptosis.", ""]
    assert chunks[1].anchors == (Anchor(REACTOME, "Apoptosis", 13, 22),)
    assert chunks[0].anchors == () and last.anchors == ()


def test_an_anchor_waits_until_its_text_is_released_by_the_sources_stage() -> None:
    # "[x](u)" at a line start: its text "x" could not open a heading, so it goes at once;
    # "#" could, so an anchor whose text is "## Sources" waits for its line to end.
    pipeline = Pipeline()
    chunk = pipeline.feed(f"Intro.\n[## Sources]({REACTOME})")
    assert chunk.text == "Intro.\n" and chunk.anchors == ()
    chunk = pipeline.feed(" of reactive oxygen species\n")
    assert chunk.text == "## Sources of reactive oxygen species\n"
    assert chunk.anchors == (Anchor(REACTOME, "## Sources", 7, 17),)


def test_anchors_in_the_dropped_source_list_come_back_without_offsets() -> None:
    chunks, last = run(
        [
            f"CDK5 acts in [Apoptosis]({REACTOME}).\n\n## Sources\n",
            f'- <a href="{REACTOME}">Apoptosis</a>\n',
            "- [Cell Cycle](https://example.org/R-HSA-1640170)",
        ]
    )
    text = "".join(chunk.text for chunk in [*chunks, last])
    anchors = [anchor for chunk in [*chunks, last] for anchor in chunk.anchors]
    assert text == "CDK5 acts in Apoptosis.\n\n"
    assert anchors == [
        Anchor(REACTOME, "Apoptosis", 13, 22),
        Anchor(REACTOME, "Apoptosis", None, None),
        Anchor("https://example.org/R-HSA-1640170", "Cell Cycle", None, None),
    ]


def test_display_text_cut_by_the_source_list_keeps_only_what_the_reader_saw() -> None:
    (chunk,), last = run([f'See <a href="{REACTOME}">Apoptosis\n## Sources\n- x</a>'])
    assert chunk.text + last.text == "See Apoptosis\n"
    assert chunk.anchors + last.anchors == (Anchor(REACTOME, "Apoptosis\n", 4, 14),)


def test_each_anchor_is_returned_exactly_once() -> None:
    pipeline = Pipeline()
    first = pipeline.feed(f"[a]({REACTOME}) and [b]({REACTOME})")
    again = pipeline.feed(" more.")
    last = pipeline.flush()
    assert [anchor.text for anchor in first.anchors] == ["a", "b"]
    assert again.anchors == () and last.anchors == ()
