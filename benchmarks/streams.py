"""A thousand answers streaming at once through one server process from a real provider protocol.

One command, prints a table:

    .venv/bin/python benchmarks/streams.py [--streams 1000] [--seconds 20] [--rate 20]
        [--workers 2] [--by-type 200]

Three processes on this machine: a local server speaking the OpenAI chat-completions
streaming protocol (started from this file; it streams ``--rate`` tokens a second per
answer for ``--seconds``), ``citeline serve --model openai:streams`` pointed at it (one
process, guard on, the bundled sample collection), and this client, which opens
``--streams`` answers at once over raw HTTP connections (an HTTP library's own cost per
event would be measured in the client's share of two cores, not the server's). The server
is ``citeline serve --workers N`` (2 by default, ``--workers 1`` for one process); its CPU
and memory are its processes' together.

The upstream and the client share the server's two cores, so both are written to be
cheap, and the table's preamble prints each process's CPU per token in the window: the
upstream writes every stream that is due from one timer, pre-encoded bytes to raw asyncio
transports, on a schedule fixed from each stream's start (the first version, a task per
stream sleeping between tokens, cost 18.5 us a token and delivered 14,500 of the 20,000
tokens a second asked for, so it both took the server's CPU and eased its load); the
client reads with one asyncio protocol per stream and only scans each read for stamps.
What is measured (upstream send to client receipt) and the rate are unchanged.

Every token the upstream sends carries its send time (``t<nanoseconds> ``, prose the
stream pipeline passes through); the client reads it back from each ``token`` event, so
the delay is upstream send to client receipt: it includes citeline (provider client,
tool loop, pipeline, SSE) and both loopback hops, so it bounds what citeline adds from
above. Reported: errors (a stream that did not end ``answered``), that delay's p50 and
p99, the server's CPU per streamed token over the window when every stream was open (by
``/proc``; it falls as the server falls behind, because a read then carries several tokens
that the coalescer makes one chunk, so read it beside the delay), and the server's resident
memory per open stream (resident set with every
stream open, less before the first). Targets: 0 errors, p99 < 50 ms, <= 30 us CPU per
token, <= 100 KB per stream.

A second table says what a held stream keeps alive, by type: ``--by-type K`` answers (200 by
default, 0 skips it) held open through the app served in this process (uvicorn on a thread),
and every Python object and every allocation (tracemalloc) counted before they start and
with all of them open, per stream, the largest first, each allocation by the file that made
it, so what is citeline's own shows apart from the libraries'.

A third table splits the CPU per token by layer, in this process against the same
upstream, ``--layers`` answers at once (0 skips it): the OpenAI SDK alone reading the
stream over httpx2's default transport (AnyIO), the same through the coalescing
transport (``citeline.models.sse_coalescing``), the same over citeline's asyncio network
backend (``citeline.models.provider_network``), the same with its chunks built by
pydantic-core (``citeline.models.provider_chunks``, what citeline's provider client uses), the
model library's streaming request on top of that (what citeline drives), and citeline's
whole answer (request set-up, search, tool loop, pipeline, events, SSE encoding) without
the HTTP server. The differences are what each layer adds or saves at that load.
"""

from __future__ import annotations

import argparse
import asyncio
import heapq
import json
import math
import os
import re
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy
import uvloop
from serving import free_port

from citeline.corpus import Corpus
from citeline.sample import RELEASE, sample_path
from citeline.server.tokens import generate_key_pair, mint_token
from server import start_server  # beside this script, first on sys.path

TARGET_ERRORS = 0
TARGET_P99_MS = 50.0
TARGET_CPU_US_PER_TOKEN = 30.0
TARGET_KB_PER_STREAM = 100.0
STAMP = re.compile(rb"t(\d{19}) ")
_EXCEPTION_LINE = re.compile(r"^[A-Za-z_][\w.]*(Error|Exception|Timeout|Exit)\b")


