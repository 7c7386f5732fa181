"""SSE coalescing: text deltas that arrive in one read become one event, nothing else changes."""

from __future__ import annotations

import json
from itertools import pairwise
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from citeline.models.sse_coalescing import SSECoalescer


def _event(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> bytes:
    chunk = {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "m",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        **extra,
    }
    return b"data: " + json.dumps(chunk).encode() + b"\n\n"


def _feed(reads: list[bytes]) -> bytes:
    coalescer = SSECoalescer()
    return b"".join(coalescer.feed(read) for read in reads) + coalescer.flush()


def _chunks(stream: bytes) -> list[Any]:
    events = [e for e in stream.split(b"\n\n") if e]
    return [e.decode() if e == b"data: [DONE]" else json.loads(e[6:]) for e in events]


def _text(stream: bytes) -> str:
    return "".join(
        c["choices"][0]["delta"].get("content") or ""
        for c in _chunks(stream)
        if isinstance(c, dict)
    )


def test_text_deltas_read_together_arrive_as_one_event() -> None:
    stream = (
        _event({"content": "Caspases "})
        + _event({"content": "cleave "})
        + _event({"content": "proteins."})
    )
    chunks = _chunks(_feed([stream]))
    assert len(chunks) == 1
    assert chunks[0]["choices"][0]["delta"] == {"content": "Caspases cleave proteins."}


def test_role_tool_call_finish_and_usage_events_are_never_merged() -> None:
    tool_call = {"tool_calls": [{"index": 0, "function": {"arguments": '{"q"'}}]}
    stream = (
        _event({"role": "assistant", "content": ""})
        + _event({"content": "a"})
        + _event(tool_call)
        + _event({"content": "b"})
        + _event({"content": "c"}, usage={"total_tokens": 3})
        + _event({}, "stop")
        + b"data: [DONE]\n\n"
    )
    chunks = _chunks(_feed([stream]))
    assert len(chunks) == 7
    assert chunks[2]["choices"][0]["delta"] == tool_call
    assert chunks[-1] == "data: [DONE]"


def test_an_event_split_across_reads_waits_for_its_end_and_nothing_waits_longer() -> None:
    whole = _event({"content": "one"})
    coalescer = SSECoalescer()
    assert coalescer.feed(whole[:10]) == b""
    assert coalescer.feed(whole[10:]) == whole


def test_a_stream_framed_with_carriage_returns_passes_through_whole() -> None:
    stream = _event({"content": "a"}).replace(b"\n", b"\r\n") * 2
    assert _feed([stream[:7], stream[7:]]) == stream


WORDS = st.lists(st.text(min_size=0, max_size=6), min_size=1, max_size=30)


@given(words=WORDS, cuts=st.lists(st.integers(min_value=0, max_value=10_000), max_size=20))
def test_however_the_bytes_are_split_the_text_and_the_other_events_are_the_same(
    words: list[str], cuts: list[int]
) -> None:
    stream = (
        _event({"role": "assistant", "content": ""})
        + b"".join(_event({"content": w}) for w in words)
        + _event({}, "stop")
        + b"data: [DONE]\n\n"
    )
    points = sorted({0, len(stream), *(c % (len(stream) + 1) for c in cuts)})
    out = _feed([stream[a:b] for a, b in pairwise(points)])
    assert _text(out) == "".join(words)
    chunks = _chunks(out)
    assert chunks[0]["choices"][0]["delta"] == {"role": "assistant", "content": ""}
    assert chunks[-2]["choices"][0]["finish_reason"] == "stop"
    assert chunks[-1] == "data: [DONE]"


def test_text_outside_ascii_merges_and_a_chunk_the_parser_refuses_passes_as_it_came() -> None:
    # A lone surrogate escape: the json module would take it, pydantic-core refuses it.
    lone = b'{"index": 0, "delta": {"content": "\\ud800"}}'
    refused = b'data: {"id": "chatcmpl-1", "choices": [' + lone + b"]}\n\n"
    stream = (
        _event({"content": "Caf\u00e9 "})
        + _event({"content": "\u2014 \u03b2-catenin "})
        + refused
        + _event({"content": "\U0001f9ec"})
    )
    out = _feed([stream])
    assert out.count(b"\n\n") == 3
    assert refused in out
    assert _chunks(out)[0]["choices"][0]["delta"]["content"] == "Caf\u00e9 \u2014 \u03b2-catenin "
