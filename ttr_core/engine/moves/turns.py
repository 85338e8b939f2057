"""R6, D5: the actions about the turn itself, applied: passing when nothing else
is possible, and leaving the game (resigning, or being removed by the host). The
turn order they change (R6, R14, D1) is kept by `Books.end_turn`; `pass` is listed
by `ttr_core.engine.legal.turn_actions` (only when nothing else is), `resign` on
request.
"""

from __future__ import annotations

from ttr_core.engine.actions import Pass, Remove, Resign
from ttr_core.engine.books import Books
from ttr_core.engine.enums import EndReason, Phase, Status
from ttr_core.engine.errors import IllegalAction
from ttr_core.engine.legal import legal_actions
from ttr_core.engine.moves.tickets import end_setup_if_done


def pass_turn(books: Books, seat: int, action: Pass) -> None:
    """R6: a pass, only when the turn offers nothing else; it ends the turn."""
    possible = legal_actions(books.legal_facts(seat))
    if possible and not isinstance(possible[0], Pass):
        raise IllegalAction(
            "R6", f"you can still act (e.g. '{possible[0]}'); pass is for when you cannot"
        )
    books.end_turn(seat, passed=True)


def resign(books: Books, seat: int, action: Resign) -> None:
    """D5: a player may resign at any moment."""
    retire(books, seat, Status.RESIGNED)


def remove(books: Books, action: Remove) -> None:
    """D5: the host may remove a player at any moment."""
    retire(books, action.seat, Status.REMOVED)


def retire(books: Books, seat: int, status: Status) -> None:
    """D5: the seat becomes inactive. Its hand goes to the discard pile, its routes
    stay on the board, what its pending decision held goes back. The game ends when
    one active player is left, or when the others have all passed; a seat that was
    to play hands the turn on."""
    books.set_status(seat, status)
    books.discard_hand(seat)
    decision = books.decision_for(seat)
    if decision is not None:
        books.pending.remove(decision)
        books.abandon(decision)
    books.passed.discard(seat)
    was_current = books.phase == Phase.PLAYING and seat == books.current
    queue = books.final_queue
    if queue is not None and seat in queue:
        queue.remove(seat)
    if len(books.active_seats()) <= 1:
        books.finish(EndReason.ONE_LEFT)
        return
    if books.phase == Phase.SETUP:
        end_setup_if_done(books)
        return
    if books.everyone_passed():
        books.finish(EndReason.ALL_PASSED)
        return
    if was_current:
        if queue is not None and not queue:
            books.finish(EndReason.FINAL_ROUND)
            return
        books.pass_turn_on(seat)
