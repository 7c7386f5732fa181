"""Every setting of ``citeline serve``, its default, its environment name and what it does.

``ServerSettings`` is the single place a setting is declared (each field carries its
variable and help); ``SETTINGS`` lists them for ``citeline serve --help`` and the docs.
Command-line flags override the environment, which overrides the defaults. This module
parses and checks values; it does not open files, load keys or start anything.
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from citeline.cores import usable_cores
from citeline.database import (
    DEFAULT_DATABASE,
    DatabaseError,
    DatabaseUrl,
    SqliteUrl,
    parse_database_url,
)
from citeline.events import DEFAULT_MAX_CITATIONS, MAX_CITATIONS_ENV
from citeline.server.errors import StartupError
from citeline.server.wires import WIRES, WireName, wire_named

DEFAULT_AUDIENCE = "citeline"


class SettingsError(StartupError, ValueError):
    """A setting has a value that cannot be used; the message says which and what to do."""


@dataclass(frozen=True, slots=True)
class Setting:
    """One setting: its field on ``ServerSettings``, its variable, its default, its meaning."""

    field: str
    env: str
    default: Any
    parse: Callable[[str], Any]
    help: str


def _about(env: str, parse: Callable[[str], Any], help: str) -> dict[str, Any]:
    return {"env": env, "parse": parse, "help": help}


def _text_or_none(value: str) -> str | None:
    return value.strip() or None


def _audience(value: str) -> str:
    # A blank audience would let a token minted for any audience-less service through.
    return value.strip() or DEFAULT_AUDIENCE


def _path_or_none(value: str) -> Path | None:
    return Path(value) if value.strip() else None


def _flag(value: str) -> bool:
    lowered = value.strip().lower()
    if lowered in {"1", "true", "yes", "on"}:
        return True
    if lowered in {"", "0", "false", "no", "off"}:
        return False
    raise ValueError("expected one of 1, true, yes, on, 0, false, no, off")


def _positive_int(value: str) -> int:
    number = int(value)
    if number < 1:
        raise ValueError("expected a whole number of at least 1")
    return number


def _positive_float(value: str) -> float:
    number = float(value)
    if not number > 0:
        raise ValueError("expected a number greater than 0")
    return number


def _log_format(value: str) -> str:
    if value not in {"json", "text"}:
        raise ValueError("expected json or text")
    return value


def _wire(value: str) -> WireName:
    lowered = value.strip().lower() or "native"
    for wire in WIRES:
        if lowered == wire:
            return wire
    raise ValueError("expected " + " or ".join(WIRES))


# A chat prefix is a same-origin path of plain segments: the handoff's `path` is this plus
# `#handoff=<id>`, and a client opens it as is, so nothing here may change the origin
# ("//host/") or carry a query or fragment of its own.
_CHAT_PREFIX = re.compile(r"/(?:[A-Za-z0-9._~-]+/)*")


def _chat_prefix(value: str) -> str:
    prefix = value.strip()
    if not prefix.endswith("/"):
        prefix += "/"
    if not _CHAT_PREFIX.fullmatch(prefix) or "/../" in prefix or "/./" in prefix:
        raise ValueError("expected a path such as /chat/guest/ (letters, digits, . _ ~ -)")
    return prefix


def _origin(value: str) -> str:
    """One web origin as a browser sends it in ``Origin``: scheme and host, lower case, with
    the port only when it is not the scheme's default, and no path."""
    try:
        parts = urlsplit(value.strip())
        port = parts.port
    except ValueError:
        parts, port = None, None
    if (
        parts is None
        or parts.scheme.lower() not in ("http", "https")
        or not parts.hostname
        or parts.username is not None
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
    ):
        raise ValueError(
            f"{value.strip()!r} is not a web origin; give one like https://docs.example.org"
        )
    scheme = parts.scheme.lower()
    host = parts.hostname if ":" not in parts.hostname else f"[{parts.hostname}]"
    default = {"http": 80, "https": 443}[scheme]
    return f"{scheme}://{host}" + (f":{port}" if port not in (None, default) else "")


def _origins(value: str) -> tuple[str, ...]:
    # "*" is refused on purpose: a site must be named to spend the server's answers.
    return tuple(dict.fromkeys(_origin(each) for each in re.split(r"[\s,]+", value) if each))


