"""The search bot: decides from its view alone (R5, D6), legal on both rule sets,
reproducible for a seed with a playout budget; its budget syntax."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator

import pytest
from engine_positions import Watched
from typer.testing import CliRunner

from ttr_core.bots import check_bot_name, make_bot
from ttr_core.bots.search import (
    MIN_WORLDS,
    RACE_SHARE,
    SETTLE_WORLDS,
    Budget,
    SearchBot,
    cannot_overrule,
    parse_budget,
)
from ttr_core.cli import app
from ttr_core.engine.cards import CARD_KINDS
from ttr_core.engine.decisions import SecondCard
from ttr_core.engine.loop import bot_seed, play_game
from ttr_core.engine.positions import arrange
from ttr_core.engine.state import GameState
from ttr_maps import load_map

SMALL = "search:6"


def with_other_hidden_information(state: GameState, seat: int, rng: random.Random) -> GameState:
    """A copy where what `seat` cannot see differs: the other hands and the deck
    reshuffled together (same counts), the others' tickets swapped with the deck's."""
    twin = state.clone()
    others = [s for s in range(state.num_players) if s != seat]
    pool = list(twin.cards.deck)
    for other in others:
        pool += [card for card, count in enumerate(twin.hands[other]) for _ in range(count)]
    rng.shuffle(pool)
    hands = {}
    for other in others:
        size = sum(twin.hands[other])
        hand = [0] * CARD_KINDS
        for card in pool[:size]:
            hand[card] += 1
        del pool[:size]
        hands[other] = hand
    deck = list(twin.ticket_deck)
    tickets = {}
    for other in others:
        held = tickets[other] = list(twin.tickets[other])
        for position, ticket in enumerate(held):
            if deck and not twin.board.ticket_long[ticket]:  # E4: long ones stay out
                held[position] = deck.pop(0)
                deck.append(ticket)
    rng.shuffle(deck)
    arrange(twin, hands=hands, deck=pool, tickets=tickets, ticket_deck=deck)
    return twin


def greedy_positions(map_id: str, players: int, seed: int, every: int) -> Iterator[GameState]:
    """Every `every`-th position of a greedy game where the seat to move plays."""
    state = GameState(load_map(map_id), players, seed)
    bots = [make_bot("greedy", s) for s in range(players)]
    step = 0
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        step += 1
        if state.phase == "playing" and step % every == 0:
            yield state
        state.apply(bots[seat].act(state.view(seat)), seat)


@pytest.mark.parametrize(("map_id", "players"), [("north_america", 3), ("europe", 2)])
def test_r5_d6_search_decides_from_the_view_alone(map_id: str, players: int) -> None:
    """Two states that differ only in hidden information (other hands and
    tickets, deck order): with the same seed the bot chooses the same action."""
    rng = random.Random(4)
    compared = 0
    for state in greedy_positions(map_id, players, seed=2, every=11):
        seat = state.to_move
        assert seat is not None
        twin = with_other_hidden_information(state, seat, rng)
        assert twin.view(seat) == state.view(seat)
        assert twin.hands != state.hands and twin.cards.deck != state.cards.deck
        first = make_bot(SMALL, seed=compared).act(state.view(seat))
        second = make_bot(SMALL, seed=compared).act(twin.view(seat))
        assert first == second
        compared += 1
    assert compared >= 8


def test_search_is_reproducible_with_a_playout_budget() -> None:
    """The same seed and the same game give the same actions, move after move."""
    histories = []
    for _ in range(2):
        state = GameState(load_map("north_america"), 2, 3)
        bots = [make_bot(SMALL, bot_seed(3, 0)), make_bot("greedy", bot_seed(3, 1))]
        while len(state.history) < 30:
            seat = state.to_move
            assert seat is not None
            state.apply(bots[seat].act(state.view(seat)), seat)
        histories.append(state.history)
    assert histories[0] == histories[1]


@pytest.mark.parametrize("map_id", ["europe", "iran"])
def test_search_answers_legally_on_both_rule_sets(map_id: str) -> None:
    """Tunnels, ferries, stations and long tickets (E1-E4) on europe; base rules
    on iran: the bot's answer is listed by its view, in setup and in play."""
    state = GameState(load_map(map_id), 3, 6)
    setup_view = state.view(state.to_move or 0)
    assert make_bot(SMALL, 1).act(setup_view) in setup_view.legal_actions()
    for position in greedy_positions(map_id, 3, seed=6, every=17):
        view = position.view(position.to_move or 0)
        assert make_bot(SMALL, 1).act(view) in view.legal_actions()


@pytest.mark.slow
@pytest.mark.parametrize("map_id", ["europe", "iran"])
def test_search_plays_whole_legal_games_on_both_rule_sets(map_id: str) -> None:
    bots = [Watched(make_bot("search:3", 5)), Watched(make_bot("one-step", 6))]
    state = play_game(load_map(map_id), bots, 9)  # type: ignore[arg-type]
    assert state.is_over
    assert bots[0].calls > 20


def test_candidates_are_legal_and_keep_the_heuristics_choices() -> None:
    game_map = load_map("north_america")
    state = GameState(game_map, 2, 12)
    bots = [make_bot("greedy", s) for s in range(2)]
    # One search bot a seat, as at a table: its greedy plan is its seat's.
    searchers = [SearchBot(1, Budget(playouts=4)) for _ in range(2)]
    for _ in range(60):
        seat = state.to_move
        assert seat is not None
        view = state.view(seat)
        bot = searchers[seat]
        candidates = bot.candidate_actions(view)
        legal = view.legal_actions()
        assert candidates and all(c in legal for c in candidates)
        assert len(candidates) == len(set(candidates))
        if isinstance(view.decision, SecondCard):  # R7: not searched, the one-step choice
            assert candidates == [bot._one_step.act(view)]
        else:
            assert bots[seat].act(view) in candidates
        state.apply(bots[seat].act(view), seat)


