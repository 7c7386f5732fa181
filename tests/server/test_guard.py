"""The guard, in process: which caller tokens are answered, which refused, and the limit.

Every refusal must happen before any model call, so each case checks the engine double's
call count, and must be the single event ``done {"state": "refused", "seconds": 0.0}``.
"""

from __future__ import annotations

import base64
import hmac
import json
import logging
import time
from collections.abc import Callable
from hashlib import sha256

import jwt
import pytest
from tests.support.app_servers import Served
from tests.support.caller_keys import Keys
from tests.support.engine_doubles import CountingEngine
from tests.support.event_streams import Streamed, post_stream

REFUSAL = [("done", {"state": "refused", "seconds": 0.0})]


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unsigned(header: dict[str, object], claims: dict[str, object], signature: bytes) -> str:
    head = _b64(json.dumps(header).encode())
    body = _b64(json.dumps(claims).encode())
    return f"{head}.{body}.{_b64(signature)}"


def _claims(**extra: object) -> dict[str, object]:
    return {"sub": "reader-1", "aud": "citeline", "exp": int(time.time()) + 120, **extra}


def _ask(server: Served, caller_token: str, question: str = "What is apoptosis?") -> Streamed:
    return post_stream(
        server.client, "/v1/answer", {"question": question, "caller_token": caller_token}
    )


def test_an_eddsa_token_is_answered(
    serve: Callable[..., Served], token: Callable[..., str]
) -> None:
    engine = CountingEngine()
    assert _ask(serve(engine), token()).done()["state"] == "answered"
    assert len(engine.calls) == 1


def test_an_rs256_token_is_answered(
    serve: Callable[..., Served], token: Callable[..., str]
) -> None:
    engine = CountingEngine()
    assert _ask(serve(engine), token(rsa=True)).done()["state"] == "answered"
    assert len(engine.calls) == 1


def _hs256_with_public_key_bytes(keys: Keys) -> str:
    # The classic confusion attack: the public key, which anyone may read, used as an
    # HMAC secret. PyJWT itself refuses to sign this, so the token is built by hand.
    secret = keys.ed25519_public_file.read_bytes()
    head = _b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    body = _b64(json.dumps(_claims()).encode())
    signature = hmac.new(secret, f"{head}.{body}".encode(), sha256).digest()
    return f"{head}.{body}.{_b64(signature)}"


REFUSED_TOKENS: dict[str, tuple[str, Callable[[Keys, Callable[..., str]], str]]] = {
    "empty": ("no_token", lambda keys, token: ""),
    "garbage": ("bad_token", lambda keys, token: "not.a.token"),
    "random-text": ("bad_token", lambda keys, token: "hello"),
    "alg-none": (
        "bad_token",
        lambda keys, token: _unsigned({"alg": "none", "typ": "JWT"}, _claims(), b""),
    ),
    "hs256-with-public-key": ("bad_token", lambda keys, token: _hs256_with_public_key_bytes(keys)),
    "expired": ("expired", lambda keys, token: token(ttl=-60)),
    "wrong-audience": ("wrong_audience", lambda keys, token: token(audience="another-service")),
    "no-exp": (
        "missing_claim",
        lambda keys, token: jwt.encode(
            {"sub": "reader-1", "aud": "citeline"}, _ed25519(keys), algorithm="EdDSA"
        ),
    ),
    "no-aud": (
        "missing_claim",
        lambda keys, token: jwt.encode(
            {"sub": "reader-1", "exp": int(time.time()) + 60}, _ed25519(keys), algorithm="EdDSA"
        ),
    ),
    "signed-by-a-stranger": (
        "bad_token",
        lambda keys, token: jwt.encode(_claims(), _stranger_key(), algorithm="EdDSA"),
    ),
    "tampered-claims": ("bad_token", lambda keys, token: _tampered(token())),
    # Headers that ask the verifier to fetch or trust a key the token itself names: each
    # is signed by a stranger whose key the header offers, and must be ignored.
    "jwk-in-header": ("bad_token", lambda keys, token: _stranger_with_header("jwk")),
    "jku-in-header": ("bad_token", lambda keys, token: _stranger_with_header("jku")),
    "kid-path-traversal": ("bad_token", lambda keys, token: _stranger_with_header("kid")),
}


