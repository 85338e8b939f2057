"""`ttr serve`'s JSON API: every endpoint, the hidden information of each seat (R5),
hostile requests, bots' pace, expiry and many games at once."""

from __future__ import annotations

import html
import json
import random
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from serve_server import (
    Clock,
    auth,
    post,
    raw_get,
    running_server,
    serving,
    settle,
    start,
    table_of,
    until,
)
from starlette.testclient import TestClient
from typer.testing import CliRunner

from ttr_core.bots import bot_factories
from ttr_core.cli import app as cli_app
from ttr_core.engine.actions import Resign, parse_action
from ttr_core.engine.cards import CARD_NAMES
from ttr_core.engine.positions import arrange
from ttr_core.engine.record import read_record, verify_record
from ttr_core.engine.state import GameState
from ttr_core.engine.view import LOG_LENGTH
from ttr_core.serve.access import TOKEN_HEADER
from ttr_core.serve.app import create_app
from ttr_core.serve.payloads import view_payload
from ttr_core.serve.routes.records import MAX_RECORD_BYTES
from ttr_core.serve.store import TableStore
from ttr_core.serve.tables import PACES, Table, TableRegistry
from ttr_core.serve.thinkers import Thinkers
from ttr_maps import load_map
from ttr_maps.rules import RuleSet

#: What a seat's table response holds besides its view and log: public facts only.
TABLE_KEYS = {
    "game",
    "map",
    "map_name",
    "players",
    "names",
    "pace",
    "paces",
    "fixed_deal",
    "revision",
    "thinking",
    "turn_seconds",
    "clock",
    "notes",
    "result",
    "seed",
    "watching",
    "view",
    "log",
}


def as_json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def assert_is_the_seats_view(response: dict, table: Table, seat: int, tokens: dict) -> None:
    """R5: a seat's response is its PlayerView (as `view_payload`) plus public facts;
    no other seat's secret appears in it."""
    assert set(response) == TABLE_KEYS
    view = table.state.view(seat)
    assert response["view"] == as_json(view_payload(view))
    # The log is the table's journal as this seat may see it (R4: not the others'
    # ticket choices during setup).
    seen = table.journal.since(0, view)[-LOG_LENGTH:]
    assert response["log"] == [{"seat": e.seat, "text": e.text} for e in seen]
    if view.phase == "setup":
        assert all(e.seat == seat or "kept" not in e.text for e in seen)
    assert response["players"] == table.players
    assert (response["result"] is None) == (not table.state.is_over)
    assert (response["seed"] is None) == (not table.state.is_over)
    text = json.dumps(response)
    for other, token in tokens.items():
        if other != seat:
            assert token not in text


# ------------------------------------------------------------------ the page


def test_page_and_its_static_files_are_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and '<script src="/static/app.js"' in page.text
    assert "script-src 'self'" in page.headers["content-security-policy"]
    for name, kind in (("app.js", "javascript"), ("style.css", "text/css")):
        response = client.get(f"/static/{name}")
        assert response.status_code == 200 and kind in response.headers["content-type"]
    assert client.get("/static/missing.js").status_code == 404


def test_no_file_outside_the_static_folder_can_be_read() -> None:
    with running_server(create_app()) as url:
        for path in (
            "/static/../pyproject.toml",
            "/static/../../pyproject.toml",
            "/static/%2e%2e/app.py",
            "/static/%2e%2e%2f%2e%2e%2fpyproject.toml",
            "/static/..%5c..%5cpyproject.toml",
            "/static//etc/passwd",
            "/static/%2fetc%2fpasswd",
            "/../../etc/passwd",
        ):
            assert raw_get(url, path) in (400, 404), path
        assert raw_get(url, "/static/app.js") == 200


def test_setup_lists_maps_players_and_paces(client: TestClient) -> None:
    data = client.get("/api/setup").json()
    from ttr_maps.io.bundled import bundled_map_ids

    assert {m["key"] for m in data["maps"]} == set(bundled_map_ids())
    assert {"europe", "iran", "north_america", "switzerland"} <= set(bundled_map_ids())
    by_key = {m["key"]: m for m in data["maps"]}
    assert by_key["nordic_countries"]["players"] == [2, 3]
    assert by_key["north_america"]["not_modelled"] == []
    assert any("bullet" in text for text in by_key["japan"]["not_modelled"])
    assert data["players"] == ["human", *bot_factories()]
    assert data["paces"] == list(PACES)


