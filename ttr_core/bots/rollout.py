"""The playout policy of the search bot: the greedy style, played from a sampled
game state instead of a view.

A search bot plays thousands of games to their end in worlds it sampled itself
(`ttr_core.bots.determinize`): every card there is its own guess, so a policy may read
that state directly. `RolloutPlayer` does, through the game loop's path for such
players (`decide(state, seat)`, `ttr_core.engine.loop.run`): no view is built, no list of
legal actions either (`apply` checks each action), and its plan is re-made
only when a ticket is added or completed or a planned route is lost. It decides
like the greedy bot (`ttr_core.bots.styles`), with the same planning helpers:
keep the cheapest tickets per point (R4, R12), claim the longest affordable
planned route (R9), else draw the colours the plan needs (R7), draw tickets when
the plan is done and 20 or more wagons are left, claim for points when there is
nothing to plan or in the final round (R14). With the `europe` rules it pays
ferries with locomotives (E3) and digs a tunnel only when the hand likely covers
the extra cards, paying them whenever it can (E2); it never builds a station (E1):
the greedy bot builds one only to rescue a lost ticket, rare enough to leave out
of a playout.

A playout ends when its game does, or when it runs `TURNS_PER_WAGON` turns per wagon
of the table past its sampled world (`RolloutPlayer.last_turn`): far beyond any game,
reached only by a loop no rule ends, such as E2's when the deck and the discards
hold little but locomotives (every seat lays a tunnel, cannot pay the turned-up
cards, gives it up, and lays it again the next turn: a give-up is not a pass, R6).
The search scores a cut playout as it stands.

Measured by `benchmarks/search_bench.py --only playouts`: about twice the greedy
bots' games per second, with the same mean scores.
"""

from __future__ import annotations

from ttr_core.bots.planning import (
    TUNNEL_ODDS,
    TUNNEL_RESERVE,
    Plan,
    best_payment,
    color_needs,
    draw_for_needs,
    graph_for,
    lend_station_routes,
    longest_claimable,
    plan_network,
    refreshed_plan,
    route_costs,
    tunnel_odds,
)
from ttr_core.bots.styles import GREEDY, tickets_to_keep
from ttr_core.engine.actions import DRAW_TICKETS, Action, Claim
from ttr_core.engine.cards import LOCO
from ttr_core.engine.compiled import GRAY_INDEX
from ttr_core.engine.decisions import ChooseTickets
from ttr_core.engine.enums import DecisionKind
from ttr_core.engine.loop import StopGame
from ttr_core.engine.open_routes import can_claim_route
from ttr_core.engine.state import GameState

#: Turns a playout may run past its sampled world, per wagon the seats start with in
#: all (a whole game takes about one turn per wagon of the table; see the module).
TURNS_PER_WAGON = 10


