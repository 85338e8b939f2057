"""The web table's games as friends play them: stored and restored (a restart, a
SIGKILL), bots that never see the state and never hold up the server, people's
names, notes, someone watching, the turn timer, and a game continued from its
record."""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest
from serve_server import (
    Clock,
    auth,
    post,
    running_server,
    server_process,
    serving,
    settle,
    start,
    table_of,
    until,
)
from starlette.testclient import TestClient

from ttr_core.bots.random_bot import RandomBot
from ttr_core.engine.actions import Action, TimeOut
from ttr_core.engine.loop import bot_seed, run
from ttr_core.engine.positions import arrange
from ttr_core.engine.record import Note, read_record, record_of, verify_record
from ttr_core.engine.state import GameState
from ttr_core.engine.view import PlayerView
from ttr_core.serve.app import create_app
from ttr_core.serve.store import TableStore
from ttr_core.serve.tables import TableRegistry
from ttr_core.serve.thinkers import Thinkers
from ttr_maps import load_map


def registry_on(store: TableStore, **options: Any) -> TableRegistry:
    return TableRegistry(store=store, thinkers=Thinkers(processes=0), clock=Clock(), **options)


def first_draw(view: dict) -> str:
    legal = view["legal"]
    return legal["draw_deck"] or next(iter(legal["market"].values()))


# ------------------------------------------------------------------ storage


def test_every_table_survives_a_restart_with_its_tokens(store: TableStore) -> None:
    """A server stops and starts again on the same data: each seat's link (its
    token), the spectators' link, the game, the log, names and notes come back, and
    the game goes on."""
    with serving(create_app(registry=registry_on(store), test_hooks=True)) as client:
        created = client.post(
            "/api/games",
            json={"map": "europe", "players": ["human", "greedy", "human"], "pace": "instant"},
        ).json()
        game = created["game"]
        tokens = {s["seat"]: s["token"] for s in created["seats"] if s["token"]}
        post(client, game, tokens[0], "name", {"name": "Ana"})
        post(client, game, tokens[2], "notes", {"text": "the long tickets look generous"})
        for seat in (0, 2):
            post(client, game, tokens[seat], "actions", {"action": "keep 0,1"})
        before = {}
        for seat, token in tokens.items():
            for _ in range(3):
                page = client.get(f"/api/games/{game}", headers=auth(token)).json()
                if page["view"]["to_move"] == seat and not page["thinking"]:
                    post(client, game, token, "actions", {"action": first_draw(page["view"])})
            time.sleep(0.05)
        time.sleep(0.2)
        for seat, token in tokens.items():
            before[seat] = client.get(f"/api/games/{game}", headers=auth(token)).json()
        watching = client.get(f"/api/games/{game}", headers=auth(created["spectator"])).json()
    assert before[0]["log"] and before[0]["names"][0] == "Ana"

    restarted = registry_on(store)
    with serving(create_app(registry=restarted, test_hooks=True)) as client:
        assert game in restarted  # read back at start, not only when asked for
        for seat, token in tokens.items():
            page = client.get(f"/api/games/{game}", headers=auth(token)).json()
            for key in ("view", "log", "names", "notes", "players", "fixed_deal"):
                assert page[key] == before[seat][key], key
        again = client.get(f"/api/games/{game}", headers=auth(created["spectator"])).json()
        assert again["view"] == watching["view"] and again["log"] == watching["log"]
        over = post(client, game, tokens[0], "fast-forward", {}).json()
        assert over["result"] is not None
        record = client.get(f"/api/games/{game}/record", headers=auth(tokens[0])).json()
    assert record["notes"][0]["text"] == "the long tickets look generous"
    assert record["seats"][0]["name"] == "Ana"
    assert verify_record(record, load_map("europe")) is None


