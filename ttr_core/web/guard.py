"""What keeps other web pages and other names out of the web apps (the web table
and the editor), before any route runs (an ASGI middleware):

- **Host**: the `Host` header must name the server as it was started: the
  loopback names (`127.0.0.1`, `localhost`, `::1`) for a server on 127.0.0.1;
  when it listens on every address (`0.0.0.0`), any IP address, this machine's
  own names, and the names given with `--allow-host`. A page on another domain
  that a DNS server points at this machine (DNS rebinding) is refused: its
  requests carry its own name.
- **Origin**: a request that changes something (POST) and comes from a browser
  page must come from this server's own page: its `Origin` must be the server's
  (scheme and the `Host` it was sent to), and `Sec-Fetch-Site` may not say
  cross-site. Requests without those headers (scripts, curl) pass.
- **JSON only**: such a request must say `Content-Type: application/json`. A page
  on another site cannot send that without asking first (a CORS preflight, which
  this server never grants), so no form or `text/plain` post can fill the lobby.

Every refusal is a JSON error with a 4xx status, like every other error.

>>> hosts = AllowedHosts.for_address("127.0.0.1")
>>> hosts.allows("localhost:8000"), hosts.allows("evil.example:8000"), hosts.allows("127.0.0.1")
(True, False, True)
>>> AllowedHosts.for_address("0.0.0.0").allows("192.168.1.20:8000")
True
"""

from __future__ import annotations

import ipaddress
import json
import socket
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
#: Methods that change nothing: no Origin or content-type check.
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: Methods whose body must be JSON.
BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})
JSON_TYPE = "application/json"


def host_name(host: str) -> str:
    """The name in a `Host` header value, without the port and the brackets of
    an IPv6 address, lowercased: `[::1]:8000` -> `::1`."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    if host.count(":") == 1:
        host = host.split(":", 1)[0]
    return host.rstrip(".")


def is_ip_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class AllowedHosts:
    """The names a request's `Host` may give. `any_address`: every IP address too
    (a server listening on all of them)."""

    names: frozenset[str]
    any_address: bool = False

    @classmethod
    def for_address(cls, address: str, extra: Iterable[str] = ()) -> AllowedHosts:
        """The names of a server listening on `address` (what `--host` says), plus
        `extra` (`--allow-host`)."""
        bound = host_name(address)
        names = {host_name(name) for name in extra} | {bound}
        everywhere = bound in ("0.0.0.0", "::", "")
        if everywhere or bound in LOOPBACK_NAMES or _is_loopback(bound):
            names |= LOOPBACK_NAMES
        if everywhere:
            names |= _own_names()
        return cls(frozenset(names), any_address=everywhere)

    def allows(self, host: str) -> bool:
        name = host_name(host)
        return name in self.names or (self.any_address and is_ip_address(name))


def _is_loopback(name: str) -> bool:
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def _own_names() -> set[str]:
    names = set()
    for name in (socket.gethostname(), socket.getfqdn()):
        if name:
            names |= {name.lower(), name.split(".")[0].lower()}
    return names


def _refusal(status: int, message: str) -> tuple[int, bytes]:
    return status, json.dumps({"error": message}).encode()


def check_request(scope: Scope, hosts: AllowedHosts) -> tuple[int, bytes] | None:
    """The refusal (status, JSON body) of a request, or None to let it through."""
    headers = {key.decode("latin-1"): value.decode("latin-1") for key, value in scope["headers"]}
    host = headers.get("host", "")
    if not host:
        return _refusal(400, "a request must say which host it is for (the Host header)")
    if not hosts.allows(host):
        return _refusal(
            403,
            f"this server does not answer for the host {host_name(host)!r} "
            "(start it with --allow-host NAME to add a name)",
        )
    if scope["method"] in SAFE_METHODS:
        return None
    origin = headers.get("origin")
    if origin is not None:
        parts = urlsplit(origin)
        if parts.scheme not in ("http", "https") or parts.netloc.lower() != host.lower():
            return _refusal(403, "requests from another site's page are refused")
    if headers.get("sec-fetch-site", "").lower() == "cross-site":
        return _refusal(403, "requests from another site's page are refused")
    kind = headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if scope["method"] in BODY_METHODS and kind != JSON_TYPE:
        return _refusal(415, f"send the request body as JSON (Content-Type: {JSON_TYPE})")
    return None


class Guard:
    """The checks of this module, around a web app (`ttr_core.web.routes.web_app`)."""

    def __init__(self, app: ASGIApp, hosts: AllowedHosts) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            refusal = check_request(scope, self.hosts)
            if refusal is not None:
                status, body = refusal
                await send(
                    {
                        "type": "http.response.start",
                        "status": status,
                        "headers": [
                            (b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            (b"cache-control", b"no-store"),
                        ],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)
