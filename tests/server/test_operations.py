"""Health, metrics, the OpenAPI schema, server info, the search endpoint and the page."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.support.app_servers import Served, in_process
from tests.support.engine_doubles import CountingEngine
from tests.support.event_streams import post_stream

from citeline.server import ServerSettings, create_app


def test_healthz_says_ok(serve: Callable[..., Served]) -> None:
    response = serve(CountingEngine()).client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_metrics_count_answers_by_state_and_refusals_by_cause(
    serve: Callable[..., Served], token: Callable[..., str]
) -> None:
    server = serve(CountingEngine())
    post_stream(server.client, "/v1/answer", {"question": "q", "caller_token": token()})
    post_stream(server.client, "/v1/answer", {"question": "q", "caller_token": "garbage"})
    post_stream(server.client, "/v1/answer", {"question": "q", "caller_token": ""})
    response = server.client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    text = response.text
    assert 'citeline_answers_total{state="answered"} 1.0' in text
    assert 'citeline_answers_total{state="refused"} 2.0' in text
    assert 'citeline_refusals_total{cause="bad_token"} 1.0' in text
    assert 'citeline_refusals_total{cause="no_token"} 1.0' in text
    assert 'citeline_refusals_total{cause="rate_limited"} 0.0' in text
    assert "citeline_time_to_first_token_seconds_count 1.0" in text
    assert "citeline_answer_seconds_count 1.0" in text
    assert "citeline_answers_in_flight 0.0" in text


def test_the_openapi_schema_lists_every_endpoint(serve: Callable[..., Served]) -> None:
    schema = serve(CountingEngine()).client.get("/openapi.json").json()
    assert {
        "/v1/answer",
        "/v1/chat",
        "/v1/answers/{answer_id}",
        "/v1/conversations/{conversation_id}",
        "/v1/search",
        "/v1/info",
        "/healthz",
        "/metrics",
    } <= set(schema["paths"])


def test_info_names_the_model_release_mode_and_link_template(
    serve: Callable[..., Served],
) -> None:
    server = serve(
        CountingEngine(),
        release="2026-09",
        link_template="https://reactome.org/content/detail/{id}",
    )
    assert server.client.get("/v1/info").json() == {
        "model": "counting double",
        "release": "2026-09",
        "open": False,
        "link_template": "https://reactome.org/content/detail/{id}",
        # The empty page's: no name set and nothing ingested, so no name; the release label
        # never stands in for one (without a label given at ingest it is a content digest).
        "collection": None,
        "documents": 0,
        "examples": [],
        "rate_limit": 30,
        "rate_window": 600,
        "retrieval": "lexical",
    }


def test_the_page_is_served_at_the_root(tmp_path: Path, keys: object) -> None:
    static = tmp_path / "static"
    (static / "vendor").mkdir(parents=True)
    (static / "index.html").write_text("<!doctype html><title>citeline</title>")
    (static / "vendor" / "lib.js").write_text("export {}")
    settings = ServerSettings(db=tmp_path / "c.db", open=True)
    app = create_app(settings, engine=CountingEngine(), corpus=None, static_dir=static)
    with in_process(app) as server:
        page = server.client.get("/")
        assert page.status_code == 200
        assert "<title>citeline</title>" in page.text
        assert server.client.get("/vendor/lib.js").status_code == 200
        assert server.client.get("/healthz").json() == {"status": "ok"}


def test_without_a_page_the_root_says_so(tmp_path: Path) -> None:
    settings = ServerSettings(db=tmp_path / "c.db", open=True)
    app = create_app(settings, engine=CountingEngine(), static_dir=tmp_path / "none")
    with in_process(app) as server:
        response = server.client.get("/")
        assert response.status_code == 404
        assert "no search page" in response.text


SAMPLE = Path(__file__).parent / "fixtures" / "collection"


def _ingested(db: str) -> None:
    from citeline.corpus import Corpus

    with Corpus.open(db) as corpus:
        report = corpus.ingest(SAMPLE, release="sample-1")
        assert not report.skipped


def test_search_returns_passages_with_id_title_snippet_link_and_offsets(
    serve: Callable[..., Served], database: str
) -> None:
    _ingested(database)
    server = serve(CountingEngine())
    response = server.client.get("/v1/search", params={"q": "caspases apoptosis", "k": 2})
    assert response.status_code == 200
    results = response.json()
    assert 1 <= len(results) <= 2
    first = results[0]
    assert set(first) == {"id", "title", "snippet", "url", "start", "end"}
    assert first["id"] == "R-HSA-109581"
    assert first["title"] == "Apoptosis"
    assert first["url"] == "https://reactome.org/content/detail/R-HSA-109581"
    assert 0 <= first["start"] < first["end"]
    assert "apoptosis" in first["snippet"].lower()


def test_search_caps_k_and_refuses_nonsense_k(serve: Callable[..., Served], database: str) -> None:
    _ingested(database)
    server = serve(CountingEngine(), search_max_k=1)
    capped = server.client.get("/v1/search", params={"q": "cell death", "k": 1000})
    assert len(capped.json()) == 1
    for params in ({"q": "cell", "k": 0}, {"q": ""}, {"k": 3}):
        assert server.client.get("/v1/search", params=params).status_code == 422


def test_the_release_is_the_indexs_own_unless_a_setting_names_one(
    serve: Callable[..., Served], database: str
) -> None:
    _ingested(database)
    assert serve(CountingEngine()).client.get("/v1/info").json()["release"] == "sample-1"
    named = serve(CountingEngine(), release="2026-09")
    assert named.client.get("/v1/info").json()["release"] == "2026-09"


def test_a_snippet_drops_code_fences_and_markdown_escapes_but_keeps_the_code() -> None:
    from citeline.server.schemas import snippet_of

    text = "Users are surprised:\n\n```python\n>>> 1.2 - 1.0\n```\n\nby 10\\*\\*55"
    assert snippet_of(text) == "Users are surprised: >>> 1.2 - 1.0 by 10**55"
