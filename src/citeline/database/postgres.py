"""PostgreSQL plumbing shared by every layer that stores there: pools, retries, checks, migrations.

- ``prepare``: the start-up check (reachable, recent enough, schema migrated), so a
  misconfiguration stops the process with a sentence, not a traceback on the first request.
- ``open_pool``: a connection pool (psycopg_pool) whose connections are checked on the way
  out, and ``with_retry``: run one unit of work, and again on a fresh connection when the
  server dropped the connection under it (a restart, a failover).
- ``Migration`` and the ledger table ``citeline_schema``: each layer lists its numbered
  migrations; opening a database applies the missing ones in one transaction, under an
  advisory lock so that two processes starting together do not both apply them.

Deliberately not here: any table of the corpus or the server (their own modules own them),
and SQLite. The driver is imported on first use, so a default install does not need it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from citeline.database.errors import (
    DatabaseTooOldError,
    DatabaseUnreachableError,
    DriverMissingError,
    SchemaTooNewError,
)
from citeline.database.url import PostgresUrl

if TYPE_CHECKING:
    import psycopg
    from psycopg_pool import ConnectionPool

T = TypeVar("T")

# PostgreSQL 14 is the oldest release the PostgreSQL project still supports (2026); the SQL
# here needs nothing newer, but a server past its end of life is refused, not guessed at.
MIN_SERVER_VERSION = 140000

# A connect that hangs (a firewall dropping packets) must end start-up in seconds.
CONNECT_TIMEOUT_S = 5

# How long a request waits for a pooled connection before it fails: ten times the 0.2 s a
# restart took here (below), and short enough that while the server is down an answer fails
# within seconds, all retries included, instead of hanging for psycopg_pool's default 30 s.
POOL_WAIT_S = 2.0

# Attempts for one unit of work when the connection drops: the first, and two more on fresh
# connections. Measured on this machine: `pg_ctl restart -m fast` refused connections for
# 0.2 s, so backoffs of 0.2 s then 0.6 s ride out a restart without stretching a real
# outage into a long wait.
RETRY_ATTEMPTS = 3
_RETRY_BACKOFF_S = (0.2, 0.6)

_LEDGER = """
CREATE TABLE IF NOT EXISTS citeline_schema (
    component text PRIMARY KEY,
    version integer NOT NULL,
    migrated_at timestamptz NOT NULL DEFAULT now()
)
"""


@dataclass(frozen=True, slots=True)
class Migration:
    """One step of a layer's schema: ``version`` is reached by running ``statements``."""

    version: int
    statements: tuple[str, ...]


def _driver() -> Any:
    try:
        import psycopg
    except ImportError:
        raise DriverMissingError(
            "a postgresql:// database needs the PostgreSQL driver: "
            "install it with pip install 'citeline[scale]'."
        ) from None
    return psycopg


def _pool_module() -> Any:
    _driver()
    try:
        import psycopg_pool
    except ImportError:
        raise DriverMissingError(
            "a postgresql:// database needs psycopg_pool: "
            "install it with pip install 'citeline[scale]'."
        ) from None
    return psycopg_pool


# SQLSTATEs that mean the server ended the session, not that the statement failed: an
# administrator or a restart shut it down, the server crashed, it is starting up, or the
# session sat idle past idle_session_timeout. Class 08 (connection exception) is matched as
# a class below.
_SESSION_ENDED = frozenset({"57P01", "57P02", "57P03", "57P05"})


def is_connection_lost(error: BaseException) -> bool:
    """Whether ``error`` means the connection (not the statement) failed: worth a retry.

    Only connection loss: psycopg's ``OperationalError`` also covers a statement timeout
    (57014), a full disk (53100) and a deadlock (40P01), and those ran on a live connection:
    retried they fail again, and reported as "cannot be reached" they send the operator to
    the network instead of the query. An ``OperationalError`` without a SQLSTATE is libpq's
    own (the socket closed, the server refused the connection): the server never answered.
    """
    psycopg = _driver()
    if isinstance(error, psycopg.OperationalError):
        sqlstate = error.sqlstate
        return sqlstate is None or sqlstate.startswith("08") or sqlstate in _SESSION_ENDED
    # A pool that cannot hand out a connection in time: the server is down or restarting.
    pool_module = _pool_module()
    return isinstance(error, pool_module.PoolTimeout)


def is_database_failure(error: BaseException) -> bool:
    """Whether ``error`` is the database failing work on a live connection (a statement
    timeout, a full disk, a deadlock, out of memory): not worth an immediate retry, and not
    an outage of the network, but not a fault in citeline's SQL either, so a caller reports
    it as the database's state (see the server's log) rather than as a bug."""
    psycopg = _driver()
    return isinstance(error, psycopg.OperationalError) and not is_connection_lost(error)


