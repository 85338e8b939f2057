"""Planning bots with a play style: greedy, route focus, destination hungry, long route.

They share one turn procedure (`PlanningBot`): keep the tickets the style likes,
plan a network for them (`ttr_core.bots.planning`), claim the first affordable
target, draw the colours the targets need, and fall back to any legal action when
the plan has nothing to offer, so a game between them always ends. A style only
changes which tickets are kept, when new ones are drawn and which routes are
targets. The four styles follow the agents of de Mesentier Silva et al. (FDG 2017).

With the `europe` rule set the procedure also pays ferries with their locomotives
(E3), digs a tunnel only with a spare card for what the turned-up cards may ask and
pays for it when the route matters (E2), and builds a station only when it saves a
ticket (`rescue_station`, E1).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from ttr_core.bots.planning import (
    INF,
    TUNNEL_ODDS,
    TUNNEL_RESERVE,
    BoardGraph,
    Plan,
    StationRescue,
    best_payment,
    cheapest_path,
    color_needs,
    draw_for_needs,
    graph_for,
    lend_station_routes,
    longest_claimable,
    plan_network,
    refreshed_plan,
    route_costs,
    station_rescue,
    tunnel_odds,
)
from ttr_core.engine.actions import (
    DRAW_TICKETS,
    GIVE_UP,
    PASS,
    Action,
    Claim,
    DrawDeck,
    DrawMarket,
    DrawTickets,
    KeepTickets,
    Pass,
    PayTunnel,
    Resign,
)
from ttr_core.engine.compiled import Board
from ttr_core.engine.decisions import ChooseTickets, SecondCard, TunnelPayment
from ttr_core.engine.enums import Phase
from ttr_core.engine.open_routes import can_claim_route
from ttr_core.engine.view import PlayerView
from ttr_maps.rules import BASE, RuleSet


@dataclass(frozen=True)
class Style:
    """What distinguishes one planning bot from another."""

    name: str
    #: Share of my wagons that kept tickets may ask for.
    ticket_budget: float
    #: Draw more tickets once the plan is done and at least this many wagons are left.
    more_tickets_wagons: int
    #: Keep only the cheapest tickets (`False`: also keep any that fit the budget).
    keep_minimum: bool = False
    #: Add long free routes (this length or more) to the targets; 0 for none.
    long_route_length: int = 0
    #: Extend the ends of my network, longest route first (R16).
    extend_path: bool = False


GREEDY = Style("greedy", ticket_budget=0.6, more_tickets_wagons=20)
ROUTE_FOCUS = Style(
    "route-focus",
    ticket_budget=0.4,
    more_tickets_wagons=99,
    keep_minimum=True,
    long_route_length=4,
)
DESTINATION_HUNGRY = Style("destination-hungry", ticket_budget=0.95, more_tickets_wagons=10)
LONG_ROUTE = Style(
    "long-route", ticket_budget=0.5, more_tickets_wagons=30, keep_minimum=True, extend_path=True
)


#: The planning styles by name (the names `ttr_core.bots.BOTS` gives them).
STYLES: dict[str, Style] = {
    style.name: style for style in (GREEDY, ROUTE_FOCUS, DESTINATION_HUNGRY, LONG_ROUTE)
}


class PlanningBot:
    """A bot that plans a network for its tickets; see `Style` for the variants."""

    def __init__(self, seed: int, style: Style = GREEDY) -> None:
        self.rng = random.Random(seed)
        self.style = style
        self.name = style.name
        self._plan: Plan | None = None
        self._plan_key: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
        #: The tickets and owners the plan was last made or checked with.
        self._seen: tuple[object, object] = (None, None)
        self._needs: tuple[list[int], int] | None = None
        self._rules_seen: RuleSet | None = None
        self._rules_are_base = True
        #: E2: how often I gave up each tunnel holding the hand below, which is the
        #: hand of the turn after the first give-up (None until that turn).
        self._give_ups: dict[int, int] = {}
        self._given_up_hand: tuple[int, ...] | None = None

    def graph(self, board: Board) -> BoardGraph:
        """The static graph of `board` (shared: it holds nothing but the board)."""
        return graph_for(board)

    # ------------------------------------------------------------------ entry
    def act(self, view: PlayerView) -> Action:
        action = self.choose(view)
        if action is None or (not self._is_base(view.rule_set) and not view.is_legal(action)):
            # Another rule set may change what is legal: trust only its own list then.
            return fallback_action(view, self.given_up_tunnels(view))
        return action

    def given_up_tunnels(self, view: PlayerView) -> frozenset[int]:
        """E2: the tunnels I gave up `TUNNEL_TRIES` times while holding the hand I
        hold now. Digging one again before my hand changes can go on for ever: when
        the deck and discards hold little but what nobody can pay, every seat may
        lay its tunnel and give it up in turn, and R6 never sees a pass. A draw or a
        claim changes the hand and makes them worth trying again."""
        if not self._give_ups:
            return _NONE_GIVEN_UP
        if view.decision is None:
            hand = tuple(view.hand)
            if self._given_up_hand is None:
                self._given_up_hand = hand
            elif self._given_up_hand != hand:
                self._give_ups.clear()
                self._given_up_hand = None
                return _NONE_GIVEN_UP
        return frozenset(r for r, n in self._give_ups.items() if n >= TUNNEL_TRIES)

    def _is_base(self, rules: RuleSet) -> bool:
        """Whether `rules` are the base rules; compared once per rule-set value, not
        field by field on every move (a game keeps one value)."""
        if rules is not self._rules_seen:
            self._rules_seen, self._rules_are_base = rules, rules == BASE
        return self._rules_are_base

    def choose(self, view: PlayerView) -> Action | None:
        """The style's choice, or None to let `fallback_action` pick."""
        if isinstance(view.decision, ChooseTickets):
            return self.keep_tickets(view)
        if isinstance(view.decision, TunnelPayment):
            return self.pay_tunnel(view)
        if isinstance(view.decision, SecondCard):
            # Nothing but my hand changed since the first card: the needs still hold.
            needs, gray = self._needs or color_needs(
                view.board, self.targets(view, self.plan(view)), tunnel_reserve(view)
            )
            return draw_for_needs(
                view.market, view.hand, needs, gray, second=True, can_draw_deck=can_draw(view)
            )
        if view.decision is not None or view.phase != Phase.PLAYING or view.to_move != view.seat:
            return None
        return self.turn(view)

    # ------------------------------------------------------------------ a turn
    def turn(self, view: PlayerView) -> Action | None:
        board, seat, hand = view.board, view.seat, view.hand
        given_up = self.given_up_tunnels(view)
        plan = self.plan(view)
        targets = self.targets(view, plan)
        needs, gray = self._needs = color_needs(board, targets, tunnel_reserve(view))
        if plan.lost and view.stations_left and view.stations_left[seat]:
            rescue = rescue_station(view, plan, needs)
            if rescue is not None:
                return rescue.action
        wagons, owners, players, doubles = (
            view.wagons[seat],
            view.owners,
            view.num_players,
            doubles_from(view),
        )
        for route in targets:
            if can_claim_route(board, route, seat, owners, players, wagons, doubles):
                claim = best_payment(
                    board, route, hand, needs, ferry_locos(view, route), locos_on_plain(view)
                )
                if claim is not None and is_worth_digging(view, route, claim, given_up):
                    return claim
        if self.wants_tickets(view, plan):
            return DRAW_TICKETS
        if view.final_round or not targets:
            claim = best_claim(view, given_up)
            if claim is not None:
                return claim
        draw = draw_for_needs(
            view.market, hand, needs, gray, second=False, can_draw_deck=can_draw(view)
        )
        if draw is not None:
            return draw
        return best_claim(view, given_up) or (DRAW_TICKETS if view.ticket_deck_size else None)

    def wants_tickets(self, view: PlayerView, plan: Plan) -> bool:
        return (
            not plan.routes
            and view.ticket_deck_size > 0
            and view.wagons[view.seat] >= self.style.more_tickets_wagons
            and not view.final_round
        )

    def targets(self, view: PlayerView, plan: Plan) -> list[int]:
        """Routes to claim, most wanted first."""
        style = self.style
        targets = list(plan.routes)
        if style.extend_path:
            ends = path_extensions(view)
            planned = set(targets)
            targets = (
                [r for r in ends if r in planned] + ends[:3] + [r for r in targets if r not in ends]
            )
        if style.long_route_length:
            board, seat, owners = view.board, view.seat, view.owners
            lengths, wagons, doubles = board.route_length, view.wagons[seat], doubles_from(view)
            spare = wagons - plan.wagons
            shortest = style.long_route_length
            players = view.num_players
            long_ones = [
                r
                for r, length in enumerate(lengths)
                if shortest <= length <= spare
                and owners[r] == -1
                and can_claim_route(board, r, seat, owners, players, wagons, doubles)
            ]
            long_ones.sort(key=lambda r: (-lengths[r], r))
            targets = sorted(
                dict.fromkeys(targets + long_ones[:3]), key=lambda r: -board.route_length[r]
            )
        if not targets:
            targets = scoring_routes(view, 3)
        return targets

    def pay_tunnel(self, view: PlayerView) -> Action:
        """E2: pay a tunnel's extra cards (fewest locomotives) when I can and the
        route matters: it is one of my targets, the game is ending (cards are worth
        nothing then), or its points are worth the cards; else give up."""
        tunnel = view.tunnel
        payments = [a for a in view.legal_actions() if isinstance(a, PayTunnel)]
        if tunnel is None:
            return GIVE_UP
        board = view.board
        route = tunnel.route
        if payments and (
            view.final_round
            or view.rule_set.route_score(board.route_length[route]) >= 2 * tunnel.extra
            or route in self.targets(view, self.plan(view))
        ):
            return payments[0]  # listed with the most cards of the colour first
        # Counted against the hand of my next turn (the cards laid come back).
        self._give_ups[route] = self._give_ups.get(route, 0) + 1
        return GIVE_UP

    # ------------------------------------------------------------------ planning
    def plan(self, view: PlayerView) -> Plan:
        """The plan for my incomplete tickets, re-made only when a ticket was added
        or completed, a station was built (E1), or a planned route can no longer be
        claimed."""
        plan = self._plan
        seen = (view.tickets, view.owners)
        if plan is not None and seen[0] is self._seen[0] and seen[1] is self._seen[1]:
            # The same tickets and the same board (a view shares them until a claim,
            # a station or a ticket changes them): the plan stands as it was.
            return plan
        self._seen = seen
        tickets = tuple(t.index for t in view.tickets if not t.completed)
        key = (tickets, my_stations(view))
        if plan is not None and key == self._plan_key:
            seat = view.seat
            refreshed = refreshed_plan(
                plan,
                view.board,
                view.owners,
                seat,
                view.num_players,
                view.wagons[seat],
                doubles_from(view),
            )
            if refreshed is not None:
                self._plan = refreshed
                return refreshed
        graph = self.graph(view.board)
        costs = my_costs(view)
        plan = plan_network(graph, costs, tickets, view.wagons[view.seat])
        self._plan, self._plan_key = plan, key
        return plan

    def keep_tickets(self, view: PlayerView) -> KeepTickets:
        """R4/R12: keep the cheapest offered tickets per point (see `tickets_to_keep`)."""
        decision = view.decision
        assert isinstance(decision, ChooseTickets)
        return tickets_to_keep(
            self.graph(view.board),
            my_costs(view),
            [t.index for t in view.tickets if not t.completed],
            decision.offered,
            min(decision.minimum, len(decision.offered)),
            view.wagons[view.seat],
            self.style,
        )


