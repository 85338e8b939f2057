"""The one-step bot: scores every legal action by the position it leads to.

The value of a position is simple: route points (R10), plus progress on each
planned ticket (the wagons its cheapest connection still needs, measured with
Dijkstra from both of its cities), plus the cards in hand that the plan can use.
Claims, draws and tickets are all compared on that one scale, one step ahead.
Tickets are kept like the greedy bot keeps them.
"""

from __future__ import annotations

from ttr_core.actions import Action, Claim, DrawDeck, DrawMarket, DrawTickets, Pass
from ttr_core.bots.planning import INF, color_needs, distances_from, graph_for
from ttr_core.bots.styles import PlanningBot, Style, my_costs
from ttr_core.cards import CARD_INDEX, CARDS_PER_COLOR, DECK_SIZE, LOCO, LOCOMOTIVES
from ttr_core.decisions import SecondCard
from ttr_core.view import PlayerView
from ttr_maps.model import ROUTE_POINTS

ONE_STEP = Style("one-step", ticket_budget=0.6, more_tickets_wagons=20)

#: What a card in hand is worth: one the plan needs, a locomotive, any other.
NEEDED_CARD, LOCO_CARD, SPARE_CARD = 1.0, 1.4, 0.15
#: Progress on a ticket is worth this many times its value per share of its length.
TICKET_PROGRESS = 2.0


class OneStepBot(PlanningBot):
    """Evaluates each legal action one step ahead with a simple value function."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed, ONE_STEP)

    def choose(self, view: PlayerView) -> Action | None:
        if view.decision == SecondCard.kind or (
            view.decision is None and view.phase == "playing" and view.to_move == view.seat
        ):
            return self.best_action(view)
        return super().choose(view)

    def best_action(self, view: PlayerView) -> Action | None:
        board, hand = view.board, view.hand
        plan = self.plan(view)
        needs, gray = color_needs(board, self.targets(view, plan))
        graph = graph_for(board)
        costs = my_costs(view)
        # Cheapest cost from each city of each planned ticket, for the claim deltas.
        reach = [
            (
                board.ticket_value[t],
                max(graph.distance[board.ticket_a[t]][board.ticket_b[t]], 1),
                distances_from(graph, costs, board.ticket_a[t]),
                distances_from(graph, costs, board.ticket_b[t]),
                board.ticket_b[t],
            )
            for t in plan.tickets
        ]
        wagons = view.wagons[view.seat]

        def card_value(card: int, held: int) -> float:
            if card == LOCO:
                return LOCO_CARD
            wanted = needs[card] + (gray if held < gray else 0)
            return NEEDED_CARD if held < wanted else SPARE_CARD

        deck_value = (
            sum(card_value(c, hand[c]) for c in range(LOCO)) * CARDS_PER_COLOR
            + LOCO_CARD * LOCOMOTIVES
        ) / DECK_SIZE

        def value(action: Action) -> float:
            if isinstance(action, Claim):
                route = board.route_index[action.route]
                a, b = board.route_a[route], board.route_b[route]
                gain = float(ROUTE_POINTS[board.route_length[route]])
                for ticket_value, length, from_a, from_b, city_b in reach:
                    now = from_a[city_b]
                    after = min(now, from_a[a] + from_b[b], from_a[b] + from_b[a])
                    if now < INF:
                        gain += TICKET_PROGRESS * ticket_value * (now - after) / length
                payment = action.payment
                if payment.color is not None:
                    card = CARD_INDEX[payment.color]
                    for k in range(payment.colored):
                        gain -= card_value(card, hand[card] - 1 - k)
                gain -= LOCO_CARD * payment.locos
                return gain
            if isinstance(action, DrawMarket):
                card = view.market[action.slot]
                if card is None:
                    return -INF
                first_loco = card == LOCO and view.decision is None
                # A face-up locomotive first ends the turn: no second card (R7).
                return card_value(card, hand[card]) + (
                    0 if first_loco or view.decision else deck_value
                )
            if isinstance(action, DrawDeck):
                return deck_value * (1 if view.decision else 2)
            if isinstance(action, DrawTickets):
                return 3.0 if self.wants_tickets(view, plan) else -5.0
            if isinstance(action, Pass):
                return -1.0
            return -INF  # resign, and kinds this bot does not know

        best: Action | None = None
        best_value = -float(INF)
        for action in view.legal_actions():
            if (
                isinstance(action, Claim)
                and board.route_length[board.route_index[action.route]] > wagons
            ):
                continue
            score = value(action)
            if score > best_value:
                best, best_value = action, score
        return best