def test_map_files_given_to_the_server_are_offered_first(tmp_path: Path) -> None:
    from ttr_maps.io.bundled import bundled_map_path

    text = bundled_map_path("iran").read_text(encoding="utf-8")  # type: ignore[union-attr]
    copy = tmp_path / "my_iran.yaml"
    copy.write_text(re.sub(r"(?m)^id: .*$", "id: my_iran", text), encoding="utf-8")
    with serving(create_app([load_map(copy)])) as client:
        maps = client.get("/api/setup").json()["maps"]
        assert maps[0] == {
            "key": "my_iran",
            "name": maps[0]["name"],
            "rules": "base",
            "file": True,
            "players": [2, 5],
            "not_modelled": [],
        }
        assert client.get("/api/maps/my_iran/board.svg").status_code == 200


@pytest.mark.parametrize("map_id", ["north_america", "europe", "iran"])
def test_board_svg_has_every_route_and_city(client: TestClient, map_id: str) -> None:
    game_map = load_map(map_id)
    response = client.get(f"/api/maps/{map_id}/board.svg")
    assert response.status_code == 200 and response.headers["content-type"] == "image/svg+xml"
    svg = response.text
    assert len(re.findall(r'<g class="route[^"]*" data-index', svg)) == len(game_map.routes)
    assert svg.count('<g class="city"') == len(game_map.cities)
    cars = sum(r.length for r in game_map.routes)
    assert svg.count('<polygon class="car') == cars
    assert svg.count("loco-space") == sum(r.ferry for r in game_map.routes)
    assert len(re.findall(r'class="route tunnel', svg)) == sum(r.tunnel for r in game_map.routes)


@pytest.mark.parametrize("map_id", ["north_america", "europe", "iran"])
def test_board_svg_centres_each_name_in_a_label_box_that_covers_no_label_or_city(
    client: TestClient, map_id: str
) -> None:
    from dataclasses import replace

    from ttr_core.web.svg import CITY_RADIUS, SPACE_UNITS, board_labels
    from ttr_maps.geometry.board import board_geometry, overlaps

    game_map = load_map(map_id)
    board = board_geometry(game_map)
    labels = board_labels(game_map, board)
    page = replace(board, labels=labels, city_radius=CITY_RADIUS * board.space)
    assert overlaps(page, frozenset({"label-label", "label-city"})) == []
    svg = client.get(f"/api/maps/{map_id}/board.svg").text
    texts = re.findall(r'<text x="([-\d.]+)" y="([-\d.]+)" text-anchor="middle"[^>]*>([^<]*)<', svg)
    assert len(texts) == len(game_map.cities)
    units = SPACE_UNITS / board.space
    for x, y, name in texts:
        centre = labels[html.unescape(name)].centre
        assert float(x) == pytest.approx(centre[0] * units, abs=0.1)
        assert float(y) == pytest.approx(-centre[1] * units, abs=0.1)


def test_board_svg_escapes_names_and_refuses_unknown_maps(client: TestClient) -> None:
    assert client.get("/api/maps/atlantis/board.svg").status_code == 404
    assert client.get("/api/maps/..%2f..%2fpyproject/board.svg").status_code == 404


# ------------------------------------------------------------------ games


def test_starting_a_game_gives_a_secret_token_to_each_human_seat(client: TestClient) -> None:
    response = client.post(
        "/api/games",
        json={"map": "north_america", "players": ["human", "greedy", "human"]},
    )
    assert response.status_code == 201
    data = response.json()
    seats = data["seats"]
    assert [s["player"] for s in seats] == ["human", "greedy", "human"]
    tokens = [s["token"] for s in seats]
    assert tokens[1] is None and tokens[0] != tokens[2] and len(tokens[0]) >= 20
    assert len(data["spectator"]) >= 20 and data["spectator"] not in tokens
    assert "seed" not in data and data["fixed_deal"] is False


