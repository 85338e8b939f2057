"""The bookkeeping (`ttr_core.engine.books`): ticket completion (R13), the turn
order and the final round (R14, D1), copies, and the caches kept by its
operations."""

from __future__ import annotations

from collections import deque

from engine_positions import play, stall, started, tiny_map

from ttr_core.engine.actions import DrawDeck
from ttr_core.engine.books import FIELDS, Books, copy_random_state
from ttr_core.engine.enums import Status
from ttr_core.engine.loop import SampledWorld
from ttr_core.engine.positions import arrange, give_hand, give_tickets, ticket_index
from ttr_core.engine.state import GameState


# ----------------------------------------------------------------------- R13
def test_r13_ticket_complete_through_any_chain_of_own_routes():
    state = started(tiny_map())
    seat = state.current
    other = 1 - seat
    a_d = ticket_index(state, "A", "D")
    give_tickets(state, seat, [a_d])
    route = state.board.route_index
    for name, owner in (("A-B/1", seat), ("B-C", seat), ("C-D", other)):
        state.take_route(owner, route[name])
    assert not state.is_ticket_complete(seat, a_d)  # C-D belongs to the other player
    assert not state.view(seat).tickets[0].completed
    state.take_route(seat, route["B-E"])
    assert not state.is_ticket_complete(seat, a_d)
    state.take_route(seat, route["D-E"])  # A-B-E-D: another chain of my own routes
    assert state.is_ticket_complete(seat, a_d)
    assert state.view(seat).tickets[0].completed  # the view's cache followed the claim


# ------------------------------------------------------------------- R14, D1
def test_r14_d1_final_round_each_other_player_once_then_the_trigger_once_more():
    state = started(tiny_map(), 3)
    trigger = state.current
    arrange(state, wagons={trigger: 4})
    give_hand(state, trigger, red=2)
    play(state, "claim A-B/1 with red:2")  # ends the turn with 2 wagons
    assert state.final_queue == [(trigger + 1) % 3, (trigger + 2) % 3, trigger]
    order = []
    while not state.is_over:
        order.append(state.current)
        play(state, "draw deck")
        if not state.is_over and state.decision_for(state.current):
            play(state, "draw deck")
    assert order == [(trigger + 1) % 3, (trigger + 2) % 3, trigger]
    assert state.end_reason == "final round"


def test_d1_final_round_is_triggered_only_once():
    state = started(tiny_map(), 2)
    trigger = state.current
    arrange(state, wagons={trigger: 3})
    give_hand(state, trigger, red=2)
    play(state, "claim A-B/1 with red:2")
    other = state.current
    arrange(state, wagons={other: 2})
    give_hand(state, other, green=1)
    play(state, "claim C-D with green:1")  # also low, but the round is already on
    assert state.final_queue == [trigger]
    assert state.current == trigger


def test_d1_a_pass_counts_as_the_final_turn():
    state = started(tiny_map(), 2)
    trigger = state.current
    arrange(state, wagons={trigger: 3})
    give_hand(state, trigger, red=2)
    play(state, "claim A-B/1 with red:2")
    stall(state)
    play(state, "pass")
    play(state, "pass")
    assert state.is_over


def test_d1_d5_final_round_with_a_resignation_inside_it():
    state = started(tiny_map(), 4)
    trigger = state.current
    arrange(state, wagons={trigger: 3})
    give_hand(state, trigger, red=2)
    play(state, "claim A-B/1 with red:2")
    nxt, after = (trigger + 1) % 4, (trigger + 2) % 4
    play(state, "resign", seat=after)  # a seat that has not yet played its final turn
    assert state.final_queue == [nxt, (trigger + 3) % 4, trigger]
    play(state, "resign", seat=nxt)  # the seat to move resigns: its turn is over
    assert state.current == (trigger + 3) % 4
    play(state, "tickets")
    play(state, "keep 0")
    assert state.current == trigger
    play(state, "tickets")
    play(state, "keep 0")
    assert state.is_over and state.end_reason == "final round"


