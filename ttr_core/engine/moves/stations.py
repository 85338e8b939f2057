"""E1: building stations, listed and applied (what a station is worth at the end
is scored in `ttr_core.engine.result`).
"""

from __future__ import annotations

from collections.abc import Sequence

from ttr_core.engine.actions import Action, BuildStation
from ttr_core.engine.books import Books
from ttr_core.engine.compiled import GRAY_INDEX, Board
from ttr_core.engine.errors import IllegalAction, InvalidAction
from ttr_core.engine.moves.claims import check_hand_holds, payment_shapes
from ttr_maps.rules import RuleSet


def station_actions(
    board: Board,
    hand: Sequence[int],
    stations_left: int,
    station_owners: Sequence[int],
    rule_set: RuleSet,
) -> list[Action]:
    """E1: a station in any city without one, paid with cards of one colour
    (`RuleSet.station_cost`: 1, 2, then 3 cards with the europe rules; locomotives
    are wild), for a seat with stations left."""
    cost = rule_set.station_cost(stations_left)
    shapes = payment_shapes(cost, GRAY_INDEX, hand)
    actions: list[Action] = []
    if shapes:
        for city, table in enumerate(board.station_payments(cost)):
            if station_owners[city] == -1:
                for c, low, high in shapes:
                    actions.extend(table[c][low : high + 1])
    return actions


def build_station(books: Books, seat: int, action: BuildStation) -> None:
    """E1: a station in a city without one, for 1, 2, then 3 cards of one colour."""
    rule_set = books.rule_set
    if not rule_set.stations:
        raise IllegalAction("E1", "stations belong to the europe rule set")
    city = books.map.city_index.get(action.city)
    if city is None:
        raise InvalidAction(f"there is no city {action.city!r} on {books.map.name}")
    left = books.stations_left[seat]
    if left == 0:
        raise IllegalAction("E1", "you have built all your stations")
    if books.station_owner[city] != -1:
        raise IllegalAction("E1", f"{action.city} already has a station")
    cost = rule_set.station_cost(left)
    payment = action.payment
    if payment.total != cost:
        raise IllegalAction("E1", f"this station costs {cost} card(s), not {payment.total}")
    check_hand_holds(books.hands[seat], payment, "E1")
    books.pay(seat, payment)
    books.place_station(seat, city)
    books.end_turn(seat)