def test_sigkill_loses_nothing_that_was_answered(tmp_path: Path) -> None:
    """`ttr serve` killed with SIGKILL between requests: started again on the same
    data, every seat's page is exactly the last one it was sent, and the game
    goes on (each action is stored before its answer)."""
    with server_process(tmp_path) as (url, process):
        http = httpx2.Client(base_url=url, timeout=10)
        created = http.post(
            "/api/games", json={"map": "iran", "players": ["human", "human"], "pace": "instant"}
        ).json()
        game = created["game"]
        tokens = {s["seat"]: s["token"] for s in created["seats"]}
        last: dict[int, Any] = {}
        for seat in (0, 1):
            http.post(
                f"/api/games/{game}/actions",
                headers=auth(tokens[seat]),
                json={"action": "keep 0,1"},
            )
        for _ in range(12):
            pages = {
                s: http.get(f"/api/games/{game}", headers=auth(t)).json() for s, t in tokens.items()
            }
            seat = next(s for s, p in pages.items() if p["view"]["to_move"] == s)
            answer = http.post(
                f"/api/games/{game}/actions",
                headers=auth(tokens[seat]),
                json={"action": first_draw(pages[seat]["view"])},
            )
            assert answer.status_code == 200
        for seat, token in tokens.items():
            last[seat] = http.get(f"/api/games/{game}", headers=auth(token)).json()
        process.send_signal(signal.SIGKILL)
        process.wait()
    with server_process(tmp_path) as (url, process):
        http = httpx2.Client(base_url=url, timeout=10)
        for seat, token in tokens.items():
            page = http.get(f"/api/games/{game}", headers=auth(token)).json()
            assert page["view"] == last[seat]["view"] and page["log"] == last[seat]["log"]
        seat = page["view"]["to_move"]
        view = http.get(f"/api/games/{game}", headers=auth(tokens[seat])).json()["view"]
        answer = http.post(
            f"/api/games/{game}/actions",
            headers=auth(tokens[seat]),
            json={"action": first_draw(view)},
        )
        assert answer.status_code == 200
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=15) == 0


# ------------------------------------------------------------------ bots


class Spy:
    """A seated bot that would take the state if it were offered one."""

    name = "spy"

    def __init__(self) -> None:
        self.received: list[object] = []
        self.bot = RandomBot(5)

    def decide(self, state: object, seat: int) -> Action:
        self.received.append(state)
        raise AssertionError("the web table offered a bot the state")

    def act(self, view: PlayerView) -> Action:
        self.received.append(view)
        return self.bot.act(view)


def test_r5_a_bot_at_the_web_table_only_ever_receives_its_view(
    client: TestClient, registry: TableRegistry
) -> None:
    game, tokens = start(client, ["human", "greedy"], seed=9)
    table = table_of(registry, game)
    spy = Spy()
    table.seats[1].bot = spy  # type: ignore[assignment]
    post(client, game, tokens[0], "actions", {"action": "keep 0,1,2"})
    for _ in range(6):
        settle(client, registry, game)
        view = client.get(f"/api/games/{game}", headers=auth(tokens[0])).json()["view"]
        post(client, game, tokens[0], "actions", {"action": first_draw(view)})
    settle(client, registry, game)
    assert len(spy.received) >= 4
    assert all(isinstance(thing, PlayerView) for thing in spy.received)
    assert not any(isinstance(thing, GameState) for thing in spy.received)


class Sleeper:
    """A bot far over any time budget."""

    name = "sleeper"

    def act(self, view: PlayerView) -> Action:
        time.sleep(1.5)
        return view.legal_actions()[0]


def test_a_bot_over_its_time_budget_gets_the_greedy_bots_move_and_the_log_says_so(
    store: TableStore,
) -> None:
    registry = TableRegistry(store=store, thinkers=Thinkers(processes=0, move_seconds=0.2))
    with serving(create_app(registry=registry)) as client:
        game, tokens = start(client, ["human", "greedy"], seed=4)
        table = table_of(registry, game)
        post(client, game, tokens[0], "actions", {"action": "keep 0,1"})
        settle(client, registry, game)  # my turn now, nothing thought ahead
        table.seats[1].bot = Sleeper()  # type: ignore[assignment]
        moves = len(table.state.history) + 2
        started = time.monotonic()
        post(client, game, tokens[0], "actions", {"action": "draw deck"})
        post(client, game, tokens[0], "actions", {"action": "draw deck"})
        until(client, lambda: len(table.state.history) > moves)
        assert time.monotonic() - started < 1.4  # not waited for
        log = client.get(f"/api/games/{game}", headers=auth(tokens[0])).json()["log"]
        assert any("took more than 0.2 s: played the greedy bot's move" in e["text"] for e in log)
    with serving(create_app(registry=registry_on(store))) as client:  # kept after a restart
        log = client.get(f"/api/games/{game}", headers=auth(tokens[0])).json()["log"]
        assert any("took more than 0.2 s" in e["text"] for e in log)