def test_r5_the_seed_is_in_no_answer_before_the_end(
    client: TestClient, registry: TableRegistry
) -> None:
    """The seed gives every shuffle, so every hidden card: a random one is drawn and
    appears in no answer (nor do the bots' seeds) until the game is over; then the
    result and the record show it."""
    from ttr_core.engine.loop import bot_seed

    created = client.post(
        "/api/games", json={"map": "iran", "players": ["human", "greedy"], "pace": "instant"}
    )
    data = created.json()
    game, token = data["game"], data["seats"][0]["token"]
    table = table_of(registry, game)
    secrets_ = [str(table.state.seed), *(str(bot_seed(table.state.seed, s)) for s in (0, 1))]
    assert table.state.seed >= 2**32  # a random seed of 53 bits: no guess finds it
    answers = [created.text, client.get("/api/setup").text]
    answers.append(post(client, game, token, "actions", {"action": "keep 0,1"}).text)
    settle(client, registry, game)
    answers += [
        client.get(f"/api/games/{game}", headers=auth(token)).text,
        client.get(f"/api/games/{game}", headers=auth(data["spectator"])).text,
        post(client, game, token, "name", {"name": "Ana"}).text,
        post(client, game, token, "notes", {"text": "hello"}).text,
        post(client, game, token, "pace", {"pace": "fast"}).text,
        client.get(f"/api/games/{game}/why?route=Tehran-Qom", headers=auth(token)).text,
        client.get(f"/api/games/{game}/record", headers=auth(token)).text,
        client.get("/api/maps/iran/board.svg").text,
    ]
    for answer in answers:
        for secret in secrets_:
            assert secret not in answer
    over = post(client, game, token, "fast-forward", {}).json()
    assert over["seed"] == table.state.seed and over["fixed_deal"] is False
    record = client.get(f"/api/games/{game}/record", headers=auth(token)).json()
    assert record["seed"] == table.state.seed


def test_a_seed_asked_for_is_a_fixed_deal_marked_for_everyone(
    client: TestClient, registry: TableRegistry
) -> None:
    response = client.post(
        "/api/games", json={"map": "iran", "players": ["human", "human"], "seed": 77}
    )
    data = response.json()
    assert data["fixed_deal"] is True and "seed" not in data
    assert table_of(registry, data["game"]).state.seed == 77
    for seat in data["seats"]:
        page = client.get(f"/api/games/{data['game']}", headers=auth(seat["token"])).json()
        assert page["fixed_deal"] is True and page["seed"] is None
    watching = client.get(f"/api/games/{data['game']}", headers=auth(data["spectator"]))
    assert watching.json()["fixed_deal"] is True


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"map": "atlantis", "players": ["human", "greedy"]}, "no map"),
        ({"map": "iran", "players": ["human"]}, "R1"),
        ({"map": "iran", "players": ["human"] * 6}, "R1"),
        ({"map": "iran", "players": ["human", "wizard"]}, "unknown player"),
        ({"map": "iran", "players": ["greedy", "random"]}, "human"),
        ({"map": "iran", "players": "human,greedy"}, "players"),
        ({"map": "iran", "players": ["human", 3]}, "players"),
        ({"map": "iran", "players": ["human", "greedy"], "seed": -1}, "seed"),
        ({"map": "iran", "players": ["human", "greedy"], "seed": True}, "seed"),
        ({"map": "iran", "players": ["human", "greedy"], "seed": "7"}, "seed"),
        ({"map": "iran", "players": ["human", "greedy"], "seed": 2**64}, "seed"),
        ({"map": "iran", "players": ["human", "greedy"], "pace": "warp"}, "pace"),
        ({"map": "iran", "players": ["human", "greedy"], "pace": 3}, "pace"),
        ({"map": ["iran"], "players": ["human", "greedy"]}, "map"),
        ({"players": ["human", "greedy"]}, "map"),
    ],
)
def test_bad_game_settings_get_400(client: TestClient, body: dict, message: str) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code == 400
    assert message in response.json()["error"]


JSON = {"content-type": "application/json"}


@pytest.mark.parametrize(
    ("content", "status"),
    [
        (b"{not json", 400),
        (b"[1, 2]", 400),
        (b"\xff\xfe", 400),
        (b"", 400),
        (b"[" * 6000 + b"]" * 6000, 400),  # nested past Python's own recursion limit
        (b"[" * 30 + b"]" * 30, 400),
        (b'{"seed": 1' + b"0" * 5000 + b"}", 400),  # a number of 5,000 digits
        (b'{"seed": NaN}', 400),
        (b'{"map": "' + b"x" * MAX_RECORD_BYTES + b'"}', 413),
    ],
)
def test_malformed_nested_and_oversized_bodies_get_4xx(
    client: TestClient, content: bytes, status: int
) -> None:
    game, tokens = start(client)
    for path, headers in (
        ("/api/games", {}),
        (f"/api/games/{game}/actions", auth(tokens[0])),
        (f"/api/games/{game}/pace", auth(tokens[0])),
        (f"/api/games/{game}/notes", auth(tokens[0])),
        ("/api/replays", {}),
    ):
        response = client.post(path, content=content, headers={**headers, **JSON})
        assert response.status_code == status, (path, response.text)
        assert "error" in response.json()


