"""How a server takes the signals that stop it: one stop told twice is one stop, and only a
second Ctrl+C forces."""

from __future__ import annotations

import logging
import signal
from collections.abc import Iterator

import pytest
import uvicorn

from citeline.server.stopping import StoppableServer


async def _app(scope: object, receive: object, send: object) -> None: ...


@pytest.fixture
def server() -> Iterator[StoppableServer]:
    yield StoppableServer(uvicorn.Config(_app))
    logging.disable(logging.NOTSET)


def test_the_parents_sigterm_after_the_terminals_ctrl_c_does_not_force(
    server: StoppableServer,
) -> None:
    server.handle_exit(signal.SIGINT, None)
    server.handle_exit(signal.SIGTERM, None)
    assert server.should_exit and not server.force_exit
    assert server.stopped_by is signal.SIGINT


def test_a_ctrl_c_after_a_sigterm_is_the_same_stop_told_twice_and_ends_at_once(
    server: StoppableServer,
) -> None:
    # A worker can hear its parent's SIGTERM before the terminal's Ctrl+C: uvicorn took
    # that as a second Ctrl+C, skipped the app's shutdown and logged its cancelled lifespan.
    server.handle_exit(signal.SIGTERM, None)
    server.handle_exit(signal.SIGINT, None)
    assert server.should_exit and not server.force_exit
    assert server.stopped_by is signal.SIGINT


def test_a_second_ctrl_c_forces_as_uvicorns_own_does(server: StoppableServer) -> None:
    server.handle_exit(signal.SIGINT, None)
    server.handle_exit(signal.SIGINT, None)
    assert server.force_exit
