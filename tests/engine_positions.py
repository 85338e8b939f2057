"""Helpers for engine tests: two tiny maps, games past setup, assertions (an action
refused with the state unchanged, the invariants of a game) and seeded random
playouts. Positions are set up through the public builder
(`ttr_core.engine.positions`)."""

from __future__ import annotations

import random

import pytest

from ttr_core.bots.random_bot import RandomBot
from ttr_core.engine.actions import (
    Action,
    Claim,
    DrawDeck,
    DrawMarket,
    DrawTickets,
    KeepTickets,
    Pass,
    Payment,
    parse_action,
)
from ttr_core.engine.cards import CARD_INDEX, CARD_KINDS, CARD_NAMES, LOCO
from ttr_core.engine.errors import IllegalAction, InvalidAction
from ttr_core.engine.loop import bot_seed
from ttr_core.engine.positions import arrange
from ttr_core.engine.state import GameState
from ttr_core.engine.view import PlayerView
from ttr_maps.model import Map
from ttr_maps.rules import DECK_SIZE

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


def all_cards(state: GameState) -> list[int]:
    """Counts of each card kind wherever it is; always 12 per colour and 14 locos."""
    counts = [0] * CARD_KINDS
    piles = state.cards
    revealed = [c for d in state.pending for c in d.held_cards]  # E2: tunnel reveals too
    market = [c for c in piles.market if c is not None]
    for pile in (piles.deck, piles.discard, market, revealed):
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


def hand_everything_to(state: GameState, seat: int, **kept: int) -> None:
    """Deck, discards and market emptied into `seat`'s hand, except the cards in
    `kept` (card name -> count), which go to the market."""
    piles = state.cards
    pool = piles.deck + piles.discard + [c for c in piles.market if c is not None]
    market: list[int | None] = []
    for name, count in kept.items():
        for _ in range(count):
            pool.remove(CARD_INDEX[name])
            market.append(CARD_INDEX[name])
    hand = state.hands[seat][:]
    for card in pool:
        hand[card] += 1
    market += [None] * (len(piles.market) - len(market))
    arrange(state, hands={seat: hand}, deck=[], discard=[], market=market)


def stall(state: GameState) -> None:
    """Nothing to draw, no tickets, no route left: every seat can only pass (R6).
    The free routes go to the seats in turn (claimed ones stay), every card to the
    first seat's hand, every ticket of the deck to its tickets."""
    owners = [
        holder if holder != -1 else route % state.num_players
        for route, holder in enumerate(state.owner)
    ]
    hand_everything_to(state, 0)
    held = state.tickets[0] + list(state.ticket_deck)
    arrange(state, owners=owners, tickets={0: held}, ticket_deck=[])


def check_invariants(state: GameState) -> None:
    assert_cards_conserved(state)  # R3: the 110 cards are all somewhere, once
    revealed = [c for d in state.pending for c in d.held_cards]
    assert state.cards.count_all(state.hands, revealed) == DECK_SIZE  # the piles' own count
    for seat in range(state.num_players):
        claimed = sum(state.board.route_length[r] for r in state.claimed_routes(seat))
        assert state.wagons[seat] + claimed == state.map.wagons
        assert state.wagons[seat] >= 0
    offered = [t for d in state.pending for t in d.held_tickets]
    held = [t for tickets in state.tickets for t in tickets]
    returns = [t for r in state.setup_returns.values() for t in r]
    gone = state.out_of_game_tickets + state.long_ticket_deck  # E4
    every_ticket = list(state.ticket_deck) + offered + held + returns + gone
    assert sorted(every_ticket) == list(range(len(state.map.tickets)))


def unlisted_candidates(state: GameState, rng: random.Random) -> list:
    """A sample of well-formed actions, most of them illegal right now."""
    board = state.board
    candidates = [DrawDeck(), DrawTickets(), Pass(), KeepTickets((0,)), KeepTickets((0, 1, 2))]
    candidates += [DrawMarket(slot) for slot in range(5)]
    for _ in range(12):
        route = rng.randrange(board.num_routes)
        length = board.route_length[route]
        color = rng.choice(CARD_NAMES[:8])
        locos = rng.randrange(length + 2)
        colored = max(0, length - locos + rng.choice((-1, 0, 0, 1)))
        candidates.append(Claim(board.route_name(route), Payment(color, colored, locos)))
    return candidates