def test_budget_syntax() -> None:
    assert parse_budget("400") == Budget(playouts=400)
    assert parse_budget("0.5s") == Budget(playouts=None, seconds=0.5)
    assert parse_budget("200ms") == Budget(playouts=None, seconds=0.2)
    for bad in ("0", "-3", "abc", "1.5", "0s", "nans", "2h"):
        with pytest.raises(ValueError, match="search budget"):
            parse_budget(bad)
    check_bot_name("search:400")
    for bad_name in ("greedy:3", "searching", "search:fast"):
        with pytest.raises(ValueError):
            check_bot_name(bad_name)
    assert make_bot("search:0.5s", 1).name == "search:0.5s"
    assert make_bot("search", 1).budget == Budget()


def test_a_bad_search_budget_is_a_usage_error_in_the_cli(tmp_path) -> None:
    runner = CliRunner()
    for command in (
        ["simulate", "north_america", "--bots", "search:0", "--out", str(tmp_path / "o")],
        ["play", "north_america", "--bots", "search:x"],
    ):
        result = runner.invoke(app, command)
        assert result.exit_code == 2, result.output
        assert "search budget" in result.output
    assert not (tmp_path / "o").exists()


def _searchable_view():  # type: ignore[no-untyped-def]
    """A position in play where the bot has several candidates."""
    for state in greedy_positions("north_america", 2, seed=3, every=7):
        view = state.view(state.to_move or 0)
        if view.decision is None and len(SearchBot(1).candidate_actions(view)) >= 3:
            return view
    raise AssertionError("no position with three candidates")


def test_search_plays_a_candidate_that_beats_the_one_step_choice_in_fresh_worlds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    view = _searchable_view()
    bot = SearchBot(1, Budget(playouts=60))
    candidates = bot.candidate_actions(view)
    better = candidates[2]

    def playout(world, players, seat, action):  # type: ignore[no-untyped-def]
        return 5.0 if action == better else 0.0

    monkeypatch.setattr(bot, "playout", playout)
    assert bot.search(view, candidates, random.Random(1)) == better


def test_search_keeps_the_one_step_choice_when_the_lead_was_luck(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A candidate that leads the race (its first 60 % of the playouts) but not in
    the fresh worlds after it is not played: the anchor is."""
    view = _searchable_view()
    bot = SearchBot(1, Budget(playouts=60))
    candidates = bot.candidate_actions(view)
    lucky = candidates[2]
    calls = []

    def playout(world, players, seat, action):  # type: ignore[no-untyped-def]
        calls.append(action)
        in_race = len(calls) <= 36
        if action == lucky:
            return 20.0 if in_race else -1.0
        return 0.0

    monkeypatch.setattr(bot, "playout", playout)
    assert bot.search(view, candidates, random.Random(1)) == candidates[0]
    assert len(calls) > 36  # the fresh worlds were played
    assert set(calls[36:]) == {lucky, candidates[0]}


def test_cannot_overrule_asks_for_the_switch_margin_within_the_noise() -> None:
    anchor = [10.0, 12.0, 9.0, 11.0]
    assert cannot_overrule(anchor, anchor)  # level: never SWITCH_MARGIN ahead
    assert not cannot_overrule([x + 3 for x in anchor], anchor)  # 3 ahead, no noise
    wide = [30.0, -6.0, 25.0, -5.0]  # 0 ahead on average, but a wide spread: maybe
    assert not cannot_overrule(wide, anchor)
    assert not cannot_overrule([0.0], [5.0])  # one world says nothing of the spread


def test_the_race_ends_when_no_candidate_can_overrule_the_one_step_choice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Candidates level with the anchor in every world are dropped after
    `MIN_WORLDS` worlds, and the rest of the budget is not spent."""
    view = _searchable_view()
    bot = SearchBot(1, Budget(playouts=200))
    candidates = bot.candidate_actions(view)
    calls = []
    worlds: dict[int, int] = {}

    def playout(world, players, seat, action):  # type: ignore[no-untyped-def]
        calls.append(action)
        return float(worlds.setdefault(id(world), len(worlds)) % 5)  # worlds differ

    monkeypatch.setattr(bot, "playout", playout)
    assert bot.search(view, candidates, random.Random(1)) == candidates[0]
    assert len(calls) == MIN_WORLDS * len(candidates)


def test_the_check_in_fresh_worlds_stops_once_the_answer_is_plain(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A candidate 5 points better in every world is played after `SETTLE_WORLDS`
    fresh worlds, not after the whole remaining budget."""
    view = _searchable_view()
    bot = SearchBot(1, Budget(playouts=200))
    candidates = bot.candidate_actions(view)
    better = candidates[2]
    calls = []

    def playout(world, players, seat, action):  # type: ignore[no-untyped-def]
        calls.append(action)
        return 5.0 if action == better else 0.0

    monkeypatch.setattr(bot, "playout", playout)
    assert bot.search(view, candidates, random.Random(1)) == better
    race = math.ceil(200 * RACE_SHARE)
    assert race - 2 < len(calls) - 2 * SETTLE_WORLDS <= race
    assert set(calls[-2 * SETTLE_WORLDS :]) == {better, candidates[0]}
