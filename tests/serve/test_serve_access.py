"""Every route of the web table that needs a token, listed from the app itself:
a request without one is a 401, with one that holds nothing at this game a 403,
and someone watching is refused what only a seat may do; nothing changes. The
rule finds the game first: an unknown game is a 404 whatever the token."""

from __future__ import annotations

from serve_server import auth, settle
from starlette.testclient import TestClient

from ttr_core.serve.access import SEAT, SEAT_OR_WATCHING
from ttr_core.serve.tables import TableRegistry
from ttr_core.web.routes import PUBLIC, AdmittedRoute, admitted_routes

GAME = {"map": "iran", "players": ["human", "greedy"], "seed": 3, "pace": "instant"}
BODY = {"action": "draw deck", "pace": "slow", "name": "Mallory", "text": "hello"}


def _requests(client: TestClient, game: str) -> list[tuple[str, str, object]]:
    """(method, path, access rule) of every route of the app that is not public."""
    found = []
    for route in admitted_routes(client.app):
        if isinstance(route, AdmittedRoute) and route.access is not PUBLIC:
            assert route.access in (SEAT, SEAT_OR_WATCHING), route.path
            path = route.path.replace("{game}", game)
            assert "{" not in path, route.path
            methods = sorted(set(route.methods or ()) - {"HEAD"})
            found += [(method, path + "?route=x", route.access) for method in methods]
    return found


def _send(client: TestClient, method: str, path: str, token: str | None) -> int:
    headers = auth(token) if token is not None else {}
    body = {"json": BODY} if method == "POST" else {}
    return client.request(method, path, headers=headers, **body).status_code


def test_every_route_with_a_token_rule_refuses_the_wrong_people(
    client: TestClient, registry: TableRegistry
) -> None:
    answer = client.post("/api/games", json=GAME).json()
    game, watcher = answer["game"], answer["spectator"]
    other = client.post("/api/games", json=GAME).json()
    stranger = other["seats"][0]["token"]
    table = settle(client, registry, game)
    before = (table.revision, len(table.state.history), table.pace, table.names, len(table.notes))
    requests = _requests(client, game)
    assert len(requests) == 8
    for method, path, rule in requests:
        assert _send(client, method, path, None) == 401, (method, path)
        assert _send(client, method, path, stranger) == 403, (method, path)
        assert _send(client, method, path, "x" * 24) == 403, (method, path)
        unknown = path.replace(game, "no-such-game")
        assert _send(client, method, unknown, stranger) == 404, (method, unknown)
        if rule is SEAT:
            assert _send(client, method, path, watcher) == 403, (method, path)
    after = (table.revision, len(table.state.history), table.pace, table.names, len(table.notes))
    assert after == before


def test_someone_watching_passes_the_rule_of_what_anyone_at_the_table_may_see(
    client: TestClient,
) -> None:
    answer = client.post("/api/games", json=GAME).json()
    game, watcher = answer["game"], answer["spectator"]
    for method, path, rule in _requests(client, game):
        if rule is SEAT_OR_WATCHING:
            assert _send(client, method, path, watcher) not in (401, 403), (method, path)