def test_an_oversized_body_without_a_length_header_is_cut_off(client: TestClient) -> None:
    def chunks():
        for _ in range(64):
            yield b" " * 1024

    game, tokens = start(client)
    response = client.post(
        f"/api/games/{game}/actions", content=chunks(), headers={**auth(tokens[0]), **JSON}
    )
    assert response.status_code == 413


def test_unknown_game_and_wrong_tokens_get_clean_4xx(client: TestClient) -> None:
    game, tokens = start(client)
    other_game, other_tokens = start(client)
    path = f"/api/games/{game}"
    assert client.get("/api/games/nope", headers=auth(tokens[0])).status_code == 404
    assert client.get(path).status_code == 401
    assert client.get(path, headers=auth("x" * 24)).status_code == 403
    assert client.get(path, headers=auth(other_tokens[0])).status_code == 403
    assert client.get(path, headers={TOKEN_HEADER: "é€".encode()}).status_code == 403
    for sub in ("actions", "pace"):
        response = client.post(f"{path}/{sub}", json={"action": "draw deck"})
        assert response.status_code == 401 and "token" in response.json()["error"]
    assert client.get(f"{path}/record").status_code == 401
    assert client.get(f"/api/games/{other_game}", headers=auth(other_tokens[0])).status_code == 200


def test_wrong_methods_and_unknown_paths_get_json_4xx(client: TestClient) -> None:
    assert client.get("/api/games").status_code == 405
    assert client.delete("/api/setup").status_code == 405
    response = client.get("/api/nothing/here")
    assert response.status_code == 404 and response.json() == {"error": "Not Found"}


def test_the_fast_forward_hook_exists_only_in_test_mode() -> None:
    with serving(create_app(registry=TableRegistry(thinkers=Thinkers(processes=0)))) as client:
        game, tokens = start(client)
        response = client.post(f"/api/games/{game}/fast-forward", headers=auth(tokens[0]), json={})
        assert response.status_code in (404, 405)


# ------------------------------------------------------------------ actions


def test_r4_keeping_tickets_then_the_bot_replies_at_once_at_instant_pace(
    client: TestClient, registry: TableRegistry
) -> None:
    game, tokens = start(client)
    view = client.get(f"/api/games/{game}", headers=auth(tokens[0])).json()["view"]
    assert view["decision"] == "choose_tickets" and view["keep_at_least"] == 2
    assert view["legal"]["keep"] == [[0, 1], [0, 2], [1, 2], [0, 1, 2]]
    offered = [ticket["index"] for ticket in view["offered"]]
    response = client.post(
        f"/api/games/{game}/actions", headers=auth(tokens[0]), json={"action": "keep 0,2"}
    )
    assert response.status_code == 200
    settle(client, registry, game)  # the bot chose its tickets, then played its turn
    view = client.get(f"/api/games/{game}", headers=auth(tokens[0])).json()["view"]
    assert view["phase"] == "playing" and view["to_move"] == 0
    assert [t["index"] for t in view["tickets"]] == [offered[0], offered[2]]
    assert table_of(registry, game).state.tickets[0] == [offered[0], offered[2]]