def test_the_server_plays_at_most_so_many_search_seats_at_once(store: TableStore) -> None:
    registry = registry_on(store, max_heavy_seats=2)
    search = {"map": "iran", "players": ["human", "search"], "pace": "slow"}
    with serving(create_app(registry=registry)) as client:
        games = [client.post("/api/games", json=search).json() for _ in range(2)]
        response = client.post("/api/games", json=search)
        assert response.status_code == 503 and "search" in response.json()["error"]
        lighter = {"map": "iran", "players": ["human", "greedy"]}
        assert client.post("/api/games", json=lighter).status_code == 201
        game, token = games[0]["game"], games[0]["seats"][0]["token"]
        post(client, game, token, "actions", {"action": "resign"})  # over: its seat is free
        assert client.post("/api/games", json=search).status_code == 201


@pytest.mark.slow  # 2-10 s; the default suite keeps the room's main test
def test_a_search_bot_thinking_at_one_table_does_not_hold_up_another(tmp_path: Path) -> None:
    """Three search bots think at table A (in a worker process); meanwhile the
    other table's page is answered: each of its answers comes between two looks
    at table A that both say a search is still thinking, so the answer did not
    wait for the search (an order of events, not a stopwatch: how fast is
    benchmarks/serve_bench.py's business)."""
    store = TableStore(tmp_path / "tables.sqlite3")
    registry = TableRegistry(store=store, thinkers=Thinkers(processes=1))
    try:
        with running_server(create_app(registry=registry)) as url:
            http = httpx2.Client(base_url=url, timeout=30)
            games = []
            for players in (["human", "search", "search", "search"], ["human", "greedy"]):
                data = http.post(
                    "/api/games",
                    json={"map": "north_america", "players": players, "pace": "instant"},
                ).json()
                games.append((data["game"], data["seats"][0]["token"]))
            (thinking_game, thinking_token), (other_game, other_token) = games
            http.post(
                f"/api/games/{thinking_game}/actions",
                headers=auth(thinking_token),
                json={"action": "keep 0,1,2"},
            )
            between = 0
            deadline = time.monotonic() + 120  # liveness only: the game must get going
            while between < 15 and time.monotonic() < deadline:
                page = http.get(f"/api/games/{thinking_game}", headers=auth(thinking_token))
                if not page.json()["thinking"]:
                    if page.json()["view"]["to_move"] == 0:
                        view = page.json()["view"]
                        http.post(
                            f"/api/games/{thinking_game}/actions",
                            headers=auth(thinking_token),
                            json={"action": first_draw(view)},
                        )
                    continue
                thinking_since = page.json()["revision"]
                answer = http.get(f"/api/games/{other_game}", headers=auth(other_token))
                assert answer.status_code == 200
                still = http.get(
                    f"/api/games/{thinking_game}?since={thinking_since}",
                    headers=auth(thinking_token),
                )
                # 204: nothing at table A changed, so the same search went on all along.
                if still.status_code == 204:
                    between += 1
        assert between >= 15
    finally:
        store.close()


# ------------------------------------------------------------------ people


def test_a_person_names_their_seat_and_the_record_keeps_it(
    client: TestClient, registry: TableRegistry
) -> None:
    game, tokens = start(client, ["human", "greedy", "human"])
    response = post(client, game, tokens[2], "name", {"name": "  Bo   Lin "})
    assert response.status_code == 200 and response.json()["names"] == [None, None, "Bo Lin"]
    for bad in ("", "x" * 41, "a\x1b[31mb", 7, None):
        response = post(client, game, tokens[0], "name", {"name": bad})
        assert response.status_code == 400 and "name" in response.json()["error"]
    post(client, game, tokens[0], "fast-forward", {})
    record = client.get(f"/api/games/{game}/record", headers=auth(tokens[0])).json()
    assert [s.get("name") for s in record["seats"]] == [None, None, "Bo Lin"]