def _stranger_with_header(name: str) -> str:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    stranger = Ed25519PrivateKey.generate()
    offered: dict[str, object] = {
        "jwk": json.loads(jwt.algorithms.OKPAlgorithm.to_jwk(stranger.public_key())),
        "jku": "https://attacker.example/.well-known/jwks.json",
        "kid": "../../../../dev/null",
    }
    return jwt.encode(_claims(), stranger, algorithm="EdDSA", headers={name: offered[name]})


def _ed25519(keys: Keys) -> object:
    from cryptography.hazmat.primitives import serialization

    return serialization.load_pem_private_key(keys.ed25519_private, password=None)


def _stranger_key() -> object:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    return Ed25519PrivateKey.generate()


def _tampered(good: str) -> str:
    head, _, signature = good.split(".")
    return f"{head}.{_b64(json.dumps(_claims(sub='someone-else')).encode())}.{signature}"


@pytest.mark.parametrize("case", sorted(REFUSED_TOKENS))
def test_a_bad_token_is_refused_before_any_model_call(
    case: str,
    serve: Callable[..., Served],
    token: Callable[..., str],
    keys: Keys,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="citeline.server.guard")
    cause, make = REFUSED_TOKENS[case]
    engine = CountingEngine()
    server = serve(engine)
    streamed = _ask(server, make(keys, token))
    assert streamed.status == 200
    assert streamed.content_type.startswith("text/event-stream")
    assert streamed.events == REFUSAL
    assert engine.calls == []
    # Only the guard's records: another test may have left the root logger at INFO, and
    # then uvicorn's own lines are captured too.
    guard_records = [r for r in caplog.records if r.name == "citeline.server.guard"]
    assert [record.refusal_cause for record in guard_records] == [cause]  # type: ignore[attr-defined]


def test_a_refusal_says_nothing_of_its_reason(
    serve: Callable[..., Served], token: Callable[..., str]
) -> None:
    server = serve(CountingEngine())
    expired = _ask(server, token(ttl=-60))
    garbage = _ask(server, "garbage")
    assert expired.events == garbage.events == REFUSAL


def test_the_audience_setting_is_honoured_and_a_blank_one_means_citeline(
    serve: Callable[..., Served], token: Callable[..., str]
) -> None:
    from citeline.server.settings import ServerSettings

    assert ServerSettings.from_env({"CITELINE_TOKEN_AUDIENCE": "  "}).token_audience == "citeline"
    server = serve(CountingEngine(), token_audience="docs-site")
    assert _ask(server, token(audience="docs-site")).done()["state"] == "answered"
    assert _ask(server, token()).events == REFUSAL


def test_a_rate_limit_of_two_answers_twice_then_refuses(
    serve: Callable[..., Served], token: Callable[..., str]
) -> None:
    engine = CountingEngine()
    server = serve(engine, rate_limit=2)
    caller = token("reader-1")
    states = [_ask(server, caller).done()["state"] for _ in range(4)]
    assert states == ["answered", "answered", "refused", "refused"]
    assert len(engine.calls) == 2


def test_the_limit_counts_per_sub_and_a_fresh_token_does_not_reset_it(
    serve: Callable[..., Served], token: Callable[..., str]
) -> None:
    engine = CountingEngine()
    server = serve(engine, rate_limit=2)
    for _ in range(2):
        assert _ask(server, token("reader-1")).done()["state"] == "answered"
    assert _ask(server, token("reader-1", ttl=300)).events == REFUSAL
    assert _ask(server, token("reader-1", rsa=True)).events == REFUSAL
    assert _ask(server, token("reader-2")).done()["state"] == "answered"
    assert len(engine.calls) == 3