def test_r6_an_action_out_of_turn_is_refused_with_the_rule_and_changes_nothing(
    client: TestClient, registry: TableRegistry
) -> None:
    game, tokens = start(client, ["human", "human"])
    table = table_of(registry, game)
    for seat in (0, 1):
        client.post(
            f"/api/games/{game}/actions", headers=auth(tokens[seat]), json={"action": "keep 0,1,2"}
        )
    waiting = 1 - table.state.to_move
    before = (len(table.state.history), table.revision, view_payload(table.state.view(waiting)))
    response = client.post(
        f"/api/games/{game}/actions", headers=auth(tokens[waiting]), json={"action": "draw deck"}
    )
    assert response.status_code == 409
    assert response.json() == {"error": f"R6: it is not seat {waiting}'s turn"}
    assert (
        len(table.state.history),
        table.revision,
        view_payload(table.state.view(waiting)),
    ) == before


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"action": "fly to the moon"}, 400, "cannot read action"),
        ({"action": "claim Nowhere-Atlantis with red:2"}, 400, ""),
        ({"action": "draw market 9"}, 400, ""),
        ({"action": ""}, 400, "'action'"),
        ({"action": 42}, 400, "'action'"),
        ({"action": "draw deck " + "x" * 400}, 400, "'action'"),
        ({}, 400, "'action'"),
        ({"action": "keep 0,1"}, 409, ""),
        ({"action": "remove 1"}, 409, "host"),
        ({"action": "timeout 1"}, 409, "host"),
    ],
)
def test_bad_actions_get_4xx_with_the_engines_message(
    client: TestClient, registry: TableRegistry, body: dict, status: int, message: str
) -> None:
    game, tokens = start(client)
    client.post(f"/api/games/{game}/actions", headers=auth(tokens[0]), json={"action": "keep 0,1"})
    table = settle(client, registry, game)
    history = len(table.state.history)
    response = client.post(f"/api/games/{game}/actions", headers=auth(tokens[0]), json=body)
    assert response.status_code == status, response.text
    assert message in response.json()["error"]
    assert len(table.state.history) == history


def test_the_host_action_remove_is_not_a_seats_action(
    client: TestClient, registry: TableRegistry
) -> None:
    game, tokens = start(client)
    table = table_of(registry, game)
    response = client.post(
        f"/api/games/{game}/actions", headers=auth(tokens[0]), json={"action": "remove 1"}
    )
    assert response.status_code == 409 and "host" in response.json()["error"]
    assert table.state.status == ["active", "active"]


def test_d5_a_person_may_resign_and_the_game_ends(
    client: TestClient, registry: TableRegistry
) -> None:
    game, tokens = start(client)
    response = client.post(
        f"/api/games/{game}/actions", headers=auth(tokens[0]), json={"action": "resign"}
    )
    assert response.status_code == 200
    data = response.json()
    assert data["view"]["status"][0] == "resigned" and data["view"]["phase"] == "over"
    assert data["result"]["end_reason"] == "one player left"


def test_r5_every_response_of_a_seat_is_its_player_view(
    client: TestClient, registry: TableRegistry
) -> None:
    """Two people and a bot play through the API; after every request each person's
    response equals `view_payload` of that seat's PlayerView, plus public facts."""
    game, tokens = start(client, ["human", "greedy", "human"], seed=11)
    table = table_of(registry, game)
    rng = random.Random(4)
    for _ in range(150):
        if table.state.is_over:
            break
        for seat, token in tokens.items():
            response = client.get(f"/api/games/{game}", headers=auth(token)).json()
            assert_is_the_seats_view(response, table, seat, tokens)
        seat = next(
            s
            for s in tokens
            if any(not isinstance(a, Resign) for a in table.state.legal_actions(s))
        )
        options = [a for a in table.state.legal_actions(seat) if not isinstance(a, Resign)]
        response = client.post(
            f"/api/games/{game}/actions",
            headers=auth(tokens[seat]),
            json={"action": str(rng.choice(options))},
        )
        assert response.status_code == 200, response.text
        answer = response.json()
        assert answer["view"]["seat"] == seat and set(answer) == TABLE_KEYS
        for other, token in tokens.items():
            assert other == seat or token not in response.text
        settle(client, registry, game)  # the bots' replies come off the request
    assert len(table.state.history) > 100


def test_r5_hidden_cards_and_decks_never_change_a_seats_response(
    client: TestClient, registry: TableRegistry
) -> None:
    game, tokens = start(client, ["human", "greedy"], seed=8)
    client.post(
        f"/api/games/{game}/actions", headers=auth(tokens[0]), json={"action": "keep 0,1,2"}
    )
    settle(client, registry, game)
    before = client.get(f"/api/games/{game}", headers=auth(tokens[0])).content
    state = table_of(registry, game).state
    deck = state.cards.deck[:]
    hand = state.hands[1][:]  # the opponent's cards, same count: one swapped with the deck
    moved = next(c for c in range(9) if hand[c])
    swapped = next(c for c in deck if c != moved)
    hand[moved] -= 1
    hand[swapped] += 1
    deck.remove(swapped)
    deck.append(moved)
    random.Random(1).shuffle(deck)  # the deck's order
    arrange(
        state,
        deck=deck,
        hands={1: hand},
        ticket_deck=list(reversed(state.ticket_deck)),  # the ticket deck's order
        tickets={1: state.tickets[1][::-1]},  # the opponent's tickets
    )
    assert client.get(f"/api/games/{game}", headers=auth(tokens[0])).content == before


