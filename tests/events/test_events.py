import json

import pytest

from citeline.events import Citation, Done, Start, Token, encode_sse, from_json, to_json


def test_a_refusal_is_exactly_state_and_seconds() -> None:
    assert Done(state="refused").payload() == {"state": "refused", "seconds": 0.0}


def test_seconds_are_rounded_to_a_tenth() -> None:
    assert Done(state="answered", seconds=1.26, answer_id="a").payload() == {
        "state": "answered",
        "seconds": 1.3,
        "answer_id": "a",
    }


def test_a_citation_with_an_id_has_no_url_key() -> None:
    payload = Citation(n=1, display_name="Apoptosis", id="R-HSA-109581", start=0, end=9).payload()
    assert payload == {
        "id": "R-HSA-109581",
        "display_name": "Apoptosis",
        "n": 1,
        "start": 0,
        "end": 9,
    }


def test_a_citation_with_a_url_has_no_id_key() -> None:
    payload = Citation(n=2, display_name="Page", url="https://example.org/p").payload()
    assert "id" not in payload
    assert payload["url"] == "https://example.org/p"
    assert payload["start"] is None and payload["end"] is None


@pytest.mark.parametrize(
    "kwargs",
    [
        {"id": "a", "url": "https://example.org"},
        {},
        {"id": ""},
        {"url": ""},
        {"id": "a", "start": 1},
    ],
)
def test_a_citation_refuses_an_ambiguous_or_empty_identifier(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        Citation(n=1, display_name="x", **kwargs)  # type: ignore[arg-type]


def test_sse_encoding_is_one_event_line_and_one_data_line() -> None:
    encoded = encode_sse(Token(text="two\nlines"))
    assert encoded == 'event: token\ndata: {"text":"two\\nlines"}\n\n'


def test_start_carries_a_conversation_id_only_in_chat() -> None:
    assert Start(release="2026-11").payload() == {"release": "2026-11"}
    assert Start(release=None, conversation_id="c1").payload() == {
        "release": None,
        "conversation_id": "c1",
    }


@pytest.mark.parametrize(
    "event",
    [
        Start(release="r1", conversation_id="c"),
        Token(text="héllo"),
        Citation(
            n=1, display_name="D", url="https://x.org", quote="q", verified=True, kind="document"
        ),
        Done(state="answered", seconds=2.0, answer_id="x", provenance="sourced", dropped_anchors=2),
        Citation(n=2, display_name="D", id="a#b", start=0, end=9, found_by="server"),
        Done(state="answered", seconds=1.0, truncated=True, tool_call_text=2),
    ],
)
def test_every_event_reads_back_from_its_json(event: object) -> None:
    data = to_json(event)  # type: ignore[arg-type]
    name = data.pop("event")
    assert from_json(name, json.loads(json.dumps(data))) == event


def test_a_found_citation_says_so_and_a_models_own_has_no_such_key() -> None:
    found = Citation(n=1, display_name="D", id="a", start=0, end=5, found_by="server")
    assert found.payload()["found_by"] == "server"
    assert "found_by" not in Citation(n=1, display_name="D", id="a").payload()


def test_done_says_a_cut_reply_and_removed_tool_calls_only_when_there_were_any() -> None:
    assert Done(state="answered", truncated=True, tool_call_text=1).payload() == {
        "state": "answered",
        "seconds": 0.0,
        "truncated": True,
        "tool_call_text": 1,
    }
    assert Done(state="answered").payload() == {"state": "answered", "seconds": 0.0}
    # A failure's sentence stays in process, for the command that prints it.
    assert "failure" not in Done(state="failed", failure="The model server failed.").payload()