def test_notes_of_the_table_go_into_the_record(client: TestClient, registry: TableRegistry) -> None:
    game, tokens = start(client)
    spectator = client.post("/api/games", json={"map": "iran", "players": ["human", "greedy"]})
    assert spectator.status_code == 201
    post(client, game, tokens[0], "name", {"name": "Ana"})
    post(client, game, tokens[0], "notes", {"text": "Miami feels remote"})
    post(client, game, tokens[0], "actions", {"action": "keep 0,1"})
    table = settle(client, registry, game)
    post(client, game, tokens[0], "notes", {"text": "second\nline"})
    for bad in ("", "x" * 1001, "bell\x07", 3):
        assert post(client, game, tokens[0], "notes", {"text": bad}).status_code == 400
    notes = client.get(f"/api/games/{game}", headers=auth(tokens[0])).json()["notes"]
    assert [(n["after"], n["seat"], n["name"], n["text"]) for n in notes] == [
        (0, 0, "Ana", "Miami feels remote"),
        (len(table.state.history), 0, "Ana", "second\nline"),
    ]
    table.notes.extend([Note(0, 0, "Ana", "x")] * (500 - len(table.notes)))
    assert post(client, game, tokens[0], "notes", {"text": "one more"}).status_code == 409
    post(client, game, tokens[0], "fast-forward", {})
    record = client.get(f"/api/games/{game}/record", headers=auth(tokens[0])).json()
    assert record["notes"][:2] == notes and len(record["notes"]) == 500


def test_someone_watching_sees_the_board_and_the_public_log_never_a_hand(
    client: TestClient, registry: TableRegistry
) -> None:
    created = client.post(
        "/api/games", json={"map": "europe", "players": ["human", "greedy"], "pace": "instant"}
    ).json()
    game, token, watcher = created["game"], created["seats"][0]["token"], created["spectator"]
    page = client.get(f"/api/games/{game}", headers=auth(watcher)).json()
    assert page["watching"] is True and page["view"]["seat"] is None
    for private in ("hand", "tickets", "offered", "decision", "legal", "laid", "keep_at_least"):
        assert private not in page["view"]
    assert not any("kept" in entry["text"] for entry in page["log"])  # R4, during setup
    post(client, game, token, "actions", {"action": "keep 0,1"})
    table = settle(client, registry, game)
    before = client.get(f"/api/games/{game}", headers=auth(watcher)).content
    state = table.state
    arrange(state, deck=state.cards.deck[::-1], tickets={0: state.tickets[0][::-1]})
    assert client.get(f"/api/games/{game}", headers=auth(watcher)).content == before
    for what, body in (
        ("actions", {"action": "draw deck"}),
        ("pace", {"pace": "slow"}),
        ("name", {"name": "me"}),
    ):
        assert post(client, game, watcher, what, body).status_code == 403
    assert (
        client.get(
            f"/api/games/{game}/why?route=Wien-Budapest/1", headers=auth(watcher)
        ).status_code
        == 403
    )
    note = post(client, game, watcher, "notes", {"text": "watching", "name": "Cy"}).json()
    assert note["notes"][-1] == {
        "after": len(state.history),
        "seat": None,
        "name": "Cy (watching)",
        "text": "watching",
    }


def test_a_refused_click_claim_gets_the_terminals_exact_reason(
    client: TestClient, registry: TableRegistry
) -> None:
    from ttr_core.table.commands import CommandError, parse_command

    game, tokens = start(client, seed=5)
    post(client, game, tokens[0], "actions", {"action": "keep 0,1"})
    table = settle(client, registry, game)
    view = table.state.view(0)
    for route in ("Denver-Omaha", "Seattle-Vancouver/1", "Los_Angeles-Phoenix"):
        answer = client.get(f"/api/games/{game}/why?route={route}", headers=auth(tokens[0]))
        reason = answer.json()["reason"]
        cities = " ".join(view.map.routes[view.board.route_index[route]].cities)
        try:
            parse_command(f"claim {cities}", view)
        except CommandError as error:
            assert reason == str(error)
        else:
            assert reason is None or reason.startswith(("R6", "R9", "R11"))
    assert (
        client.get(f"/api/games/{game}/why?route=Nowhere", headers=auth(tokens[0])).status_code
        == 400
    )


