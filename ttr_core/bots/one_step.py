"""The one-step bot: scores every legal action by its immediate consequences.

"One-step thinking" (de Mesentier Silva et al., FDG 2017): no plan of turns, only
each legal action judged one step ahead, on one scale (points):

- a claim: its route points (R10); the progress it makes on each planned ticket
  (the wagons its cheapest connection still needs, from Dijkstra on both cities,
  worth twice the ticket's value per share of its length, since a ticket swings from
  minus to plus its value, R15); minus the wagons it takes from what the tickets do
  not need (a spare wagon is worth points later, while there are turns to use it);
  minus the cards it spends;
- a card: how much the colour is still needed by the planned routes (and, with
  spare wagons, by the longest free routes), a locomotive being wild;
- tickets: worth drawing when the held ones are done and 16 or more wagons are left;
- a station (E1): only when it saves a ticket (`rescue_station`, shared with the
  planning bots); a tunnel's extra cards are paid like theirs.

Tickets are kept like the greedy bot keeps them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from ttr_core.bots.planning import (
    INF,
    Plan,
    color_needs,
    distances_from,
    graph_for,
    tunnel_odds,
)
from ttr_core.bots.styles import (
    PlanningBot,
    Style,
    my_costs,
    rescue_station,
    scoring_routes,
    tunnel_reserve,
)
from ttr_core.engine.actions import (
    Action,
    BuildStation,
    Claim,
    DrawDeck,
    DrawMarket,
    DrawTickets,
    Pass,
)
from ttr_core.engine.cards import CARD_INDEX, LOCO
from ttr_core.engine.compiled import GRAY_INDEX
from ttr_core.engine.decisions import SecondCard
from ttr_core.engine.enums import Phase, Status
from ttr_core.engine.view import PlayerView
from ttr_maps.rules import CARDS_PER_COLOR, DECK_SIZE, LOCOMOTIVES

ONE_STEP = Style("one-step", ticket_budget=0.6, more_tickets_wagons=16)

#: A card a target needs is worth this share of the target's gain per card (it is
#: not claimed yet); one no target needs is worth `SPARE_CARD`.
HELD_SHARE, SPARE_CARD = 0.9, 0.1
#: A locomotive is wild: worth the best card I lack, dearer to spend than that.
LOCO_SPEND = 1.6
#: A ticket swings from minus to plus its value (R15): twice its value over its length.
TICKET_PROGRESS = 2.0
#: Bonus for the claim that completes a ticket: it can no longer be blocked.
TICKET_DONE = 2.0
#: What a wagon the tickets do not need is worth while there are turns to use it.
SPARE_WAGON = 1.4
#: Drawing tickets: worth this when the held ones are done and wagons are to spare.
TICKET_DRAW = 3.0


class OneStepBot(PlanningBot):
    """Evaluates each legal action one step ahead with a value function."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed, ONE_STEP)
        self._worth: CardWorths | None = None

    def choose(self, view: PlayerView) -> Action | None:
        if isinstance(view.decision, SecondCard) or (
            view.decision is None and view.phase == Phase.PLAYING and view.to_move == view.seat
        ):
            return self.best_action(view)
        return super().choose(view)

    def card_targets(self, view: PlayerView, plan: Plan) -> list[int]:
        """Routes whose colours make a card worth holding: the planned ones and,
        with wagons to spare, the longest free routes that fit in them."""
        spare = view.wagons[view.seat] - plan.wagons
        extra = [r for r in scoring_routes(view, 6) if view.board.route_length[r] <= spare][:2]
        return [*plan.routes, *extra]

    def best_action(self, view: PlayerView) -> Action | None:
        """The legal action of highest value (see the module docstring)."""
        board, hand = view.board, view.hand
        if isinstance(view.decision, SecondCard) and self._worth is not None:
            # Only my hand changed since the first card: the card worths still hold.
            worth, claim_gain, rescue, wants_tickets = self._worth, None, None, False
        else:
            plan = self.plan(view)
            claim_gain = self.claim_gains(view, plan)
            worth = self._worth = self.card_worths(view, plan, claim_gain)
            rescue = None
            if view.stations_left and view.stations_left[view.seat]:
                rescue = rescue_station(view, plan, worth.needs)
            wants_tickets = self.wants_tickets(view, plan)
        needs, gray, by_color, by_gray, spare_card = worth
        short = [c for c in range(LOCO) if hand[c] < needs[c]]
        loco_value = max([by_color[c] for c in short] + [by_gray if gray else 0.0, spare_card])

        def card_value(card: int, held: int) -> float:
            if card == LOCO:
                return loco_value
            if held < needs[card]:
                return by_color[card]
            if held < needs[card] + gray:
                return by_gray
            return spare_card

        deck_value = (
            sum(card_value(c, hand[c]) for c in range(LOCO)) * CARDS_PER_COLOR
            + loco_value * LOCOMOTIVES
        ) / DECK_SIZE
        # What spending k cards of a colour costs, for every k a claim may ask.
        spend = [[0.0] for _ in range(LOCO)]
        for c in range(LOCO):
            total = 0.0
            for k in range(hand[c]):
                total += card_value(c, hand[c] - 1 - k)
                spend[c].append(total)
        loco_spend = LOCO_SPEND * loco_value

        best: Action | None = None
        best_value = -float(INF)
        route_index = board.route_index
        tunnels = view.rule_set.tunnels
        given_up = self.given_up_tunnels(view)
        for action in view.legal_actions():
            if isinstance(action, Claim):
                assert claim_gain is not None  # no claims on a second card (R7)
                route = route_index[action.route]
                if route in given_up:
                    continue  # E2: not again with the same hand
                score = claim_gain(route)
                if score <= best_value:
                    continue  # paying only lowers it
                payment = action.payment
                score -= loco_spend * payment.locos
                if payment.color is not None:
                    score -= spend[CARD_INDEX[payment.color]][payment.colored]
                if tunnels and board.route_tunnel[route]:
                    score *= tunnel_odds(hand, payment)  # E2: else the turn is lost
            elif isinstance(action, DrawMarket):
                card = view.market[action.slot]
                if card is None:
                    continue
                # A face-up locomotive as first card ends the turn (R7).
                second = 0.0 if card == LOCO or view.decision else deck_value
                score = card_value(card, hand[card]) + second
            elif isinstance(action, DrawDeck):
                score = deck_value * (1 if view.decision else 2)
            elif isinstance(action, DrawTickets):
                score = TICKET_DRAW if wants_tickets else -5.0
            elif isinstance(action, BuildStation):
                if rescue is None or action != rescue.action:
                    continue
                score = rescue.value
            elif isinstance(action, Pass):
                score = -1.0
            else:
                continue  # resign, and kinds this bot does not know
            if score > best_value:
                best, best_value = action, score
        return best

    def claim_gains(self, view: PlayerView, plan: Plan) -> Callable[[int], float]:
        """What claiming a route gains, before the cards: its points (R10), its
        progress on the planned tickets, less the wagons it takes from later."""
        board, seat = view.board, view.seat
        graph = graph_for(board)
        costs = my_costs(view)
        # Cheapest cost from each city of each planned ticket, for the claim deltas.
        reach = []
        for t in plan.tickets:
            a, b = board.ticket_a[t], board.ticket_b[t]
            from_a = distances_from(graph, costs, a)
            if 0 < from_a[b] < INF:
                per_wagon = TICKET_PROGRESS * board.ticket_value[t] / max(graph.distance[a][b], 1)
                reach.append((per_wagon, from_a, distances_from(graph, costs, b), b))
        wagons = view.wagons[seat]
        planned = set(plan.routes)
        spare = max(wagons - plan.wagons, 0)
        wagon_value = SPARE_WAGON * time_to_use(view)
        gains: dict[int, float] = {}
        lengths, route_a, route_b = board.route_length, board.route_a, board.route_b
        route_score = view.rule_set.route_score

        def claim_gain(route: int) -> float:
            gain = gains.get(route)
            if gain is not None:
                return gain
            length = lengths[route]
            if length > wagons:
                gains[route] = -INF
                return -INF
            a, b = route_a[route], route_b[route]
            gain = float(route_score(length))
            for per_wagon, from_a, from_b, city_b in reach:
                now = from_a[city_b]
                after = min(from_a[a] + from_b[b], from_a[b] + from_b[a])
                if after < now:
                    gain += per_wagon * (now - after)
                    if after == 0:
                        gain += TICKET_DONE
            if route not in planned:
                gain -= wagon_value * min(length, spare)
                if length > spare:
                    gain -= TICKET_PROGRESS * (length - spare)  # planned tickets go short
            gains[route] = gain
            return gain

        return claim_gain

    def card_worths(
        self, view: PlayerView, plan: Plan, claim_gain: Callable[[int], float]
    ) -> CardWorths:
        """A card a target needs is worth a share of the best such target's gain per
        card (it is not claimed yet); one no target needs little."""
        board = view.board
        targets = self.card_targets(view, plan)
        needs, gray = color_needs(board, targets, tunnel_reserve(view))
        later = time_to_use(view)
        by_color = [0.0] * LOCO
        by_gray = 0.0
        for route in targets:
            per_card = max(claim_gain(route), 0.0) / board.route_length[route] * HELD_SHARE * later
            color = board.route_color[route]
            if color == GRAY_INDEX:
                by_gray = max(by_gray, per_card)
            elif per_card > by_color[color]:
                by_color[color] = per_card
        return CardWorths(needs, gray, by_color, by_gray, SPARE_CARD * later)


class CardWorths(NamedTuple):
    """What cards are worth this turn: cards each colour's targets need (gray ones
    apart), the worth of a needed card by colour and for gray targets, of any other."""

    needs: list[int]
    gray: int
    by_color: list[float]
    by_gray: float
    spare: float


def time_to_use(view: PlayerView) -> float:
    """Share of my wagons there are turns left to lay, until someone runs out (R14):
    what keeping a wagon or a card for later is worth. 0 in the final round."""
    if view.final_round:
        return 0.0
    fewest = min(
        w for w, status in zip(view.wagons, view.status, strict=True) if status == Status.ACTIVE
    )
    return min(1.0, max(fewest - 2, 0) / max(view.wagons[view.seat], 1))
