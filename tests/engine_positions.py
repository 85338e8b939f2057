"""Hand-built positions for engine tests: a tiny map and ways to set a game up
exactly as a test needs it."""

from __future__ import annotations

from collections.abc import Iterable

from ttr_core.actions import KeepTickets
from ttr_core.cards import CARD_INDEX, CARD_KINDS, DECK_SIZE, LOCO
from ttr_core.state import GameState
from ttr_maps.model import Map

#   A --2 red/blue-- B --3 gray-- C --1 green-- D
#   A --4 yellow-- C ; D --2 gray-- E ; B --6 black-- E
TINY = {
    "format": 1,
    "id": "tiny",
    "name": "Tiny",
    "coordinates": "plane",
    "cities": {
        "A": {"x": 0, "y": 0},
        "B": {"x": 2, "y": 0},
        "C": {"x": 5, "y": 0},
        "D": {"x": 6, "y": 0},
        "E": {"x": 8, "y": 0},
    },
    "routes": [
        {"between": ["A", "B"], "length": 2, "color": ["red", "blue"]},
        {"between": ["B", "C"], "length": 3, "color": "gray"},
        {"between": ["C", "D"], "length": 1, "color": "green"},
        {"between": ["A", "C"], "length": 4, "color": "yellow"},
        {"between": ["D", "E"], "length": 2, "color": "gray"},
        {"between": ["B", "E"], "length": 6, "color": "black"},
    ],
    "tickets": [
        {"between": ["A", "C"], "value": 4},
        {"between": ["A", "D"], "value": 5},
        {"between": ["B", "D"], "value": 4},
        {"between": ["A", "E"], "value": 7},
        {"between": ["B", "E"], "value": 6},
        {"between": ["C", "E"], "value": 3},
        {"between": ["A", "B"], "value": 2},
        {"between": ["B", "C"], "value": 3},
        {"between": ["C", "D"], "value": 1},
        {"between": ["D", "E"], "value": 2},
        {"between": ["A", "E"], "value": 7},
        {"between": ["B", "D"], "value": 4},
        {"between": ["A", "D"], "value": 5},
        {"between": ["C", "E"], "value": 3},
        {"between": ["B", "E"], "value": 6},
    ],
}


def tiny_map(**changes: object) -> Map:
    return Map.from_data({**TINY, **changes})


def started(game_map: Map, players: int = 2, seed: int = 1) -> GameState:
    """A game past setup: every seat kept all three offered tickets (R4)."""
    state = GameState(game_map, players, seed)
    for seat in range(players):
        offered = state.decision_for(seat).offered  # type: ignore[union-attr]
        state.apply(KeepTickets(tuple(range(len(offered)))), seat)
    return state


def cards(**counts: int) -> list[int]:
    """A hand from counts: cards(red=3, loco=1)."""
    hand = [0] * CARD_KINDS
    for name, count in counts.items():
        hand[CARD_INDEX[name]] = count
    return hand


def give_hand(state: GameState, seat: int, **counts: int) -> None:
    """Replace a seat's hand, keeping all 110 cards in play: the old hand goes to
    the deck, and the new cards come out of the deck or discards (or other hands
    are left alone and the deck must hold them)."""
    old = state.hands[seat]
    for card, count in enumerate(old):
        state.deck.extend([card] * count)
    new = cards(**counts)
    for card, count in enumerate(new):
        for _ in range(count):
            _take_from_pool(state, card)
    state.hands[seat] = new


def set_market(state: GameState, names: Iterable[str | None]) -> None:
    """Put exactly these cards face up (None for an empty slot), via the pool."""
    for card in state.market:
        if card is not None:
            state.deck.append(card)
    market: list[int | None] = []
    for name in names:
        if name is None:
            market.append(None)
        else:
            card = CARD_INDEX[name]
            _take_from_pool(state, card)
            market.append(card)
    state.market = market


def stack_deck(state: GameState, top_first: Iterable[str]) -> None:
    """Put these cards on top of the deck, the first one on top."""
    wanted = [CARD_INDEX[n] for n in top_first]
    for card in wanted:
        _take_from_pool(state, card)
    state.deck.extend(reversed(wanted))


def _take_from_pool(state: GameState, card: int) -> None:
    for pile in (state.deck, state.discard):
        if card in pile:
            pile.remove(card)
            return
    raise AssertionError(f"no card {card} left in the deck or discards")


def all_cards(state: GameState) -> list[int]:
    """Counts of each card kind wherever it is; always 12 per colour and 14 locos."""
    counts = [0] * CARD_KINDS
    revealed = [c for d in state.pending if hasattr(d, "revealed") for c in d.revealed]
    market = [c for c in state.market if c is not None]
    for pile in (state.deck, state.discard, market, revealed):  # E2: tunnel reveals too
        for card in pile:
            counts[card] += 1
    for hand in state.hands:
        for card, count in enumerate(hand):
            counts[card] += count
    return counts


def assert_cards_conserved(state: GameState) -> None:
    counts = all_cards(state)
    assert sum(counts) == DECK_SIZE
    assert counts[LOCO] == 14
    assert all(c == 12 for c in counts[:LOCO])


def claim_text(route: str, **payment: int) -> str:
    parts = " ".join(f"{k}:{v}" for k, v in payment.items())
    return f"claim {route} with {parts}"
