"""The search bot: information-set Monte Carlo search from the view alone.

For each decision the bot

1. lists its candidate actions: the engine's legal actions, pruned to the ones
   worth a playout (`candidate_actions`): the choices of the greedy and one-step
   bots; the deck and a face-up locomotive; one payment per route, for the greedy
   plan's targets and the longest routes; tickets; the station that saves a
   ticket; every ticket choice and tunnel answer. The second card of a draw (R7)
   is not searched: the one-step choice is played (playouts cannot tell those
   choices from noise, and the budget is better spent on the others);
2. samples worlds: game states consistent with its view, the hidden cards and
   tickets drawn at random (`ttr_core.bots.determinize`, R5/D6: the bot never sees the
   state); a ticket the routes another player claimed already advance is
   likelier in that player's hand (`ticket_weights`);
3. plays each candidate out to the end of the game in the same sampled worlds,
   every seat played by the greedy playout policy (`ttr_core.bots.rollout`: the
   greedy style reading the sampled state, no views, about twice the greedy
   bot's speed); the outcome is the final margin over the best other player
   plus a bonus for winning (R15-R17);
4. races the candidates over the worlds, one world at a time, on `RACE_SHARE`
   of the budget: every candidate still in the race is played in each new
   world, and after `MIN_WORLDS` worlds a candidate is dropped as soon as the
   leader beats it by `DROP_Z` standard errors of their paired differences
   (racing, in the manner of Maron & Moore's Hoeffding races, with a paired t
   statistic): the budget goes to the close calls. A candidate is dropped too
   once it plainly cannot overrule the one-step choice (step 5): its paired
   lead over that choice stays under `SWITCH_MARGIN` even `ANCHOR_Z` standard
   errors up;
5. stays with the one-step bot's choice (the strongest heuristic on
   north_america; it is never dropped) unless the race leader then beats it in
   fresh worlds, with the rest of the budget, by `SWITCH_MARGIN` points on
   average and `SWITCH_Z` standard errors: the playouts are noisy, so the search
   overrules the heuristic only on evidence, and the leader's luck in the race
   does not count twice. This check stops early, after `SETTLE_WORLDS` fresh
   worlds, once the answer is plain: the leader ahead by `SETTLE_Z` standard
   errors, or unable to overrule (as in the race).

The two early stops spend about a quarter fewer playouts a move for the same
choices within the playouts' noise (benchmarks/search_bench.py measures games
per CPU hour and the win rate against one-step; docs/bots.md has the numbers).

This is determinized flat Monte Carlo rather than a tree (MCTS over
determinizations): with a budget of a few hundred playouts a move, and a game of
about seventy decisions per player, a second level of the tree would get a
handful of visits per node; the same playouts spent at the root, with common
worlds for every candidate (paired comparisons cancel most of the noise of the
hidden cards), judge the first move far better. The playout policy then decides
the rest, so the bot is a policy improvement over `greedy` by one step of search,
anchored on `one-step`.

A budget is a number of playouts (`search:400`, reproducible for a seed) or
seconds a move (`search:0.5s`, as many playouts as fit; not reproducible).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

from ttr_core.bots.determinize import determinize
from ttr_core.bots.one_step import OneStepBot
from ttr_core.bots.planning import (
    INF,
    best_payment,
    distances_from,
    graph_for,
    route_costs,
)
from ttr_core.bots.rollout import RolloutPlayer, rollout_players
from ttr_core.bots.styles import GREEDY, PlanningBot, doubles_from, ferry_locos, rescue_station
from ttr_core.engine.actions import (
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
from ttr_core.engine.cards import LOCO
from ttr_core.engine.decisions import ChooseTickets, SecondCard, TunnelPayment
from ttr_core.engine.loop import run
from ttr_core.engine.open_routes import can_claim_route
from ttr_core.engine.result import standings
from ttr_core.engine.state import GameState
from ttr_core.engine.view import PlayerView
from ttr_maps.rules import MAX_SEARCH_PLAYOUTS
from ttr_maps.text import glimpse

#: Playouts a move by default: about 0.25 s a move (mean CPU time on one core) for
#: two players on north_america (see benchmarks/search_bench.py).
DEFAULT_PLAYOUTS = 200
#: Points a win is worth on top of the final margin, so that a narrow win beats a
#: narrow loss by more than their margins differ.
WIN_BONUS = 10.0
#: Share of the budget for the race among the candidates; the rest checks the
#: leader against the one-step choice in fresh worlds.
RACE_SHARE = 0.6
#: Worlds every candidate is played in before any is dropped.
MIN_WORLDS = 4
#: A candidate is dropped once the leader beats it by this many standard errors of
#: the paired differences (same worlds).
DROP_Z = 2.0
#: The search plays another candidate than the one-step bot's choice only when it
#: beats that choice in fresh worlds by `SWITCH_MARGIN` points on average and by
#: `SWITCH_Z` standard errors: the heuristic is overruled on evidence.
SWITCH_Z, SWITCH_MARGIN = 1.3, 1.0
#: A candidate whose paired lead over the one-step choice, plus this many standard
#: errors, is under `SWITCH_MARGIN` cannot overrule it: dropped from the race.
ANCHOR_Z = 1.0
#: The check in fresh worlds stops early, after `SETTLE_WORLDS` worlds, when the
#: leader beats the one-step choice by `SETTLE_Z` standard errors (and the margin),
#: or cannot overrule it (`ANCHOR_Z`).
SETTLE_WORLDS, SETTLE_Z = 8, 2.5
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
            if not spec.isascii() or not spec.isdigit() or len(spec) > 7:
                raise ValueError
            playouts = int(spec)
            if not 1 <= playouts <= MAX_SEARCH_PLAYOUTS:
                raise ValueError
            return Budget(playouts=playouts)
    except ValueError:
        raise ValueError(
            f"search budget {glimpse(repr(text))}: give playouts a move (search:400, "
            f"1 to {MAX_SEARCH_PLAYOUTS:,}) or time a move (search:0.5s, search:500ms)"
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
    #: Playouts cut at their turn limit (a loop no rule ends, see `ttr_core.bots.rollout`).
    cut_playouts: int = 0
    cpu_seconds: float = 0.0
    per_move: list[float] = field(default_factory=list)


@dataclass
class Allowance:
    """What one stage of a search may spend: playouts in all, or CPU time up to a
    moment (`time.process_time`); `spent` counts the playouts so far."""

    playouts: int | None = None
    seconds: float | None = None
    spent: int = 0

    def allows(self, more: int) -> bool:
        """Whether `more` playouts still fit."""
        if self.playouts is not None:
            return self.spent + more <= self.playouts
        assert self.seconds is not None
        return time.process_time() < self.seconds


class SearchBot:
    """Determinized flat Monte Carlo, its candidates raced (see the module)."""

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

    def catch_up(self, view: PlayerView, action: Action) -> bool:
        """Become the bot that chose `action` in `view` (a resumed game,
        `ttr_core.engine.loop.catch_up`) without searching again: the heuristics
        see the view and the search's seed is drawn, as `act` does; the playouts
        change nothing that lasts. Exact (True) with a budget of playouts; with
        seconds, the choices hang on the machine's speed and cannot be repeated."""
        self.candidate_actions(view)
        self.rng.getrandbits(64)
        return self.budget.seconds is None

    # ------------------------------------------------------------ candidates
    def candidate_actions(self, view: PlayerView) -> list[Action]:
        """The legal actions worth a playout, the heuristics' choices first (they
        win ties). Every candidate is one of `view.legal_actions()`."""
        legal = view.legal_actions()
        listed = set(legal)
        anchor = self._one_step.act(view)
        preferred = [anchor, self._greedy.act(view)]
        chosen: list[Action] = [a for a in preferred if a in listed]
        if isinstance(view.decision, TunnelPayment):
            pay = [a for a in legal if isinstance(a, PayTunnel)]
            chosen += pay[:1] + [a for a in legal if isinstance(a, GiveUpTunnel)]
        elif isinstance(view.decision, ChooseTickets):
            chosen += [a for a in legal if isinstance(a, KeepTickets)]
        elif isinstance(view.decision, SecondCard):
            # R7: which second card matters little and playouts cannot tell it
            # from noise: the one-step choice, and the budget saved for the rest.
            chosen = chosen[:1]
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
                if can_claim_route(
                    board, r, seat, view.owners, view.num_players, wagons, doubles_from(view)
                )
            ),
            key=lambda r: (-board.route_length[r], r),
        )
        claims: list[Action] = []
        for routes, limit in ((planned, PLANNED_CLAIMS), (by_length, LONGEST_CLAIMS)):
            found = 0
            for route in routes:
                claim = best_payment(
                    board,
                    route,
                    view.hand,
                    None,
                    ferry_locos(view, route),
                    view.rule_set.plain_route_locomotives,
                )
                if claim is not None and claim in listed and claim not in claims:
                    claims.append(claim)
                    found += 1
                    if found == limit:
                        break
        return claims

    # ------------------------------------------------------------ the search
    def search(self, view: PlayerView, candidates: list[Action], rng: random.Random) -> Action:
        """Race the candidates (`race`) on `RACE_SHARE` of the budget; if one of
        them then leads the first candidate (the one-step choice), play both in
        fresh worlds with the rest of the budget and play the leader only if it
        beats the one-step choice there by `SWITCH_MARGIN` points on average and
        `SWITCH_Z` standard errors (fresh worlds: the leader's luck in the race,
        the best of many noisy means, does not count twice)."""
        budget = self.budget
        weights = ticket_weights(view)
        if budget.seconds is not None:
            started = time.process_time()
            race_end = Allowance(seconds=started + budget.seconds * RACE_SHARE)
            verify_end = Allowance(seconds=started + budget.seconds)
        else:
            assert budget.playouts is not None
            race_end = Allowance(playouts=math.ceil(budget.playouts * RACE_SHARE))
            verify_end = Allowance(playouts=budget.playouts)
        results = self.race(view, candidates, rng, weights, race_end)
        alive = [arm for arm, outcomes in enumerate(results) if outcomes is not None]
        leader = max(alive, key=lambda a: (mean(results[a]), -a))
        if leader == 0:
            return candidates[0]
        verify_end.spent = race_end.spent
        if self.overrules(view, candidates[leader], candidates[0], rng, weights, verify_end):
            return candidates[leader]
        return candidates[0]

    def overrules(
        self,
        view: PlayerView,
        leader: Action,
        anchor: Action,
        rng: random.Random,
        weights: dict[int, list[float]],
        allowance: Allowance,
    ) -> bool:
        """Whether `leader` beats `anchor` (the one-step choice) in fresh worlds by
        `SWITCH_MARGIN` points on average and `SWITCH_Z` standard errors, with what
        `allowance` leaves (at least one world); settled early once plain (after
        `SETTLE_WORLDS` worlds: ahead by `SETTLE_Z` standard errors, or unable to
        overrule)."""
        leading: list[float] = []
        anchored: list[float] = []
        while not leading or allowance.allows(2):
            world, players = self.sample(view, rng, weights)
            leading.append(self.playout(world, players, view.seat, leader))
            anchored.append(self.playout(world, players, view.seat, anchor))
            allowance.spent += 2
            if len(leading) >= SETTLE_WORLDS:
                if clearly_behind(leading, anchored, SETTLE_Z, SWITCH_MARGIN):
                    return True
                if cannot_overrule(leading, anchored):
                    return False
        return clearly_behind(leading, anchored, SWITCH_Z, SWITCH_MARGIN)

    def race(
        self,
        view: PlayerView,
        candidates: list[Action],
        rng: random.Random,
        weights: dict[int, list[float]],
        allowance: Allowance,
    ) -> list[list[float] | None]:
        """Play the candidates in the same sampled worlds, one world at a
        time, while `allowance` lasts (at least one world); after `MIN_WORLDS`
        worlds a candidate is dropped once the leader beats it by `DROP_Z`
        standard errors or it cannot overrule the first candidate (`ANCHOR_Z`);
        the first candidate is never dropped, and the race ends when it is alone.
        Returns each candidate's outcomes world by world (None for the dropped)."""
        seat = view.seat
        results: list[list[float] | None] = [[] for _ in candidates]
        alive = list(range(len(candidates)))
        worlds = 0
        while len(alive) > 1 and (not worlds or allowance.allows(len(alive))):
            world, players = self.sample(view, rng, weights)
            for arm in alive:
                outcomes = results[arm]
                assert outcomes is not None
                outcomes.append(self.playout(world, players, seat, candidates[arm]))
            allowance.spent += len(alive)
            worlds += 1
            if worlds >= MIN_WORLDS:
                lead = max(alive, key=lambda a: (sum(results[a] or ()), -a))
                leading, anchored = results[lead], results[0]
                assert leading is not None and anchored is not None
                kept = []
                for arm in alive:
                    outcomes = results[arm]
                    assert outcomes is not None
                    if arm == 0 or (
                        (arm == lead or not clearly_behind(leading, outcomes, DROP_Z))
                        and not cannot_overrule(outcomes, anchored)
                    ):
                        kept.append(arm)
                    else:
                        results[arm] = None
                alive = kept
        return results

    def sample(
        self, view: PlayerView, rng: random.Random, weights: dict[int, list[float]]
    ) -> tuple[GameState, list[RolloutPlayer]]:
        """A world consistent with `view` (`determinize`) and its playout players,
        their plans made once, to be copied into every playout of that world."""
        world = determinize(view, rng, weights)
        players = rollout_players(world)
        for player in players:
            player.plan()
        return world, players

    def playout(
        self, world: GameState, players: list[RolloutPlayer], seat: int, action: Action
    ) -> float:
        """Play `action` in a copy of `world`, then the greedy playout policy
        (`players`, see `ttr_core.bots.rollout`) for everyone to the end (or to its
        turn limit, `RolloutPlayer.last_turn`): my final margin over the best other
        player, plus `WIN_BONUS` for a win (shared wins share it, R17)."""
        state = world.clone()
        state.apply(action, seat)
        run(state, [player.bound_to(state) for player in players])
        self.stats.playouts += 1
        if not state.is_over:
            self.stats.cut_playouts += 1
        return outcome(state, seat)


