"""R8/D2: the market reset (`ttr_core.engine.cards.CardPiles`) ends for every market
size, locomotive limit and pile state, and resets exactly when a reset can help.

The oracle here searches every run of resets a state allows, every shuffle
outcome included, with the cards counted only as locomotive or not (all the
reset looks at): a reset can help when some run reaches a market holding fewer
than `limit` locomotives."""

from __future__ import annotations

import random

import pytest
from engine_positions import assert_cards_conserved, started, tiny_map
from hypothesis import given, settings
from hypothesis import strategies as st

from ttr_core.bots.random_bot import RandomBot
from ttr_core.engine.cards import LOCO, CardPiles, full_deck, shuffle
from ttr_core.engine.loop import bot_seed, play_game
from ttr_core.engine.positions import arrange
from ttr_core.engine.state import GameState
from ttr_maps.rules import BASE, MARKET_RESETS_IN_A_ROW, MARKET_SIZE_MAX

# ---------------------------------------------------------------- the oracle

#: (other cards, locomotives)
Counts = tuple[int, int]


def _reachable_good(deck: list[int], discard: list[int], market: list[int], limit: int) -> bool:
    """Whether some run of resets from this state turns up a market with fewer than
    `limit` locomotives (the market is full, or deck and discards are empty)."""
    size = len(market)
    bits = tuple(1 if card == LOCO else 0 for card in deck)  # top last
    start = ("known", bits, _counts(discard), _counts([c for c in market if c is not None]))
    seen, stack = set(), [start]
    while stack:
        state = stack.pop()
        if state in seen:
            continue
        seen.add(state)
        for after in _resets(state, size):
            if after[3][1] < limit:
                return True
            stack.append(after)
    return False


def _counts(cards: list[int]) -> Counts:
    locos = cards.count(LOCO)
    return len(cards) - locos, locos


def _resets(state: tuple, size: int) -> list[tuple]:
    """Every state one reset can lead to. A deck is `known` (its order, as bits) until
    the first shuffle, then `counts` (any order may come)."""
    kind, deck, (discard_other, discard_locos), (market_other, market_locos) = state
    pile = (discard_other + market_other, discard_locos + market_locos)  # the market discarded
    if kind == "known":
        drawn = deck[::-1][:size]
        rest = deck[: len(deck) - len(drawn)]
        turned = (drawn.count(0), drawn.count(1))
        if len(drawn) == size:
            if rest:
                return [("known", rest, pile, turned)]
            if sum(pile):  # the deck ran out on the last card: the pile is shuffled in
                return [("counts", pile, (0, 0), turned)]
            return [("known", (), (0, 0), turned)]
        return _from_shuffle(turned, size - len(drawn), pile)
    deck_other, deck_locos = deck
    if deck_other + deck_locos < size:
        return _from_shuffle(deck, size - deck_other - deck_locos, pile)
    after = []
    for other in range(size + 1):
        locos = size - other
        if other <= deck_other and locos <= deck_locos:
            rest = (deck_other - other, deck_locos - locos)
            if sum(rest) == 0 and sum(pile):
                after.append(("counts", pile, (0, 0), (other, locos)))
            else:
                after.append(("counts", rest, pile, (other, locos)))
    return after


def _from_shuffle(turned: Counts, needed: int, pile: Counts) -> list[tuple]:
    """The deck ran out with `needed` cards still to turn up: the pile is shuffled."""
    if sum(pile) <= needed:
        return [("counts", (0, 0), (0, 0), (turned[0] + pile[0], turned[1] + pile[1]))]
    after = []
    for other in range(needed + 1):
        locos = needed - other
        if other <= pile[0] and locos <= pile[1]:
            rest = (pile[0] - other, pile[1] - locos)
            after.append(("counts", rest, (0, 0), (turned[0] + other, turned[1] + locos)))
    return after


# ---------------------------------------------------------------- pile states


def _piles(
    deck: list[int], discard: list[int], market: list[int | None], limit: int, seed: int = 0
) -> CardPiles:
    piles = CardPiles(random.Random(seed), len(market), limit)
    piles.deck, piles.discard, piles.market = list(deck), list(discard), list(market)
    return piles


@st.composite
def pile_states(draw: st.DrawFn, max_cards: int = 40) -> tuple[CardPiles, int]:
    """A market of every size and limit that needs a reset, and the cards outside the
    hands split between deck and discards as a game leaves them: a market with an
    empty slot only when deck and discards are empty. Small pools (the ends of
    games, where the loop used to run forever) are drawn often."""
    size = draw(st.integers(1, MARKET_SIZE_MAX))
    limit = draw(st.integers(1, size))
    total = draw(st.integers(limit, max_cards))
    loco_share = draw(st.floats(0.0, 1.0))
    rng = random.Random(draw(st.integers(0, 2**32)))
    cards = full_deck()
    locos = [c for c in cards if c == LOCO]
    others = [c for c in cards if c != LOCO]
    rng.shuffle(others)
    chosen = []
    for _ in range(total):
        pool = locos if (rng.random() < loco_share and locos) or not others else others
        chosen.append(pool.pop())
    # The market holds `limit` locomotives or more: a reset is due.
    chosen.sort(key=lambda card: card != LOCO)
    face_up = min(size, total)
    if chosen[:face_up].count(LOCO) < limit:
        return _piles([], [], [LOCO] * limit + [None] * (size - limit), limit), size
    market: list[int | None] = chosen[:face_up] + [None] * (size - face_up)
    rest = chosen[face_up:]
    rng.shuffle(rest)
    rng.shuffle(market)
    in_deck = draw(st.integers(0, len(rest)))
    if None in market:
        return _piles([], [], market, limit), size
    return _piles(rest[:in_deck], rest[in_deck:], market, limit), size


