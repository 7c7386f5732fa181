"""What a streaming response costs per event and per open stream, measured alone.

One command, prints a table:

    .venv/bin/python benchmarks/sse_response.py [--events 20000] [--streams 1000]

Each response is driven through the ASGI interface with a send that does nothing and a
receive that never reports a hang-up, so what is measured is the response's own
machinery: CPU time per event over ``--events`` pre-encoded events, and traced memory
per stream with ``--streams`` responses open at once, each parked after its first event.
Compared: citeline's ``EventStreamResponse`` (Starlette's ``StreamingResponse`` with a
timer keep-alive) and, when installed, sse-starlette's ``EventSourceResponse``, which
citeline used before.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
import tracemalloc
from collections.abc import AsyncIterator, Callable

from starlette.responses import Response
from starlette.types import Message

from citeline.server.sse import EventStreamResponse

EVENT = b'event: token\ndata: {"text":"hello "}\n\n'
SCOPE = {"type": "http", "method": "POST", "asgi": {"spec_version": "2.3"}, "headers": []}


async def _cpu_per_event(make: Callable[[AsyncIterator[bytes]], Response], count: int) -> float:
    never = asyncio.Event()

    async def events() -> AsyncIterator[bytes]:
        for _ in range(count):
            yield EVENT

    async def receive() -> Message:
        await never.wait()
        return {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        pass

    started = time.process_time()
    await make(events())(SCOPE, receive, send)
    return (time.process_time() - started) / count * 1e6


async def _bytes_per_stream(make: Callable[[AsyncIterator[bytes]], Response], count: int) -> float:
    gate, never = asyncio.Event(), asyncio.Event()

    async def events() -> AsyncIterator[bytes]:
        yield EVENT
        await gate.wait()

    async def receive() -> Message:
        await never.wait()
        return {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        pass

    tracemalloc.start()
    tasks = [asyncio.create_task(make(events())(SCOPE, receive, send)) for _ in range(count)]
    for _ in range(5):
        await asyncio.sleep(0)
    held, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    gate.set()
    await asyncio.gather(*tasks)
    return held / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--events", type=int, default=20000)
    parser.add_argument("--streams", type=int, default=1000)
    args = parser.parse_args()
    kinds: list[tuple[str, Callable[[AsyncIterator[bytes]], Response]]] = [
        ("citeline EventStreamResponse", EventStreamResponse)
    ]
    try:
        from sse_starlette import EventSourceResponse

        kinds.append(
            ("sse-starlette EventSourceResponse", lambda c: EventSourceResponse(c, ping=15))
        )
    except ImportError:
        pass
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"streaming responses alone, load average {load}\n")
    print("| response | CPU per event | memory per open stream |")
    print("|---|---|---|")
    for name, make in kinds:
        asyncio.run(_cpu_per_event(make, 1000))  # warm-up
        cpu = min(asyncio.run(_cpu_per_event(make, args.events)) for _ in range(3))
        memory = asyncio.run(_bytes_per_stream(make, args.streams))
        print(f"| {name} | {cpu:.2f} us | {memory / 1024:.1f} KB |")


if __name__ == "__main__":
    main()
