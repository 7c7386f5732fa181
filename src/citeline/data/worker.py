"""The query worker: a child process that runs queries on the catalog's file, one at a time.

``citeline.data.sandbox`` starts it as ``python -m citeline.data.worker FD DATABASE MAX_ROWS
MEMORY_MB`` with one end of a socket pair as ``FD``, and kills it when a query runs past its
time or the answer that asked for it ends. Here the process bounds itself before it runs
any query: its data segment (``RLIMIT_DATA``, which on Linux counts the heap and every private
mapping, so every allocation DuckDB makes) to ``MEMORY_MB``, its file writes to nothing
(``RLIMIT_FSIZE`` 0), and before each query its CPU time to the query's limit plus a second
(``RLIMIT_CPU``), so even a worker whose parent died cannot run on; and it lowers its CPU
priority below the server's (``NICENESS``), so queries yield the CPU to answering. Then it
opens the file through ``citeline.data.readonly`` and answers requests until its socket
closes.

Requests and replies are pickled tuples (parent and worker are the same code):
``("query", sql, parameters)`` or ``("check", sql)``; ``("ok", QueryResult | None)``,
``("refused", message)`` or ``("failed", message)``. A reply larger than
``MAX_REPLY_BYTES`` is replaced by a failure. This module knows nothing of models or tools.
"""

from __future__ import annotations

import math
import os
import pickle
import resource
import sys
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from citeline.data.errors import DataError, QueryFailedError, QueryRefusedError
from citeline.data.readonly import (
    MAX_REPLY_BYTES,
    QueryLimits,
    check_single_query,
    open_read_only,
    out_of_memory,
    run_query,
)


def serve(connection: Connection, database: Path, max_rows: int, memory_mb: int) -> None:
    limits = QueryLimits(max_rows=max_rows, memory_mb=memory_mb)
    try:
        duck = open_read_only(database, limits)
    except Exception as error:
        # Told to the parent, which says it in its own words; a traceback on the terminal
        # (the catalog's file removed as a server stopped, say) says nothing to anyone.
        connection.send_bytes(pickle.dumps(("failed", f"{type(error).__name__}: {error}")))
        return
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    connection.send_bytes(pickle.dumps(("ready",)))
    while True:
        try:
            request = pickle.loads(connection.recv_bytes())
        except EOFError:
            return
        _bound_cpu(float(request[-1]))
        reply: tuple[Any, ...]
        try:
            if request[0] == "check":
                check_single_query(duck, request[1])
                reply = ("ok", None)
            else:
                reply = ("ok", run_query(duck, request[1], request[2], limits))
            payload = pickle.dumps(reply)
            if len(payload) > MAX_REPLY_BYTES:
                raise QueryFailedError(
                    f"The result is larger than {MAX_REPLY_BYTES // 2**20} MB;"
                    " select fewer or shorter values."
                )
        except QueryRefusedError as refusal:
            payload = pickle.dumps(("refused", str(refusal)))
        except DataError as error:
            payload = pickle.dumps(("failed", str(error)))
        except MemoryError:
            payload = pickle.dumps(("failed", out_of_memory(limits)))
        connection.send_bytes(payload)


def _bound_cpu(seconds: float) -> None:
    """Allow this query ``seconds`` of CPU time (plus one, as the limit counts whole seconds)
    on top of what the process has used; past it the kernel ends the process."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    used = usage.ru_utime + usage.ru_stime
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft = math.ceil(used + seconds) + 1
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


# How much lower than the server's the workers' CPU priority is (``nice``): a query is one
# answer's work, and measured on two cores, two workers at the server's priority running 40
# slow queries of one answer took other readers' first tokens from 0.55 s to 2 s.
NICENESS = 10


def main(argv: list[str]) -> None:
    fd, database, max_rows, memory_mb = argv
    os.nice(NICENESS)
    memory = int(memory_mb) * 2**20
    resource.setrlimit(resource.RLIMIT_DATA, (memory, memory))
    serve(Connection(int(fd)), Path(database), int(max_rows), int(memory_mb))


if __name__ == "__main__":
    main(sys.argv[1:])