# --- the upstream: an OpenAI-protocol server that streams stamped tokens at a fixed rate ---
#
# The upstream and the reader share the server's two cores, so they are written to cost
# as little as they can (measured first, 1,000 streams on a quiet machine: the old
# upstream, a task per stream sleeping between writes, spent 18.5 us a token and kept
# only 14,500 of the 20,000 tokens a second it was asked for). Now one timer writes every
# stream that is due, in time order, from pre-encoded bytes to raw asyncio transports; a
# stream's tokens are due at fixed times from its start, so the rate holds whatever the
# load. The stamp is still the clock read at each write: what is measured, upstream send
# to reader receipt, is unchanged.


def _chunk(delta: dict[str, object], finish: str | None = None) -> bytes:
    choice = {"index": 0, "delta": delta, "finish_reason": finish}
    body = {"id": "c", "object": "chat.completion.chunk", "created": 0, "model": "streams"}
    return b"data: " + json.dumps({**body, "choices": [choice]}).encode() + b"\n\n"


_HEAD = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n"
_TOKEN_BEFORE, _TOKEN_AFTER = _chunk({"content": "t0 "}).split(b"t0 ")
_TEXT_START = _chunk({"role": "assistant", "content": ""})
_END = _chunk({}, "stop") + b"data: [DONE]\n\n"


def _tool_call_reply() -> bytes:
    # A first request searches, as a model does: an answer that called no tool is
    # nothing_found, whatever it says.
    call = {"index": 0, "id": "call_0", "type": "function"}
    call["function"] = {"name": "search", "arguments": '{"query": "generator"}'}
    return _chunk({"role": "assistant", "tool_calls": [call]}) + _chunk({}, "tool_calls")


_TOOL_CALL = _HEAD + _tool_call_reply() + b"data: [DONE]\n\n"


class _UpstreamConnection(asyncio.Protocol):
    """One request: read it whole, then either answer with a tool call or join the schedule."""

    def __init__(self, schedule: _Schedule) -> None:
        self.schedule = schedule
        self.transport: asyncio.Transport | None = None
        self.received = b""
        self.sent = 0
        self.closed = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True

    def data_received(self, data: bytes) -> None:
        self.received += data
        head, separator, body = self.received.partition(b"\r\n\r\n")
        if not separator:
            return
        length = 0
        for line in head.split(b"\r\n"):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":", 1)[1])
        if len(body) < length:
            return
        assert self.transport is not None
        messages = json.loads(body[:length])["messages"]
        self.received = b""
        if not any(message.get("role") == "tool" for message in messages):
            self.transport.write(_TOOL_CALL)
            self.transport.close()
            return
        self.transport.write(_HEAD + _TEXT_START)
        self.schedule.add(self)


class _Schedule:
    """Every streaming connection's next due time, and the one timer that writes them."""

    def __init__(self, tokens: int, gap: float) -> None:
        self.tokens = tokens
        self.gap = gap
        self.due: list[tuple[float, int, _UpstreamConnection]] = []
        self.loop = asyncio.get_running_loop()
        self.timer: asyncio.TimerHandle | None = None
        self.serial = 0  # ties in due time never compare connections

    def add(self, connection: _UpstreamConnection) -> None:
        self.serial += 1
        heapq.heappush(self.due, (self.loop.time() + self.gap, self.serial, connection))
        self._arm()

    def _arm(self) -> None:
        if self.due and self.timer is None:
            # On the next whole millisecond: libuv counts timers in milliseconds and polls
            # without waiting while one is due within the current one, so a timer armed a
            # fraction of a millisecond ahead spins. Measured: 300 streams kept this process
            # at 0.77 of a core (129 us a token), beside the server on a two-core machine;
            # 0.09 (14 us) armed on whole milliseconds. The stamp is taken when written, so
            # the measured delay does not include this rounding.
            at = math.ceil(self.due[0][0] * 1000) / 1000
            self.timer = self.loop.call_at(at, self._write_due)

    def _write_due(self) -> None:
        self.timer = None
        now = self.loop.time()
        due = self.due
        while due and due[0][0] <= now:
            at, serial, connection = heapq.heappop(due)
            if connection.closed:
                continue
            transport = connection.transport
            assert transport is not None
            stamp = str(time.time_ns()).encode()
            transport.write(_TOKEN_BEFORE + b"t" + stamp + b" " + _TOKEN_AFTER)
            connection.sent += 1
            if connection.sent >= self.tokens:
                transport.write(_END)
                transport.close()
            else:
                heapq.heappush(due, (at + self.gap, serial, connection))
        self._arm()


