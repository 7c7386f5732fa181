"""The events every consumer reads: ``start``, ``token``, ``citation``, ``done``.

One answer is a sequence of these, and their JSON is the contract written in
``contracts/answer_endpoint.md``. This module only defines them and encodes them
(JSON and server-sent events); it knows nothing about where they come from.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Literal, TypeAlias
from urllib.parse import urlsplit

# React-to-Me's search panel shows at most twelve chips, and its server capped an answer at
# twelve citations (issue 15); a model citing more is listing, not citing. The one place
# this default and its variable live: the agent, the server's settings and the command line
# read them from here.
DEFAULT_MAX_CITATIONS: Final = 12
MAX_CITATIONS_ENV: Final = "CITELINE_MAX_CITATIONS"

DoneState: TypeAlias = Literal["answered", "nothing_found", "refused", "failed"]
Provenance: TypeAlias = Literal["cited", "untrusted", "verified", "sourced", "none"]


@dataclass(frozen=True, slots=True)
class Start:
    """Opens an answer. ``release`` is the collection's release label, fixed at start-up."""

    release: str | None = None
    conversation_id: str | None = None

    name: ClassVar[str] = "start"

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {"release": self.release}
        if self.conversation_id is not None:
            data["conversation_id"] = self.conversation_id
        return data


@dataclass(frozen=True, slots=True)
class Token:
    """Markdown after the stream pipeline: never model citation markup."""

    text: str

    name: ClassVar[str] = "token"

    def payload(self) -> dict[str, Any]:
        return {"text": self.text}


@dataclass(frozen=True, slots=True)
class Citation:
    """One source the server vouches for.

    Exactly one identifier: ``id`` when the source has one, else ``url``; never
    both and never empty, so a client can key chips on it without guessing.
    ``href`` is where a reader follows it: the cited section's own http(s) address (its
    anchor on the site given at ingest with ``--base-url``, or the document's url), absent
    when the source has none (a data result, a document without an address), so a client
    links by it alone and needs no link template.
    ``start``/``end`` locate the display text in the concatenated token text;
    both are ``None`` when the anchor was only in the dropped sources list.
    A verified quote (``quote``, ``verified``, ``kind``) comes from a quote block.
    ``found_by`` is ``"server"`` for a citation the server found by attribution (the
    sentence at ``start``/``end`` is supported by the source's returned passage) where
    the model wrote no link; absent for the model's own anchors and quotes.
    """

    n: int
    display_name: str
    id: str | None = None
    url: str | None = None
    start: int | None = None
    end: int | None = None
    quote: str | None = None
    verified: bool | None = None
    kind: str | None = None
    href: str | None = None
    found_by: Literal["server"] | None = None

    name: ClassVar[str] = "citation"

    def __post_init__(self) -> None:
        if (self.id is None) == (self.url is None):
            raise ValueError("a citation names exactly one of id or url")
        if not (self.id or self.url):
            raise ValueError("a citation's identifier is never empty")
        if (self.start is None) != (self.end is None):
            raise ValueError("a citation has both offsets or neither")
        if self.href is not None and web_address(self.href) is None:
            raise ValueError("a citation's href is an http(s) address or absent")

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        if self.id is not None:
            data["id"] = self.id
        else:
            data["url"] = self.url
        if self.href is not None:
            data["href"] = self.href
        data["display_name"] = self.display_name
        data["n"] = self.n
        data["start"] = self.start
        data["end"] = self.end
        if self.quote is not None:
            data["quote"] = self.quote
            data["verified"] = bool(self.verified)
            if self.kind is not None:
                data["kind"] = self.kind
        if self.found_by is not None:
            data["found_by"] = self.found_by
        return data


@dataclass(frozen=True, slots=True)
class QuoteVerdict:
    """What became of one quote block: the record a reviewer reads.

    ``status`` is ``verified``, ``rejected`` or ``malformed``; ``reason`` says why when not
    verified (``too_short``, ``not_found``, ``no_quote``, ``split_quote``, ``nested``,
    ``too_long``, ``unterminated``); ``source`` is the trusted text's id when verified;
    ``quote`` is the model's evidence (empty when the block never parsed).
    """

    quote: str
    status: str
    reason: str | None = None
    source: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "quote": self.quote,
            "status": self.status,
            "reason": self.reason,
            "source": self.source,
        }


