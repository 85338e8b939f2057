"""What one seat sees (`ttr_core.engine.view`): R5 and D6 hidden information, one
`decision` field, and views as snapshots."""

from __future__ import annotations

import pytest
from engine_positions import started

from ttr_core.engine.actions import DrawDeck
from ttr_core.engine.decisions import ChooseTickets, SecondCard
from ttr_core.engine.positions import arrange
from ttr_core.engine.state import GameState


def test_r5_d6_view_does_not_change_when_hidden_information_does(north_america):
    state = started(north_america, 3, seed=11)
    seat = state.current
    other = (seat + 1) % 3
    before = state.view(seat)
    twin = state.clone()
    deck = twin.cards.deck[:]
    twin.rng.shuffle(deck)  # another deck order
    hand = twin.hands[other][:]  # another hand of the same size: a card swapped with the deck
    moved = next(c for c in range(8) if hand[c])
    swapped = next(c for c in deck if c != moved)
    hand[moved] -= 1
    hand[swapped] += 1
    deck.remove(swapped)
    deck.append(moved)
    arrange(twin, deck=deck, hands={other: hand}, tickets={other: twin.tickets[other][::-1]})
    assert twin.view(seat) == before
    assert twin.view(other) != state.view(other)


def test_r5_view_holds_no_hidden_fields(north_america):
    view = started(north_america, 2).view(0)
    fields = set(view._fields)
    assert not fields & {"deck", "hands", "ticket_deck", "rng", "pending"}
    assert len(view.hand) == 9 and len(view.card_counts) == 2


def test_r4_the_view_holds_my_pending_decision_as_the_engine_does(north_america):
    state = GameState(north_america, 2, seed=4)
    for seat in range(2):
        decision = state.view(seat).decision
        assert isinstance(decision, ChooseTickets) and decision == state.decision_for(seat)
        assert decision.setup and len(decision.offered) == 3 and decision.minimum == 2
    state.apply(state.legal_actions(0)[0], 0)
    assert state.view(0).decision is None  # chosen: nothing left to decide
    assert state.view(0).to_move is None  # R4: nobody is to move during setup


def test_r7_the_second_card_is_my_decision_only(north_america):
    state = started(north_america, 2)
    seat = state.current
    state.apply(DrawDeck())
    assert state.view(seat).decision == SecondCard(seat)
    assert state.view(1 - seat).decision is None


def test_view_is_a_snapshot(north_america):
    state = started(north_america, 2)
    seat = state.current
    view = state.view(seat)
    hand, deck_size, owners = view.hand, view.deck_size, view.owners
    state.apply(DrawDeck())
    state.apply(DrawDeck())
    give = state.board.route_index["Atlanta-Nashville"]
    state.take_route(seat, give)
    assert (view.hand, view.deck_size, view.owners) == (hand, deck_size, owners)
    fresh = state.view(seat)
    assert sum(fresh.hand) == sum(hand) + 2
    assert fresh.deck_size == deck_size - 2
    assert fresh.owners[give] == seat and owners[give] == -1


# ------------------------------------------------------------ what a view can reach


def _reachable(roots: list[object]) -> dict[int, object]:
    """Everything reachable from `roots` by references (`gc.get_referents`), and
    from every module-level value of `ttr_core` and `ttr_maps` (a cache a bot can
    look up with what its view holds, as `graph_for(view.board)` did). Classes,
    modules and code are not followed (they lead to every module); functions only
    to what they carry themselves (closures, defaults, a cache's store)."""
    import gc
    import sys
    import types

    skip = (type, types.ModuleType, types.CodeType, types.FrameType)
    seen: dict[int, object] = {}
    stack = list(roots)
    for name, module in list(sys.modules.items()):
        if name.split(".")[0] in ("ttr_core", "ttr_maps") and module is not None:
            stack += [v for v in vars(module).values() if not isinstance(v, skip)]
    while stack:
        item = stack.pop()
        if id(item) in seen or isinstance(item, skip):
            continue
        seen[id(item)] = item
        if isinstance(item, types.FunctionType):
            stack += [c.cell_contents for c in item.__closure__ or () if _filled(c)]
            stack += list(item.__defaults__ or ()) + list((item.__kwdefaults__ or {}).values())
            continue
        if isinstance(item, dict) and any(k == "__builtins__" for k in item):
            continue  # a module's namespace (reached through a method): its values are roots
        stack += gc.get_referents(item)
    return seen


