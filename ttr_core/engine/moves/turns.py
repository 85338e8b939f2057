"""R6, D5: the actions about the turn itself, applied: passing when nothing else
is possible, leaving the game (resigning, or being removed by the host), and the
host ending a turn whose time ran out (a table's turn timer). The
turn order they change (R6, R14, D1) is kept by `Books.end_turn`; `pass` is listed
by `ttr_core.engine.legal.turn_actions` (only when nothing else is), `resign` on
request.
"""

from __future__ import annotations

from ttr_core.engine.actions import GIVE_UP, Pass, Remove, Resign, TimeOut
from ttr_core.engine.books import Books
from ttr_core.engine.decisions import ChooseTickets, SecondCard, TunnelPayment
from ttr_core.engine.enums import EndReason, Phase, Status
from ttr_core.engine.errors import IllegalAction
from ttr_core.engine.legal import legal_actions
from ttr_core.engine.moves.tickets import end_setup_if_done, keep_choices, keep_tickets
from ttr_core.engine.moves.tunnels import pay_tunnel


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


def time_out(books: Books, action: TimeOut) -> None:
    """D5, softer than removing: the host ends the turn of a seat whose time ran
    out (a table's turn timer; the timer is the table's setting, not a rule of the
    game). The seat plays nothing more this turn; a decision it left open is
    settled the way that takes nothing: no second card (as D3), the tunnel given
    up (E2), of tickets being chosen the fewest allowed kept, the first offered
    (R4, R12). It is not a pass of R6 (nothing ended the game by it: people who
    walked away are not a stalled game)."""
    seat = action.seat
    decision = books.decision_for(seat)
    if decision is None:
        if books.phase != Phase.PLAYING or seat != books.current:
            raise IllegalAction("D5", f"seat {seat} has no turn or choice to time out")
        books.end_turn(seat)
    elif isinstance(decision, SecondCard):
        books.pending.remove(decision)
        books.end_turn(seat)
    elif isinstance(decision, TunnelPayment):
        pay_tunnel(books, seat, decision, GIVE_UP)
    else:
        assert isinstance(decision, ChooseTickets)
        fewest = keep_choices(len(decision.offered), decision.minimum)[0]
        keep_tickets(books, seat, decision, fewest)


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