def test_a_seats_answers_are_never_cached(client: TestClient) -> None:
    game, tokens = start(client)
    for response in (
        client.get(f"/api/games/{game}", headers=auth(tokens[0])),
        client.post(f"/api/games/{game}/pace", headers=auth(tokens[0]), json={"pace": "fast"}),
        client.post(
            f"/api/games/{game}/actions", headers=auth(tokens[0]), json={"action": "keep 0,1"}
        ),
    ):
        assert response.headers["cache-control"] == "no-store"


def test_since_answers_204_when_nothing_changed(client: TestClient) -> None:
    game, tokens = start(client)
    revision = client.get(f"/api/games/{game}", headers=auth(tokens[0])).json()["revision"]
    assert (
        client.get(f"/api/games/{game}?since={revision}", headers=auth(tokens[0])).status_code
        == 204
    )
    assert client.get(f"/api/games/{game}?since=abc", headers=auth(tokens[0])).status_code == 200


def test_bots_move_one_at_a_time_at_the_chosen_pace(
    client: TestClient, registry: TableRegistry
) -> None:
    game, tokens = start(client, ["human", "random", "random"], seed=2, pace="normal")
    table = table_of(registry, game)
    clock = registry.clock
    assert isinstance(clock, Clock)
    post(client, game, tokens[0], "actions", {"action": "keep 0,1,2"})
    until(client, lambda: table.state.phase == "playing")  # R4: setup is never delayed
    while table.state.to_move == 0:  # play until the bots are due
        action = next(a for a in table.state.legal_actions(0) if str(a).startswith("draw"))
        post(client, game, tokens[0], "actions", {"action": str(action)})
    moves = len(table.state.history)
    until(client, lambda: table.state.to_move in table.answers)  # the bot has thought
    client.get(f"/api/games/{game}", headers=auth(tokens[0]))
    time.sleep(0.05)
    assert len(table.state.history) == moves  # too early for the pace
    for expected in range(1, 4):
        clock.now += PACES["normal"]
        client.get(f"/api/games/{game}", headers=auth(tokens[0]))
        until(client, lambda e=expected: len(table.state.history) == moves + e)
        if table.state.to_move == 0:
            break
        until(client, lambda: table.state.to_move in table.answers)
        client.get(f"/api/games/{game}", headers=auth(tokens[0]))  # a poll adds nothing
        time.sleep(0.05)
        assert len(table.state.history) == moves + expected


def test_the_pace_can_be_changed_by_any_seat(client: TestClient) -> None:
    game, tokens = start(client, pace="slow")
    response = client.post(
        f"/api/games/{game}/pace", headers=auth(tokens[0]), json={"pace": "fast"}
    )
    assert response.status_code == 200 and response.json()["pace"] == "fast"
    response = client.post(
        f"/api/games/{game}/pace", headers=auth(tokens[0]), json={"pace": "ludicrous"}
    )
    assert response.status_code == 400 and "pace" in response.json()["error"]


# ------------------------------------------------------------------ records and replays


def test_the_record_waits_for_the_end_then_ttr_replay_accepts_it(
    client: TestClient, tmp_path: Path
) -> None:
    game, tokens = start(client, ["human", "one-step"], seed=21)
    response = client.get(f"/api/games/{game}/record", headers=auth(tokens[0]))
    assert response.status_code == 409  # R5: the record holds every hidden card
    data = client.post(f"/api/games/{game}/fast-forward", headers=auth(tokens[0]), json={}).json()
    assert data["view"]["phase"] == "over" and data["result"]["seats"]
    response = client.get(f"/api/games/{game}/record", headers=auth(tokens[0]))
    assert response.status_code == 200
    assert "attachment" in response.headers["content-disposition"]
    path = tmp_path / "game.json"
    path.write_bytes(response.content)
    record = read_record(path)
    assert record["seats"] == [{"seat": 0, "player": "human"}, {"seat": 1, "player": "one-step"}]
    assert verify_record(record, load_map("north_america")) is None
    result = CliRunner().invoke(cli_app, ["replay", str(path), "--verify"])
    assert result.exit_code == 0, result.output


