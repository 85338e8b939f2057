"""Listing legal actions. One function serves the full state and a player's view,
so that what a bot sees as legal is exactly what the engine will accept.

The order is stable: draw deck, draw market 0-4, claims (routes grouped by colour,
length and ferry, then by payment colour and locomotive count, locomotives-only
last), stations (E1), tickets, pass; `resign` only on request (it is always legal,
D5, but a list that offers it invites a random player to leave).
docs/rules.md spells it out.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations, compress
from operator import ge

from ttr_core.engine.actions import (
    Action,
    DrawDeck,
    DrawMarket,
    DrawTickets,
    GiveUpTunnel,
    KeepTickets,
    Pass,
    Payment,
    PayTunnel,
    Resign,
)
from ttr_core.engine.cards import CARD_INDEX, LOCO
from ttr_core.engine.compiled import GRAY_INDEX, Board
from ttr_core.engine.decisions import ChooseTickets, Decision, TunnelPayment
from ttr_core.engine.enums import Phase
from ttr_maps.rules import BASE, EUROPE, MARKET_SIZE_MAX, RuleSet

DRAW_DECK = DrawDeck()
DRAW_MARKET = tuple(DrawMarket(slot) for slot in range(MARKET_SIZE_MAX))
DRAW_TICKETS = DrawTickets()
PASS = Pass()
RESIGN = Resign()
GIVE_UP = GiveUpTunnel()
#: E1: stations each player has with the europe rules (`RuleSet.stations`).
STATIONS_PER_PLAYER = EUROPE.stations


def legal_actions(
    rules: RuleSet,
    board: Board,
    phase: str,
    my_turn: bool,
    decision: Decision | None,
    hand: Sequence[int],
    market: Sequence[int | None],
    can_draw_deck: bool,
    ticket_deck_size: int,
    open_groups: OpenGroups,
    wagons: int,
    stations_left: int,
    station_owners: Sequence[int],
    include_resign: bool = False,
) -> list[Action]:
    """Every action an active seat may take now: the one dispatcher behind
    `GameState.legal_actions` and `PlayerView.legal_actions`, so both give the
    same list from the same facts. `resign` (D5) closes the list on request."""
    if decision is not None:
        if isinstance(decision, ChooseTickets):
            actions: list[Action] = list(keep_choices(len(decision.offered), decision.minimum))
        elif isinstance(decision, TunnelPayment):
            actions = tunnel_actions(hand, decision.payment, decision.extra)
        else:
            actions = second_card_actions(market, can_draw_deck)
    elif phase == Phase.PLAYING and my_turn:
        actions = turn_actions(
            board,
            hand,
            open_groups,
            wagons,
            market,
            can_draw_deck,
            ticket_deck_size,
            rules,
            stations_left,
            station_owners,
        )
    else:
        actions = []
    if include_resign:
        actions.append(RESIGN)
    return actions


@lru_cache(maxsize=64)
def keep_choices(offered: int, minimum: int) -> tuple[KeepTickets, ...]:
    """R4/R12: every way to keep at least `minimum` of `offered` tickets, smallest first."""
    return tuple(
        KeepTickets(indices)
        for size in range(min(minimum, offered), offered + 1)
        for indices in combinations(range(offered), size)
    )


def is_open_to(
    board: Board,
    route: int,
    seat: int,
    owner: Sequence[int],
    num_players: int,
    double_routes_from: int = BASE.double_routes_from,
) -> bool:
    """Whether `route` is still free (R9) and not closed to `seat` by a parallel
    track (R11)."""
    if owner[route] != -1:
        return False
    for sibling in board.route_siblings[route]:
        holder = owner[sibling]
        # R11: never both tracks; with 2-3 players the other track closes once one is taken.
        if holder == seat or (holder != -1 and num_players < double_routes_from):
            return False
    return True


def can_claim_route(
    board: Board,
    route: int,
    seat: int,
    owner: Sequence[int],
    num_players: int,
    wagons: int,
    double_routes_from: int = BASE.double_routes_from,
) -> bool:
    """Whether `seat` may claim `route` apart from paying for it: open to it (R9,
    R11) and enough wagons (R9)."""
    return board.route_length[route] <= wagons and is_open_to(
        board, route, seat, owner, num_players, double_routes_from
    )


#: Routes open to one seat with one shape: (length, ferry, routes).
OpenGroup = tuple[int, int, tuple[int, ...]]
#: Routes open to one seat, a group per shape of `board.routes_by_shape` (maybe
#: empty), in its order: `board.gray_block` and `board.card_blocks` tell each
#: colour's groups.
OpenGroups = Sequence[OpenGroup]


def open_route_groups(
    board: Board,
    seat: int,
    owner: Sequence[int],
    num_players: int,
    double_routes_from: int = BASE.double_routes_from,
) -> OpenGroups:
    """The routes open to `seat` (R9, R11), grouped by (colour, length, ferry) in the
    order of `board.routes_by_shape` (a group may be empty): how a hand can pay
    depends only on the group. Changes only when a route is claimed."""
    if owner.count(-1) == len(owner):
        return board.open_groups  # nothing claimed yet: every route is open
    return tuple(
        (
            length,
            ferry,
            tuple(
                r
                for r, _ in routes
                if is_open_to(board, r, seat, owner, num_players, double_routes_from)
            ),
        )
        for _, length, ferry, routes in board.routes_by_shape
    )


def payment_shapes(
    length: int, color: int, hand: Sequence[int], min_locos: int = 0
) -> list[tuple[int, int, int]]:
    """R9: how `hand` can pay `length` cards of this colour, as (card, fewest,
    most) locomotives to add to cards of that colour; (LOCO, 0, 0) stands for the
    locomotives-only payment. E3: a ferry needs at least `min_locos` locomotives."""
    locos = hand[LOCO]
    shapes = []
    most = locos if locos < length - 1 else length - 1
    if min_locos <= most:
        need = length - most  # at least one card of the colour
        for c in range(LOCO) if color == GRAY_INDEX else (color,):
            have = hand[c]
            if have >= need:
                fewest = length - have if have < length else 0
                shapes.append((c, fewest if fewest > min_locos else min_locos, most))
    if locos >= length:
        shapes.append((LOCO, 0, 0))
    return shapes


def turn_actions(
    board: Board,
    hand: Sequence[int],
    open_groups: OpenGroups,
    wagons: int,
    market: Sequence[int | None],
    can_draw_deck: bool,
    ticket_deck_size: int,
    rules: RuleSet = BASE,
    stations_left: int = 0,
    station_owners: Sequence[int] = (),
) -> list[Action]:
    """The actions that start a turn (R6), for the player whose turn it is.

    With `rules.ferries`, ferries need locomotives (E3); with `rules.stations`,
    stations can be built (E1)."""
    actions: list[Action] = []
    if can_draw_deck:  # R7, D3
        actions.append(DRAW_DECK)
    if None not in market:
        actions.extend(DRAW_MARKET[: len(market)])
    else:
        actions.extend(DRAW_MARKET[slot] for slot, card in enumerate(market) if card is not None)
    # This runs once per turn of every game: the open routes come grouped by shape
    # (see `open_route_groups`), since whether and how a hand can pay depends only
    # on the group. A colour's groups come shortest first, so the first one too
    # long for the wagons or for the cards held ends that colour (R9); colours
    # that cannot pay even their shortest route are left out at once.
    locos = hand[LOCO]
    ferries = rules.ferries
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
                    actions.extend(options[c][low : high + 1])
    # The colours whose cards (with the locomotives) pay for their shortest route.
    needs = board.card_needs
    enough = map(ge, hand, needs[locos] if locos < len(needs) else needs[-1])
    for color, first, end in compress(board.card_blocks, enough):
        # `payment_shapes` for one card colour, inlined (hot loop).
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
                low = length - have if have < length else 0
                if ferries and low < ferry:
                    low = ferry  # E3
                high = locos if locos < length - 1 else length - 1
                if low <= high:
                    for route in routes:
                        options = claim_options[route]
                        actions.extend(options[color][low : high + 1])
                        if locos >= length:
                            actions.extend(options[LOCO])
                    continue
            if locos >= length:
                for route in routes:
                    actions.extend(claim_options[route][LOCO])
    if stations_left > 0:
        actions.extend(station_actions(board, hand, stations_left, station_owners, rules))
    if ticket_deck_size > 0:  # R12, D4
        actions.append(DRAW_TICKETS)
    if not actions:  # R6: pass only when nothing else is possible
        actions.append(PASS)
    return actions


def station_actions(
    board: Board,
    hand: Sequence[int],
    stations_left: int,
    station_owners: Sequence[int],
    rules: RuleSet = EUROPE,
) -> list[Action]:
    """E1: a station in any city without one, paid with cards of one colour
    (`RuleSet.station_cost`: 1, 2, then 3 cards with the europe rules)."""
    cost = rules.station_cost(stations_left)
    shapes = payment_shapes(cost, GRAY_INDEX, hand)
    actions: list[Action] = []
    if shapes:
        for city, table in enumerate(board.station_payments(cost)):
            if station_owners[city] == -1:
                for c, low, high in shapes:
                    actions.extend(table[c][low : high + 1])
    return actions


def tunnel_actions(hand: Sequence[int], laid: Payment, extra: int) -> list[Action]:
    """E2: every way to pay `extra` more cards of the colour laid down or
    locomotives (only locomotives if only locomotives were laid), then giving up."""
    locos = hand[LOCO] - laid.locos
    actions: list[Action] = []
    if laid.color is not None:
        have = hand[CARD_INDEX[laid.color]] - laid.colored
        for colored in range(min(extra, have), -1, -1):
            if extra - colored <= locos:
                actions.append(PayTunnel(Payment(laid.color, colored, extra - colored)))
    elif locos >= extra:
        actions.append(PayTunnel(Payment(None, 0, extra)))
    actions.append(GIVE_UP)
    return actions


def second_card_actions(market: Sequence[int | None], can_draw_deck: bool) -> list[Action]:
    """R7: the second card of a draw: the deck, or a face-up card that is not a locomotive."""
    actions: list[Action] = [DRAW_DECK] if can_draw_deck else []
    for slot, card in enumerate(market):
        if card is not None and card != LOCO:
            actions.append(DRAW_MARKET[slot])
    return actions