def tickets_to_keep(
    graph: BoardGraph,
    costs: Sequence[int],
    held: Sequence[int],
    offered: Sequence[int],
    minimum: int,
    wagons: int,
    style: Style,
) -> KeepTickets:
    """R4/R12: keep the cheapest `offered` tickets per point, at least `minimum`,
    more while the plan for them and the `held` ones fits the style's share of
    `wagons`. `costs` are what each route costs the player (see `route_costs`)."""
    board = graph.board
    budget = wagons * style.ticket_budget
    base = plan_network(graph, costs, held, wagons)
    working = list(costs)
    for route in base.routes:
        working[route] = 0

    def rank(position: int) -> tuple[float, int]:
        ticket = offered[position]
        cost, _ = cheapest_path(graph, working, board.ticket_a[ticket], board.ticket_b[ticket])
        value = board.ticket_value[ticket]
        if cost >= INF:
            return (INF, position)
        # Cheap per point first; a ticket already complete costs nothing.
        return (
            cost / max(value, 1) - (1 if style.extend_path else 0) * value / 30,
            position,
        )

    ranks = [rank(position) for position in range(len(offered))]
    order = [position for _, position in sorted(ranks)]
    kept = order[:minimum]
    for position in order[minimum:]:
        if style.keep_minimum and ranks[position][0] > 0:
            break
        trial = [*held, *(offered[p] for p in kept), offered[position]]
        plan = plan_network(graph, costs, trial, wagons)
        if plan.lost or plan.wagons > budget:
            break
        kept.append(position)
    return KeepTickets(tuple(sorted(kept)))


