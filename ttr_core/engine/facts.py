"""What the legal actions of one seat depend on, as one bundle.

The full state (`Books.legal_facts`) and the seat's own view
(`PlayerView.legal_facts`) make the same bundle, and one dispatcher
(`ttr_core.engine.legal.legal_actions`) lists the actions from it: so what a bot
sees as legal is, by construction, what the engine accepts. Nothing in it is
hidden from the seat (R5).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import NamedTuple

from ttr_core.engine.compiled import Board, OpenGroups
from ttr_core.engine.decisions import Decision
from ttr_core.engine.enums import Phase
from ttr_maps.rules import RuleSet


class LegalFacts(NamedTuple):
    """One seat's facts. (A named tuple: one is made for every list of legal
    actions, and `make_facts` builds it as fast as a plain tuple.) Made from the
    state, the sequences are the state's own: read them before it changes."""

    rule_set: RuleSet
    board: Board
    phase: Phase
    #: The seat is the one whose turn it is (during play).
    is_my_turn: bool
    #: The seat's pending decision, which restricts it to its answers.
    decision: Decision | None
    #: The seat's cards: nine counts indexed by card.
    hand: Sequence[int]
    market: Sequence[int | None]
    #: D3: the deck, or the discards shuffled into it, holds a card.
    can_draw_deck: bool
    ticket_deck_size: int
    #: The routes still open to the seat (R9, R11), grouped by shape.
    open_groups: OpenGroups
    wagons: int
    #: E1: the seat's stations left (0 without stations) and each city's owner.
    stations_left: int
    station_owners: Sequence[int]


#: `LegalFacts` from a tuple of its fields in order, without the length check of
#: `LegalFacts._make` (a Python call): one is made for every list of legal actions.
make_facts = partial(tuple.__new__, LegalFacts)
