"""Which psycopg errors count as a lost connection: retried, and reported as "cannot be reached".

Each error class is named by what the server means by it; those that ran on a live
connection (a statement timeout, a full disk, a deadlock) must not be retried as an outage.
The last tests raise two of them for real on the test server, so the classes above are the
ones psycopg really raises.
"""

from __future__ import annotations

import psycopg
import pytest
from psycopg import errors
from psycopg_pool import PoolTimeout

from citeline.database.postgres import is_connection_lost

LOST: list[type[Exception]] = [
    # libpq's own: the socket closed or the server refused the connection (no SQLSTATE).
    psycopg.OperationalError,
    errors.ConnectionException,
    errors.ConnectionFailure,
    errors.SqlclientUnableToEstablishSqlconnection,
    errors.ProtocolViolation,
    errors.AdminShutdown,
    errors.CrashShutdown,
    errors.CannotConnectNow,
    errors.IdleSessionTimeout,
    PoolTimeout,
]

NOT_LOST: list[type[Exception]] = [
    errors.QueryCanceled,  # statement_timeout
    errors.DiskFull,
    errors.DeadlockDetected,
    errors.SerializationFailure,
    errors.OutOfMemory,
    errors.TooManyConnections,
    errors.LockNotAvailable,
    errors.DatabaseDropped,
    errors.UniqueViolation,
    errors.UndefinedTable,
    ValueError,
]


@pytest.mark.parametrize("error_class", LOST, ids=lambda each: each.__name__)
def test_a_connection_that_is_gone_counts_as_lost(error_class: type[Exception]) -> None:
    assert is_connection_lost(error_class("the connection went away"))


@pytest.mark.parametrize("error_class", NOT_LOST, ids=lambda each: each.__name__)
def test_a_statement_that_failed_on_a_live_connection_is_not_lost(
    error_class: type[Exception],
) -> None:
    assert not is_connection_lost(error_class("the statement failed"))


def test_a_real_statement_timeout_is_not_a_lost_connection(postgres_url: str) -> None:
    with psycopg.connect(postgres_url) as connection:
        connection.execute("SET statement_timeout = '10ms'")
        with pytest.raises(psycopg.OperationalError) as raised:
            connection.execute("SELECT pg_sleep(1)")
    assert not is_connection_lost(raised.value)


def test_a_real_terminated_session_is_a_lost_connection(postgres_url: str) -> None:
    with psycopg.connect(postgres_url, autocommit=True) as victim:
        pid = victim.info.backend_pid
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        with pytest.raises(psycopg.OperationalError) as raised:
            victim.execute("SELECT 1")
    assert is_connection_lost(raised.value)
