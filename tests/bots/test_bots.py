"""Bots: they finish games on every map, only ever act on a PlayerView, always
return a legal action, and the style bots beat the random bot."""

from __future__ import annotations

import random

import pytest
from engine_positions import Watched, cards, europe_game
from testdata import nearest_table_size, table_sizes

from ttr_core.bots import BOTS, bot_factories, make_bot
from ttr_core.bots.planning import INF, cheapest_path, graph_for, route_costs
from ttr_core.bots.styles import fallback_action
from ttr_core.engine.actions import BuildStation, GiveUpTunnel, Payment, PayTunnel, Resign
from ttr_core.engine.books import TicketView
from ttr_core.engine.cards import CARD_INDEX
from ttr_core.engine.compiled import board_for
from ttr_core.engine.decisions import TunnelPayment
from ttr_core.engine.enums import EndReason
from ttr_core.engine.loop import bot_seed
from ttr_core.engine.open_routes import can_claim_route
from ttr_core.engine.state import GameState
from ttr_core.engine.view import PlayerView
from ttr_core.playtest.stats import wilson_interval
from ttr_maps import load_map
from ttr_maps.io.bundled import bundled_map_ids
from ttr_maps.rules import BASE

CARD_YELLOW = CARD_INDEX["yellow"]
STYLES = ["route-focus", "destination-hungry", "one-step", "long-route"]
PLANNERS = ["greedy", *STYLES]


def play_watched(map_id: str, names: list[str], seed: int) -> GameState:
    game_map = load_map(map_id)
    bots = [Watched(make_bot(n, bot_seed(seed, s))) for s, n in enumerate(names)]
    state = GameState(game_map, len(bots), seed)
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        state.apply(bots[seat].act(state.view(seat)), seat)
    assert all(b.calls for b in bots)
    return state


def test_every_registered_bot_is_made_under_its_own_name() -> None:
    assert set(BOTS) >= {"random", "one-step", "search", *PLANNERS}
    assert list(bot_factories()) == list(BOTS)
    for name, factory in bot_factories().items():
        assert make_bot(name, 1).name == name
        assert factory(1).name == name
    assert make_bot("search:7", 1).name == "search:7"


def test_the_help_texts_name_every_bot_without_importing_one() -> None:
    # `ttr --help` must not import the bots: the registry names them apart.
    import subprocess
    import sys

    code = (
        "import sys; from ttr_core.cli.play import BOTS_HELP; print(BOTS_HELP); "
        "print(any(m.startswith('ttr_core.bots.') for m in sys.modules))"
    )
    shown, imported = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert shown.startswith(", ".join(BOTS))
    assert "search:N" in shown
    assert imported == "False"


@pytest.mark.parametrize("name", ["nobody", "greedy:3", "search:0", "search:fast"])
def test_a_bad_bot_name_is_refused_with_what_is_known(name: str) -> None:
    with pytest.raises(ValueError, match=r"unknown bot|takes no parameter|search budget"):
        make_bot(name, 1)


@pytest.mark.parametrize("map_id", bundled_map_ids())
@pytest.mark.parametrize("name", PLANNERS)
def test_bot_finishes_games_at_the_smallest_and_largest_table(map_id: str, name: str) -> None:
    sizes = table_sizes(map_id)
    for players in (sizes[0], sizes[-1]):
        names = [name, *(["greedy", "random", "long-route", "random"][: players - 1])]
        state = play_watched(map_id, names, seed=players * 11)
        assert state.is_over
        assert state.end_reason != EndReason.ALL_PASSED


def test_all_bots_at_one_table_on_every_map() -> None:
    for map_id in bundled_map_ids():
        for players in sorted({nearest_table_size(map_id, 3), nearest_table_size(map_id, 4)}):
            names = [PLANNERS[(players + s) % len(PLANNERS)] for s in range(players)]
            assert play_watched(map_id, names, seed=players).is_over


def test_bot_is_reproducible_from_its_seed() -> None:
    first = play_watched("north_america", ["one-step", "long-route", "greedy"], 5)
    again = play_watched("north_america", ["one-step", "long-route", "greedy"], 5)
    assert first.history == again.history


def test_bots_answer_legally_in_random_positions_r4_r7_r12() -> None:
    """Keep decisions (R4, R12), second cards (R7) and ordinary turns, reached by
    random play: every planning bot answers with a listed action."""
    game_map = load_map("north_america")
    rng = random.Random(3)
    checked = 0
    for seed in range(6):
        state = GameState(game_map, 4, seed)
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            view = state.view(seat)
            if rng.random() < 0.3:
                for name in PLANNERS:
                    assert make_bot(name, seed).act(view) in view.legal_actions()
                    checked += 1
            actions = [a for a in view.legal_actions() if not isinstance(a, Resign)]
            state.apply(rng.choice(actions), seat)
    assert checked > 100