def playout(game_map, players: int, seed: int, check_every_action: bool) -> GameState:
    """Play random bots, checking invariants and legality after every action."""
    rng = random.Random(seed)
    bots = [RandomBot(bot_seed(seed, seat)) for seat in range(players)]
    state = GameState(game_map, players, seed)
    check_invariants(state)
    steps = 0
    while not state.is_over:
        seat = state.to_move
        listed = state.legal_actions(seat)
        assert listed == state.view(seat).legal_actions()  # one list, two callers
        if check_every_action or steps % 4 == 0:
            sample = listed if check_every_action else rng.sample(listed, min(3, len(listed)))
            for action in sample:  # every listed action applies...
                state.clone().apply(action, seat)
            for action in unlisted_candidates(state, rng):  # ...and unlisted ones raise
                if action not in listed:
                    twin = state.clone()
                    with pytest.raises((IllegalAction, InvalidAction)):
                        twin.apply(action, seat)
        state.apply(bots[seat].act(state.view(seat)), seat)
        check_invariants(state)
        steps += 1
        assert steps < 5000, "a game must end"
    return state


def play(state: GameState, text: str, seat: int | None = None) -> None:
    state.apply(parse_action(text), seat)


def snapshot(state: GameState) -> tuple:
    return (
        state.cards.deck[:],
        state.cards.discard[:],
        list(state.ticket_deck),
        [h[:] for h in state.hands],
        [t[:] for t in state.tickets],
        state.wagons[:],
        state.route_points[:],
        state.owner[:],
        state.cards.market[:],
        state.pending[:],
        state.current,
        state.phase,
        state.status[:],
        set(state.passed),
        state.final_queue,
        len(state.history),
        state.rng.getstate(),
    )


def assert_illegal(state: GameState, text: str, rule: str, seat: int | None = None) -> None:
    """The action is refused for `rule`, and the state is exactly as it was."""
    before = snapshot(state)
    with pytest.raises(IllegalAction) as caught:
        play(state, text, seat)
    assert caught.value.rule == rule, str(caught.value)
    assert str(caught.value).startswith(f"{rule}: ")
    assert snapshot(state) == before


#   A --2 red/blue-- B --3 gray tunnel-- C --1 green-- D --2 gray ferry 1-- E
#   A --4 yellow tunnel-- C ;  B --3 gray tunnel + ferry 1-- E
EUROPE_TINY = {
    **TINY,
    "rules": "europe",
    "routes": [
        {"between": ["A", "B"], "length": 2, "color": ["red", "blue"]},
        {"between": ["B", "C"], "length": 3, "color": "gray", "tunnel": True},
        {"between": ["C", "D"], "length": 1, "color": "green"},
        {"between": ["A", "C"], "length": 4, "color": "yellow", "tunnel": True},
        {"between": ["D", "E"], "length": 2, "color": "gray", "ferry": 1},
        {"between": ["B", "E"], "length": 3, "color": "gray", "tunnel": True, "ferry": 1},
    ],
    "tickets": [
        *TINY["tickets"],
        {"between": ["A", "E"], "value": 7, "long": True},
        {"between": ["A", "D"], "value": 5, "long": True},
        {"between": ["B", "D"], "value": 4, "long": True},
    ],
}


def long_tickets(state: GameState) -> set[int]:
    """The indices of the game's long tickets (E4)."""
    return {i for i, t in enumerate(state.map.tickets) if t.long}


def europe_map() -> Map:
    return Map.from_data(EUROPE_TINY)


def europe_game(players: int = 2, seed: int = 1) -> GameState:
    """Past setup, each seat keeping everything it was offered."""
    state = GameState(europe_map(), players, seed)
    for seat in range(players):
        offered = state.decision_for(seat).offered
        state.apply(KeepTickets(tuple(range(len(offered)))), seat)
    return state


class Watched:
    """Wraps a bot: checks it gets only views and answers with listed actions."""

    def __init__(self, bot: object) -> None:
        self.bot = bot
        self.name = bot.name  # type: ignore[attr-defined]
        self.calls = 0

    def act(self, view: PlayerView) -> Action:
        assert type(view) is PlayerView
        self.calls += 1
        action = self.bot.act(view)  # type: ignore[attr-defined]
        assert action in view.legal_actions(), f"{self.name} chose unlisted {action}"
        return action
