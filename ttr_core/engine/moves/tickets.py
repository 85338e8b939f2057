"""R4, R12, E4, D4: destination tickets: drawing them (listed by
`ttr_core.engine.legal.turn_actions` while the ticket deck holds any), and the
choice of which to keep (the `ChooseTickets` decision), at setup and later.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from ttr_core.engine.actions import Action, DrawTickets, KeepTickets
from ttr_core.engine.books import Books
from ttr_core.engine.decisions import ChooseTickets
from ttr_core.engine.enums import Phase, Status
from ttr_core.engine.errors import IllegalAction
from ttr_core.engine.facts import LegalFacts


def keep_actions(decision: ChooseTickets, facts: LegalFacts) -> list[Action]:
    """R4/R12: the answers to a ticket choice (see `keep_choices`)."""
    return list(keep_choices(len(decision.offered), decision.minimum))


@lru_cache(maxsize=64)
def keep_choices(offered: int, minimum: int) -> tuple[KeepTickets, ...]:
    """R4/R12: every way to keep at least `minimum` of `offered` tickets, smallest first."""
    return tuple(
        KeepTickets(indices)
        for size in range(min(minimum, offered), offered + 1)
        for indices in combinations(range(offered), size)
    )


def offer_setup_tickets(books: Books) -> None:
    """R4: every seat is offered the top tickets, to choose from at the same time;
    E4: with long tickets besides, and the long ones not dealt leave the game."""
    rule_set = books.rule_set
    long_deck = books.long_ticket_deck
    for seat in range(books.num_players):
        offered = books.deal_tickets(rule_set.setup_tickets)
        if rule_set.long_tickets:
            count = min(rule_set.setup_long_tickets, len(long_deck))
            offered += tuple(long_deck.pop() for _ in range(count))
        if offered:  # a map with too few tickets may leave a seat without any
            books.pending.append(ChooseTickets(seat, offered, rule_set.setup_keep, setup=True))
    books.out_of_game_tickets.extend(long_deck)
    long_deck.clear()


def draw_tickets(books: Books, seat: int, action: DrawTickets | None = None) -> None:
    """R12: the top tickets are offered (D4: not from an empty deck)."""
    if not books.ticket_deck:
        raise IllegalAction("D4", "the ticket deck is empty")
    rule_set = books.rule_set
    offered = books.deal_tickets(rule_set.tickets_drawn)
    books.pending.append(ChooseTickets(seat, offered, rule_set.tickets_keep))


def keep_tickets(books: Books, seat: int, decision: ChooseTickets, action: Action) -> None:
    """R4 (setup, keep at least 2) and R12 (keep at least 1); the rest go under
    the ticket deck (E4: long ones leave the game; P3: all of them may)."""
    rule = "R4" if decision.setup else "R12"
    if not isinstance(action, KeepTickets):
        raise IllegalAction(rule, "choose which tickets to keep first ('keep 0,1')")
    offered = decision.offered
    if any(not 0 <= i < len(offered) for i in action.indices):
        raise IllegalAction(rule, f"you were offered tickets 0 to {len(offered) - 1}")
    if len(set(action.indices)) != len(action.indices):
        raise IllegalAction(rule, "each offered ticket can be kept once")
    minimum = min(decision.minimum, len(offered))
    if len(action.indices) < minimum:
        raise IllegalAction(rule, f"keep at least {minimum} of the offered tickets")
    books.pending.remove(decision)
    books.add_tickets(seat, [offered[i] for i in action.indices])
    returned = [t for i, t in enumerate(offered) if i not in action.indices]
    if decision.setup:
        # Simultaneous choice (R4): returns are held until everyone has chosen.
        books.setup_returns[seat] = returned
        end_setup_if_done(books)
    else:
        books.return_tickets(returned, books.rule_set.drawn_returns_leave)  # R12, P3
        books.end_turn(seat)


def end_setup_if_done(books: Books) -> None:
    """R4: once every seat has chosen, the held returns go under the deck and play
    begins with the first player (or the next active one, D5)."""
    if books.phase != Phase.SETUP or books.pending:
        return
    books.release_setup_returns()
    books.phase = Phase.PLAYING
    if books.status[books.current] != Status.ACTIVE:
        books.current = books.next_active_after(books.current)