def _port(value: str) -> int:
    number = int(value)
    if not 0 <= number <= 65535:
        raise ValueError("expected a port number from 0 to 65535")
    return number


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """The settings one server runs with; build with ``from_env`` to honour ``CITELINE_*``."""

    db: Path = field(
        default=Path(DEFAULT_DATABASE),
        metadata=_about(
            "CITELINE_DB",
            Path,
            "SQLite file used when no database URL (CITELINE_DATABASE_URL, --db) is given.",
        ),
    )
    database_url: str | None = field(
        default=None,
        metadata=_about(
            "CITELINE_DATABASE_URL",
            _text_or_none,
            "Database for the corpus, answers and conversations: sqlite:///PATH or "
            "postgresql://USER@HOST/NAME (shared by several servers); "
            "default: the CITELINE_DB file.",
        ),
    )
    host: str = field(
        default="127.0.0.1", metadata=_about("CITELINE_HOST", str, "Address to listen on.")
    )
    port: int = field(default=8000, metadata=_about("CITELINE_PORT", _port, "Port to listen on."))
    workers: int | None = field(
        default=None,
        metadata=_about(
            "CITELINE_WORKERS",
            _positive_int,
            "Server processes answering on the port, sharing the collection, the answer "
            "store and the rate limit; default: one per core of this machine.",
        ),
    )
    wire: WireName = field(
        default="native",
        metadata=_about(
            "CITELINE_WIRE",
            _wire,
            "Wire profile: native, or reactome to serve React-to-Me's answer, handoff and "
            "chat routes beside the native ones and honour its setting names.",
        ),
    )
    chat_prefix: str = field(
        default="/chat/guest/",
        metadata=_about(
            "CITELINE_CHAT_PREFIX",
            _chat_prefix,
            "Path of the chat page in the reactome profile; handoff paths point under it.",
        ),
    )
    model: str = field(
        default="embedded",
        metadata=_about(
            "CITELINE_MODEL",
            str,
            "Model that answers: embedded, openai:NAME, ollama:NAME or anthropic:NAME.",
        ),
    )
    open: bool = field(
        default=False,
        metadata=_about(
            "CITELINE_OPEN",
            _flag,
            "Answer without caller tokens (rate limits then count per client address).",
        ),
    )
    project: str | None = field(
        default=None,
        metadata=_about(
            "CITELINE_PROJECT",
            _text_or_none,
            "citeline.toml (or its folder, or 'sample') whose tables and governed measures "
            "answers may use besides the corpus; default: none.",
        ),
    )
    release: str | None = field(
        default=None,
        metadata=_about(
            "CITELINE_RELEASE",
            _text_or_none,
            "Release label sent in every start event; default: the index's own label.",
        ),
    )
    link_template: str | None = field(
        default=None,
        metadata=_about(
            "CITELINE_LINK_TEMPLATE",
            _text_or_none,
            "Link for a source identifier on the page, e.g. https://example.org/item/{id}, "
            "for sources without an address of their own (a citation's href wins).",
        ),
    )
    collection_name: str | None = field(
        default=None,
        metadata=_about(
            "CITELINE_COLLECTION_NAME",
            _text_or_none,
            "What the empty page and /v1/info call the collection; default: the site's own "
            "name, read at ingest.",
        ),
    )
    examples: Path | None = field(
        default=None,
        metadata=_about(
            "CITELINE_EXAMPLES",
            _path_or_none,
            "Text file of example questions for the empty page, one a line (the first three "
            "are shown); default: the examples the project file lists, else a few "
            "of the collection's headings as questions.",
        ),
    )
    caller_key_file: Path | None = field(
        default=None,
        metadata=_about(
            "CITELINE_CALLER_KEY_FILE",
            _path_or_none,
            "PEM file of the public key(s) that verify caller tokens (Ed25519 or RSA).",
        ),
    )
    token_audience: str = field(
        default=DEFAULT_AUDIENCE,
        metadata=_about(
            "CITELINE_TOKEN_AUDIENCE",
            _audience,
            "Audience (aud) a caller token must name; blank means the default.",
        ),
    )
    rate_limit: int = field(
        default=30,
        metadata=_about(
            "CITELINE_RATE_LIMIT", _positive_int, "Answers one caller may start per window."
        ),
    )
    rate_window: int = field(
        default=600,
        metadata=_about("CITELINE_RATE_WINDOW", _positive_int, "Rate-limit window, in seconds."),
    )
    rate_limit_storage: str = field(
        default="database",
        metadata=_about(
            "CITELINE_RATE_LIMIT_STORAGE",
            lambda value: value.strip() or "database",
            "Where rate limits are counted: database (the server's own, shared by every "
            "worker and every server on it), memory:// (this process alone) or any storage "
            "URL of `limits` (redis://HOST:6379).",
        ),
    )
    answer_timeout: float = field(
        default=120.0,
        metadata=_about(
            "CITELINE_ANSWER_TIMEOUT",
            _positive_float,
            "Seconds an answer may take before it ends as failed.",
        ),
    )
    max_citations: int = field(
        default=DEFAULT_MAX_CITATIONS,
        metadata=_about(
            MAX_CITATIONS_ENV,
            _positive_int,
            "Citation events one answer may carry; later sources are dropped and counted.",
        ),
    )
    answer_ttl: int = field(
        default=3600,
        metadata=_about("CITELINE_ANSWER_TTL", _positive_int, "Seconds a stored answer is kept."),
    )
    answer_max_entries: int = field(
        default=2048,
        metadata=_about(
            "CITELINE_ANSWER_MAX_ENTRIES",
            _positive_int,
            "Stored answers kept at most; the oldest go first.",
        ),
    )
    # React-to-Me's handoffs live 15 minutes: long enough to open the tab and reload it, short
    # enough that a link which escapes (pasted into a message, left in history) soon stops
    # working.
    handoff_ttl: int = field(
        default=900,
        metadata=_about(
            "CITELINE_HANDOFF_TTL",
            _positive_int,
            "Seconds a chat handoff (reactome profile) can be redeemed after it is made.",
        ),
    )
    conversation_ttl: int = field(
        default=3600,
        metadata=_about(
            "CITELINE_CONVERSATION_TTL",
            _positive_int,
            "Seconds a conversation is kept after its last message.",
        ),
    )
    conversation_max_entries: int = field(
        default=2048,
        metadata=_about(
            "CITELINE_CONVERSATION_MAX_ENTRIES",
            _positive_int,
            "Conversations kept at most; the least recently used go first.",
        ),
    )
    search_max_k: int = field(
        default=50,
        metadata=_about(
            "CITELINE_SEARCH_MAX_K",
            _positive_int,
            "Most results GET /v1/search returns, whatever k asks for.",
        ),
    )
    max_body_bytes: int = field(
        default=65536,
        metadata=_about(
            "CITELINE_MAX_BODY_BYTES",
            _positive_int,
            "Largest request body accepted, in bytes; a larger one gets 413 unread.",
        ),
    )
    # Connection bounds (server/connections.py). Measured against nginx's and Node's: a
    # request's headers in 10 s from its first byte (nginx waits 60 s between reads, Node
    # 60 s in all), its body in 30 s (a 64 KiB body needs 2 KB/s), 5 s idle (uvicorn's own
    # keep-alive), 60 s of a response unread (nginx's send_timeout), a 32 KiB header block
    # (nginx's 4 x 8k buffers) of at most 100 fields (Apache's and gunicorn's).
    idle_timeout: int = field(
        default=5,
        metadata=_about(
            "CITELINE_IDLE_TIMEOUT",
            _positive_int,
            "Seconds a connection may stay open with no request in progress; then it is closed.",
        ),
    )
    header_timeout: float = field(
        default=10.0,
        metadata=_about(
            "CITELINE_HEADER_TIMEOUT",
            _positive_float,
            "Seconds a request's line and headers may take to arrive from its first byte; "
            "then 408 and the connection is closed.",
        ),
    )
    body_timeout: float = field(
        default=30.0,
        metadata=_about(
            "CITELINE_BODY_TIMEOUT",
            _positive_float,
            "Seconds a request's body may take to arrive after its headers; then the "
            "connection is closed.",
        ),
    )
    send_timeout: float = field(
        default=60.0,
        metadata=_about(
            "CITELINE_SEND_TIMEOUT",
            _positive_float,
            "Seconds a response may wait for a client that does not read it; then the "
            "connection is closed.",
        ),
    )
    max_header_bytes: int = field(
        default=32768,
        metadata=_about(
            "CITELINE_MAX_HEADER_BYTES",
            _positive_int,
            "Largest request line and headers accepted, in bytes; a larger block gets 431 "
            "before the rest is read.",
        ),
    )
    max_headers: int = field(
        default=100,
        metadata=_about(
            "CITELINE_MAX_HEADERS",
            _positive_int,
            "Most header fields one request may send; more get 431.",
        ),
    )
    max_connections_per_peer: int = field(
        default=64,
        metadata=_about(
            "CITELINE_MAX_CONNECTIONS_PER_PEER",
            _positive_int,
            "Open connections one client address may hold; another gets 503 (trusted "
            "proxies are not counted).",
        ),
    )
    max_tokens: int = field(
        default=2048,
        metadata=_about(
            "CITELINE_MAX_TOKENS",
            _positive_int,
            "Most tokens a model provider may write per reply (sent as max_tokens).",
        ),
    )
    context_tokens: int = field(
        default=3000,
        metadata=_about(
            "CITELINE_CONTEXT_TOKENS",
            _positive_int,
            "Most tokens of corpus text a real model is given in one answer (estimated).",
        ),
    )
    answer_max_chars: int = field(
        default=20000,
        metadata=_about(
            "CITELINE_ANSWER_MAX_CHARS",
            _positive_int,
            "Most characters of one answer streamed and stored; the answer ends there.",
        ),
    )
    forwarded_allow_ips: str | None = field(
        default=None,
        metadata=_about(
            "CITELINE_FORWARDED_ALLOW_IPS",
            _text_or_none,
            "Proxy addresses (comma-separated, or *) whose X-Forwarded-For is believed; "
            "default: none, so the client address is the socket's.",
        ),
    )
    allow_origins: tuple[str, ...] = field(
        default=(),
        metadata=_about(
            "CITELINE_ALLOW_ORIGINS",
            _origins,
            "Web origins (comma-separated, e.g. https://docs.example.org) whose pages may call "
            "the answer, chat, search and info routes from a browser (CORS); default: none.",
        ),
    )
    access_log: bool = field(
        default=False,
        metadata=_about(
            "CITELINE_ACCESS_LOG",
            _flag,
            "Log one line per HTTP request (answers and refusals are logged either way).",
        ),
    )
    log_format: str = field(
        default="json",
        metadata=_about(
            "CITELINE_LOG_FORMAT", _log_format, "Log lines as json (one object a line) or text."
        ),
    )

    @property
    def worker_count(self) -> int:
        """``workers``, else one process per core this process may run on."""
        if self.workers is not None:
            return self.workers
        return usable_cores()

    @property
    def database(self) -> DatabaseUrl:
        """Where the corpus, answers and conversations live: ``database_url``, else ``db``."""
        if self.database_url is None:
            return SqliteUrl(self.db)
        try:
            return parse_database_url(self.database_url)
        except DatabaseError as error:
            raise SettingsError(str(error)) from None

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> ServerSettings:
        """Defaults, then ``CITELINE_*`` variables, then ``overrides`` whose value is not None.

        In the reactome profile, React-to-Me's names for shared settings are read too
        (``ReactomeWire.variable_names``), and the token audience defaults to upstream's.
        """
        source = os.environ if environ is None else environ
        given = {key: value for key, value in overrides.items() if value is not None}
        if "wire" in given:
            try:
                given["wire"] = _wire(given["wire"])
            except ValueError as error:
                raise SettingsError(f"--wire {given['wire']!r} cannot be used ({error}).") from None
        if "allow_origins" in given:
            try:
                given["allow_origins"] = _origins(" ".join(given["allow_origins"])) or None
            except ValueError as error:
                raise SettingsError(f"--allow-origin cannot be used: {error}.") from None
            if given["allow_origins"] is None:
                del given["allow_origins"]
        values: dict[str, Any] = {}
        # The wire first: it decides under which names the other settings are read.
        for setting in sorted(SETTINGS, key=lambda setting: setting.field != "wire"):
            wire = given.get("wire", values.get("wire", "native"))
            names = wire_named(wire).variable_names(setting.env)
            name = next((name for name in names if name in source), "")
            if not name:
                continue
            raw = source[name]
            try:
                values[setting.field] = setting.parse(raw)
            except ValueError as error:
                raise SettingsError(
                    f"{name}={raw!r} cannot be used ({error}); fix or unset it."
                ) from None
        values.update(given)
        if "token_audience" not in given and not source.get("CITELINE_TOKEN_AUDIENCE", "").strip():
            wire = wire_named(values.get("wire", "native"))
            values["token_audience"] = wire.default_audience(DEFAULT_AUDIENCE)
        return cls(**values)


SETTINGS: tuple[Setting, ...] = tuple(
    Setting(each.name, each.metadata["env"], each.default, each.metadata["parse"],
            each.metadata["help"])
    for each in dataclasses.fields(ServerSettings)
)  # fmt: skip


def describe_settings() -> str:
    """One line per setting (variable, default, meaning), for ``--help`` and the docs."""
    lines = []
    for setting in SETTINGS:
        default = "(none)" if setting.default in (None, ()) else str(setting.default)
        lines.append(f"{setting.env} (default {default}): {setting.help}")
    return "\n".join(lines)
