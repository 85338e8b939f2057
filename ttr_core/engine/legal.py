"""The one legal-action dispatcher: `legal_actions(facts)` lists what one seat may
do now from one bundle of facts (`LegalFacts`), which the state and the seat's view
make alike, so that what a bot sees as legal is exactly what the engine accepts.

Each action family lists its own actions (`ttr_core.engine.moves`); this module
puts them in their stable order: draw deck, draw market 0-4, claims (routes grouped
by colour, length and ferry, then by payment colour and locomotive count,
locomotives-only last), stations (E1), tickets, pass; `resign` only on request (it
is always legal, D5, but a list that offers it invites a random player to leave).
docs/rules.md spells it out. A pending decision restricts its seat to its answers:
`DECISIONS` says, per kind of decision, which module lists and which applies them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from ttr_core.engine.actions import (
    DRAW_TICKETS,
    PASS,
    RESIGN,
    Action,
    BuildStation,
    Claim,
    DrawDeck,
    DrawMarket,
    DrawTickets,
)
from ttr_core.engine.books import Books
from ttr_core.engine.compiled import Board, OpenGroups
from ttr_core.engine.decisions import ChooseTickets, SecondCard, TunnelPayment
from ttr_core.engine.enums import Phase
from ttr_core.engine.facts import LegalFacts
from ttr_core.engine.moves.claims import claim_actions
from ttr_core.engine.moves.draws import card_draw_actions, draw_second_card, second_card_actions
from ttr_core.engine.moves.stations import station_actions
from ttr_core.engine.moves.tickets import keep_actions, keep_tickets
from ttr_core.engine.moves.tunnels import pay_tunnel, tunnel_actions
from ttr_maps.rules import RuleSet

# Enum members as module names: `Phase.OVER` is a Python-level lookup on the enum
# class (about 50 ns in CPython 3.11), and these run on every action.
_PLAYING = Phase.PLAYING


def legal_actions(facts: LegalFacts, include_resign: bool = False) -> list[Action]:
    """Every action an active seat may take now: the answers to its pending
    decision, the actions that start its turn, or nothing. `resign` (D5) closes the
    list on request."""
    decision = facts.decision
    if decision is not None:
        actions = DECISIONS[type(decision)].answers(decision, facts)
    elif facts.is_my_turn and facts.phase == _PLAYING:
        actions = turn_actions(
            facts.board,
            facts.hand,
            facts.open_groups,
            facts.wagons,
            facts.market,
            facts.can_draw_deck,
            facts.ticket_deck_size,
            facts.rule_set,
            facts.stations_left,
            facts.station_owners,
        )
    else:
        actions = []
    if include_resign:
        actions.append(RESIGN)
    return actions


def is_legal(facts: LegalFacts, action: Action) -> bool:
    """Whether `action` is in `legal_actions(facts)`, the same test as `in`, made on
    the list of its own family only: a bot that checks its choice on a board with
    stations (E1) would otherwise list hundreds of stations every turn."""
    decision = facts.decision
    if decision is not None or not (facts.is_my_turn and facts.phase == _PLAYING):
        return action in legal_actions(facts)
    if isinstance(action, DrawDeck | DrawMarket):
        return action in card_draw_actions(facts.market, facts.can_draw_deck)
    if isinstance(action, Claim):
        rules = facts.rule_set
        return action in claim_actions(
            facts.board,
            facts.hand,
            facts.open_groups,
            facts.wagons,
            rules.ferries,
            None,
            rules.plain_route_locomotives,
        )
    if isinstance(action, BuildStation):
        return facts.stations_left > 0 and action in station_actions(
            facts.board, facts.hand, facts.stations_left, facts.station_owners, facts.rule_set
        )
    if isinstance(action, DrawTickets):
        return facts.ticket_deck_size > 0 and action == DRAW_TICKETS
    return action in legal_actions(facts)  # a pass, legal only when nothing else is


def turn_actions(
    board: Board,
    hand: Sequence[int],
    open_groups: OpenGroups,
    wagons: int,
    market: Sequence[int | None],
    can_draw_deck: bool,
    ticket_deck_size: int,
    rule_set: RuleSet,
    stations_left: int,
    station_owners: Sequence[int],
) -> list[Action]:
    """The actions that start a turn (R6), for the seat whose turn it is: card draws
    (R7), claims (R9; E3 ferries), stations (E1), tickets (R12); a pass only when
    none of them is possible (R6). The arguments are the `LegalFacts` this needs,
    one by one: the state's common case (its turn, nothing pending) calls this
    straight away, without a bundle (it runs for every turn of every game)."""
    actions = card_draw_actions(market, can_draw_deck)
    plain_locos = rule_set.plain_route_locomotives  # P2
    claim_actions(board, hand, open_groups, wagons, rule_set.ferries, actions, plain_locos)
    if stations_left > 0:
        actions += station_actions(board, hand, stations_left, station_owners, rule_set)
    if ticket_deck_size > 0:  # R12, D4 (see `ttr_core.engine.moves.tickets`)
        actions.append(DRAW_TICKETS)
    if not actions:
        actions.append(PASS)
    return actions


class DecisionRules(NamedTuple):
    """How one kind of pending decision is answered (what it held goes back the
    same way for every kind when nobody answers: `Books.abandon`)."""

    #: (decision, facts) -> the legal answers, a new list.
    answers: Callable[[Any, LegalFacts], list[Action]]
    #: (books, seat, decision, action): check and apply an answer.
    apply: Callable[[Books, int, Any, Action], None]


#: Per kind of pending decision, the module of its action family that lists and
#: applies its answers.
DECISIONS: dict[type, DecisionRules] = {
    ChooseTickets: DecisionRules(keep_actions, keep_tickets),  # R4, R12: moves/tickets.py
    SecondCard: DecisionRules(second_card_actions, draw_second_card),  # R7: moves/draws.py
    TunnelPayment: DecisionRules(tunnel_actions, pay_tunnel),  # E2: moves/tunnels.py
}
