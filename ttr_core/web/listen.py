"""The listening socket of `ttr serve` and `ttr edit`, opened before the server
starts (so a port in use is a clear message and exit 2, not a traceback from
inside uvicorn), and the address a person opens in the browser.

>>> listener = open_listener("127.0.0.1", 0)
>>> page_address("127.0.0.1", listener).startswith("http://127.0.0.1:")
True
>>> listener.close()
"""

from __future__ import annotations

import socket

#: Connections made before the server starts wait in this queue, not fail.
BACKLOG = 128
#: Hosts meaning "every address of this machine".
EVERY_ADDRESS = ("0.0.0.0", "::")


class ListenError(OSError):
    """The address cannot be listened on (the message says which and why)."""


def open_listener(host: str, port: int) -> socket.socket:
    """A TCP socket bound to `host`:`port` (0: any free port) and listening.
    Raises `ListenError`."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        # IPPROTO_TCP named, so that asyncio turns Nagle off (TCP_NODELAY) on every
        # connection: with proto 0 each keep-alive answer waited ~40 ms for the
        # client's delayed ACK.
        listener = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    except OSError as error:
        raise ListenError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
        listener.listen(BACKLOG)
    except (OSError, OverflowError, UnicodeError) as error:
        listener.close()
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise ListenError(f"cannot listen on {host}:{port}: {reason}") from None
    return listener


def page_address(host: str, listener: socket.socket) -> str:
    """The page's address (`http://HOST:PORT`): a server on every address is shown
    at 127.0.0.1; an IPv6 address in brackets."""
    port = listener.getsockname()[1]
    if host in EVERY_ADDRESS:
        return f"http://127.0.0.1:{port}"
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def serve_until_stopped(application: object, listener: socket.socket, *, lifespan: bool) -> None:
    """Serve `application` on `listener` with uvicorn until Ctrl-C (uvicorn shuts
    down, then passes Ctrl-C on); the listener is closed after. `lifespan`: run the
    app's start and stop (the web table's stored games)."""
    import uvicorn

    config = uvicorn.Config(application, log_level="warning", lifespan="on" if lifespan else "off")
    try:
        uvicorn.Server(config).run(sockets=[listener])
    except KeyboardInterrupt:
        pass
    finally:
        listener.close()