def run_upstream(port: int, tokens: int, gap: float) -> None:
    async def serve() -> None:
        schedule = _Schedule(tokens, gap)
        loop = asyncio.get_running_loop()
        server = await loop.create_server(
            lambda: _UpstreamConnection(schedule), "127.0.0.1", port, backlog=4096
        )
        async with server:
            await server.serve_forever()

    uvloop.run(serve())


# --- the client: raw connections reading SSE, one asyncio protocol each ---------------------


@dataclass
class Stream:
    delays_ms: list[float] = field(default_factory=list)
    received: list[int] = field(default_factory=list)  # receipt times, ns
    state: str = "error"


class _Reader(asyncio.Protocol):
    """One answer read to its ``done``: each read's stamps are found with one regex scan.

    Only complete lines are scanned (a stamp split across reads is found in the next);
    the ``done`` event's state is the one JSON parsed.
    """

    def __init__(self, stream: Stream, request: bytes, opened: Callable[[], None]) -> None:
        self.stream = stream
        self.request = request
        self.opened: Callable[[], None] | None = opened
        self.pending = b""
        self.after_done: bytes | None = None
        self.ended: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.transport: asyncio.BaseTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        transport.write(self.request)  # type: ignore[attr-defined]

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.ended.done():
            self.ended.set_result(None)

    def data_received(self, data: bytes) -> None:
        now = time.time_ns()
        if self.after_done is not None:
            self._read_done(self.after_done + data)
            return
        buffer = self.pending + data
        cut = buffer.rfind(b"\n") + 1
        complete, self.pending = buffer[:cut], buffer[cut:]
        stamps = STAMP.findall(complete)
        if stamps:
            stream = self.stream
            stream.delays_ms.extend((now - int(stamp)) / 1e6 for stamp in stamps)
            stream.received.extend([now] * len(stamps))
            if self.opened is not None:
                self.opened()
                self.opened = None
        at = complete.find(b"event: done\n")
        if at >= 0:
            self._read_done(complete[at:] + self.pending)

    def _read_done(self, tail: bytes) -> None:
        self.after_done = tail
        start = tail.find(b"data: ")
        end = tail.find(b"\n", start)
        if start < 0 or end < 0:
            return  # the state has not all arrived yet
        try:
            self.stream.state = json.loads(tail[start + 6 : end])["state"]
        except ValueError:
            self.stream.state = "error"
        assert self.transport is not None
        # The answer is over; the server may keep the connection open after it.
        self.transport.close()
        if not self.ended.done():
            self.ended.set_result(None)


async def read_answer(
    host: str, port: int, token: str, opened: Callable[[], None], limit: float
) -> Stream:
    """One answer read to its end, or to ``limit`` seconds (then it counts as an error)."""
    stream = Stream()
    body = json.dumps({"question": "What is a generator?", "caller_token": token})
    request = (
        f"POST /v1/answer HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n{body}"
    ).encode()
    loop = asyncio.get_running_loop()
    try:
        async with asyncio.timeout(limit):
            _, reader = await loop.create_connection(
                lambda: _Reader(stream, request, opened), host, port
            )
            await reader.ended
    except TimeoutError:
        stream.state = "timed out"
    except OSError:
        stream.state = "error"
    return stream


def _proc(pid: int) -> tuple[float, int]:
    """CPU seconds (user + system) and resident bytes of process ``pid`` and its children
    (a server's workers), from ``/proc``."""
    children = Path(f"/proc/{pid}/task/{pid}/children")
    pids = [pid, *(int(child) for child in children.read_text().split())]
    cpu, rss = 0.0, 0
    for each in pids:
        fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
        cpu += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        rss += int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
    return cpu, rss


def _workers_cpu(pid: int) -> dict[int, float]:
    """CPU seconds of each worker of server ``pid`` (the process itself when it has none);
    multiprocessing's resource tracker, a child too, is no worker."""
    found = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    workers = [
        int(child)
        for child in found
        if b"resource_tracker" not in Path(f"/proc/{child}/cmdline").read_bytes()
    ]
    cpu = {}
    for each in workers or [pid]:
        fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
        cpu[each] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return cpu


