"""Setting up a position: a game dealt as usual, then changed into the position a
test, a tool or a search bot's sampled world needs, with every train card and
every ticket still accounted for.

Start from a `GameState` (dealt from its seed, or played to some point), then:

- `arrange(state, ...)` sets any part of the books at once (hands, piles, tickets,
  routes, wagons, stations, turn order, pending decisions), rebuilds what derives
  from them (networks, views' caches), and refuses with `PositionError` a position
  that loses or doubles one of the 110 cards (R3) or a ticket;
- `give_hand`, `set_market`, `stack_deck` and `give_tickets` make the common small
  changes, moving cards between a hand or the market and the deck, and tickets
  between the seats and the ticket deck.

Nothing else is touched: the random source goes on from where it was, so the same
position plays the same way.

>>> from ttr_maps import load_map
>>> from ttr_core.engine.state import GameState
>>> game = GameState(load_map("north_america"), 2, seed=1)
>>> give_hand(game, 0, red=2, loco=1)
>>> stack_deck(game, ["pink"])
>>> sum(game.hands[0]), CARD_NAMES[game.cards.deck[-1]]
(3, 'pink')
>>> arrange(game, wagons={0: 3}, current=0)
>>> game.wagons[0], game.current
(3, 0)
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from ttr_core.engine.books import Books
from ttr_core.engine.cards import CARD_INDEX, CARD_KINDS, CARD_NAMES, full_deck
from ttr_core.engine.decisions import Decision
from ttr_core.engine.enums import Phase, Status

T = TypeVar("T")

#: R3: how many cards of each kind there are.
_DECK_COUNTS = [full_deck().count(card) for card in range(CARD_KINDS)]


class PositionError(ValueError):
    """A position that loses or doubles a card or a ticket, or names no such seat."""


#: A part of the position with one value per seat: a mapping of the seats that
#: change to their new values, or a new value for every seat.
PerSeat = Mapping[int, T] | Sequence[T]


def arrange(
    books: Books,
    *,
    hands: PerSeat[Sequence[int]] | None = None,
    deck: Sequence[int] | None = None,
    discard: Sequence[int] | None = None,
    market: Sequence[int | None] | None = None,
    tickets: PerSeat[Sequence[int]] | None = None,
    ticket_deck: Sequence[int] | None = None,
    out_of_game_tickets: Sequence[int] | None = None,
    owners: Sequence[int] | None = None,
    wagons: PerSeat[int] | None = None,
    route_points: PerSeat[int] | None = None,
    status: PerSeat[Status] | None = None,
    station_owners: Sequence[int] | None = None,
    stations_left: PerSeat[int] | None = None,
    phase: Phase | None = None,
    current: int | None = None,
    first_player: int | None = None,
    pending: Sequence[Decision] | None = None,
    setup_returns: Mapping[int, Sequence[int]] | None = None,
    passed: Iterable[int] | None = None,
    final_queue: Sequence[int] | None = None,
) -> None:
    """Set the given parts of the position; what is not given stays as it is.

    Cards are card indices (`ttr_core.engine.cards`); a hand is nine counts, `deck`
    lists the deck with its top card last, `market` the face-up slots (None for an
    empty one). `ticket_deck` lists tickets (indices into the map's) top first.
    Per-seat parts (`hands`, `tickets`, `wagons`, ...) map the seats that change to
    their new values, or give a value for every seat; `owners` (per route) and
    `station_owners` (per city) list every one, -1 for nobody. Given `owners`
    without `wagons` (or `route_points`), each seat's wagons (route points) follow
    from its routes (R9, R10). `final_queue`, the seats still to play in the final
    round (R14, D1), starts the final round.

    Raises `PositionError` if a train card or a ticket is lost or doubled (the
    cards pending decisions hold, E2, and the tickets they offer count too); the
    books are then not a position to play on.
    """
    cards = books.cards
    if hands is not None:
        books.hands = _per_seat(books, books.hands, hands, _hand)
    if deck is not None:
        cards.deck = list(deck)
    if discard is not None:
        cards.discard = list(discard)
    if market is not None:
        cards.market = list(market)
    if tickets is not None:
        books.tickets = _per_seat(books, books.tickets, tickets, list)
    if ticket_deck is not None:
        books.ticket_deck = deque(ticket_deck)
    if out_of_game_tickets is not None:
        books.out_of_game_tickets = list(out_of_game_tickets)
    if owners is not None:
        if len(owners) != books.board.num_routes:
            raise PositionError(f"owners lists {books.board.num_routes} routes, not {len(owners)}")
        books.owner = list(owners)
        if wagons is None or route_points is None:
            _spend_wagons_on_routes(books, wagons is None, route_points is None)
    if wagons is not None:
        books.wagons = _per_seat(books, books.wagons, wagons)
    if route_points is not None:
        books.route_points = _per_seat(books, books.route_points, route_points)
    if status is not None:
        books.status = _per_seat(books, books.status, status)
    if station_owners is not None:
        books.station_owner = list(station_owners)
    if stations_left is not None:
        books.stations_left = _per_seat(books, books.stations_left, stations_left)
    if phase is not None:
        books.phase = phase
    if current is not None:
        _check_seat(books, current)
        books.current = current
    if first_player is not None:
        _check_seat(books, first_player)
        books.first_player = first_player
    if pending is not None:
        books.pending = list(pending)
    if setup_returns is not None:
        books.setup_returns = {seat: list(returned) for seat, returned in setup_returns.items()}
    if passed is not None:
        books.passed = set(passed)
    if final_queue is not None:
        books.final_queue = list(final_queue)
    check_accounted(books)
    books.refresh()


def give_hand(books: Books, seat: int, **counts: int) -> None:
    """The seat's hand becomes exactly these cards (`red=2, loco=1`): the cards it
    held go on top of the deck, the new ones come out of the deck (else the
    discards)."""
    _check_seat(books, seat)
    cards = books.cards
    deck, discard = cards.deck[:], cards.discard[:]
    for card, count in enumerate(books.hands[seat]):
        deck.extend([card] * count)
    hand = [0] * CARD_KINDS
    for name, count in counts.items():
        card = _card(name)
        hand[card] = count
        for _ in range(count):
            _take_from(deck, discard, card)
    arrange(books, hands={seat: hand}, deck=deck, discard=discard)


def set_market(books: Books, names: Iterable[str | None]) -> None:
    """Exactly these cards lie face up (None for an empty slot): the cards that lay
    there go on top of the deck, the new ones come out of the deck (else the
    discards)."""
    cards = books.cards
    deck, discard = cards.deck[:], cards.discard[:]
    deck.extend(card for card in cards.market if card is not None)
    market: list[int | None] = []
    for name in names:
        if name is None:
            market.append(None)
        else:
            card = _card(name)
            _take_from(deck, discard, card)
            market.append(card)
    arrange(books, deck=deck, discard=discard, market=market)


def stack_deck(books: Books, top_first: Iterable[str]) -> None:
    """These cards, taken from the deck (else the discards), go on top of the deck,
    the first one on top."""
    cards = books.cards
    deck, discard = cards.deck[:], cards.discard[:]
    wanted = [_card(name) for name in top_first]
    for card in wanted:
        _take_from(deck, discard, card)
    deck.extend(reversed(wanted))
    arrange(books, deck=deck, discard=discard)


def ticket_index(books: Books, a: str, b: str, nth: int = 0) -> int:
    """The index of the ticket between cities `a` and `b` (either way round; the
    `nth` of several such) in the game's numbering (the map's play order), for
    `give_tickets` and `arrange`."""
    pair = {a, b}
    found = [i for i, t in enumerate(books.map.tickets) if set(t.cities) == pair]
    if len(found) <= nth:
        raise ValueError(f"no ticket {a}–{b} (number {nth + 1}) on {books.map.name}")
    return found[nth]


def give_tickets(books: Books, seat: int, tickets: Sequence[int]) -> None:
    """The seat holds exactly these tickets (indices into the map's, in this
    order): those it held go under the ticket deck, the new ones are taken from the
    ticket deck or from the other seats."""
    _check_seat(books, seat)
    deck = [t for t in books.ticket_deck if t not in tickets]
    deck += [t for t in books.tickets[seat] if t not in tickets]
    held = {
        other: [t for t in books.tickets[other] if t not in tickets]
        for other in range(books.num_players)
        if other != seat
    }
    arrange(books, tickets={**held, seat: tickets}, ticket_deck=deck)


def check_accounted(books: Books) -> None:
    """Raise `PositionError` unless the 110 train cards (R3) and every ticket are
    each in exactly one place: deck, discards, market, hands or held by a pending
    decision (E2); ticket decks, held, offered, held back at setup (R4) or out of
    the game (E4)."""
    piles = books.cards
    loose = [*piles.deck, *piles.discard, *(c for c in piles.market if c is not None)]
    for decision in books.pending:
        loose += decision.held_cards
    counted = bytes(loose)  # cards are 0-8: as bytes they are counted in C
    in_hands = [sum(column) for column in zip(*books.hands, strict=True)]
    found = [counted.count(card) + in_hands[card] for card in range(CARD_KINDS)]
    if found != _DECK_COUNTS:
        wrong = ", ".join(
            f"{CARD_NAMES[card]} {count}"
            for card, count in enumerate(found)
            if count != _DECK_COUNTS[card]
        )
        raise PositionError(f"R3: the train cards are not all accounted for once ({wrong})")
    every = [*books.ticket_deck, *books.long_ticket_deck, *books.out_of_game_tickets]
    for tickets in books.tickets:
        every += tickets
    for decision in books.pending:
        every += decision.held_tickets
    for returned in books.setup_returns.values():
        every += returned
    if sorted(every) != list(range(len(books.map.tickets))):
        raise PositionError("the tickets are not all accounted for once")


def _spend_wagons_on_routes(books: Books, wagons: bool, points: bool) -> None:
    """R9, R10: every seat's wagons, route points or both as its routes make them."""
    board, rules = books.board, books.rule_set
    left = [rules.wagons] * books.num_players
    scored = [0] * books.num_players
    for route, seat in enumerate(books.owner):
        if seat != -1:
            _check_seat(books, seat)
            left[seat] -= board.route_length[route]
            scored[seat] += rules.route_score(board.route_length[route])
    if wagons:
        books.wagons = left
    if points:
        books.route_points = scored