def test_fallback_action_prefers_playing_to_resigning() -> None:
    state = GameState(load_map("north_america"), 2, 1)
    view = state.view(state.to_move or 0)
    assert not isinstance(fallback_action(view), Resign)


@pytest.mark.parametrize("map_id", bundled_map_ids())
def test_planning_distance_is_the_r2_ticket_value(map_id: str) -> None:
    """The Floyd–Warshall table agrees with R2: a ticket's value is the shortest
    distance between its cities; Dijkstra on an empty board agrees too."""
    board = board_for(load_map(map_id))
    graph = graph_for(board)
    assert graph_for(board) is graph  # built once per board
    costs = route_costs(board, [-1] * board.num_routes, 0, 4, 45, 4)
    for t, value in enumerate(board.ticket_value):
        a, b = board.ticket_a[t], board.ticket_b[t]
        assert graph.distance[a][b] == value
        if value <= 45:
            assert cheapest_path(graph, costs, a, b)[0] == value


def test_r11_route_costs_close_the_other_track_with_3_players() -> None:
    board = board_for(load_map("north_america"))
    route = next(r for r in range(board.num_routes) if board.route_siblings[r])
    sibling = board.route_siblings[route][0]
    owners = [-1] * board.num_routes
    owners[route] = 1
    assert route_costs(board, owners, 0, 3, 45, 4)[sibling] == INF
    assert route_costs(board, owners, 0, 4, 45, 4)[sibling] == board.route_length[sibling]
    assert route_costs(board, owners, 1, 4, 45, 4)[route] == 0


@pytest.mark.parametrize(("players", "doubles_from"), [(4, 6), (2, 2), (3, 4)])
def test_r11_planning_bots_read_double_routes_from_as_the_engine_does(players, doubles_from):
    """Under a rule variant (`--set double_routes_from=N`), the routes a planning bot
    may still use (`route_costs` finite and unowned) are exactly those the engine
    lets it claim (`can_claim_route` with the game's rule set), at every turn of
    greedy games."""
    game_map = load_map("north_america")
    rules = BASE.with_overrides({"double_routes_from": doubles_from})
    for seed in range(2):
        bots = [make_bot("greedy", bot_seed(seed, s)) for s in range(players)]
        state = GameState(game_map, players, seed, rules)
        board, checked = state.board, 0
        while not state.is_over:
            seat = state.to_move
            view = state.view(seat)
            if view.phase == "playing" and view.decision is None:
                costs = route_costs(
                    board, view.owners, seat, players, view.wagons[seat], doubles_from
                )
                open_to_bot = {r for r, c in enumerate(costs) if c < INF and view.owners[r] == -1}
                claimable = {
                    r
                    for r in range(board.num_routes)
                    if can_claim_route(
                        board, r, seat, view.owners, players, view.wagons[seat], doubles_from
                    )
                }
                assert open_to_bot == claimable
                checked += 1
            state.apply(bots[seat].act(view), seat)
        assert checked > 50


def win_share(name: str, games: int) -> tuple[float, float]:
    """Wins of `name` against three random bots, rotating its seat (shared first
    places count 1/k), as (wins, Wilson lower bound)."""
    wins = 0.0
    for i in range(games):
        names = ["random"] * 4
        names[i % 4] = name
        state = play_watched("north_america", names, 1000 + i)
        winners = state.result().winners()
        if i % 4 in winners:
            wins += 1 / len(winners)
    return wins, wilson_interval(wins, games)[0]


@pytest.mark.parametrize("name", PLANNERS)
def test_style_beats_random_significantly(name: str) -> None:
    wins, low = win_share(name, 24)
    assert low > 0.25, f"{name}: {wins} wins of 24"


@pytest.mark.slow
@pytest.mark.parametrize("name", PLANNERS)
def test_style_beats_random_over_many_games(name: str) -> None:
    _, low = win_share(name, 200)
    assert low > 0.5


@pytest.mark.slow
@pytest.mark.parametrize("map_id", bundled_map_ids())
def test_hundreds_of_mixed_games_end(map_id: str) -> None:
    sizes = table_sizes(map_id)
    for seed in range(100):
        players = sizes[seed % len(sizes)]
        names = [[*PLANNERS, "random"][(seed + s) % 6] for s in range(players)]
        assert play_watched(map_id, names, seed).is_over