async def _warm_every_worker(host: str, port: int, pid: int, token: str, limit: float) -> None:
    """Answers, a few at once, until every worker has answered one: a worker's first answer
    loads the provider's client and the model library (tens of MB, once a process), which
    is no stream's memory. With one warm-up, ``--workers 2`` counted the second worker's
    first answer in the streams' share: 294 KB a stream at 200 streams."""
    idle = _workers_cpu(pid)
    for _ in range(10):
        warm = await asyncio.gather(
            *(read_answer(host, port, token, lambda: None, limit) for _ in range(2 * len(idle)))
        )
        if any(answer.state != "answered" for answer in warm):
            raise SystemExit("a warm-up answer did not end answered; see the server log")
        # A worker's first answer costs it most of a second of CPU (measured: 0.9 s); an
        # idle one spends none.
        spent = _workers_cpu(pid)
        if all(spent.get(worker, 0.0) - idle[worker] > 0.2 for worker in idle):
            return
    raise SystemExit("a worker answered none of the warm-up answers; see the server log")


async def run_streams(
    url: str, pid: int, upstream_pid: int, count: int, private_pem: bytes, seconds: float
) -> None:
    host, port = url.removeprefix("http://").split(":")
    tokens = [
        mint_token(private_pem, subject=f"reader-{n}", ttl_seconds=900, audience="citeline")
        for n in range(count + 1)
    ]
    limit = seconds * 3 + 120
    await _warm_every_worker(host, int(port), pid, tokens[-1], limit)
    cpu_first, rss_before = _proc(pid)
    loop = asyncio.get_running_loop()
    all_open: asyncio.Future[None] = loop.create_future()
    opened = 0

    def one_opened() -> None:
        nonlocal opened
        opened += 1
        if opened == count and not all_open.done():
            all_open.set_result(None)

    tasks = [
        asyncio.create_task(read_answer(host, int(port), tokens[n], one_opened, limit))
        for n in range(count)
    ]
    # The window: from every stream having its first token to the first stream ending. If a
    # stream ends before the last one opens (a slow ramp on a busy machine), there is none.
    waiting: list[asyncio.Future[Any]] = [all_open, *tasks]
    await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
    cpu_start, rss_open = _proc(pid)
    upstream_start, client_start = _proc(upstream_pid)[0], time.process_time()
    window_start = time.time_ns()
    open_streams = opened
    await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    cpu_end, _ = _proc(pid)
    upstream_end, client_end = _proc(upstream_pid)[0], time.process_time()
    window_end = time.time_ns()
    streams = await asyncio.gather(*tasks)
    cpu_last, _ = _proc(pid)

    delays = [d for s in streams for d in s.delays_ms]
    in_window = sum(1 for s in streams for t in s.received if window_start <= t <= window_end)
    errors = sum(s.state != "answered" for s in streams)
    cpu_per_token = (cpu_end - cpu_start) / max(in_window, 1) * 1e6
    # The whole run: every answer's start (request, guard, store) spread over its tokens.
    cpu_per_token_all = (cpu_last - cpu_first) / max(len(delays), 1) * 1e6
    per_stream_kb = (rss_open - rss_before) / max(open_streams, 1) / 1024
    p50, p99 = (float(numpy.percentile(delays, p)) for p in (50, 99)) if delays else (0.0, 0.0)
    # The same delay over the window's second half only: every answer has started by then,
    # so it is the delay of holding the streams, without the ramp's answer starts in it.
    middle = (window_start + window_end) // 2
    settled = [
        delay
        for stream in streams
        for delay, at in zip(stream.delays_ms, stream.received, strict=True)
        if middle <= at <= window_end
    ]
    settled_p50, settled_p99 = (
        (float(numpy.percentile(settled, p)) for p in (50, 99)) if settled else (0.0, 0.0)
    )
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    window = (window_end - window_start) / 1e9
    print(f"{count} streams, one server, {os.cpu_count()} CPUs, load average {load}")
    states: dict[str, int] = {}
    for stream in streams:
        states[stream.state] = states.get(stream.state, 0) + 1
    print(f"window with every stream open: {window:.1f} s, {in_window} tokens in it")
    print(f"how the streams ended: {states}")
    if in_window:
        shares = (
            ("citeline server", cpu_end - cpu_start),
            ("upstream", upstream_end - upstream_start),
            ("reading client", client_end - client_start),
        )
        print(
            "CPU per token in the window, by process: "
            + ", ".join(
                f"{name} {spent / in_window * 1e6:.1f} us ({spent / window:.2f} cores)"
                for name, spent in shares
            )
        )
    print()
    print("| measure | value | target | met |")
    print("|---|---|---|---|")
    rows = [
        ("streams not ending answered", f"{errors}", f"{TARGET_ERRORS}", errors <= TARGET_ERRORS),
        ("streams open at once", f"{open_streams}", f"{count}", open_streams == count),
        ("token delay upstream to reader, p50", f"{p50:.1f} ms", "", None),
        ("token delay upstream to reader, p99", f"{p99:.1f} ms", f"< {TARGET_P99_MS:.0f} ms",
         p99 < TARGET_P99_MS),
        ("the same in the window's second half, p50 / p99",
         f"{settled_p50:.1f} / {settled_p99:.1f} ms" if settled else "no such window", "", None),
        ("server CPU per streamed token, every stream open",
         f"{cpu_per_token:.1f} us" if in_window else "no such window",
         f"<= {TARGET_CPU_US_PER_TOKEN:.0f} us",
         (cpu_per_token <= TARGET_CPU_US_PER_TOKEN) if in_window else None),
        ("server CPU per streamed token, whole run", f"{cpu_per_token_all:.1f} us",
         f"<= {TARGET_CPU_US_PER_TOKEN:.0f} us", cpu_per_token_all <= TARGET_CPU_US_PER_TOKEN),
        ("server memory per open stream", f"{per_stream_kb:.0f} KB",
         f"<= {TARGET_KB_PER_STREAM:.0f} KB", per_stream_kb <= TARGET_KB_PER_STREAM),
    ]  # fmt: skip
    for name, value, target, met in rows:
        verdict = "" if met is None else ("yes" if met else "NO")
        print(f"| {name} | {value} | {target} | {verdict} |")


