"""Every route of a web app with its access rule, and the app built from them.

A route is an `Endpoint`: method, path, handler and `Access` rule. `web_app` turns
each into an `AdmittedRoute`, whose handler runs only after its rule admitted the
request: the rule returns what it found out (the seat a token holds, say: the
handler's `grant`) or refuses with a 401 or 403. A handler is written
`async def handler(context, request, grant)`; it cannot be reached without its rule,
because nothing else calls it. The app built by `web_app` refuses routes given
any other way (`WebApp.add_route`, `mount`, `host` raise), and tests/web list the
routes of both apps and check that each is admitted by its rule.

The page (`/`) and its static files are routes like the others, admitted by
`PUBLIC`: they hold no secret (the page's token rides in the link's fragment).

>>> from starlette.responses import PlainTextResponse
>>> async def hello(context, request, grant):
...     return PlainTextResponse(f"hello {context}")
>>> app = web_app("you", [Endpoint("GET", "/hello", hello, PUBLIC)], who="a test")
>>> [(route.path, route.access.name) for route in app.routes]
[('/hello', 'public')]
>>> app.add_route("/other", hello)
Traceback (most recent call last):
...
TypeError: a route of a ttr web app is an Endpoint given to web_app, with its access rule
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send

from ttr_core.web.answers import PAGE_HEADERS, error_handlers
from ttr_core.web.guard import AllowedHosts, Guard

C = TypeVar("C")
G = TypeVar("G")
C_contra = TypeVar("C_contra", contravariant=True)
G_co = TypeVar("G_co", covariant=True)


class Access(Protocol[C_contra, G_co]):
    """A rule every request of a route passes before its handler runs: `admit`
    returns the handler's grant, or raises an `HTTPException` (401: no token,
    403: a token that opens nothing here, 404: nothing to open)."""

    @property
    def name(self) -> str: ...

    async def admit(self, context: C_contra, request: Request) -> G_co: ...


@dataclass(frozen=True)
class Public:
    """Anyone may ask (what the route answers is no secret); the grant is None."""

    name: str = "public"

    async def admit(self, context: object, request: Request) -> None:
        return None


PUBLIC = Public()

Handler = Callable[[C, Request, G], Awaitable[Response]]


@dataclass(frozen=True)
class Endpoint(Generic[C, G]):
    """One route: `method` `path` answered by `handler` once `access` admits it."""

    method: str
    path: str
    handler: Handler[C, G]
    access: Access[C, G]


@dataclass(frozen=True)
class StaticFolder:
    """The files of `folder` under `path` (the page's CSS and JavaScript): public,
    and nothing outside the folder (Starlette's `StaticFiles`)."""

    path: str
    folder: Path


def page(file: Path) -> Endpoint[Any, None]:
    """`GET /`: the app's page."""

    async def show_page(context: object, request: Request, grant: None) -> Response:
        return FileResponse(file, headers=PAGE_HEADERS)

    return Endpoint("GET", "/", show_page, PUBLIC)


class AdmittedRoute(Route):
    """A Starlette route whose handler runs after its access rule admitted the
    request."""

    def __init__(self, endpoint: Endpoint[C, G], context: C) -> None:
        access, handler = endpoint.access, endpoint.handler

        async def admitted(request: Request) -> Response:
            grant = await access.admit(context, request)
            return await handler(context, request, grant)

        admitted.__name__ = handler.__name__
        super().__init__(endpoint.path, admitted, methods=[endpoint.method])
        self.access = access
        self.handler = handler


class AdmittedMount(Mount):
    """A folder of static files behind an access rule (`PUBLIC` for the page's)."""

    def __init__(self, folder: StaticFolder, context: Any, access: Access[Any, Any]) -> None:
        files = StaticFiles(directory=folder.folder)

        async def admitted(scope: Scope, receive: Receive, send: Send) -> None:
            await access.admit(context, Request(scope, receive))
            await files(scope, receive, send)

        super().__init__(folder.path, app=admitted, name="static")
        self.access = access


class WebApp(Starlette):
    """A Starlette app whose routes all came through `web_app`: adding one later
    is refused."""

    def add_route(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError(_ONLY_ENDPOINTS)

    def mount(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError(_ONLY_ENDPOINTS)

    def host(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError(_ONLY_ENDPOINTS)

    def add_websocket_route(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError(_ONLY_ENDPOINTS)


_ONLY_ENDPOINTS = "a route of a ttr web app is an Endpoint given to web_app, with its access rule"


def web_app(
    context: C,
    endpoints: Sequence[Endpoint[C, Any] | StaticFolder],
    *,
    who: str,
    hosts: AllowedHosts | None = None,
    lifespan: Callable[[Starlette], contextlib.AbstractAsyncContextManager[None]] | None = None,
) -> WebApp:
    """The app of `endpoints`, each handler called with `context`: behind the guard
    (`hosts`: the names requests may be sent to, by default the loopback names),
    every error JSON (`who` names the app in the message of a 500)."""
    routes: list[BaseRoute] = []
    for endpoint in endpoints:
        if isinstance(endpoint, StaticFolder):
            routes.append(AdmittedMount(endpoint, context, PUBLIC))
        elif isinstance(endpoint, Endpoint):
            routes.append(AdmittedRoute(endpoint, context))
        else:
            raise TypeError(f"{_ONLY_ENDPOINTS}, not {endpoint!r}")
    return WebApp(
        routes=routes,
        exception_handlers=error_handlers(who),
        middleware=[Middleware(Guard, hosts=hosts or AllowedHosts.for_address("127.0.0.1"))],
        lifespan=lifespan,
    )


def admitted_routes(app: Starlette) -> list[AdmittedRoute | AdmittedMount]:
    """Every route of `app`, each checked to be admitted by an access rule
    (`TypeError` for one that is not)."""
    found = []
    for route in app.routes:
        if not isinstance(route, AdmittedRoute | AdmittedMount):
            raise TypeError(f"{route!r} is not behind an access rule")
        found.append(route)
    return found
