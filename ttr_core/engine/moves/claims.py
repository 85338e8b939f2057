"""R9, R10, R11, E3: claiming a route, listed and applied: which claims a hand can
pay, the checks of a claim, and the claim itself (E2: a tunnel is dug instead,
see `ttr_core.engine.moves.tunnels`). P2 (rule set field `plain_route_locomotives`
false, Nordic Countries and Switzerland): locomotives pay only tunnels and ferries.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress
from operator import ge

from ttr_core.engine.actions import Action, Claim, Payment
from ttr_core.engine.books import Books
from ttr_core.engine.cards import CARD_INDEX, LOCO
from ttr_core.engine.compiled import GRAY_INDEX, Board, OpenGroups
from ttr_core.engine.errors import IllegalAction, InvalidAction
from ttr_core.engine.moves.tunnels import dig_tunnel
from ttr_core.engine.open_routes import is_open_to


def locomotive_range(length: int, have: int, locos: int, min_locos: int) -> tuple[int, int]:
    """R9, the payment rule, in one place: the fewest and the most locomotives to
    add to `have` cards of one colour to pay `length` cards, with at least one card
    of the colour (a payment of locomotives only is listed on its own). E3: a ferry
    needs at least `min_locos` locomotives. No payment when fewest > most.

    >>> locomotive_range(4, 3, 2, 0), locomotive_range(4, 1, 2, 0), locomotive_range(2, 2, 1, 1)
    ((1, 2), (3, 2), (1, 1))
    """
    low = length - have if have < length else 0
    if low < min_locos:
        low = min_locos
    return low, (locos if locos < length - 1 else length - 1)


def payment_shapes(
    length: int, color: int, hand: Sequence[int], min_locos: int = 0
) -> list[tuple[int, int, int]]:
    """R9: how `hand` can pay `length` cards of this colour, as (card, fewest,
    most) locomotives to add to cards of that colour; (LOCO, 0, 0) stands for the
    locomotives-only payment. E3: a ferry needs at least `min_locos` locomotives."""
    locos = hand[LOCO]
    shapes = []
    for c in range(LOCO) if color == GRAY_INDEX else (color,):
        have = hand[c]
        if not have:
            continue  # a colour's payment holds a card of it (`locomotive_range`)
        low, high = locomotive_range(length, have, locos, min_locos)
        if low <= high:
            shapes.append((c, low, high))
    if locos >= length:
        shapes.append((LOCO, 0, 0))
    return shapes


def takes_locomotives(board: Board, route: int, plain_route_locomotives: bool) -> bool:
    """R9: locomotives may pay `route`; P2 (without `plain_route_locomotives`): only
    a tunnel or a ferry takes them."""
    return plain_route_locomotives or board.route_tunnel[route] or board.route_ferry[route] > 0


def usable_hand(
    board: Board, route: int, hand: Sequence[int], plain_route_locomotives: bool
) -> Sequence[int]:
    """The cards that may pay `route`: the hand, or (P2) the hand without its
    locomotives for a route that is neither a tunnel nor a ferry."""
    if takes_locomotives(board, route, plain_route_locomotives):
        return hand
    return [*hand[:LOCO], 0, *hand[LOCO + 1 :]]


def claim_actions(
    board: Board,
    hand: Sequence[int],
    open_groups: OpenGroups,
    wagons: int,
    ferries: bool,
    into: list[Action] | None = None,
    plain_route_locomotives: bool = True,
) -> list[Action]:
    """R9: every claim the hand and the wagons pay for, among the routes open to the
    seat (R11), grouped by colour, length and ferry, then by payment colour and
    locomotive count, locomotives-only last. E3: with `ferries`, a ferry needs its
    locomotives. P2: without `plain_route_locomotives`, routes other than tunnels
    and ferries are paid without locomotives. The claims are added to `into` (a
    new list if None)."""
    actions: list[Action] = [] if into is None else into
    if not plain_route_locomotives:
        return _claims_with_locomotives_kept_for_tunnels_and_ferries(
            board, hand, open_groups, wagons, ferries, actions
        )
    # This runs once per turn of every game: the open routes come grouped by shape
    # (see `open_route_groups`), since whether and how a hand can pay depends only
    # on the group. A colour's groups come shortest first, so the first one too
    # long for the wagons or for the cards held ends that colour (R9); colours
    # that cannot pay even their shortest route are left out at once.
    locos = hand[LOCO]
    claim_options = board.claim_options
    first, end = board.gray_block
    if first < end:
        have = max(hand[:LOCO]) + locos
        limit = wagons if wagons < have else have
        for length, ferry, routes in open_groups[first:end]:
            if length > limit:
                break
            if not routes:
                continue
            shapes = payment_shapes(length, GRAY_INDEX, hand, ferry if ferries else 0)
            for route in routes:
                options = claim_options[route]
                for c, low, high in shapes:
                    paid = options[c]
                    actions.extend(paid[low : high + 1])
    # The colours whose cards (with the locomotives) pay for their shortest route.
    needs = board.card_needs
    enough = map(ge, hand, needs[locos] if locos < len(needs) else needs[-1])
    for color, first, end in compress(board.card_blocks, enough):
        # `payment_shapes` for one card colour, without building its list (hot loop).
        have = hand[color]
        limit = have + locos
        if wagons < limit:
            limit = wagons
        for length, ferry, routes in open_groups[first:end]:
            if length > limit:
                break
            if not routes:
                continue
            if have:
                low, high = locomotive_range(length, have, locos, ferry if ferries else 0)
                if low <= high:
                    for route in routes:
                        options = claim_options[route]
                        paid = options[color]
                        actions.extend(paid[low : high + 1])
                        if locos >= length:
                            actions.extend(options[LOCO])
                    continue
            if locos >= length:
                for route in routes:
                    actions.extend(claim_options[route][LOCO])
    return actions


def _claims_with_locomotives_kept_for_tunnels_and_ferries(
    board: Board,
    hand: Sequence[int],
    open_groups: OpenGroups,
    wagons: int,
    ferries: bool,
    actions: list[Action],
) -> list[Action]:
    """`claim_actions` under P2, in the same order: a route that is neither a tunnel
    nor a ferry is paid as if the hand held no locomotives."""
    claim_options = board.claim_options
    first, end = board.gray_block
    blocks = [(GRAY_INDEX, first, end), *board.card_blocks]
    for color, first, end in blocks:
        for length, ferry, routes in open_groups[first:end]:
            if length > wagons:
                break
            for route in routes:
                usable = usable_hand(board, route, hand, False)
                options = claim_options[route]
                for c, low, high in payment_shapes(length, color, usable, ferry if ferries else 0):
                    actions.extend(options[c][low : high + 1])
    return actions


def claim(books: Books, seat: int, action: Claim) -> None:
    """R9, R10: pay, take the route and score it; the turn ends. E2: a tunnel
    turns up cards first."""
    route = check_claim(books, seat, action)
    if books.rule_set.tunnels and books.board.route_tunnel[route]:
        dig_tunnel(books, seat, route, action.payment)
        return
    books.pay(seat, action.payment)
    books.take_route(seat, route)
    books.end_turn(seat)


def check_claim(books: Books, seat: int, action: Claim) -> int:
    """Check a claim against R9, R11 and E3 without changing anything; return the
    route index."""
    board = books.board
    route = board.route_index.get(action.route)
    if route is None:
        raise InvalidAction(f"there is no route {action.route!r} on {books.map.name}")
    length = board.route_length[route]
    owner = books.owner
    if owner[route] != -1:
        raise IllegalAction("R9", f"{action.route} already belongs to seat {owner[route]}")
    if length > books.wagons[seat]:
        raise IllegalAction(
            "R9", f"{action.route} needs {length} wagons; you have {books.wagons[seat]}"
        )
    players = books.num_players
    if not is_open_to(board, route, seat, owner, players, books.rule_set.double_routes_from):
        if seat in [owner[s] for s in board.route_siblings[route]]:
            raise IllegalAction("R11", f"you already own the other track of {action.route}")
        raise IllegalAction("R11", f"in a {players}-player game the other track closes this one")
    _check_payment(books, seat, route, action.payment, action.route)
    return route


def _check_payment(books: Books, seat: int, route: int, payment: Payment, name: str) -> None:
    """R9: exactly `length` cards, all of the route's colour (any one colour for
    gray), locomotives making up any part of it. E3: a ferry's locomotives."""
    board = books.board
    length = board.route_length[route]
    color = board.route_color[route]
    if payment.total != length:
        raise IllegalAction("R9", f"{name} costs {length} cards, not {payment.total}")
    if payment.color is not None:
        card = CARD_INDEX[payment.color]
        if color != GRAY_INDEX and card != color:
            route_color = books.map.routes[route].color
            raise IllegalAction("R9", f"{name} is {route_color}; pay {route_color} or locomotives")
    check_hand_holds(books.hands[seat], payment, "R9")
    if payment.locos and not takes_locomotives(
        board, route, books.rule_set.plain_route_locomotives
    ):
        raise IllegalAction(
            "P2", f"{name} is neither a tunnel nor a ferry: pay it without locomotives"
        )
    ferry = board.route_ferry[route]
    if books.rule_set.ferries and payment.locos < ferry:
        raise IllegalAction("E3", f"the ferry {name} needs at least {ferry} locomotives")


def check_hand_holds(hand: Sequence[int], payment: Payment, rule: str) -> None:
    """The hand holds the cards of `payment`; else `rule` forbids it."""
    if payment.color is not None and hand[CARD_INDEX[payment.color]] < payment.colored:
        held = hand[CARD_INDEX[payment.color]]
        raise IllegalAction(rule, f"you hold only {held} {payment.color}")
    if hand[LOCO] < payment.locos:
        raise IllegalAction(rule, f"you hold only {hand[LOCO]} locomotives")