# ---------------------------------------------------------------- shared helpers


def doubles_from(view: PlayerView) -> int:
    """R11: the table size from which both tracks of a double route stay open, as
    this game's rule set says (a `--set double_routes_from=...` variant included)."""
    return view.rule_set.double_routes_from


def can_draw(view: PlayerView) -> bool:
    return view.deck_size + view.discard_size > 0


def my_costs(view: PlayerView) -> list[int]:
    """What each route costs me (see `route_costs`); with stations (E1), the routes
    of other players into my station cities are free."""
    costs = route_costs(
        view.board,
        view.owners,
        view.seat,
        view.num_players,
        view.wagons[view.seat],
        doubles_from(view),
    )
    if view.seat in view.station_owners:
        lend_station_routes(
            graph_for(view.board), costs, view.owners, view.seat, view.station_owners
        )
    return costs


def my_stations(view: PlayerView) -> tuple[int, ...]:
    """E1: the cities of my stations."""
    seat = view.seat
    if seat not in view.station_owners:
        return ()
    return tuple(city for city, holder in enumerate(view.station_owners) if holder == seat)


def ferry_locos(view: PlayerView, route: int) -> int:
    """E3: locomotives a claim of `route` needs (0 when the rules have no ferries)."""
    return view.board.route_ferry[route] if view.rule_set.ferries else 0