# ------------------------------------------------------------- europe rules (E1-E3)


def europe_position(ticket: str, opponent_routes: tuple[str, ...], **hand: int) -> PlayerView:
    """The view of the seat to move on the tiny europe map (see `test_europe_rules`),
    holding only `ticket` ("A-D"), with `hand`, and the other seat owning
    `opponent_routes`; nobody has built a station."""
    state = europe_game(2, 1)
    seat = state.to_move
    assert seat is not None
    view = state.view(seat)
    board = view.board
    owners = [-1] * board.num_routes
    for route_id in opponent_routes:
        owners[board.route_index[route_id]] = 1 - seat
    index = next(
        t for t, tk in enumerate(board.map.tickets) if f"{tk.a}-{tk.b}" == ticket and not tk.long
    )
    return view._replace(
        owners=tuple(owners),
        tickets=(TicketView(index, board.map.tickets[index], False),),
        hand=tuple(cards(**hand)),
    )


@pytest.mark.parametrize("name", PLANNERS)
def test_e1_bot_builds_a_station_that_saves_its_ticket(name: str) -> None:
    """A-D can reach D only over C-D or D-E, both the other player's: a station at
    D lends C-D (the shortest way, A-C-D) and saves the ticket."""
    view = europe_position("A-D", ("C-D", "D-E"), red=1, green=1)
    action = make_bot(name, 1).act(view)
    assert isinstance(action, BuildStation) and action.city == "D", f"{name} chose {action}"


@pytest.mark.parametrize("name", PLANNERS)
def test_e1_bot_builds_no_station_when_nothing_is_blocked(name: str) -> None:
    """E1: an unbuilt station is worth 4 points: no station when the ticket's path
    is free, nor for a route of the other player that no ticket needs."""
    for opponent_routes in ((), ("A-B/1", "B-E")):
        view = europe_position("A-D", opponent_routes, red=1, green=1)
        action = make_bot(name, 1).act(view)
        assert not isinstance(action, BuildStation), f"{name} chose {action}"


@pytest.mark.parametrize("name", PLANNERS)
def test_e2_bot_pays_for_a_tunnel_it_plans_and_gives_up_when_it_cannot(name: str) -> None:
    """A-C (4 yellow, a tunnel) is on the way to D; one yellow turned up asks for one more."""
    view = europe_position("A-D", (), yellow=5)
    route = view.board.route_index["A-C"]
    tunnel = TunnelPayment(view.seat, route, Payment("yellow", 4, 0), (CARD_YELLOW,), 1)
    view = view._replace(decision=tunnel, tunnel=tunnel, to_move=view.seat)
    assert make_bot(name, 1).act(view) == PayTunnel(Payment("yellow", 1, 0))
    broke = view._replace(hand=tuple(cards(yellow=4)))
    assert make_bot(name, 1).act(broke) == GiveUpTunnel()


def test_e1_planning_bots_build_fewer_stations_than_random_and_games_end() -> None:
    """Europe playouts: every game ends by its final round, and a planning bot builds
    a station only to save a ticket, far less often than the random bot."""
    built: dict[str, list[int]] = {"planner": [], "random": []}
    for seed in range(12):
        names = [[*PLANNERS, "random"][(seed + s) % 6] for s in range(4)]
        state = play_watched("europe", names, seed)
        assert state.is_over and state.end_reason != EndReason.ALL_PASSED
        for seat, name in enumerate(names):
            kind = "random" if name == "random" else "planner"
            built[kind].append(
                sum(1 for s, a in state.history if s == seat and isinstance(a, BuildStation))
            )
    planner = sum(built["planner"]) / len(built["planner"])
    random_bot = sum(built["random"]) / len(built["random"])
    assert planner < random_bot / 3, (planner, random_bot)


@pytest.mark.parametrize("seed", [0, 7, 2**40 + 3])
def test_the_random_bot_draws_as_random_choice_does(seed: int) -> None:
    """`RandomBot.pick` draws its index itself (issue 39): the same actions as
    `random.Random(seed).choice`, so random-bot games keep their records, for lists
    of every length from 1 to 200 (powers of two and their neighbours included)."""
    from ttr_core.bots.random_bot import RandomBot

    bot, reference = RandomBot(seed), random.Random(seed)
    for count in range(1, 201):
        actions = [f"action {i}" for i in range(count)]
        for _ in range(5):
            assert bot.pick(actions) == reference.choice(actions)
    with pytest.raises(IndexError):
        bot.pick([])