def test_a_replay_has_one_frame_per_action_and_ends_on_the_final_board(
    client: TestClient, registry: TableRegistry
) -> None:
    game, tokens = start(client, ["human", "greedy"], game_map="europe", seed=2)
    client.post(f"/api/games/{game}/fast-forward", headers=auth(tokens[0]), json={})
    record = client.get(f"/api/games/{game}/record", headers=auth(tokens[0])).json()
    replay = client.post("/api/replays", json=record)
    assert replay.status_code == 200
    data = replay.json()
    state = table_of(registry, game).state
    assert len(data["frames"]) == len(record["actions"]) == len(state.history)
    owners = [-1] * len(state.owner)
    stations = [-1] * len(state.station_owner)
    for frame in data["frames"]:
        for index, seat in frame["owners"].items():
            owners[int(index)] = seat
        for index, seat in frame["stations"].items():
            stations[int(index)] = seat
    assert owners == state.owner and stations == state.station_owner
    assert data["frames"][-1]["route_points"] == state.route_points
    assert data["result"] == as_json(state.result().to_dict())


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.update(format="something else"), "not a ttr-game-record"),
        (lambda r: r.update(seed="seven"), "not a valid game record"),
        (lambda r: r.update(map="atlantis"), "not on this server"),
        (
            lambda r: r["actions"].insert(5, {"seat": 0, "action": "claim X-Y with red:9"}),
            "action 6",
        ),
        (lambda r: r["actions"][9].update(action="fly"), "action 10"),
    ],
)
def test_a_bad_record_is_refused_with_a_reason(client: TestClient, change, message: str) -> None:
    game, tokens = start(client)
    client.post(f"/api/games/{game}/fast-forward", headers=auth(tokens[0]), json={})
    record = client.get(f"/api/games/{game}/record", headers=auth(tokens[0])).json()
    change(record)
    response = client.post("/api/replays", json=record)
    assert response.status_code == 400
    assert message in response.json()["error"]


# ------------------------------------------------------------------ the registry


def test_idle_games_leave_memory_and_come_back_from_the_store(
    client: TestClient, registry: TableRegistry
) -> None:
    """An unfinished game nobody looks at frees its slot after `idle_seconds`, but
    stays stored: its link brings it back as it was. A finished one frees its slot
    sooner (`finished_seconds`)."""
    game, tokens = start(client)
    post(client, game, tokens[0], "actions", {"action": "keep 0,1"})
    history = list(settle(client, registry, game).state.history)
    clock = registry.clock
    assert isinstance(clock, Clock)
    clock.now += registry.idle_seconds - 1
    assert client.get(f"/api/games/{game}", headers=auth(tokens[0])).status_code == 200
    clock.now += registry.idle_seconds - 1  # looked at a moment ago: still here
    client.portal.call(registry.expire, clock.now)
    assert game in registry
    clock.now += registry.idle_seconds + 1
    assert client.portal.call(registry.expire, clock.now) == 1 and len(registry) == 0
    response = client.get(f"/api/games/{game}", headers=auth(tokens[0]))
    assert response.status_code == 200 and game in registry
    assert table_of(registry, game).state.history == history

    post(client, game, tokens[0], "fast-forward", {})
    clock.now += registry.finished_seconds + 1
    assert client.portal.call(registry.expire, clock.now) == 1
    assert client.get(f"/api/games/{game}/record", headers=auth(tokens[0])).status_code == 200


def test_a_full_server_says_503_and_frees_the_slots_of_finished_and_idle_games(
    store: TableStore,
) -> None:
    registry = TableRegistry(
        store=store, max_tables=50, thinkers=Thinkers(processes=0), clock=Clock()
    )
    with serving(create_app(registry=registry, test_hooks=True)) as client:
        games = [start(client, seed=seed) for seed in range(50)]
        for game, tokens in games:
            assert client.get(f"/api/games/{game}", headers=auth(tokens[0])).status_code == 200
        body = {"map": "iran", "players": ["human", "greedy"]}
        response = client.post("/api/games", json=body)
        assert response.status_code == 503 and "50 games" in response.json()["error"]
        # A finished game gives its slot to a new one at once.
        game, tokens = games[7]
        post(client, game, tokens[0], "fast-forward", {})
        assert client.post("/api/games", json=body).status_code == 201
        assert game not in registry and len(registry) == 50
        # Idle games free theirs.
        registry.clock.now += registry.idle_seconds + 1  # type: ignore[attr-defined]
        assert client.post("/api/games", json=body).status_code == 201
        assert len(registry) == 1