def mean(values: list[float] | None) -> float:
    assert values
    return sum(values) / len(values)


def clearly_behind(leader: list[float], other: list[float], z: float, margin: float = 0.0) -> bool:
    """Whether `other` trails `leader` in the same worlds by more than `margin` on
    average and by more than `z` standard errors of the paired differences."""
    lead = paired_lead(leader, other)
    return lead is not None and lead[0] > margin and lead[0] > z * lead[1]


def cannot_overrule(candidate: list[float], anchor: list[float]) -> bool:
    """Whether `candidate`, in the same worlds as `anchor` (the one-step choice),
    leads it by less than `SWITCH_MARGIN` even `ANCHOR_Z` standard errors of the
    paired differences up: it would never pass the switch test."""
    lead = paired_lead(candidate, anchor)
    return lead is not None and lead[0] + ANCHOR_Z * lead[1] < SWITCH_MARGIN


def paired_lead(first: list[float], second: list[float]) -> tuple[float, float] | None:
    """The mean of `first - second` world by world and its standard error; None
    for fewer than two worlds (one says nothing of the spread)."""
    count = len(first)
    if count < 2:
        return None
    diffs = [a - b for a, b in zip(first, second, strict=True)]
    mean = sum(diffs) / count
    variance = sum((d - mean) ** 2 for d in diffs) / (count - 1)
    return mean, math.sqrt(variance / count)


def outcome(state: GameState, seat: int) -> float:
    """My margin over the best other seat's total, plus the win bonus (R15-R17):
    the game's `standings`, not written up as a result (a playout cut at its turn
    limit is scored as it stands)."""
    final = standings(state)
    totals, ranks = final.totals, final.ranks
    best_other = max([total for other, total in enumerate(totals) if other != seat])
    winners = ranks.count(1)
    win = WIN_BONUS / winners if ranks[seat] == 1 else 0.0
    return totals[seat] - best_other + win


def ticket_weights(view: PlayerView) -> dict[int, list[float]]:
    """Per other seat with routes: how likely each ticket is in its hand, from the
    share of the ticket's distance (R2) its routes already cover."""
    board = view.board
    graph = graph_for(board)
    weights: dict[int, list[float]] = {}
    for other in range(view.num_players):
        if other == view.seat or other not in view.owners or not view.ticket_counts[other]:
            continue
        costs = route_costs(
            board,
            view.owners,
            other,
            view.num_players,
            view.wagons[other],
            doubles_from(view),
        )
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