def locos_on_plain(view: PlayerView) -> bool:
    """R9: locomotives pay any route; P2: only tunnels and ferries."""
    return view.rule_set.plain_route_locomotives


#: E2: how often a bot gives up one tunnel with one hand before it stops digging it
#: until its hand changes; one retry is worth it (three new cards are turned up).
TUNNEL_TRIES = 2
_NONE_GIVEN_UP: frozenset[int] = frozenset()


def tunnel_reserve(view: PlayerView) -> int:
    """E2: extra cards to collect for a tunnel (none when the rules have no tunnels)."""
    return TUNNEL_RESERVE if view.rule_set.tunnels else 0


def is_worth_digging(
    view: PlayerView, route: int, claim: Claim, given_up: Collection[int] = ()
) -> bool:
    """E2: whether to claim `route` now: not a tunnel, the final round (nothing to
    lose), or a hand likely to cover the extra cards; never a tunnel in `given_up`
    (see `PlanningBot.given_up_tunnels`)."""
    if route in given_up:
        return False
    if not view.rule_set.tunnels or not view.board.route_tunnel[route] or view.final_round:
        return True
    return tunnel_odds(view.hand, claim.payment) >= TUNNEL_ODDS


def rescue_station(
    view: PlayerView, plan: Plan, needs: list[int] | None = None
) -> StationRescue | None:
    """E1: the station that saves a ticket `plan` has lost, if I can pay for it
    (see `station_rescue`); the one place every bot decides to build a station."""
    seat = view.seat
    if not view.stations_left or not view.stations_left[seat]:
        return None
    return station_rescue(
        graph_for(view.board),
        my_costs(view),
        view.owners,
        seat,
        view.station_owners,
        plan,
        view.wagons[seat],
        view.hand,
        view.stations_left[seat],
        needs,
        view.final_round,
        view.rule_set,
    )