def _per_seat(
    books: Books, values: list, given: PerSeat, convert: Callable[[Any], Any] | None = None
) -> list:
    """A new list of `values` (one per seat) with `given` in it (see `PerSeat`)."""
    if isinstance(given, Mapping):
        values = values[:]
        for seat, value in given.items():
            _check_seat(books, seat)
            values[seat] = value if convert is None else convert(value)
        return values
    if len(given) != books.num_players:
        raise PositionError(f"{len(given)} values for {books.num_players} seats")
    return list(given) if convert is None else [convert(value) for value in given]


def _hand(counts: Sequence[int]) -> list[int]:
    if len(counts) != CARD_KINDS or min(counts) < 0:
        raise PositionError(f"a hand is {CARD_KINDS} counts of zero or more, not {counts}")
    return list(counts)


def _check_seat(books: Books, seat: int) -> None:
    if not 0 <= seat < books.num_players:
        raise PositionError(f"there is no seat {seat} in a {books.num_players}-player game")


def _card(name: str) -> int:
    card = CARD_INDEX.get(name)
    if card is None:
        raise PositionError(f"no train card {name!r}; cards are {', '.join(CARD_NAMES)}")
    return card


def _take_from(deck: list[int], discard: list[int], card: int) -> None:
    for pile in (deck, discard):
        if card in pile:
            pile.remove(card)
            return
    raise PositionError(f"no {CARD_NAMES[card]} left in the deck or the discards")