# ---------------------------------------------------------------- tests


@settings(max_examples=600, deadline=None)
@given(pile_states())
def test_d2_reset_can_help_is_exact_for_every_market_size_and_limit(case):
    piles, _ = case
    market = [c for c in piles.market if c is not None]
    expected = _reachable_good(piles.deck, piles.discard, market, piles.limit)
    assert piles.reset_can_help() == expected


@settings(max_examples=400, deadline=None)
@given(pile_states(max_cards=110), st.integers(0, 2**32))
def test_d2_reset_loop_ends_on_every_pile_state(case, seed):
    piles, size = case
    piles.rng = random.Random(seed)
    before = _all_cards(piles)
    resets = piles.reset_market_while_needed()
    assert 0 <= resets <= MARKET_RESETS_IN_A_ROW
    assert _all_cards(piles) == before  # nothing lost or doubled
    assert len(piles.market) == size
    # It stopped for a reason: a good market, no reset could help, or the bound.
    good = piles.market.count(LOCO) < piles.limit
    assert good or not piles.reset_can_help() or resets == MARKET_RESETS_IN_A_ROW


def _all_cards(piles: CardPiles) -> list[int]:
    return sorted(piles.deck + piles.discard + [c for c in piles.market if c is not None])


class _NoShuffle(random.Random):
    """A random source whose shuffles leave the cards as they are."""

    def shuffle(self, x, random=None):
        return None


def test_d2_the_bound_stops_resets_whatever_the_shuffles_do():
    # Five cards outside the hands for a market of four: a reset can help (two
    # other cards exist for a market with fewer than 3 locomotives), but shuffles
    # that never move a card turn the same market up every time.
    market = [LOCO, LOCO, LOCO, 0]
    piles = _piles([], [1], market, 3)
    piles.rng = _NoShuffle(0)
    assert piles.reset_can_help()
    assert piles.reset_market_while_needed() == MARKET_RESETS_IN_A_ROW


def test_d2_deck_and_market_that_only_swap_are_not_reset():
    # The hang of issue 40: one market's worth left in the deck, no discards, and
    # both groups hold the limit of locomotives: a reset would swap them for ever.
    for size, limit in ((5, 3), (5, 1), (8, 1), (8, 3), (2, 2)):
        deck = [LOCO] * limit + [0] * (size - limit)
        market: list[int | None] = [1] * (size - limit) + [LOCO] * limit
        piles = _piles(deck, [], market, limit)
        state_before = piles.rng.getstate()
        assert not piles.reset_can_help()
        assert piles.reset_market_while_needed() == 0
        assert piles.market == market and piles.deck == deck
        assert piles.rng.getstate() == state_before  # no shuffle spent on it


def test_d2_a_good_market_further_down_the_deck_is_reached():
    # The next market from the deck is no better, the one after it is: reset twice.
    deck = [0, 1, 2, 3, 4, LOCO, LOCO, LOCO, 5, 6]  # top last
    piles = _piles(deck, [7] * 20, [LOCO, LOCO, LOCO, 0, 1], 3)
    assert piles.reset_market_while_needed() == 2
    assert sorted(piles.market) == [0, 1, 2, 3, 4]


def test_d2_swap_state_in_a_game_keeps_the_locomotives_face_up():
    state = started(tiny_map())
    seat = state.current
    piles = state.cards
    everything = piles.deck + piles.discard + [c for c in piles.market if c is not None]
    deck = [LOCO, LOCO, LOCO, 0, 1]
    market = [LOCO, LOCO, LOCO, 2, 3]
    for card in deck + market:
        everything.remove(card)
    hand = state.hands[seat][:]
    for card in everything:
        hand[card] += 1
    arrange(state, hands={seat: hand}, deck=deck, discard=[], market=market)
    state.apply(state.legal_actions()[0], seat)  # whatever comes next, it ends
    assert_cards_conserved(state)


def test_d2_variant_games_that_looped_forever_end():
    # Issue 40: `ttr play iran --bots random x5 --seed 1 --set market_locomotive_limit=1
    # --set wagons=200` never ended, nor north_america with `market_size=8` (seed 2).
    from ttr_maps import load_map

    for map_id, changes, seed in (
        ("iran", {"market_locomotive_limit": "1", "wagons": "200"}, 1),
        ("north_america", {"market_size": "8"}, 2),
    ):
        rules = BASE.with_overrides(changes)
        bots = [RandomBot(bot_seed(seed, seat)) for seat in range(5)]
        state = play_game(load_map(map_id), bots, seed, rules)
        assert state.is_over
        assert isinstance(state, GameState)


@pytest.mark.parametrize("seed", [0, 7, 2**40 + 3])
def test_r3_shuffle_orders_as_random_shuffle_does(seed: int) -> None:
    """R3's shuffles go through `cards.shuffle` (issue 39): the same order as
    `random.Random.shuffle` and the random source left in the same state, for lists
    of every length from 0 to 130 (the deck's 110 and powers of two among them), so
    deals and reshuffles keep their records."""
    ours, reference = random.Random(seed), random.Random(seed)
    for length in range(131):
        mine, theirs = list(range(length)), list(range(length))
        shuffle(ours, mine)
        reference.shuffle(theirs)
        assert mine == theirs
    assert ours.getstate() == reference.getstate()