# ------------------------------------------------------------ copies, caches
def test_clone_is_independent(north_america):
    state = started(north_america, 2)
    before = (state.cards.deck[:], [h[:] for h in state.hands], state.rng.getstate())
    twin = state.clone()
    twin.apply(DrawDeck())
    twin.apply(DrawDeck())
    assert (state.cards.deck, state.hands, state.rng.getstate()) == before
    assert len(twin.history) == len(state.history) + 2
    again = state.clone()  # the same random source: the same cards come next
    again.apply(DrawDeck())
    again.apply(DrawDeck())
    assert again.hands == twin.hands


def test_clone_copies_every_container_and_shares_only_values(north_america):
    """No field of a copy is a list, dict, set or deque of the original (nor an
    item of a per-seat list): whatever fields `Books` grows (they are `FIELDS`, see
    the next test), a copy is safe."""
    state = started(north_america, 3)
    state.view(0), state.legal_actions()  # fill the caches
    twin = state.clone()
    assert type(twin) is type(state)
    mutable = (list, dict, set, deque)
    for name in FIELDS:
        value, copied = getattr(state, name), getattr(twin, name)
        if isinstance(value, mutable):
            assert copied is not value, name
            assert name == "networks" or copied == value, name
            if isinstance(value, list):
                for item, twin_item in zip(value, copied, strict=True):
                    if isinstance(item, mutable):
                        assert twin_item is not item, name
    for mine, theirs in zip(state.networks, twin.networks, strict=True):
        assert mine is not theirs and mine.parent == theirs.parent
    assert twin.cards is not state.cards and twin.rng is not state.rng
    assert twin.board is state.board and twin.rule_set is state.rule_set


def test_a_copied_random_source_draws_what_the_original_draws() -> None:
    """A copy's random source (`copy_random_state`, one per playout) goes on exactly
    as the original: the generator's state and the Gaussian spare (left by an odd
    number of `gauss` draws); a subclass of `Random` copies itself."""
    import random

    class Counting(random.Random):
        draws = 0

        def getstate(self):  # type: ignore[no-untyped-def]
            Counting.draws += 1
            return super().getstate()

    for source in (random.Random(11), Counting(11)):
        source.random()
        source.gauss(0.0, 1.0)  # leaves a spare
        target = random.Random.__new__(random.Random)
        before = Counting.draws
        copy_random_state(source, target)
        assert Counting.draws - before == (type(source) is Counting)  # its own method
        assert target.getstate() == source.getstate()
        assert [target.gauss(0, 1) for _ in range(3)] == [source.gauss(0, 1) for _ in range(3)]
        assert [target.random() for _ in range(5)] == [source.random() for _ in range(5)]


def test_fields_name_every_field_of_the_books(north_america):
    """`FIELDS` (what a copy copies, what the compiled build declares) is every
    field a state has: from the source, its attributes are exactly these; compiled,
    each is declared on the type, and a sampled world (a Python subclass, with a
    dictionary) holds nothing outside them."""
    state = started(north_america, 2)
    world = SampledWorld(north_america, 2, 5)
    if hasattr(state, "__dict__"):  # the source
        assert list(vars(state)) == list(FIELDS)
    else:  # the compiled build: declared fields, no dictionary
        assert all(hasattr(type(state), name) for name in FIELDS)
    assert not set(vars(world)) - set(FIELDS)
    twin = world.clone()  # a Python subclass of the books is copied as itself
    assert type(twin) is SampledWorld and twin.hands == world.hands and twin.seed == world.seed


def test_views_follow_every_change_the_operations_make(north_america):
    """The caches (public figures, open routes, ticket completion) are kept by the
    operations that change their inputs: a view after each equals a view of a
    fresh copy whose caches were rebuilt from the fields (`refresh`)."""
    state = started(north_america, 3)
    board = state.board

    def fresh_view(seat: int):
        twin = state.clone()
        twin.refresh()
        return twin.view(seat)

    for seat in range(3):
        state.view(seat)  # fill every cache first
    route = board.route_index["Atlanta-Nashville"]
    state.take_route(0, route)
    state.add_tickets(1, state.deal_tickets(1))
    state.set_status(2, Status.RESIGNED)
    for seat in range(3):
        assert state.view(seat) == fresh_view(seat)
        assert tuple(state.legal_facts(seat).open_groups) == fresh_view(seat).open_groups


def test_a_game_state_is_its_books():
    assert issubclass(GameState, Books)
