"""``FirstTokenGate``: answers reach their first token a few at a time, in arrival order.

An embedded answer is CPU work in this process up to its first token (a search, two reads,
ranking, choosing its passages) and waits on nothing. Two hundred of them started at once
ran in lockstep: each step of every answer queued behind the same step of all the others
(the searches and reads share the event loop and one thread pool, both first come first
served), so every first token came near the end, 928 ms p50 for 200 answers on two
processes with 10 ms of CPU each. Through this gate at most ``slots`` answers do that work
at a time and the rest wait their turn, in order: the first answers' readers see text while
later ones wait, and none is refused. An answer leaves the gate at its first token or when it ends;
past its first token, the rest of its text waits while any answer is still before its own
(waiting for a slot, or holding one: ``idle``), up to a bound, so the work before each
reader's first text comes first and a stream of new answers cannot hold an answer's rest
back for long. Holders count too: waking every rest when the last waiter was let in made the
last answers' first tokens share the process with 98 rests (p99 of 200 at once 898 ms where
p75 was 509 ms, measured).

It is for answers whose first token is bounded by this process's CPU: a real model's first
token waits on the provider, and gating that wait would only hold answers back.
It deliberately knows nothing of answers, events or HTTP.
"""

from __future__ import annotations

import asyncio
from collections import deque

__all__ = ["FirstTokenGate"]


class FirstTokenGate:
    """At most ``slots`` holders at a time; waiters are let in first come, first served."""

    def __init__(self, slots: int) -> None:
        if slots < 1:
            raise ValueError("a gate needs at least one slot")
        self._slots = slots
        self._free = slots
        self._waiting: deque[asyncio.Future[None]] = deque()
        # Set while nobody waits or holds a slot, i.e. no answer is before its first token:
        # what an answer past its first token waits for.
        self._idle = asyncio.Event()
        self._idle.set()

    @property
    def waiting(self) -> int:
        """How many wait for a slot now."""
        return len(self._waiting)

    @property
    def busy(self) -> bool:
        """Whether some answer is before its first token: waiting for a slot, or holding one."""
        return not self._idle.is_set()

    async def idle(self) -> None:
        """Return once nobody waits for a slot or holds one (at once when nobody does)."""
        await self._idle.wait()

    async def enter(self) -> None:
        """Wait for a slot (at once when one is free and nobody waits before this caller)."""
        if self._free and not self._waiting:
            self._free -= 1
            self._idle.clear()
            return
        waiter = asyncio.get_running_loop().create_future()
        self._waiting.append(waiter)
        self._idle.clear()
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                # Handed a slot in the same instant as cancelled: hand it to the next.
                self.leave()
            else:
                # ``leave`` may have run between this wait's cancellation and now, and
                # dropped the cancelled waiter as it passed it (a demo stopped by Ctrl+C
                # with an answer waiting raised "not in deque" here).
                if waiter in self._waiting:
                    self._waiting.remove(waiter)
                if not self._waiting and self._free == self._slots:
                    self._idle.set()
            raise

    def leave(self) -> None:
        """Give a slot back: to the longest waiter, else to the pool."""
        while self._waiting:
            waiter = self._waiting.popleft()
            if not waiter.done():
                waiter.set_result(None)
                return
        self._free += 1
        if self._free == self._slots:
            self._idle.set()