def scoring_routes(view: PlayerView, limit: int | None = None) -> list[int]:
    """Free routes I may claim and have wagons for, most points first (at most `limit`)."""
    seat = view.seat
    return longest_claimable(
        graph_for(view.board),
        view.owners,
        seat,
        view.num_players,
        view.wagons[seat],
        doubles_from(view),
        limit,
    )


def best_claim(view: PlayerView, given_up: Collection[int] = ()) -> Claim | None:
    """The affordable claim scoring most points (R10), or None; no tunnel of
    `given_up` (E2)."""
    board, seat, owners, hand = view.board, view.seat, view.owners, view.hand
    wagons, players, doubles = view.wagons[seat], view.num_players, doubles_from(view)
    for route in graph_for(board).by_length:
        if owners[route] == -1 and can_claim_route(
            board, route, seat, owners, players, wagons, doubles
        ):
            claim = best_payment(
                board, route, hand, None, ferry_locos(view, route), locos_on_plain(view)
            )
            if claim is not None and is_worth_digging(view, route, claim, given_up):
                return claim
    return None


def path_extensions(view: PlayerView) -> list[int]:
    """Free routes leaving a dead end of my network toward a new city, longest
    first: what makes my continuous path longer (R16)."""
    board, seat, owners = view.board, view.seat, view.owners
    degree: dict[int, int] = {}
    for route, holder in enumerate(owners):
        if holder == seat:
            for city in (board.route_a[route], board.route_b[route]):
                degree[city] = degree.get(city, 0) + 1
    ends = {city for city, d in degree.items() if d == 1}
    graph = graph_for(board)
    wagons = view.wagons[seat]
    found = [
        route
        for city in ends
        for other, route in graph.neighbors[city]
        if other not in degree
        and can_claim_route(
            board, route, seat, owners, view.num_players, wagons, doubles_from(view)
        )
    ]
    found.sort(key=lambda r: (-board.route_length[r], r))
    return list(dict.fromkeys(found))


def fallback_action(view: PlayerView, given_up: Collection[int] = ()) -> Action:
    """Some legal action, for when a style has no opinion, so the game goes on:
    the claim worth most points (fewest locomotives; no tunnel of `given_up`, E2),
    else a card, a ticket choice,
    tickets, pass; an action of a kind this module does not know only when none of
    those is listed, and `resign` only when nothing else is."""
    actions = view.legal_actions()
    board = view.board
    claims = [
        a
        for a in actions
        if isinstance(a, Claim)
        and a.route in board.route_index
        and board.route_index[a.route] not in given_up
    ]
    if claims:
        return max(
            claims,
            key=lambda a: (board.route_length[board.route_index[a.route]], -a.payment.locos),
        )
    for kinds in ((DrawDeck, DrawMarket), (KeepTickets,), (DrawTickets,), (Pass,)):
        for action in actions:
            if isinstance(action, kinds):
                return action
    for action in actions:
        if not isinstance(action, Resign):
            return action
    return actions[0] if actions else PASS