class RolloutPlayer:
    """Plays `seat` of `state` (a sampled world) like the greedy bot, reading the state."""

    def __init__(self, state: GameState, seat: int) -> None:
        self.state = state
        self.seat = seat
        #: The board's graph (shared: it holds nothing but the board).
        self.graph = graph_for(state.board)
        self._plan: Plan | None = None
        self._plan_tickets: tuple[int, ...] = ()
        #: What the plan was last checked against: my tickets, everyone's wagons
        #: (they change with every claim, and only then).
        self._checked: tuple[int, int] = (-1, -1)
        #: The targets the colour needs were last counted for (a plan's routes are a
        #: tuple that lives as long as the plan), and those needs: the second card of
        #: a draw is drawn toward the needs of its turn.
        self._counted: tuple[object, tuple[list[int], int] | None] = (None, None)
        self._tickets_mark: tuple[int, int] = (-1, -1)
        self._open_tickets: tuple[int, ...] = ()
        #: The turn at which a playout of this world is cut (`TURNS_PER_WAGON`).
        self.last_turn = state.turns + TURNS_PER_WAGON * state.num_players * state.rule_set.wagons

    def bound_to(self, state: GameState) -> RolloutPlayer:
        """The same player, plan included, for a copy of its state (`state.clone()`):
        a search plays many copies of one sampled world."""
        twin = type(self).__new__(type(self))
        twin.state, twin.seat, twin.graph = state, self.seat, self.graph
        twin._plan, twin._plan_tickets = self._plan, self._plan_tickets
        twin._checked, twin._counted = self._checked, self._counted
        twin._tickets_mark, twin._open_tickets = self._tickets_mark, self._open_tickets
        twin.last_turn = self.last_turn
        return twin

    def decide(self, state: GameState, seat: int) -> Action:
        """My action in `state` (the loop's playout path for sampled worlds): built
        legal by the rules it follows; `apply` checks it all the same."""
        decision = state.decision_for(seat)
        if decision is None:
            choice = self.turn()
        elif decision.kind == DecisionKind.CHOOSE_TICKETS:
            assert isinstance(decision, ChooseTickets)
            choice = self.keep(decision)
        elif decision.kind == DecisionKind.TUNNEL_PAYMENT:
            # E2: pay (the most cards of the colour first) whenever the hand can.
            choice = state.legal_actions(seat)[0]
        else:  # R7: the second card
            needs, gray = self._counted[1] or self.needs(self.targets(self.plan()))
            choice = draw_for_needs(
                state.cards.market,
                state.hands[seat],
                needs,
                gray,
                second=True,
                can_draw_deck=state.cards.can_draw(),
            )
        # Nothing to draw or claim (R6): whatever the rules allow, a pass at worst.
        return choice if choice is not None else state.legal_actions(seat)[0]

    # ------------------------------------------------------------------ a turn
    def turn(self) -> Action | None:
        state, seat = self.state, self.seat
        if state.turns >= self.last_turn:
            raise StopGame  # a loop no rule ends (see the module): cut the playout
        hand, wagons, owners = state.hands[seat], state.wagons[seat], state.owner
        plan = self.plan()
        final_round = state.final_queue is not None
        if (
            not plan.routes
            and not final_round
            and state.ticket_deck
            and wagons >= GREEDY.more_tickets_wagons
        ):
            return DRAW_TICKETS
        targets = self.targets(plan)
        needs, gray = self.needs(targets)
        for route in targets:
            claim = self._claim(route, needs, final_round)
            if claim is not None:
                return claim
        if final_round:  # R14: the last turn; any points are better than cards
            for route in self.graph.by_length:
                if owners[route] == -1:
                    claim = self._claim(route, None, final_round)
                    if claim is not None:
                        return claim
        return draw_for_needs(
            state.cards.market,
            hand,
            needs,
            gray,
            second=False,
            can_draw_deck=state.cards.can_draw(),
        )

    def targets(self, plan: Plan) -> tuple[int, ...] | list[int]:
        """The planned routes; with nothing to plan, the three longest I may claim."""
        state, seat = self.state, self.seat
        return plan.routes or longest_claimable(
            self.graph,
            state.owner,
            seat,
            state.num_players,
            state.wagons[seat],
            state.rule_set.double_routes_from,
            3,
        )

    def needs(self, targets: tuple[int, ...] | list[int]) -> tuple[list[int], int]:
        """Cards per colour, and for gray routes, that `targets` ask for (E2: with a
        card to spare for tunnels); counted again only for other targets."""
        counted, needs = self._counted
        if targets is counted and needs is not None:
            return needs
        reserve = TUNNEL_RESERVE if self.state.rule_set.tunnels else 0
        needs = color_needs(self.state.board, targets, reserve)
        self._counted = (targets, needs)
        return needs

    def _claim(self, route: int, needs: list[int] | None, final_round: bool) -> Claim | None:
        """The cheapest payment of `route` if I may claim it now (R9, R11; E3 ferries
        need locomotives; E2 a tunnel only with cards to spare or in the final round)."""
        state, seat, board = self.state, self.seat, self.state.board
        hand = state.hands[seat]
        color = board.route_color[route]
        held = max(hand[:LOCO]) if color == GRAY_INDEX else hand[color]
        if held + hand[LOCO] < board.route_length[route]:
            return None  # R9: not enough cards, whatever the payment
        rules = state.rule_set
        if not can_claim_route(
            board,
            route,
            seat,
            state.owner,
            state.num_players,
            state.wagons[seat],
            rules.double_routes_from,
        ):
            return None
        ferry = board.route_ferry[route] if rules.ferries else 0
        claim = best_payment(
            board, route, state.hands[seat], needs, ferry, rules.plain_route_locomotives
        )
        if (
            claim is not None
            and rules.tunnels
            and board.route_tunnel[route]
            and not final_round
            and tunnel_odds(state.hands[seat], claim.payment) < TUNNEL_ODDS
        ):
            return None
        return claim

    # ------------------------------------------------------------------ plans
    def costs(self) -> list[int]:
        """What each route costs me now (`route_costs`; E1 stations lend routes)."""
        state, seat = self.state, self.seat
        costs = route_costs(
            state.board,
            state.owner,
            seat,
            state.num_players,
            state.wagons[seat],
            state.rule_set.double_routes_from,
        )
        if seat in state.station_owner:
            lend_station_routes(self.graph, costs, state.owner, seat, state.station_owner)
        return costs

    def plan(self) -> Plan:
        """The plan for my incomplete tickets, re-made only when they change or a
        planned route can no longer be claimed (as `PlanningBot.plan`)."""
        state, seat = self.state, self.seat
        plan = self._plan
        checked = (len(state.tickets[seat]), sum(state.wagons))
        if plan is not None and checked == self._checked:
            return plan  # no claim and no new ticket since the last check
        self._checked = checked
        tickets = self.open_tickets()
        if plan is not None and tickets == self._plan_tickets:
            refreshed = refreshed_plan(
                plan,
                state.board,
                state.owner,
                seat,
                state.num_players,
                state.wagons[seat],
                state.rule_set.double_routes_from,
            )
            if refreshed is not None:
                self._plan = refreshed
                return refreshed
        plan = plan_network(self.graph, self.costs(), tickets, state.wagons[seat])
        self._plan, self._plan_tickets = plan, tickets
        return plan

    def open_tickets(self) -> tuple[int, ...]:
        """My tickets not complete yet (R13); they change only with my tickets and
        my claims (my wagons)."""
        state, seat = self.state, self.seat
        mark = (len(state.tickets[seat]), state.wagons[seat])
        if mark != self._tickets_mark:
            self._tickets_mark = mark
            self._open_tickets = tuple(
                [t for t in state.tickets[seat] if not state.is_ticket_complete(seat, t)]
            )
        return self._open_tickets

    def keep(self, decision: ChooseTickets) -> Action:
        """R4/R12: the greedy bot's ticket choice (`tickets_to_keep`)."""
        state, seat = self.state, self.seat
        return tickets_to_keep(
            self.graph,
            self.costs(),
            self.open_tickets(),
            decision.offered,
            min(decision.minimum, len(decision.offered)),
            state.wagons[seat],
            GREEDY,
        )


def rollout_players(state: GameState) -> list[RolloutPlayer]:
    """One playout player per seat of `state`."""
    return [RolloutPlayer(state, seat) for seat in range(state.num_players)]
