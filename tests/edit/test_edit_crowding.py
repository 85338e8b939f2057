"""The Numbers panel's crowding counts (ttr_core.edit.crowding): counted in play in
one background thread, a newer text's count dropping an older one not done."""

from __future__ import annotations

from ttr_core.edit.crowding import CrowdingCounts
from ttr_core.playtest.crowding import played_deck
from ttr_core.playtest.plan import PlayedMap
from ttr_maps import load_map
from ttr_maps.analysis.tickets import TicketBoard


def test_a_newer_text_drops_the_older_count_and_a_board_keeps_its_own() -> None:
    iran = load_map("iran")
    counts = CrowdingCounts()
    board = counts.ask(("board", "iran", 3), iran, 3, 3, edited=False)
    older = counts.ask(("text", 1, 3), iran, 3, 3)
    newer = counts.ask(("text", 2, 3), iran, 3, 3)
    counts.wait(120)
    assert older.dropped.is_set() and older.state != "done" and older.result is None
    assert board.state == newer.state == "done"
    # Each is the count `ttr tickets` makes: the same games, the same number.
    expected = played_deck(PlayedMap(iran, iran.id), TicketBoard(iran), 3, 3)
    assert newer.result == board.result == expected
    assert newer.payload()["games"] == expected.games >= 3
    # Asked again, a count done is found, not played again; a dropped one is asked anew.
    assert counts.ask(("text", 2, 3), iran, 3, 3) is newer
    again = counts.ask(("text", 1, 3), iran, 3, 3)
    assert again is not older
    counts.wait(120)
    assert again.state == "done" and again.result == expected
