"""The page's event-stream reader (static/sse.js) holds up however the bytes are cut.

A browser hands the page a response body in whatever chunks the network made: a chunk
may end between the CR and LF of sse-starlette's line ends, or inside a multi-byte
character. The stream is written by the server's own encoder and cut at random byte
offsets; the reader must give back exactly the events that went in.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playwright.sync_api import Page

from citeline.events import Citation, Done, Event, Start, Token, encode_sse

READ_CHUNKS = """
async (chunks) => {
  const { readEvents } = await import("/sse.js");
  const body = new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new Uint8Array(chunk));
      controller.close();
    },
  });
  const events = [];
  for await (const event of readEvents(body)) events.push([event.name, event.data]);
  return events;
}
"""

texts = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=1, max_size=30
)
tokens = st.builds(Token, text=texts)
citations = st.builds(
    Citation,
    n=st.integers(1, 9),
    display_name=texts,
    id=st.just("tutorial/introduction.html#numbers"),
    start=st.just(3),
    end=st.just(9),
)
answers = st.lists(st.one_of(tokens, citations), max_size=8).map(
    lambda middle: [Start(release="r1"), *middle, Done(state="answered", seconds=0.3)]
)


def wire(events: list[Event], *, crlf: bool) -> bytes:
    text = "".join(encode_sse(event) for event in events)
    # sse-starlette ends lines with CRLF; the contract's own encoder with LF. Both are SSE.
    return (text.replace("\n", "\r\n") if crlf else text).encode("utf-8")


def cut(data: bytes, offsets: list[int]) -> list[list[int]]:
    points = sorted({0, len(data), *(offset % (len(data) + 1) for offset in offsets)})
    return [list(data[a:b]) for a, b in pairwise(points)]


def read(page: Page, chunks: list[list[int]]) -> list[tuple[str, dict[str, Any]]]:
    return [(name, data) for name, data in page.evaluate(READ_CHUNKS, chunks)]


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(answer=answers, offsets=st.lists(st.integers(0, 10_000), max_size=12), crlf=st.booleans())
def test_events_cut_anywhere_are_read_back_whole(
    module_page: Page, answer: list[Event], offsets: list[int], crlf: bool
) -> None:
    chunks = cut(wire(answer, crlf=crlf), offsets)
    expected = [(event.name, event.payload()) for event in answer]
    assert read(module_page, chunks) == expected


def test_a_crlf_split_between_its_two_bytes_does_not_end_an_event_early(module_page: Page) -> None:
    data = wire([Start(release=None), Token("one"), Done(state="answered")], crlf=True)
    split = data.index(b"\r\n") + 1
    assert read(module_page, [list(data[:split]), list(data[split:])]) == [
        ("start", {"release": None}),
        ("token", {"text": "one"}),
        ("done", {"state": "answered", "seconds": 0.0}),
    ]


def test_keep_alive_comments_and_unknown_fields_are_ignored(module_page: Page) -> None:
    data = b': ping - 2026-11-30\r\n\r\nid: 7\r\nevent: token\r\ndata: {"text":"a"}\r\n\r\n'
    assert read(module_page, [list(data)]) == [("token", {"text": "a"})]