async def memory_by_type(
    db: Path, public_key: Path, private_pem: bytes, count: int, seconds: float
) -> None:
    """What ``count`` held streams keep alive, per stream: objects by type, and allocations
    by the file that made them, in this process (the app served on a thread)."""
    import collections
    import gc
    import sys
    import threading
    import tracemalloc

    import uvicorn

    from citeline.server import ServerSettings, create_app
    from citeline.server.listen import uvicorn_config

    port = free_port()
    settings = ServerSettings.from_env(
        db=db,
        port=port,
        caller_key_file=public_key,
        rate_limit=1_000_000,
        max_connections_per_peer=1_000_000,
        model="openai:streams",
        workers=1,
    )
    server = uvicorn.Server(uvicorn_config(create_app(settings), settings))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        await asyncio.sleep(0.05)
    tokens = [
        mint_token(private_pem, subject=f"typed-{n}", ttl_seconds=900, audience="citeline")
        for n in range(count + 1)
    ]
    limit = seconds * 3 + 120
    await read_answer("127.0.0.1", port, tokens[-1], lambda: None, limit)

    def kind(thing: object) -> str:
        made = type(thing)
        return f"{getattr(made, '__module__', '?')}.{getattr(made, '__qualname__', '?')}"

    def census() -> collections.Counter[str]:
        gc.collect()
        return collections.Counter(kind(o) for o in gc.get_objects())

    def sizes() -> collections.Counter[str]:
        sized: collections.Counter[str] = collections.Counter()
        for o in gc.get_objects():
            sized[kind(o)] += sys.getsizeof(o)
        return sized

    before, sized_before = census(), sizes()
    tracemalloc.start()
    start = tracemalloc.take_snapshot()
    loop = asyncio.get_running_loop()
    all_open: asyncio.Future[None] = loop.create_future()
    opened = 0

    def one_opened() -> None:
        nonlocal opened
        opened += 1
        if opened == count and not all_open.done():
            all_open.set_result(None)

    tasks = [
        asyncio.create_task(read_answer("127.0.0.1", port, tokens[n], one_opened, limit))
        for n in range(count)
    ]
    await asyncio.wait([all_open, *tasks], return_when=asyncio.FIRST_COMPLETED)
    held = tracemalloc.take_snapshot()
    after, sized_after = census(), sizes()
    tracemalloc.stop()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    server.should_exit = True
    thread.join(30)
    grown = {name: after[name] - before[name] for name in after if after[name] > before[name]}
    by_size = sorted(grown, key=lambda name: -(sized_after[name] - sized_before[name]))
    print(f"\nWhat a held stream keeps alive, {opened} open in this process (per stream):\n")
    print("| Python type | objects | bytes (their own) |")
    print("|---|---:|---:|")
    for name in by_size[:15]:
        print(
            f"| {name} | {grown[name] / opened:.1f} | "
            f"{(sized_after[name] - sized_before[name]) / opened:.0f} |"
        )
    files: collections.Counter[str] = collections.Counter()
    for difference in held.compare_to(start, "filename"):
        name = difference.traceback[0].filename
        owner = name.split("site-packages/")[-1] if "site-packages" in name else name
        files[owner.split("/src/")[-1]] += difference.size_diff
    total = sum(files.values())
    print(f"\nallocated and still held: {total / opened / 1024:.1f} KB a stream, by file:\n")
    print("| file | bytes a stream |")
    print("|---|---:|")
    for name, size in files.most_common(15):
        print(f"| {name} | {size / opened:.0f} |")