def test_d5_the_turn_timer_times_a_person_out(client: TestClient, registry: TableRegistry) -> None:
    """A table setting: a person whose time runs out passes (the host's
    `timeout N`, D5): at setup the fewest tickets are kept, on a turn nothing is
    taken; everyone's page shows the time left."""
    game, tokens = start(client, ["human", "greedy"], turn_seconds=30)
    table = table_of(registry, game)
    clock = registry.clock
    assert isinstance(clock, Clock)
    page = client.get(f"/api/games/{game}", headers=auth(tokens[0])).json()
    assert page["turn_seconds"] == 30 and page["clock"] == {"0": 30.0}
    offered = table.state.decision_for(0).offered
    clock.now += 31
    client.get(f"/api/games/{game}", headers=auth(tokens[0]))
    until(client, lambda: (None, TimeOut(0)) in table.state.history)
    assert table.state.tickets[0] == list(offered[:2])
    until(client, lambda: table.state.to_move == 0 and not table.thinking)
    turns = table.state.turns
    clock.now += 31
    client.get(f"/api/games/{game}", headers=auth(tokens[0]))
    until(client, lambda: table.state.turns > turns)
    log = client.get(f"/api/games/{game}", headers=auth(tokens[0])).json()["log"]
    texts = [e["text"] for e in log if e["seat"] == 0]
    assert "ran out of time: kept the first 2 of 3 tickets" in texts
    assert "ran out of time: the turn passes" in texts
    for seconds in (5, 4000, "60", True):
        body = {"map": "iran", "players": ["human", "greedy"], "turn_seconds": seconds}
        assert client.post("/api/games", json=body).status_code == 400


# ------------------------------------------------------------------ continuing a record


def unfinished_record(tmp_path: Path) -> dict:
    """A game stopped after 30 actions, as `ttr play --record` writes one."""
    game_map = load_map("north_america")
    state = GameState(game_map, 2, seed=12)
    bots = [RandomBot(bot_seed(12, seat)) for seat in range(2)]
    run(state, bots, on_step=lambda s, seat, a: stop_after(s, 30))
    record = record_of(state, ["human", "greedy"], ["Ana", None], [Note(3, 0, "Ana", "so far")])
    path = tmp_path / "stopped.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return read_record(path)


def stop_after(state: GameState, actions: int) -> None:
    from ttr_core.engine.loop import StopGame

    if len(state.history) >= actions:
        raise StopGame


def test_the_lobby_continues_an_unfinished_game_from_its_record(
    client: TestClient, registry: TableRegistry, tmp_path: Path
) -> None:
    record = unfinished_record(tmp_path)
    response = client.post("/api/games", json={"resume": record, "pace": "instant"})
    assert response.status_code == 201, response.text
    data = response.json()
    assert data["fixed_deal"] is True  # whoever has the record knows the seed
    assert [s["player"] for s in data["seats"]] == ["human", "greedy"]
    game, token = data["game"], data["seats"][0]["token"]
    table = table_of(registry, game)
    played = [str(a) for _, a in table.state.history]  # and the bot may go on at once
    assert played[:30] == [e["action"] for e in record["actions"]]
    page = client.get(f"/api/games/{game}", headers=auth(token)).json()
    assert page["names"] == ["Ana", None] and page["notes"][0]["text"] == "so far"
    assert page["log"]  # told as the table tells it
    post(client, game, token, "fast-forward", {})
    final = client.get(f"/api/games/{game}/record", headers=auth(token)).json()
    assert final["actions"][:30] == record["actions"]
    assert verify_record(final, load_map("north_america")) is None


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.update(seed="x"), "not a valid game record"),
        (lambda r: r.update(map="atlantis"), "not on this server"),
        (lambda r: r["seats"][1].update(player="wizard"), "unknown player"),
        (lambda r: r["actions"].insert(3, {"seat": 0, "action": "pass"}), "does not replay"),
        (lambda r: r["seats"][0].update(player="greedy"), "human"),
    ],
)
def test_a_record_that_cannot_be_continued_is_refused(
    client: TestClient, tmp_path: Path, change: Any, message: str
) -> None:
    record = unfinished_record(tmp_path)
    change(record)
    response = client.post("/api/games", json={"resume": record})
    assert response.status_code == 400 and message in response.json()["error"], response.text


def test_a_finished_game_is_replayed_not_continued(client: TestClient, tmp_path: Path) -> None:
    game, tokens = start(client)
    post(client, game, tokens[0], "actions", {"action": "resign"})
    record = client.get(f"/api/games/{game}/record", headers=auth(tokens[0])).json()
    response = client.post("/api/games", json={"resume": record})
    assert response.status_code == 400 and "replay" in response.json()["error"]
