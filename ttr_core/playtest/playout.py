"""One bot game played and summarised: what a balance report needs of it.

Game `i` of a run with seed `S` is played with seed `game_seed(S, i)`; seat `s`
of game `i` is played by `bots[(s + i) % len(bots)]` (`seat_names`), so every bot
sits in every seat equally often. A game is a pure function of its map, rules,
seed and bots: wherever it is played (`ttr_core.playtest.executors`), the summary
is the same.

Ticket completion and score parts come from the game's final result, so with the
europe rules a ticket completed through a station's borrowed route (E1) counts as
completed and the `stations` part is reported like the others.

>>> from ttr_maps import load_map
>>> summary = play_summarised(load_map("north_america"), "north_america", ("greedy", "random"), 1)
>>> summary.names, summary.end_reason
(('greedy', 'random'), 'final round')
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field

from ttr_core.bots import make_bot
from ttr_core.engine.actions import DrawTickets, GiveUpTunnel, PayTunnel
from ttr_core.engine.decisions import ChooseTickets
from ttr_core.engine.enums import EndReason
from ttr_core.engine.loop import bot_seed, run
from ttr_core.engine.state import GameState
from ttr_maps.model import Map
from ttr_maps.rules import RuleSet


def game_seed(seed: int, index: int) -> int:
    """The seed of game `index` in a run seeded `seed`."""
    return (seed * 1_000_033 + index * 7_777 + 1) % (2**62)


def seat_names(bots: Sequence[str], players: int, index: int) -> tuple[str, ...]:
    """Who plays game `index`: the bot list rotated by one seat per game."""
    return tuple(bots[(seat + index) % len(bots)] for seat in range(players))


@dataclass(frozen=True)
class SeatSummary:
    """One seat's game. Routes and tickets are indices into the map in play order
    (`Map.in_play_order`), as the engine numbers them."""

    total: int
    score: dict[str, int]
    rank: int
    longest_path: int
    wagons_left: int
    routes: tuple[int, ...]
    #: (ticket index, completed) for every ticket held at the end; completed as
    #: scored, with the routes the seat's stations borrowed (E1).
    tickets: tuple[tuple[int, bool], ...]
    #: E1 (europe rules): stations built, and the ids of the others' routes they
    #: lent the seat (scored with its tickets).
    stations: int = 0
    station_routes: tuple[str, ...] = ()
    #: E2 (europe rules): tunnel claims, and how many asked for extra cards that
    #: were paid or given up (the rest were claimed at once).
    tunnel_claims: int = 0
    tunnels_paid: int = 0
    tunnels_given_up: int = 0
    #: Every ticket dealt to the seat to choose from (R4, E4 at setup; R12), in
    #: the order dealt: a returned ticket may be dealt again.
    offered: tuple[int, ...] = ()

    @property
    def borrowed_routes(self) -> int:
        """E1: how many of the others' routes the seat's stations lent it."""
        return len(self.station_routes)


@dataclass(frozen=True)
class GameSummary:
    """What the report needs of one game (small, so it crosses processes cheaply)."""

    index: int
    seed: int
    names: tuple[str, ...]
    end_reason: str
    turns: int
    first_player: int
    seats: tuple[SeatSummary, ...]
    #: After each turn: (mean route points, mean wagons left) over the seats.
    arc: tuple[tuple[float, float], ...]
    record: str | None = field(default=None, repr=False)
    #: The MAP argument the game was played on (for a command that replays it).
    map_argument: str = ""
    #: For a game that ended with everybody passing (R6): what had run out, a
    #: subset of STALL_CAUSES ("track", "cards", "tickets"); empty otherwise.
    stall_causes: tuple[str, ...] = ()


def play_summarised(
    game_map: Map,
    map_argument: str,
    names: Sequence[str],
    seed: int,
    index: int = 0,
    record: bool = False,
    rules: RuleSet | None = None,
) -> GameSummary:
    """Play one bot game on `game_map` (with `rules`, default the map's) and
    summarise it; `map_argument` is how the run named the map (bundled id or path),
    for the command that replays the game."""
    bots = [make_bot(name, bot_seed(seed, seat)) for seat, name in enumerate(names)]
    arc: list[tuple[float, float]] = []
    players = len(bots)

    state = GameState(game_map, players, seed, rules)
    offered: list[list[int]] = [[] for _ in range(players)]
    for seat in range(players):  # R4 (E4): the setup offers
        _note_offer(state, seat, offered)

    def after_turns(state: GameState, seat: int, action: object) -> None:
        if isinstance(action, DrawTickets):  # R12: an offer to choose from
            _note_offer(state, seat, offered)
        if state.turns != len(arc):  # a turn ended: one point of the arc per turn
            arc.append((sum(state.route_points) / players, sum(state.wagons) / players))

    run(state, bots, after_turns)
    result = state.result()
    tunnels = _tunnel_counts(state)
    seats = tuple(
        SeatSummary(
            total=s.total,
            score=dict(s.score),
            rank=s.rank,
            longest_path=s.longest_path,
            wagons_left=s.wagons_left,
            routes=tuple(state.claimed_routes(s.seat)),
            tickets=tuple(
                (t, outcome.completed)
                for t, outcome in zip(state.tickets[s.seat], s.tickets, strict=True)
            ),
            stations=len(s.stations),
            station_routes=tuple(s.station_routes),
            tunnel_claims=tunnels[s.seat][0],
            tunnels_paid=tunnels[s.seat][1],
            tunnels_given_up=tunnels[s.seat][2],
            offered=tuple(offered[s.seat]),
        )
        for s in result.seats
    )
    text = None
    if record:
        from ttr_core.engine.record import dump_record, record_of

        text = dump_record(record_of(state, list(names)))
    return GameSummary(
        index,
        seed,
        tuple(names),
        state.end_reason or "",
        state.turns,
        state.first_player,
        seats,
        tuple(arc),
        text,
        map_argument,
        stall_causes(state) if state.end_reason == EndReason.ALL_PASSED else (),
    )


def _note_offer(state: GameState, seat: int, offered: list[list[int]]) -> None:
    decision = state.decision_for(seat)
    if isinstance(decision, ChooseTickets):
        offered[seat].extend(decision.offered)


#: What can run out and make every player pass (R6): no route anyone may still
#: claim with the wagons left (R9, R11), no train card to draw (D3), no ticket (D4).
STALL_CAUSES = ("track", "cards", "tickets")


def stall_causes(state: GameState) -> tuple[str, ...]:
    """What had run out when a game ended with everybody passing, read from a
    seat's public view (what everyone can see)."""
    from ttr_core.engine.open_routes import can_claim_route

    view = state.view(0)
    players = view.num_players
    doubles = view.rule_set.double_routes_from
    track = not any(
        can_claim_route(view.board, route, seat, view.owners, players, view.wagons[seat], doubles)
        for seat in range(players)
        for route, owner in enumerate(view.owners)
        if owner == -1
    )
    cards = not view.deck_size and not view.discard_size and all(c is None for c in view.market)
    tickets = not view.ticket_deck_size
    found = dict(zip(STALL_CAUSES, (track, cards, tickets), strict=True))
    return tuple(cause for cause, ran_out in found.items() if ran_out)


def _tunnel_counts(state: GameState) -> list[tuple[int, int, int]]:
    """Per seat, from the history (E2): (tunnel claims, extra paid, given up)."""
    counts = [[0, 0, 0] for _ in range(state.num_players)]
    for index in state.tunnel_reveals:
        seat = state.history[index][0]
        if seat is not None:
            counts[seat][0] += 1
    for seat, action in state.history:
        if seat is not None and isinstance(action, PayTunnel):
            counts[seat][1] += 1
        elif seat is not None and isinstance(action, GiveUpTunnel):
            counts[seat][2] += 1
    return [(c[0], c[1], c[2]) for c in counts]


def rule_changes(game_map: Map, rules: RuleSet | None) -> list[str]:
    """The `--set` texts that turn `game_map`'s own rules into `rules`."""
    from ttr_maps.rules import rules_for

    return [] if rules is None else rules.changes_from(rules_for(game_map))


def play_command(
    map_argument: str, names: Sequence[str], seed: int, changes: Sequence[str] = ()
) -> str:
    """A `ttr play` command line that plays the same game again (same seed, same
    bots in the same seats: `ttr play` seeds its bots as `play_summarised` does;
    `changes` are the run's `--set` overrides)."""
    parts = ["ttr", "play", map_argument, "--players", str(len(names))]
    parts += ["--bots", ",".join(names), "--seed", str(seed)]
    for change in changes:
        parts += ["--set", change]
    return shlex.join(parts)