async def layer_costs(base_url: str, db: Path, count: int, tokens: int) -> None:
    """CPU per token of each layer, each run ``count`` at once after one warm-up.

    The layers below citeline send the conversation after a search (a user question, the
    model's tool call, the tool's result), so the upstream streams its text to them as it
    does to citeline's second request; sent the question alone, it answers with a tool call
    and no text, and those rows would time a tool call's cost spread over tokens never sent.
    """
    import httpx2
    from openai import AsyncOpenAI
    from pydantic_ai.direct import model_request_stream
    from pydantic_ai.messages import ModelRequest, ModelResponse, ToolCallPart, ToolReturnPart
    from pydantic_ai.models import create_async_httpx2_client
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.openai import OpenAIProvider

    from citeline import answer
    from citeline.events import encode_sse
    from citeline.models.provider_chunks import ChunkValidatingOpenAI
    from citeline.models.provider_network import provider_transport
    from citeline.models.sse_coalescing import CoalescingTransport

    pool = httpx2.Limits(max_connections=count + 8)

    def sdk(
        transport: httpx2.AsyncBaseTransport | None = None, kind: type[AsyncOpenAI] = AsyncOpenAI
    ) -> AsyncOpenAI:
        if transport is None:
            client = create_async_httpx2_client(limits=pool)
        else:
            client = create_async_httpx2_client(transport=transport)
        return kind(base_url=base_url, api_key="-", http_client=client)

    plain = sdk()
    coalesced = sdk(CoalescingTransport(httpx2.AsyncHTTPTransport(limits=pool)))
    asyncio_backend = sdk(CoalescingTransport(provider_transport(pool)))
    citelines = sdk(CoalescingTransport(provider_transport(pool)), ChunkValidatingOpenAI)
    library = OpenAIChatModel("streams", provider=OpenAIProvider(openai_client=citelines))
    corpus = Corpus.open(db)
    call = {"id": "call_0", "type": "function"}
    call["function"] = {"name": "search", "arguments": '{"query": "generator"}'}
    after_search: list[Any] = [
        {"role": "user", "content": "What is a generator?"},
        {"role": "assistant", "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "call_0", "content": "[]"},
    ]
    library_messages = [
        ModelRequest.user_text_prompt("What is a generator?"),
        ModelResponse(parts=[ToolCallPart("search", {"query": "generator"}, "call_0")]),
        ModelRequest(parts=[ToolReturnPart("search", "[]", "call_0")]),
    ]

    def sdk_alone(client: AsyncOpenAI) -> Callable[[], Awaitable[None]]:
        async def one() -> None:
            chunks = await client.chat.completions.create(
                model="s", messages=after_search, stream=True
            )
            async for _ in chunks:
                pass

        return one

    async def with_library() -> None:
        async with model_request_stream(library, library_messages) as stream:
            async for _ in stream:
                pass

    async def with_citeline() -> None:
        async for event in answer("What is a generator?", corpus=corpus, model="openai:s"):
            encode_sse(event).encode()

    print(f"\nCPU per streamed token by layer, {count} at once in one process:\n")
    print("| layer | CPU per token | added by the layer |")
    print("|---|---|---|")
    below = 0.0
    for name, one in (
        ("OpenAI SDK reading the stream (httpx2 over AnyIO)", sdk_alone(plain)),
        ("the same, its text deltas coalesced per read", sdk_alone(coalesced)),
        ("the same over citeline's asyncio network backend", sdk_alone(asyncio_backend)),
        ("the same, its chunks built by pydantic-core", sdk_alone(citelines)),
        ("+ pydantic-ai streaming request", with_library),
        ("+ citeline answer (request set-up, search, loop, pipeline, SSE)", with_citeline),
    ):
        await one()
        started = time.process_time()
        await asyncio.gather(*(one() for _ in range(count)))
        per_token = (time.process_time() - started) / (count * tokens) * 1e6
        print(f"| {name} | {per_token:.1f} us | {per_token - below:+.1f} us |")
        below = per_token


def _print_failures(folder: Path) -> None:
    """The server's warnings and errors, each distinct message once with its count."""
    counts: dict[str, int] = {}
    for log in folder.glob("server-*.log"):
        for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if record.get("level") in {"warning", "error", "critical"}:
                message = str(record.get("message", ""))[:160]
                # The exception's last line says what broke (the message alone does not), and
                # the first exception of a chain (a connect or pool timeout under a library's
                # wrapper) says why.
                lines = str(record.get("exception", "")).strip().splitlines()
                raised = [line for line in lines if _EXCEPTION_LINE.match(line)]
                if lines:
                    message = f"{message} <- {lines[-1][:200]}"
                if len(raised) > 1:
                    message = f"{message} <- first {raised[0][:200]}"
                counts[message] = counts.get(message, 0) + 1
    for message, count in sorted(counts.items(), key=lambda item: -item[1])[:5]:
        print(f"server log, {count}x: {message}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=20.0, help="how long each answer streams")
    parser.add_argument("--rate", type=float, default=20.0, help="tokens a second per answer")
    parser.add_argument("--layers", type=int, default=200, help="answers at once per layer")
    parser.add_argument("--workers", type=int, default=2, help="processes of the server")
    parser.add_argument("--by-type", type=int, default=200, help="streams held to count by type")
    parser.add_argument("--upstream", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    tokens = int(args.seconds * args.rate)
    if args.upstream:
        run_upstream(args.upstream, tokens, 1 / args.rate)
        return

    import subprocess

    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        db = folder / "sample.db"
        with Corpus.open(db) as corpus:
            corpus.ingest(sample_path(), release=RELEASE)
        pair = generate_key_pair()
        public_key = folder / "public.pem"
        public_key.write_bytes(pair.public_pem)
        upstream_port = free_port()
        argv = [sys.executable, __file__, "--upstream", str(upstream_port)]
        argv += ["--seconds", str(args.seconds), "--rate", str(args.rate)]
        upstream = subprocess.Popen(argv)
        env = {
            "CITELINE_MODEL": "openai:streams",
            "OPENAI_BASE_URL": f"http://127.0.0.1:{upstream_port}/v1",
            "OPENAI_API_KEY": "not-a-secret",
        }
        try:
            process, url = start_server(folder, db, public_key, env=env, workers=args.workers)
            try:
                uvloop.run(
                    run_streams(
                        url, process.pid, upstream.pid, args.streams, pair.private_pem, args.seconds
                    )
                )
            finally:
                process.kill()  # a graceful stop would wait for the streams it still holds
                process.wait(10)
                _print_failures(folder)
            os.environ.update(env)
            if args.by_type:
                uvloop.run(
                    memory_by_type(db, public_key, pair.private_pem, args.by_type, args.seconds)
                )
            if args.layers:
                asyncio.run(layer_costs(env["OPENAI_BASE_URL"], db, args.layers, tokens))
        finally:
            upstream.kill()
            upstream.wait(10)


if __name__ == "__main__":
    main()