def test_refused_tokens_do_not_spend_anyones_budget(
    serve: Callable[..., Served], token: Callable[..., str]
) -> None:
    server = serve(CountingEngine(), rate_limit=1)
    for _ in range(3):
        assert _ask(server, token("reader-1", ttl=-60)).events == REFUSAL
    assert _ask(server, token("reader-1")).done()["state"] == "answered"


def _anonymous_token(keys: Keys, **claims: object) -> str:
    """A valid token that names nobody: no ``sub``, no ``jti``."""
    from cryptography.hazmat.primitives.serialization import load_pem_private_key

    key = load_pem_private_key(keys.ed25519_private, password=None)
    body = {"aud": "citeline", "exp": int(time.time()) + 120, **claims}
    return jwt.encode(body, key, algorithm="EdDSA")  # type: ignore[arg-type]


def _respellings(token: str) -> list[str]:
    """The same token, spelled otherwise: its signature with base64's padding written out,
    which PyJWT accepts as the same signature (the spelling the attack used)."""
    signed, _, signature = token.rpartition(".")
    return [f"{signed}.{signature}=="]


def test_a_token_without_sub_is_limited_by_its_jti_or_its_digest(keys: Keys) -> None:
    from citeline.server.tokens import caller_identity

    token = _anonymous_token(keys)
    assert caller_identity({"sub": "a", "jti": "j"}, token) == "sub:a"
    assert caller_identity({"jti": "j"}, token) == "jti:j"
    digest = caller_identity({}, token)
    assert digest.startswith("token:") and len(digest) == len("token:") + 32
    assert caller_identity({}, _anonymous_token(keys, nonce=1)) != digest


def test_every_spelling_of_one_token_is_one_identity(keys: Keys) -> None:
    from citeline.server.tokens import TokenVerifier, VerifiedToken, load_public_keys

    verifier = TokenVerifier(
        load_public_keys(keys.ed25519_public_file.read_bytes()), audience="citeline"
    )
    token = _anonymous_token(keys)
    verdicts = [verifier.verify(each) for each in (token, *_respellings(token))]
    assert all(isinstance(verdict, VerifiedToken) for verdict in verdicts), verdicts
    assert len({verdict.identity for verdict in verdicts}) == 1  # type: ignore[union-attr]


def test_a_respelled_token_gets_no_second_budget(serve: Callable[..., Served], keys: Keys) -> None:
    engine = CountingEngine()
    server = serve(engine, rate_limit=1)
    token = _anonymous_token(keys)
    assert _ask(server, token).done()["state"] == "answered"
    for respelled in _respellings(token):
        assert _ask(server, respelled).events == REFUSAL
    assert len(engine.calls) == 1


def test_open_mode_answers_without_tokens_and_limits_by_address(
    serve: Callable[..., Served], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="citeline.server.guard")
    engine = CountingEngine()
    server = serve(engine, open=True, caller_key_file=None, rate_limit=1)
    assert _ask(server, "").done()["state"] == "answered"
    assert _ask(server, "anything at all").events == REFUSAL
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "OPEN MODE" in warnings[0].getMessage()


def test_a_burst_of_twenty_spends_exactly_the_limit_and_forged_tokens_spend_nothing(
    serve: Callable[..., Served], token: Callable[..., str], keys: Keys
) -> None:
    from concurrent.futures import ThreadPoolExecutor

    engine = CountingEngine()
    server = serve(engine, rate_limit=5)
    forged = _tampered(token("reader-1"))
    callers = [token("reader-1")] * 20 + [forged] * 10
    with ThreadPoolExecutor(max_workers=30) as pool:
        states = list(pool.map(lambda caller: _ask(server, caller).done()["state"], callers))
    assert states[:20].count("answered") == 5
    assert states[:20].count("refused") == 15
    assert states[20:] == ["refused"] * 10
    assert len(engine.calls) == 5
