"""The table's screen (`ttr_core.table.screen`) at 80×24 and 160×50: what it
shows, asserted on the text, and that it always fits."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from rich.cells import cell_len

from ttr_core.bots import make_bot
from ttr_core.engine.cards import CARD_NAMES
from ttr_core.engine.state import GameState
from ttr_core.engine.view import PlayerView
from ttr_core.table.journal import Journal, Observed
from ttr_core.table.screen import Screen, render_screen
from ttr_maps import load_map

NAMES = ["ana", "greedy", "one-step", "route-focus", "long-route"]


def played(map_id: str, players: int, seed: int, steps: int) -> tuple[GameState, Journal]:
    """A game between bots, `steps` actions in, with its journal."""
    state = GameState(load_map(map_id), players, seed)
    journal = Journal()
    bots = [Observed(make_bot(NAMES[1 + s % 4], s), journal) for s in range(players)]
    for _ in range(steps):
        seat = state.to_move
        assert seat is not None and not state.is_over
        state.apply(bots[seat].act(state.view(seat)), seat)
    return state, journal


def text_of(view: PlayerView, screen: Screen, width: int, height: int) -> tuple[list[str], str]:
    lines = render_screen(view, screen, width, height)
    plain = [line.plain for line in lines]
    assert len(plain) <= height - 1, "the last line is the prompt's"
    assert all(cell_len(line) <= width for line in plain), max(plain, key=cell_len)
    return plain, "\n".join(plain)


def _hand_words(view: PlayerView) -> list[str]:
    return [name[:3] for name in view.hand_by_color()]


@pytest.mark.parametrize(("width", "height"), [(80, 24), (160, 50)])
def test_r5_the_screen_shows_hand_market_tickets_and_seats(width: int, height: int) -> None:
    state, journal = played("north_america", 3, 4, 40)
    seat = state.to_move
    assert seat is not None
    view = state.view(seat)
    events = journal.since(0, view)[-4:]
    _, text = text_of(view, Screen(NAMES[:3], events, ["a message"]), width, height)
    assert "North America · seat" in text
    for word in _hand_words(view):
        assert word in text
    market = [CARD_NAMES[c] for c in view.market if c is not None]
    assert "Market   1 " + market[0] in text
    for ticket in view.tickets:
        assert f"{ticket.ticket.a}–{ticket.ticket.b} {ticket.ticket.value}" in text
    assert "wagons cards tickets points" in text
    for other in range(3):
        assert f"{view.wagons[other]:>6} {view.card_counts[other]:>5}" in text
    assert "Since your last turn" in text
    assert text.endswith("a message")


def test_the_wide_screen_adds_the_routes_to_claim_in_a_second_column() -> None:
    state, journal = played("north_america", 3, 4, 40)
    seat = state.to_move
    assert seat is not None
    view = state.view(seat)
    lines, text = text_of(view, Screen(NAMES[:3], journal.since(0, view)), 160, 50)
    assert "You can claim" in text
    assert any(" │ " in line and "wagons cards" in line for line in lines)
    narrow = text_of(view, Screen(NAMES[:3]), 80, 24)[1]
    assert "You can claim" not in narrow


def test_r7_others_moves_show_colours_taken_and_blind_draws() -> None:
    _, journal = played("north_america", 3, 4, 40)
    texts = [event.text for event in journal.events]
    assert any(t.startswith("took ") and t.split()[1] in CARD_NAMES for t in texts)
    assert "drew from the deck" in texts
    claims = [t for t in texts if t.startswith("claimed ")]
    assert claims and all(" with " in t for t in claims)


def test_r4_the_ticket_choice_lists_the_offer_with_wagons_needed() -> None:
    state = GameState(load_map("north_america"), 3, 1)
    view = state.view(0)
    _, text = text_of(view, Screen(NAMES[:3]), 80, 24)
    assert "Choose tickets: keep at least 2" in text
    for number, index in enumerate(view.decision.offered, start=1):
        ticket = view.map.tickets[index]
        assert f"  {number}  {ticket.a}–{ticket.b} {ticket.value} · needs " in text


def test_a_crowded_table_still_fits_80x24_with_hand_market_and_tickets() -> None:
    """Five seats, many tickets, a long journal: the hand, the market and the
    tickets stay; the seats and the journal give way."""
    state, journal = played("north_america", 5, 14, 250)  # seat to move holds 3 tickets
    seat = state.to_move
    assert seat is not None
    view = state.view(seat)
    assert len(view.tickets) >= 3
    events = journal.since(0, view)
    _, text = text_of(view, Screen(NAMES, events, ["message one", "message two"]), 80, 24)
    assert "Hand " in text and "Market " in text and "Tickets " in text
    for seat in range(5):
        assert f" {seat} {NAMES[seat]}" in text
    assert "Since your last turn (latest)" in text  # the oldest turns gave way
    assert events[-1].text in text
    assert text.endswith("message one\nmessage two")


@pytest.mark.parametrize(("width", "height"), [(40, 12), (60, 15), (1, 1)])
def test_small_terminals_get_the_smallest_screen_without_a_crash(width: int, height: int) -> None:
    state, journal = played("north_america", 5, 9, 250)
    seat = state.to_move
    assert seat is not None
    view = state.view(seat)
    lines = render_screen(view, Screen(NAMES, journal.since(0, view), ["a message"]), width, height)
    assert len(lines) <= max(height, 12) - 1
    assert all(cell_len(line.plain) <= max(width, 40) for line in lines)
    assert any(line.plain.startswith("Hand ") for line in lines)


def test_r14_the_final_round_has_a_banner() -> None:
    state, _ = played("north_america", 2, 3, 1)
    view = state.view(0)._replace(final_round=True)
    _, text = text_of(view, Screen(NAMES[:2]), 80, 24)
    assert "FINAL ROUND: this is your last turn" in text


def test_e1_e2_e4_europe_shows_stations_tunnel_and_long_tickets() -> None:
    from ttr_core.engine.actions import Payment
    from ttr_core.engine.decisions import TunnelPayment

    state, _ = played("europe", 3, 2, 30)
    seat = state.to_move
    assert seat is not None
    view = state.view(seat)
    route = view.board.route_index["München-Wien"]
    tunnel = TunnelPayment(seat, route, Payment("red", 2, 0), (0, 8, 4), 2)
    view = view._replace(decision=tunnel, tunnel=tunnel)
    _, text = text_of(view, Screen(NAMES[:3]), 80, 24)
    assert "Tunnel München–Wien: you laid red 2" in text
    assert "turned up red, loco, blue: 2 more red or loco to pay (E2)" in text
    assert "Stations 3 left · next costs 1 card(s)" in text
    assert "stations points" in text
    setup = GameState(load_map("europe"), 3, 2).view(0)
    assert "[long]" in text_of(setup, Screen(NAMES[:3]), 80, 24)[1]


def test_names_from_people_and_maps_are_shown_without_control_characters() -> None:
    state, _ = played("north_america", 2, 3, 1)
    names: Sequence[str] = ["\x1b[31mred\x1b[0m", "[bold]b[/bold]"]
    _, text = text_of(state.view(0), Screen(names), 80, 24)
    assert "\x1b" not in text
    assert "[bold]b[/bold]" in text  # shown as typed, never read as markup


def test_r13_ticket_needs_are_the_wagons_of_the_cheapest_completion() -> None:
    from ttr_core.bots.planning import graph_for
    from ttr_core.table.progress import claimable_routes, ticket_needs, ticket_routes

    state = GameState(load_map("north_america"), 2, 3)
    for seat in range(2):
        state.apply(state.legal_actions(seat)[-1], seat)  # keep every ticket offered
    seat = state.to_move
    assert seat is not None
    view = state.view(seat)._replace(hand=(9,) * 9)  # can pay for any route
    graph = graph_for(view.board)
    board = view.board
    assert ticket_needs(view) == [
        graph.distance[board.ticket_a[t.index]][board.ticket_b[t.index]] for t in view.tickets
    ]
    wanted = ticket_routes(view)
    offers = claimable_routes(view)
    marked = [o.for_ticket for o in offers]
    assert any(marked) and marked == sorted(marked, reverse=True)  # ticket routes first
    assert {o.route.index for o in offers if o.for_ticket} == wanted
    assert offers[0].line(view).startswith("* ")
