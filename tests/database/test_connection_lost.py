"""Which psycopg errors count as a lost connection: retried, and reported as "cannot be reached".

Each error class is named by what the server means by it; those that ran on a live
connection (a statement timeout, a full disk, a deadlock) must not be retried as an outage.
The last tests raise two of them for real on the test server, so the classes above are the
ones psycopg really raises.
"""

from __future__ import annotations

import asyncio
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

import psycopg
import pytest
from psycopg import errors
from psycopg_pool import PoolTimeout

from citeline.database import PostgresUrl
from citeline.database.postgres import is_connection_lost, is_database_failure
from citeline.server.store import Retention, StoreUnavailableError
from citeline.server.store.postgres import open_postgres_stores

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


@pytest.mark.parametrize("error_class", LOST, ids=lambda each: each.__name__)
def test_a_lost_connection_is_not_a_database_failure(error_class: type[Exception]) -> None:
    assert not is_database_failure(error_class("the connection went away"))


DATABASE_FAILURES = [each for each in NOT_LOST if issubclass(each, psycopg.OperationalError)]


@pytest.mark.parametrize("error_class", DATABASE_FAILURES, ids=lambda each: each.__name__)
def test_a_statement_the_database_failed_is_a_database_failure(
    error_class: type[Exception],
) -> None:
    assert is_database_failure(error_class("the statement failed"))


def test_a_fault_in_the_sql_is_neither(postgres_url: str) -> None:
    with psycopg.connect(postgres_url) as connection, pytest.raises(psycopg.Error) as raised:
        connection.execute("SELECT * FROM no_such_table")
    assert not is_connection_lost(raised.value)
    assert not is_database_failure(raised.value)


def _with_setting(url: str, setting: str) -> str:
    parts = urlsplit(url)
    query = dict(parse_qsl(parts.query))
    query["options"] = f"{query.get('options', '')} -c{setting}".strip()
    # libpq reads "+" literally, so spaces are written as %20.
    return urlunsplit(parts._replace(query=urlencode(query, quote_via=quote)))


def test_a_store_waiting_past_its_lock_timeout_is_unavailable_not_unreachable(
    postgres_url: str,
) -> None:
    retention = Retention(3600, 10)
    open_postgres_stores(PostgresUrl(postgres_url), answers=retention, conversations=retention)
    stores = open_postgres_stores(
        PostgresUrl(_with_setting(postgres_url, "lock_timeout=100")),
        answers=retention,
        conversations=retention,
    )
    try:
        with psycopg.connect(postgres_url) as holder:
            holder.execute("LOCK TABLE answers IN ACCESS EXCLUSIVE MODE")
            with pytest.raises(StoreUnavailableError) as raised:
                asyncio.run(stores.answers.get("an-id-that-waits-for-the-lock"))
    finally:
        stores.close()
    assert "could not be reached" not in str(raised.value)
    assert "55P03" in str(raised.value)


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
