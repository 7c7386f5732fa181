"""The server's listening socket, bound first, before anything else is done or printed.

It lives with the commands, not in ``citeline.server``: importing that package (FastAPI and
the engine) takes about a second, and a taken port is reported before any of it is loaded.

Measured before this existed: on a taken port, ``citeline demo`` indexed its sample, printed
"Open http://127.0.0.1:8000/" (someone else's server), and about 9 s later uvicorn logged
``[Errno 98]`` and exited with status 3. Binding the socket before anything else finds a
taken port at once, and says so in one sentence that names ``--port``; the bound socket
is then the one the server serves on, so no other program can take the port in between.
Deliberately not here: serving (``citeline.server.listen``), or choosing another port for
the user.
"""

from __future__ import annotations

import errno
import socket

from citeline.errors import CitelineError


class ListenError(CitelineError):
    """The server cannot listen where it was told to; ``str(error)`` names the flag to change."""


class PortTakenError(ListenError):
    """Another program listens on the address and port the server was given."""


def bind_listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port`` and listening; ``ListenError`` with the fix."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[
            0
        ][0]
    except (socket.gaierror, UnicodeError):
        raise ListenError(
            f"{host!r} is not an address of this machine; choose one with --host "
            "(127.0.0.1 for this machine only, 0.0.0.0 for every address)."
        ) from None
    except OverflowError:
        raise ListenError(
            f"Port {port} does not exist; choose one from 1 to 65535 with --port."
        ) from None
    try:
        # SO_REUSEADDR (set by create_server on POSIX), as uvicorn sets it: a port left in
        # TIME_WAIT by the last run is free, one another program listens on is not.
        return socket.create_server(
            (host, port), family=family, dualstack_ipv6=_dual_stack(host, family)
        )
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            raise PortTakenError(
                f"Port {port} on {host} is already taken by another program; "
                f"choose another with --port, for example --port {_next(port)}."
            ) from None
        if error.errno == errno.EACCES:
            raise ListenError(
                f"Port {port} needs privileges this user does not have; "
                "choose one above 1023 with --port."
            ) from None
        raise ListenError(
            f"Cannot listen on {host} port {port} ({error.strerror or error}); "
            "choose another address with --host or port with --port."
        ) from None


def _dual_stack(host: str, family: int) -> bool:
    # "::" means every address, IPv4 ones too, as uvicorn serves it.
    return family == socket.AF_INET6 and host == "::" and socket.has_dualstack_ipv6()


def _next(port: int) -> int:
    return port + 1 if port < 65535 else 8000
