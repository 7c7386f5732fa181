"""The real thing: ``create_app`` with no engine injected answers with the embedded model
over a small real index, through the same HTTP a search page uses."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.support.app_servers import Served
from tests.support.event_streams import post_stream

from citeline.corpus import Corpus

SAMPLE = Path(__file__).parent / "fixtures" / "collection"
SAMPLE_IDS = {"R-HSA-109581", "R-HSA-5213460", "R-HSA-9612973"}


def test_the_embedded_model_answers_with_citations_and_continues_in_chat(
    serve: Callable[..., Served], token: Callable[..., str], database: str
) -> None:
    with Corpus.open(database) as corpus:
        corpus.ingest(SAMPLE, release="sample-1")
    server = serve(model="embedded")
    assert server.client.get("/v1/info").json()["model"] == server.state.engine.model_name

    streamed = post_stream(
        server.client,
        "/v1/answer",
        {"question": "What do caspases do during apoptosis?", "caller_token": token()},
    )
    assert streamed.events[0] == ("start", {"release": "sample-1"})
    assert streamed.done()["state"] == "answered"
    text = streamed.text()
    for markup in ("<a", "](", "## Sources"):
        assert markup not in text
    citations = streamed.payloads("citation")
    assert citations
    assert {c["id"] for c in citations if "id" in c} <= SAMPLE_IDS
    for citation in citations:
        # The chip names the source; the cited span is the answer's own words, not its title.
        if citation["start"] is not None:
            span = text[citation["start"] : citation["end"]]
            assert span and span in text and citation["display_name"] not in {"", span}

    stored = server.client.get(f"/v1/answers/{streamed.done()['answer_id']}").json()
    assert stored["text"] == text

    chat = post_stream(
        server.client,
        "/v1/chat",
        {
            "message": "How is necroptosis different?",
            "answer_id": streamed.done()["answer_id"],
            "caller_token": token(),
        },
    )
    assert chat.done()["state"] in {"answered", "nothing_found"}
    conversation_id = chat.events[0][1]["conversation_id"]
    conversation = server.client.get(
        f"/v1/conversations/{conversation_id}",
        headers={"authorization": f"Bearer {token()}"},
    ).json()
    assert conversation["messages"][1]["text"] == text
