"""What happened at the table, as everyone saw it: the colour of a face-up card
taken, a blind draw as "deck", a claim with its colour, length and cards, tickets
drawn and kept, stations, tunnel outcomes (R7, R9, R12, E1, E2, D5).

The one narrator of actions: the terminal table and the web table (its log and
its replays) show these words; no page parses the action notation.

The journal is written from each seat's view and the action it chose (`Observed`
wraps any player, bot or person), so it knows only what was public at the time:
the market before a card was taken, the cards turned up for a tunnel.

>>> from ttr_core.engine.state import GameState
>>> from ttr_core.engine.actions import DRAW_MARKET
>>> from ttr_maps import load_map
>>> state = GameState(load_map("north_america"), 2, seed=1)
>>> journal = Journal()
>>> view = state.view(0)
>>> journal.observe(view, DRAW_MARKET[0])
>>> journal.events[-1].text == f"took {CARD_NAMES[view.market[0]]}"
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ttr_core.bots import Bot
from ttr_core.engine.actions import (
    Action,
    BuildStation,
    Claim,
    DrawDeck,
    DrawMarket,
    DrawTickets,
    GiveUpTunnel,
    KeepTickets,
    Pass,
    PayTunnel,
    Remove,
    Resign,
    TimeOut,
)
from ttr_core.engine.cards import CARD_NAMES
from ttr_core.engine.decisions import ChooseTickets, SecondCard, TunnelPayment
from ttr_core.engine.view import PlayerView
from ttr_core.table.texts import payment_text, printable, route_shape, route_title

if TYPE_CHECKING:
    from ttr_core.engine.state import GameState


@dataclass(frozen=True)
class Event:
    """One public thing a seat did. `setup`: during the ticket choice of R4, which
    the others may not see until everyone has chosen."""

    seat: int
    text: str
    setup: bool = False


@dataclass
class Journal:
    """Every public event of one game, oldest first."""

    events: list[Event] = field(default_factory=list)
    #: A tunnel claim whose turned-up cards are not known yet: (seat, route index).
    _digging: tuple[int, int] | None = None

    def observe(self, view: PlayerView, action: Action) -> None:
        """Record `action`, chosen by `view.seat` from `view`, as the others see it
        (a host's `timeout N`: from seat N's view, told as seat N's event)."""
        self.settle_tunnel(view)
        text = public_event(view, action)
        if text:
            self.events.append(Event(view.seat, text, view.phase == "setup"))
        if isinstance(action, Claim) and view.rule_set.tunnels:
            route = view.board.route_index.get(action.route)
            if route is not None and view.board.route_tunnel[route]:
                self._digging = (view.seat, route)

    def settle_tunnel(self, view: PlayerView) -> None:
        """E2: record what the tunnel claimed before `view` turned up (known by
        now); a screen calls it before showing the journal."""
        if self._digging is None:
            return
        seat, route = self._digging
        self._digging = None
        tunnel = view.tunnel
        if tunnel is not None and tunnel.seat == seat:
            cards = ", ".join(CARD_NAMES[c] for c in tunnel.revealed)
            self.events.append(Event(seat, f"turned up {cards}: {tunnel.extra} more needed"))
        elif view.owners[route] == seat:
            self.events.append(Event(seat, "nothing extra turned up: the tunnel is theirs"))

    def since(self, start: int, viewer: PlayerView) -> list[Event]:
        """The events from index `start` that `viewer` may see (R4: during the
        setup, not the others' ticket choices)."""
        setup = viewer.phase == "setup"
        return [e for e in self.events[start:] if e.seat == viewer.seat or not (setup and e.setup)]

    def first_hidden(self, start: int, viewer: PlayerView) -> int:
        """The index of the first event from `start` that `viewer` may not see
        yet (R4), or the journal's length: where its news stop for now."""
        setup = viewer.phase == "setup"
        for index in range(start, len(self.events)):
            event = self.events[index]
            if setup and event.setup and event.seat != viewer.seat:
                return index
        return len(self.events)

    def public(self, phase: str) -> list[Event]:
        """The events someone watching may see in `phase` (R4: during the setup,
        nobody's ticket choice)."""
        setup = phase == "setup"
        return [e for e in self.events if not (setup and e.setup)]


def public_event(view: PlayerView, action: Action) -> str:
    """How `action` looks to everyone at the table ("" for nothing to tell)."""
    game_map = view.map
    if isinstance(action, DrawDeck):
        return "drew from the deck"
    if isinstance(action, DrawMarket):
        card = view.market[action.slot]
        return f"took {CARD_NAMES[card]}" if card is not None else "took a card"
    if isinstance(action, Claim):
        index = view.board.route_index.get(action.route)
        if index is None:
            return ""
        route = game_map.routes[index]
        return (
            f"claimed {route_title(route, game_map)} ({route_shape(route)}) "
            f"with {payment_text(action.payment)}"
        )
    if isinstance(action, DrawTickets):
        return "drew tickets"
    if isinstance(action, KeepTickets):
        offer = view.decision
        offered = len(offer.offered) if isinstance(offer, ChooseTickets) else 0
        return f"kept {len(action.indices)} of {offered} tickets"
    if isinstance(action, BuildStation):
        return f"built a station in {printable(action.city)} ({payment_text(action.payment)})"
    if isinstance(action, PayTunnel):
        return f"paid {payment_text(action.payment)} more for the tunnel"
    if isinstance(action, GiveUpTunnel):
        return "gave up the tunnel"
    if isinstance(action, Pass):
        return "passed (nothing else was possible)"
    if isinstance(action, Resign):
        return "resigned"
    if isinstance(action, Remove):
        return f"seat {action.seat} was removed from the game"
    if isinstance(action, TimeOut):  # told from the view of the seat out of time
        decision = view.decision
        if isinstance(decision, ChooseTickets):
            kept = min(decision.minimum, len(decision.offered))
            return f"ran out of time: kept the first {kept} of {len(decision.offered)} tickets"
        if isinstance(decision, SecondCard):
            return "ran out of time before a second card"
        if isinstance(decision, TunnelPayment):
            return "ran out of time and gave up the tunnel"
        return "ran out of time: the turn passes"
    return str(action)


def retell(
    state: GameState,
    journal: Journal,
    actions: Iterable[tuple[int | None, str]],
    remarks: Mapping[int, str] | None = None,
) -> None:
    """Replay recorded actions (seat, notation) into `state`, the journal telling
    each as the table did, from the acting seat's view before it (a host's
    action: from the view of the seat it names); `remarks[n]`, what the table said
    after action n besides. Raises the engine's errors for an action that does
    not apply (`InvalidAction` for a seat that does not exist)."""
    from ttr_core.engine.actions import parse_action
    from ttr_core.engine.errors import InvalidAction

    for number, (seat, text) in enumerate(actions):
        action = parse_action(text)
        actor = seat if seat is not None else getattr(action, "seat", 0)
        if not 0 <= actor < state.num_players:
            raise InvalidAction(f"there is no seat {actor}")
        journal.observe(state.view(actor), action)
        state.apply(action, seat)
        if remarks and number in remarks:
            journal.events.append(Event(actor, remarks[number]))


@dataclass
class Observed:
    """A player whose every action is written into a journal first."""

    player: Bot
    journal: Journal

    @property
    def name(self) -> str:
        return self.player.name

    def act(self, view: PlayerView) -> Action:
        action = self.player.act(view)
        self.journal.observe(view, action)
        return action