def prepare(url: PostgresUrl, component: str, migrations: Sequence[Migration]) -> None:
    """Check the server is reachable and recent enough, then migrate ``component`` in place.

    Raises ``DatabaseUnreachableError``, ``DatabaseTooOldError`` or ``SchemaTooNewError``
    with a sentence that says what to do.
    """
    psycopg = _driver()
    try:
        connection = psycopg.connect(url.url, connect_timeout=CONNECT_TIMEOUT_S)
    except psycopg.OperationalError as error:
        reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise DatabaseUnreachableError(
            f"cannot connect to the database at {url.redacted} ({reason}); check that "
            "PostgreSQL is running and that CITELINE_DATABASE_URL names the right host, "
            "port, user and database."
        ) from None
    with connection:
        version = connection.info.server_version
        if version < MIN_SERVER_VERSION:
            raise DatabaseTooOldError(
                f"the database at {url.redacted} runs PostgreSQL {_release(version)}; citeline "
                f"needs {_release(MIN_SERVER_VERSION)} or newer: upgrade the server or point "
                "CITELINE_DATABASE_URL at a newer one."
            )
        migrate(connection, component, migrations, url)


def migrate(
    connection: psycopg.Connection[Any],
    component: str,
    migrations: Sequence[Migration],
    url: PostgresUrl,
) -> int:
    """Bring ``component`` up to its latest migration in one transaction; its version after."""
    latest = max((step.version for step in migrations), default=0)
    with connection.transaction():
        # Serialises concurrent start-ups: the second process waits, then finds nothing to do.
        # One lock for every component, because each may be the one that creates the ledger.
        connection.execute("SELECT pg_advisory_xact_lock(hashtext('citeline-schema'))")
        connection.execute(_LEDGER)
        row = connection.execute(
            "SELECT version FROM citeline_schema WHERE component = %s", (component,)
        ).fetchone()
        current = int(row[0]) if row else 0
        if current > latest:
            raise SchemaTooNewError(
                f"the {component} tables at {url.redacted} are at schema version {current}, "
                f"made by a newer citeline than this one (which knows up to {latest}): "
                "upgrade citeline, or use a fresh database."
            )
        for step in sorted(migrations, key=lambda each: each.version):
            if step.version <= current:
                continue
            for statement in step.statements:
                connection.execute(statement)
        if latest != current:
            connection.execute(
                "INSERT INTO citeline_schema (component, version) VALUES (%s, %s) "
                "ON CONFLICT (component) DO UPDATE SET version = EXCLUDED.version, "
                "migrated_at = now()",
                (component, latest),
            )
    return latest


def open_pool(url: PostgresUrl, *, max_size: int = 4, name: str = "citeline") -> ConnectionPool:
    """A started pool of connections; call ``prepare`` first.

    Synchronous on purpose: the server runs store work on worker threads (as it does for
    SQLite), which keeps one code path and a ``close`` that needs no event loop.
    """
    pool_module = _pool_module()
    pool: ConnectionPool = pool_module.ConnectionPool(
        url.url,
        min_size=1,
        max_size=max_size,
        name=name,
        timeout=POOL_WAIT_S,
        kwargs={"connect_timeout": CONNECT_TIMEOUT_S},
        # A ping as a connection leaves the pool: after a server restart every idle
        # connection is dead, and this discards them instead of failing one request each.
        check=pool_module.ConnectionPool.check_connection,
        open=False,
    )
    pool.open(wait=True, timeout=CONNECT_TIMEOUT_S)
    return pool


def with_retry(
    pool: ConnectionPool,
    work: Callable[[psycopg.Connection[Any]], T],
    *,
    attempts: int = RETRY_ATTEMPTS,
) -> T:
    """``work`` in one transaction on a pooled connection, retried when the connection drops.

    ``work`` must be safe to run twice (idempotent writes), because a connection can drop
    after the server committed and before the reply arrived; work that is not passes
    ``attempts=1`` and still gets a connection the pool has just checked.
    """
    for attempt in range(attempts):
        try:
            with pool.connection() as connection:
                return work(connection)
        except Exception as error:
            if attempt + 1 == attempts or not is_connection_lost(error):
                raise
            time.sleep(_RETRY_BACKOFF_S[min(attempt, len(_RETRY_BACKOFF_S) - 1)])
    raise AssertionError("unreachable: the last attempt returns or raises")


def _release(version_number: int) -> str:
    return f"{version_number // 10000}.{version_number % 10000}"