# ------------------------------------------------------------------ the command


def test_ttr_serve_help_names_every_option() -> None:
    result = CliRunner().invoke(cli_app, ["serve", "--help"], terminal_width=200)
    assert result.exit_code == 0
    for option in (
        "--host",
        "--port",
        "--data",
        "--allow-host",
        "--idle-minutes",
        "--keep-days",
        "--max-games",
        "--max-search-seats",
        "--bot-seconds",
    ):
        assert option in result.output


def test_ttr_serve_refuses_a_bad_map_file_with_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: [", encoding="utf-8")
    result = CliRunner().invoke(cli_app, ["serve", str(bad), "--port", "0"])
    assert result.exit_code == 2 and "not a playable map" in result.output


def test_ttr_serve_says_so_when_the_port_is_taken(tmp_path: Path) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(
            cli_app, ["serve", "--port", str(port), "--data", str(tmp_path)]
        )
    assert result.exit_code == 2 and f"cannot listen on 127.0.0.1:{port}" in result.output


@pytest.mark.parametrize(
    ("host", "message"),
    [
        ("", "give an address"),
        (" 127.0.0.1", "give an address"),
        ("a b", "not an IP"),
        ("-bad-.example", "not an IP"),
        ("x" * 300, "not an IP"),
    ],
)
def test_ttr_serve_refuses_a_bad_host_with_exit_2(tmp_path: Path, host: str, message: str) -> None:
    result = CliRunner().invoke(cli_app, ["serve", "--host", host, "--data", str(tmp_path)])
    assert result.exit_code == 2 and message in result.output, result.output


def test_ttr_serve_refuses_a_data_folder_it_cannot_use(tmp_path: Path) -> None:
    a_file = tmp_path / "file"
    a_file.write_text("x", encoding="utf-8")
    result = CliRunner().invoke(cli_app, ["serve", "--data", str(a_file / "sub")])
    assert result.exit_code == 2 and "--data" in result.output


def test_ttr_serve_prints_its_url_serves_and_stops_cleanly_on_ctrl_c(tmp_path: Path) -> None:
    import httpx2

    process = subprocess.Popen(
        [sys.executable, "-m", "ttr_core", "serve", "--port", "0", "--data", str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert match, line
        assert httpx2.get(f"{match[0]}api/setup", timeout=10).status_code == 200
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=15)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, err
    assert "stopped" in out and "Traceback" not in err


def test_what_the_docs_say_the_host_can_know_the_database_file_alone_gives_every_hand(
    client: TestClient, registry: TableRegistry
) -> None:
    """docs/play-testing.md says plainly that the host can know every card: the
    seed of a random deal is in `tables.sqlite3` as it is, so reading the file
    and replaying its actions gives a player's hand and the deck before the end
    (the seats' pages and the watch link never carry it: tested above). If the
    seed is ever sealed, this fails and the docs change with it."""
    created = client.post(
        "/api/games", json={"map": "iran", "players": ["human", "human"], "pace": "instant"}
    ).json()
    tokens = [seat["token"] for seat in created["seats"]]
    for seat in (1, 0):
        answer = client.post(
            f"/api/games/{created['game']}/actions",
            json={"action": "keep 0,1"},
            headers=auth(tokens[seat]),
        )
        assert answer.status_code == 200, answer.text
    seen = client.get(f"/api/games/{created['game']}", headers=auth(tokens[1])).json()
    assert seen["seed"] is None  # not before the end
    assert registry.store is not None
    database = sqlite3.connect(f"file:{registry.store.path}?mode=ro", uri=True)
    seed, rules, game_map = database.execute(
        "SELECT seed, rule_set, map FROM games WHERE id = ?", (created["game"],)
    ).fetchone()
    actions = database.execute(
        "SELECT seat, action FROM actions WHERE game = ? ORDER BY number", (created["game"],)
    ).fetchall()
    database.close()
    state = GameState(load_map(game_map), 2, seed, RuleSet.from_dict(json.loads(rules)))
    for seat, action in actions:
        state.apply(parse_action(action), seat)
    assert dict(zip(CARD_NAMES, state.view(1).hand, strict=True)) == seen["view"]["hand"]
