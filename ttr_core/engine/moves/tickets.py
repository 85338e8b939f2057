"""R4, R12, E4: tickets offered and kept (the `ChooseTickets` decision).
`GameState.apply` hands these functions the actions and the answers; they change
the state through its bookkeeping, as its own methods would.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttr_core.engine.actions import Action, DrawTickets, KeepTickets
from ttr_core.engine.decisions import ChooseTickets
from ttr_core.engine.errors import IllegalAction

if TYPE_CHECKING:
    from ttr_core.engine.state import GameState


def draw_tickets(state: GameState, seat: int, action: DrawTickets | None = None) -> None:
    """R12: the top tickets are offered (D4: not from an empty deck)."""
    if not state.ticket_deck:
        raise IllegalAction("D4", "the ticket deck is empty")
    rule_set = state.rule_set
    offered = state._deal_tickets(rule_set.tickets_drawn)
    state.pending.append(ChooseTickets(seat, offered, rule_set.tickets_keep))


def keep_tickets(state: GameState, seat: int, decision: ChooseTickets, action: Action) -> None:
    """R4 (setup, keep at least 2) and R12 (keep at least 1); the rest go under
    the ticket deck (E4: long ones leave the game)."""
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
    state.pending.remove(decision)
    state.tickets[seat].extend(offered[i] for i in action.indices)
    state._ticket_views[seat] = None
    returned = [t for i, t in enumerate(offered) if i not in action.indices]
    if decision.setup:
        # Simultaneous choice (R4): returns are held until everyone has chosen.
        state._setup_returns[seat] = returned
        state._finish_setup_if_done()
    else:
        state._return_tickets(returned)
        state._end_turn(seat)


def abandon_tickets(state: GameState, decision: ChooseTickets) -> None:
    """D5, R12: an offer nobody will answer goes back under the ticket deck."""
    state._return_tickets(decision.offered)