def _filled(cell: object) -> bool:
    try:
        _ = cell.cell_contents  # type: ignore[attr-defined]
    except ValueError:
        return False
    return True


def _hidden_from(state: GameState, seat: int) -> tuple[set[int], set[frozenset[int]]]:
    """What `seat` must not reach: the objects holding other seats' cards and tickets,
    the deck's order (by identity), and the city pairs of tickets only others hold."""
    objects = {id(state), id(state.cards), id(state.cards.deck), id(state.hands)}
    objects |= {id(hand) for s, hand in enumerate(state.hands) if s != seat}
    objects |= {id(tickets) for s, tickets in enumerate(state.tickets) if s != seat}
    board = state.board
    mine = {
        frozenset((board.ticket_a[t], board.ticket_b[t]))
        for t in [*state.tickets[seat], *_offered(state, seat)]
    }
    pairs = {
        frozenset((board.ticket_a[t], board.ticket_b[t]))
        for s, held in enumerate(state.tickets)
        if s != seat
        for t in [*held, *_offered(state, s)]
    }
    return objects, pairs - mine


def _offered(state: GameState, seat: int) -> list[int]:
    decision = state.decision_for(seat)
    return list(getattr(decision, "offered", ()))


def _leaks(state: GameState, seat: int) -> list[str]:
    objects, pairs = _hidden_from(state, seat)
    found = []
    for item in _reachable([state.view(seat)]).values():
        if id(item) in objects:
            found.append(f"{type(item).__name__} of the game itself")
        elif isinstance(item, dict):
            for key in item:
                if (
                    isinstance(key, tuple)
                    and len(key) >= 2
                    and isinstance(key[0], int)
                    and isinstance(key[1], int)
                    and frozenset(key[:2]) in pairs
                ):
                    found.append(f"a memo keyed by another seat's ticket {key[:2]}")
    return found


def test_r5_d6_nothing_reachable_from_a_view_holds_another_seats_cards_or_tickets(
    north_america, europe
):
    """Bots of every kind play in this process (they share whatever the process
    shares); then everything a seat's view can reach, memos and module caches
    included, is searched for the other seats' hands and tickets."""
    from ttr_core.bots import make_bot
    from ttr_core.engine.loop import bot_seed, run

    for game_map, names in (
        (north_america, ["greedy", "one-step", "route-focus", "search:2"]),
        (europe, ["long-route", "destination-hungry", "greedy"]),
    ):
        state = GameState(game_map, len(names), seed=5)
        bots = [make_bot(name, bot_seed(5, seat)) for seat, name in enumerate(names)]
        run(state, [_Stopping(bot, state, 60) for bot in bots])
        assert len(state.history) == 60
        for seat in range(len(names)):
            assert _leaks(state, seat) == [], (game_map.id, seat)


class _Stopping:
    """A bot that stops the game after `actions` actions."""

    def __init__(self, bot, state, actions):
        self.bot, self.state, self.actions = bot, state, actions

    def act(self, view):
        from ttr_core.engine.loop import StopGame

        if len(self.state.history) >= self.actions:
            raise StopGame
        return self.bot.act(view)


@pytest.mark.slow  # 2-10 s; the default suite keeps the room's main test
def test_r5_d6_the_reachability_search_finds_a_planted_leak(north_america, monkeypatch):
    import ttr_core.bots.planning

    state = GameState(north_america, 3, seed=2)
    assert _leaks(state, 0) == []
    monkeypatch.setattr(ttr_core.bots.planning, "PLANTED", [state.hands], raising=False)
    # The hands of seats 1 and 2, and the list holding every hand.
    assert _leaks(state, 0) == ["list of the game itself"] * 3
    board, held = state.board, _offered(state, 1)[0]  # seat 1 is choosing (R4)
    memo = {(board.ticket_a[held], board.ticket_b[held], ()): 0}
    monkeypatch.setattr(ttr_core.bots.planning, "PLANTED", memo, raising=False)
    assert _leaks(state, 0) and "another seat's ticket" in _leaks(state, 0)[0]
