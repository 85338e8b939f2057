"""`ttr_core.serve.guard`: other sites' pages cannot post to the web table (JSON
only, Origin checked), and requests for other host names are refused (DNS
rebinding)."""

from __future__ import annotations

import pytest
from serve_server import BASE_URL, auth, start
from starlette.testclient import TestClient

from ttr_core.web.guard import AllowedHosts, host_name

GAME = {"map": "iran", "players": ["human", "greedy"]}


@pytest.mark.parametrize(
    ("headers", "content"),
    [
        ({"content-type": "text/plain"}, '{"map": "iran", "players": ["human", "greedy"]}'),
        ({"content-type": "application/x-www-form-urlencoded"}, "map=iran&players=human"),
        ({"content-type": "multipart/form-data; boundary=x"}, "--x--"),
        ({}, '{"map": "iran", "players": ["human", "greedy"]}'),
    ],
)
def test_a_body_that_is_not_declared_json_is_refused_415(
    client: TestClient, headers: dict, content: str
) -> None:
    """What a page on another site can send without a preflight (a form, text/plain)
    never starts a game."""
    response = client.post("/api/games", content=content, headers=headers)
    assert response.status_code == 415 and "JSON" in response.json()["error"]
    assert client.post("/api/games", json=GAME).status_code == 201


@pytest.mark.parametrize(
    "headers",
    [
        {"origin": "http://evil.example"},
        {"origin": "http://127.0.0.1:9999"},  # another port is another origin
        {"origin": "null"},  # a sandboxed frame, a file
        {"origin": "http://127.0.0.1:8000", "sec-fetch-site": "cross-site"},
    ],
)
def test_a_post_from_another_sites_page_is_refused_403(client: TestClient, headers: dict) -> None:
    game, tokens = start(client)
    for path, body in (
        ("/api/games", GAME),
        (f"/api/games/{game}/actions", {"action": "keep 0,1"}),
        (f"/api/games/{game}/notes", {"text": "hi"}),
    ):
        response = client.post(path, json=body, headers={**auth(tokens[0]), **headers})
        assert response.status_code == 403 and "another site" in response.json()["error"]


def test_the_servers_own_page_may_post(client: TestClient) -> None:
    same = {"origin": BASE_URL, "sec-fetch-site": "same-origin"}
    assert client.post("/api/games", json=GAME, headers=same).status_code == 201


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.nip.io:8000"])
def test_a_request_for_another_host_name_is_refused_403(client: TestClient, host: str) -> None:
    """DNS rebinding: a page on evil.example whose name now points at this machine
    sends `Host: evil.example`; nothing is answered, not even the page."""
    for path in ("/", "/api/setup"):
        response = client.get(path, headers={"host": host})
        assert response.status_code == 403 and "--allow-host" in response.json()["error"]
    assert client.post("/api/games", json=GAME, headers={"host": host}).status_code == 403
    for name in ("localhost:8000", "[::1]:8000", "127.0.0.1"):
        assert client.get("/api/setup", headers={"host": name}).status_code == 200


def test_which_host_names_a_server_answers_for() -> None:
    loopback = AllowedHosts.for_address("127.0.0.1")
    assert loopback.allows("LOCALHOST:8000") and not loopback.allows("192.168.1.9:8000")
    everywhere = AllowedHosts.for_address("0.0.0.0", ["tables.example"])
    assert everywhere.allows("192.168.1.9:8000") and everywhere.allows("[fe80::1]:8000")
    assert everywhere.allows("tables.example:8000") and not everywhere.allows("evil.example")
    one = AllowedHosts.for_address("192.168.1.9")
    assert one.allows("192.168.1.9:8000") and not one.allows("10.0.0.1")
    assert host_name("[::1]:8000") == "::1" and host_name("Example.COM.:80") == "example.com"
