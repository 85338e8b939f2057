"""The search bot: information-set Monte Carlo search from the view alone.

For each decision the bot

1. lists its candidate actions: the engine's legal actions, pruned to the ones
   worth a playout (`candidate_actions`): the choices of the greedy and one-step
   bots; the deck and a face-up locomotive; one payment per route, for the greedy
   plan's targets and the longest routes; tickets; the station that saves a
   ticket; every ticket choice and tunnel answer;
2. samples worlds: game states consistent with its view, the hidden cards and
   tickets drawn at random (`ttr_core.determinize`, R5/D6: the bot never sees the
   state); a ticket the routes another player claimed already advance is
   likelier in that player's hand (`ticket_weights`);
3. plays each candidate out to the end of the game in the same sampled worlds,
   every seat played by the fast `greedy` policy, and scores the outcome by the
   final margin over the best other player plus a bonus for winning (R15-R17);
4. spreads its budget by sequential halving (Karnin, Koren & Somekh, 2013):
   in log2(K) rounds every remaining candidate gets the same playouts on the
   same worlds, and the worse half is dropped after each round;
5. stays with the one-step bot's choice (the strongest heuristic on
   north_america) unless the best candidate beat it by `SWITCH_MARGIN` points on
   average in the same worlds: the playouts are noisy, so the search overrules
   the heuristic only on evidence (the one-step choice is never dropped).

This is determinized flat Monte Carlo rather than a tree (MCTS over
determinizations): with a budget of a few hundred playouts a move, and a game of
about seventy decisions per player, a second level of the tree would get a
handful of visits per node; the same playouts spent at the root, with common
worlds for every candidate (paired comparisons cancel most of the noise of the
hidden cards), judge the first move far better. The playout policy then decides
the rest, so the bot is a policy improvement over `greedy` by one step of search.

A budget is a number of playouts (`search:400`, reproducible for a seed) or
seconds a move (`search:0.5s`, as many playouts as fit; not reproducible).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

from ttr_core.actions import (
    Action,
    DrawDeck,
    DrawMarket,
    DrawTickets,
    GiveUpTunnel,
    KeepTickets,
    Pass,
    PayTunnel,
    Resign,
)
from ttr_core.bots.one_step import OneStepBot
from ttr_core.bots.planning import INF, best_payment, distances_from, graph_for, route_costs
from ttr_core.bots.styles import GREEDY, PlanningBot, ferry_locos, rescue_station
from ttr_core.cards import LOCO
from ttr_core.determinize import determinize
from ttr_core.legal import can_claim_route
from ttr_core.loop import run
from ttr_core.state import GameState
from ttr_core.view import PlayerView

#: Playouts a move by default: about 0.25 s a move (mean CPU time on one core) for
#: two players on north_america (see benchmarks/search_bench.py).
DEFAULT_PLAYOUTS = 64
#: Points a win is worth on top of the final margin, so that a narrow win beats a
#: narrow loss by more than their margins differ.
WIN_BONUS = 10.0
#: Points on average (final margin, same worlds) by which a candidate must beat
#: the one-step bot's choice to be played instead.
SWITCH_MARGIN = 4.0
#: A ticket another player's routes advance is exp(TICKET_EVIDENCE * share of
#: its distance they cover) times likelier to be in that player's hand.
TICKET_EVIDENCE = 3.0
#: Candidate claims kept besides the policies' own choices: planned targets and
#: the longest routes.
PLANNED_CLAIMS, LONGEST_CLAIMS = 4, 3


@dataclass(frozen=True)
class Budget:
    """Playouts a move, or seconds a move."""

    playouts: int | None = DEFAULT_PLAYOUTS
    seconds: float | None = None


def parse_budget(text: str) -> Budget:
    """`400` (playouts a move), `0.5s` or `500ms` (time a move).

    >>> parse_budget("400"), parse_budget("0.5s"), parse_budget("250ms")
    (Budget(playouts=400, seconds=None), Budget(playouts=None, seconds=0.5), \
Budget(playouts=None, seconds=0.25))
    """
    spec = text.strip().lower()
    try:
        if spec.endswith("ms"):
            seconds = float(spec[:-2]) / 1000
        elif spec.endswith("s"):
            seconds = float(spec[:-1])
        else:
            playouts = int(spec)
            if playouts < 1:
                raise ValueError
            return Budget(playouts=playouts)
    except ValueError:
        raise ValueError(
            f"search budget {text!r}: give playouts a move (search:400) "
            "or time a move (search:0.5s, search:500ms)"
        ) from None
    if not 0 < seconds <= 3600 or math.isnan(seconds):
        raise ValueError(f"search budget {text!r}: the time must be above 0 and at most 1 hour")
    return Budget(playouts=None, seconds=seconds)


@dataclass
class SearchStats:
    """What the bot spent, for benchmarks: decisions searched, playouts, CPU time."""

    decisions: int = 0
    searched: int = 0
    playouts: int = 0
    cpu_seconds: float = 0.0
    per_move: list[float] = field(default_factory=list)


class SearchBot:
    """Determinized flat Monte Carlo with sequential halving (see the module)."""

    def __init__(self, seed: int, budget: Budget | None = None, name: str = "search") -> None:
        self.rng = random.Random(seed)
        self.budget = budget or Budget()
        self.name = name
        self.stats = SearchStats()
        # The heuristics that propose candidates (and answer when only one is left).
        self._greedy = PlanningBot(seed, GREEDY)
        self._one_step = OneStepBot(seed)

    def act(self, view: PlayerView) -> Action:
        started = time.process_time()
        candidates = self.candidate_actions(view)
        seed = self.rng.getrandbits(64)
        if len(candidates) == 1:
            choice = candidates[0]
        else:
            choice = self.search(view, candidates, random.Random(seed))
            self.stats.searched += 1
        spent = time.process_time() - started
        self.stats.decisions += 1
        self.stats.cpu_seconds += spent
        self.stats.per_move.append(spent)
        return choice

    # ------------------------------------------------------------ candidates
    def candidate_actions(self, view: PlayerView) -> list[Action]:
        """The legal actions worth a playout, the heuristics' choices first (they
        win ties). Every candidate is one of `view.legal_actions()`."""
        legal = view.legal_actions()
        listed = set(legal)
        anchor = self._one_step.act(view)
        preferred = [anchor, self._greedy.act(view)]
        chosen: list[Action] = [a for a in preferred if a in listed]
        if view.decision == "tunnel_payment":
            pay = [a for a in legal if isinstance(a, PayTunnel)]
            chosen += pay[:1] + [a for a in legal if isinstance(a, GiveUpTunnel)]
        elif view.decision == "choose_tickets":
            chosen += [a for a in legal if isinstance(a, KeepTickets)]
        else:
            chosen += _draws(view, legal)
            chosen += self._claims(view, listed)
            chosen += [a for a in legal if isinstance(a, DrawTickets | Pass)]
            chosen += _rescue(view, listed)
        unique = list(dict.fromkeys(chosen))
        return unique or [a for a in legal if not isinstance(a, Resign)][:1] or legal[:1]

    def _claims(self, view: PlayerView, listed: set[Action]) -> list[Action]:
        """One payment per route: the greedy plan's targets, then the longest."""
        board, seat = view.board, view.seat
        wagons = view.wagons[seat]
        targets = self._greedy.targets(view, self._greedy.plan(view))
        planned = [r for r in targets if view.owners[r] == -1][: PLANNED_CLAIMS * 2]
        by_length = sorted(
            (
                r
                for r in range(board.num_routes)
                if can_claim_route(board, r, seat, view.owners, view.num_players, wagons)
            ),
            key=lambda r: (-board.route_length[r], r),
        )
        claims: list[Action] = []
        for routes, limit in ((planned, PLANNED_CLAIMS), (by_length, LONGEST_CLAIMS)):
            found = 0
            for route in routes:
                claim = best_payment(board, route, view.hand, None, ferry_locos(view, route))
                if claim is not None and claim in listed and claim not in claims:
                    claims.append(claim)
                    found += 1
                    if found == limit:
                        break
        return claims

    # ------------------------------------------------------------ the search
    def search(self, view: PlayerView, candidates: list[Action], rng: random.Random) -> Action:
        """Sequential halving over `candidates`, every one played out in the same
        sampled worlds each round. The first candidate (the one-step choice) is
        never dropped and is played unless the best mean outcome beats its mean
        by `SWITCH_MARGIN` (earlier candidates win ties)."""
        seat = view.seat
        arms = list(range(len(candidates)))
        totals = [0.0] * len(candidates)
        visits = [0] * len(candidates)
        rounds = max(1, math.ceil(math.log2(len(candidates))))
        budget = self.budget
        deadline = None if budget.seconds is None else time.process_time() + budget.seconds
        weights = ticket_weights(view)
        for round_number in range(rounds):
            if deadline is None:
                assert budget.playouts is not None
                worlds = max(1, budget.playouts // (rounds * len(arms)))
                round_end = None
            else:
                worlds = 10**9
                left = deadline - time.process_time()
                round_end = time.process_time() + left / (rounds - round_number)
            for world_number in range(worlds):
                if round_end is not None and world_number and time.process_time() >= round_end:
                    break
                world = determinize(view, rng, weights)
                for arm in arms:
                    totals[arm] += self.playout(world, seat, candidates[arm])
                    visits[arm] += 1
            arms.sort(key=lambda a: (-totals[a] / visits[a], a))
            kept = arms[: max(1, (len(arms) + 1) // 2)]
            arms = kept if 0 in kept else [*kept, 0]
            if len(arms) == 1:
                break
        best = arms[0]
        if totals[best] / visits[best] - totals[0] / visits[0] < SWITCH_MARGIN:
            return candidates[0]
        return candidates[best]

    def playout(self, world: GameState, seat: int, action: Action) -> float:
        """Play `action` in a copy of `world`, then greedy for everyone to the end:
        my final margin over the best other player, plus `WIN_BONUS` for a win
        (shared wins share it, R17)."""
        state = world.clone()
        state.apply(action, seat)
        run(state, [PlanningBot(0, GREEDY) for _ in range(state.num_players)])
        self.stats.playouts += 1
        return outcome(state, seat)


def outcome(state: GameState, seat: int) -> float:
    """My margin over the best other seat's total, plus the win bonus (R15-R17)."""
    seats = state.result().seats
    mine = seats[seat].total
    best_other = max(s.total for s in seats if s.seat != seat)
    winners = sum(1 for s in seats if s.rank == 1)
    win = WIN_BONUS / winners if seats[seat].rank == 1 else 0.0
    return mine - best_other + win


def ticket_weights(view: PlayerView) -> dict[int, list[float]]:
    """Per other seat with routes: how likely each ticket is in its hand, from the
    share of the ticket's distance (R2) its routes already cover."""
    board = view.board
    graph = graph_for(board)
    weights: dict[int, list[float]] = {}
    for other in range(view.num_players):
        if other == view.seat or other not in view.owners or not view.ticket_counts[other]:
            continue
        costs = route_costs(board, view.owners, other, view.num_players, view.wagons[other])
        reach: dict[int, list[int]] = {}
        row = []
        for a, b in zip(board.ticket_a, board.ticket_b, strict=True):
            if a not in reach:
                reach[a] = distances_from(graph, costs, a)
            base = graph.distance[a][b]
            left = reach[a][b]
            covered = (base - left) / base if 0 < base < INF and left < INF else 0.0
            row.append(math.exp(TICKET_EVIDENCE * max(covered, 0.0)))
        weights[other] = row
    return weights


def _draws(view: PlayerView, legal: list[Action]) -> list[Action]:
    """The deck and a face-up locomotive (R7); the face-up colours worth a look
    come from the heuristics' choices."""
    return [
        a
        for a in legal
        if isinstance(a, DrawDeck)
        or (isinstance(a, DrawMarket) and view.market[a.slot] == LOCO and view.decision is None)
    ]


def _rescue(view: PlayerView, listed: set[Action]) -> list[Action]:
    """E1: the station that saves a ticket, if any (see `rescue_station`)."""
    if not view.stations_left or not view.stations_left[view.seat]:
        return []
    greedy = PlanningBot(0, GREEDY)
    rescue = rescue_station(view, greedy.plan(view))
    return [rescue.action] if rescue is not None and rescue.action in listed else []