@dataclass(frozen=True, slots=True)
class Done:
    """Closes every answer, whatever happened.

    A refusal is exactly ``{"state": "refused", "seconds": 0.0}``: optional keys
    are written only when they carry something, so that shape needs no special case.
    ``verdicts`` (one per quote block) travels in process only, for the answer's log and
    the evaluation report; it is not part of the JSON a client reads. ``truncated`` says
    the model's reply was cut at its token limit (the answer is not whole);
    ``tool_call_text`` counts tool calls the model server left in the text, taken out.
    ``failure`` (in process only, like ``verdicts``) is the sentence a failed answer's
    cause gives a user, when it has one (a model server that failed).
    """

    state: DoneState
    seconds: float = 0.0
    answer_id: str | None = None
    provenance: Provenance | None = None
    dropped_anchors: int = 0
    verdicts: tuple[QuoteVerdict, ...] = ()
    truncated: bool = False
    tool_call_text: int = 0
    failure: str | None = None

    name: ClassVar[str] = "done"

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {"state": self.state, "seconds": round(self.seconds, 1)}
        if self.answer_id is not None:
            data["answer_id"] = self.answer_id
        if self.provenance is not None:
            data["provenance"] = self.provenance
        if self.dropped_anchors:
            data["dropped_anchors"] = self.dropped_anchors
        if self.truncated:
            data["truncated"] = True
        if self.tool_call_text:
            data["tool_call_text"] = self.tool_call_text
        return data


Event: TypeAlias = Start | Token | Citation | Done


def web_address(candidate: str | None) -> str | None:
    """``candidate`` when it is an absolute http(s) address a browser can open, else None.

    A citation's ``href`` is only ever such an address: a relative path (``--base-url /``),
    a ``javascript:`` or ``file:`` url, or an id is not one, and a client must not guess.
    """
    if not candidate or any(c.isspace() or not c.isprintable() for c in candidate):
        return None
    try:
        parts = urlsplit(candidate)
    except ValueError:
        return None
    return candidate if parts.scheme in ("http", "https") and parts.netloc else None


def to_json(event: Event) -> dict[str, Any]:
    """The event as one JSON object with its name under ``event``, as ``--json`` prints it."""
    return {"event": event.name, **event.payload()}


def encode_sse(event: Event) -> str:
    """``event: NAME\\ndata: JSON\\n\\n``; JSON escapes newlines, so data is one line."""
    return sse_frame(event.name, event.payload())


def sse_frame(name: str, payload: dict[str, Any]) -> str:
    """One server-sent event: the frame every wire profile writes its payloads into."""
    data = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    return f"event: {name}\ndata: {data}\n\n"


def from_json(name: str, data: dict[str, Any]) -> Event:
    """Rebuild an event from its name and payload (clients and tests read streams back)."""
    if name == "start":
        return Start(release=data.get("release"), conversation_id=data.get("conversation_id"))
    if name == "token":
        return Token(text=data["text"])
    if name == "citation":
        return Citation(
            n=data["n"],
            display_name=data["display_name"],
            id=data.get("id"),
            url=data.get("url"),
            start=data.get("start"),
            end=data.get("end"),
            quote=data.get("quote"),
            verified=data.get("verified"),
            kind=data.get("kind"),
            href=data.get("href"),
            found_by=data.get("found_by"),
        )
    if name == "done":
        return Done(
            state=data["state"],
            seconds=data.get("seconds", 0.0),
            answer_id=data.get("answer_id"),
            provenance=data.get("provenance"),
            dropped_anchors=data.get("dropped_anchors", 0),
            truncated=data.get("truncated", False),
            tool_call_text=data.get("tool_call_text", 0),
        )
    raise ValueError(f"unknown event {name!r}")


__all__ = [
    "DEFAULT_MAX_CITATIONS",
    "MAX_CITATIONS_ENV",
    "Citation",
    "Done",
    "DoneState",
    "Event",
    "Provenance",
    "QuoteVerdict",
    "Start",
    "Token",
    "encode_sse",
    "from_json",
    "sse_frame",
    "to_json",
    "web_address",
]
