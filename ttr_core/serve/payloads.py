"""What the page receives, as JSON-ready dicts.

A seat's page is built from `view_payload(view)`, which reads nothing but that seat's
`PlayerView` (R5, D6), and from public facts of the table (who sits where, the pace).
Someone watching gets the public part of a view only (`public_payload`). Only when
the game is over do the result (everyone's tickets) and the seed join them.

>>> from ttr_maps import load_map
>>> from ttr_core.engine.state import GameState
>>> view = GameState(load_map("north_america"), 2, seed=1).view(0)
>>> payload = view_payload(view)
>>> payload["decision"], len(payload["offered"]), sum(payload["hand"].values())
('choose_tickets', 3, 4)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

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
    Payment,
    PayTunnel,
)
from ttr_core.engine.cards import CARD_NAMES
from ttr_core.engine.decisions import ChooseTickets, TunnelPayment
from ttr_core.engine.view import LOG_LENGTH, PlayerView
from ttr_core.serve.tables import PACES
from ttr_core.table.journal import public_event
from ttr_core.table.payments import laid_cards, tunnel_refusal
from ttr_core.table.texts import payment_text, route_title
from ttr_maps.model import Map, Ticket

if TYPE_CHECKING:
    from ttr_core.engine.state import GameState
    from ttr_core.serve.tables import Table


def card_name(card: int | None) -> str | None:
    return None if card is None else CARD_NAMES[card]


def ticket_payload(index: int, ticket: Ticket) -> dict[str, Any]:
    return {
        "index": index,
        "a": ticket.a,
        "b": ticket.b,
        "value": ticket.value,
        "long": ticket.long,
    }


def payment_payload(payment: Payment) -> dict[str, Any]:
    return {
        "text": str(payment),
        "words": payment_text(payment),
        "color": payment.color,
        "colored": payment.colored,
        "locos": payment.locos,
    }


def legal_payload(actions: Iterable[Action]) -> dict[str, Any]:
    """The actions a seat may take, grouped the way the page offers them: each with
    its notation (what the page sends back) and, for payments, the cards it lays.
    Resigning (D5) is always possible for an active seat and is not listed."""
    legal: dict[str, Any] = {
        "draw_deck": None,
        "market": {},
        "tickets": None,
        "pass": None,
        "keep": [],
        "claims": {},
        "stations": {},
        "tunnel": [],
        "give_up": None,
    }
    for action in actions:
        text = str(action)
        if isinstance(action, DrawDeck):
            legal["draw_deck"] = text
        elif isinstance(action, DrawMarket):
            legal["market"][str(action.slot)] = text
        elif isinstance(action, DrawTickets):
            legal["tickets"] = text
        elif isinstance(action, Pass):
            legal["pass"] = text
        elif isinstance(action, KeepTickets):
            legal["keep"].append(list(action.indices))
        elif isinstance(action, Claim):
            option = {"action": text, **payment_payload(action.payment)}
            legal["claims"].setdefault(action.route, []).append(option)
        elif isinstance(action, BuildStation):
            option = {"action": text, **payment_payload(action.payment)}
            legal["stations"].setdefault(action.city, []).append(option)
        elif isinstance(action, PayTunnel):
            legal["tunnel"].append({"action": text, **payment_payload(action.payment)})
        elif isinstance(action, GiveUpTunnel):
            legal["give_up"] = text
    return legal


def public_payload(view: PlayerView) -> dict[str, Any]:
    """What anyone at the table sees of the game, read from a view's public
    fields only (R5, D6): the board, the market, the piles' sizes, each seat's
    counts, a tunnel being paid (its cards lie face up). Everything a spectator's
    page shows; a seat's page adds its own part (`view_payload`)."""
    game_map = view.map
    cities = game_map.cities
    tunnel = view.tunnel
    return {
        "rules": view.rule_set.name,
        "num_players": view.num_players,
        "phase": str(view.phase),
        "to_move": view.to_move,
        "market": [card_name(card) for card in view.market],
        "deck_size": view.deck_size,
        "discard_size": view.discard_size,
        "ticket_deck_size": view.ticket_deck_size,
        "owners": {
            game_map.routes[route].id: seat for route, seat in enumerate(view.owners) if seat >= 0
        },
        "wagons": list(view.wagons),
        "card_counts": list(view.card_counts),
        "ticket_counts": list(view.ticket_counts),
        "route_points": list(view.route_points),
        "status": [str(s) for s in view.status],
        "final_round": view.final_round,
        "station_owners": {
            cities[city].name: seat for city, seat in enumerate(view.station_owners) if seat >= 0
        },
        "stations_left": list(view.stations_left),
        "tunnel": None
        if tunnel is None
        else {
            "seat": tunnel.seat,
            "route": view.board.route_name(tunnel.route),
            "title": route_title(game_map.routes[tunnel.route], game_map),
            "payment": payment_payload(tunnel.payment),
            "revealed": [CARD_NAMES[card] for card in tunnel.revealed],
            "extra": tunnel.extra,
        },
    }


def view_payload(view: PlayerView) -> dict[str, Any]:
    """Everything a seat's page shows of the game, read from its view alone: the
    public part, and the seat's hand, tickets, pending decision and legal actions.
    During its own tunnel (E2) the hand is shown without the cards laid down
    (`laid`), and `cannot_pay` says why when the extra cards cannot be paid."""
    game_map = view.map
    decision = view.decision
    offer = decision if isinstance(decision, ChooseTickets) else None
    hand = list(view.hand)
    laid: dict[str, int] = {}
    cannot_pay = None
    if isinstance(decision, TunnelPayment):
        for card, count in laid_cards(decision.payment).items():
            hand[card] -= count
            laid[CARD_NAMES[card]] = count
        cannot_pay = tunnel_refusal(view)
    return {
        "seat": view.seat,
        **public_payload(view),
        "hand": dict(zip(CARD_NAMES, hand, strict=True)),
        "laid": laid,
        "cannot_pay": cannot_pay,
        "tickets": [
            {**ticket_payload(t.index, t.ticket), "completed": t.completed} for t in view.tickets
        ],
        "decision": decision.kind if decision is not None else None,
        "offered": [
            {**ticket_payload(index, game_map.tickets[index]), "position": position}
            for position, index in enumerate(offer.offered if offer else ())
        ],
        "keep_at_least": offer.minimum if offer else 0,
        "legal": legal_payload(view.legal_actions()),
    }


def table_facts(table: Table, now: float) -> dict[str, Any]:
    """The public facts of a table that are not the game's view: who sits where
    (players, names), the pace, the settings, the notes, who is thinking, the turn
    timer; and, once the game is over, its result and seed."""
    state = table.state
    over = state.is_over
    return {
        "game": table.id,
        "map": table.map_key,
        "map_name": state.map.name,
        "players": table.players,
        "names": table.names,
        "pace": table.pace,
        "paces": list(PACES),
        "fixed_deal": table.fixed_deal,
        "revision": table.revision_tag,
        "thinking": sorted(table.thinking),
        "turn_seconds": table.turn_seconds,
        "clock": {str(seat): round(left, 1) for seat, left in table.clock_left(now).items()},
        "notes": [note.to_dict() for note in table.notes],
        "result": table.result(),
        # The seed gives every hidden card (R5): only once nothing is hidden.
        "seed": state.seed if over else None,
    }


def table_payload(table: Table, seat: int, now: float = 0.0) -> dict[str, Any]:
    """A seat's page: the table's public facts, the seat's view, the log in the
    table's words (the journal, as this seat may see it: R4 hides the others'
    ticket choices during setup), and the result once the game is over."""
    view = table.state.view(seat)
    table.journal.settle_tunnel(view)
    log = table.journal.since(0, view)[-LOG_LENGTH:]
    return {
        **table_facts(table, now),
        "watching": False,
        "view": view_payload(view),
        "log": [{"seat": event.seat, "text": event.text} for event in log],
    }


def spectator_payload(table: Table, now: float = 0.0) -> dict[str, Any]:
    """Someone watching: the board and the public log, never a hand or a ticket
    (the public part of a view, `public_payload`; during setup, not even how many
    tickets each seat kept, R4)."""
    view = table.state.view(0)
    table.journal.settle_tunnel(view)
    log = table.journal.public(view.phase)[-LOG_LENGTH:]
    return {
        **table_facts(table, now),
        "watching": True,
        "view": {"seat": None, **public_payload(view)},
        "log": [{"seat": event.seat, "text": event.text} for event in log],
    }


def replay_payload(record: Mapping[str, Any], game_map: Map) -> dict[str, Any]:
    """The frames of a replay, one per step of `ttr_core.engine.record.iter_replay`
    (and the record's names and notes, each note shown after its action):
    who did what (the action, and the table's words for it, told from the game as it
    stood before), the routes and stations it changed (by index, with the new owner),
    and every seat's route points and wagons after it. A record holds the whole
    game, so a replay shows everything. Raises `RecordError` for a record that does
    not replay."""
    from ttr_core.engine.record import iter_replay, replay

    frames = []
    before = replay({**record, "actions": []}, game_map)
    state: GameState | None = None
    owners: list[int] = [-1] * len(game_map.routes)
    stations: list[int] = [-1] * len(game_map.cities)
    for number, seat, action, state in iter_replay(record, game_map):
        actor = seat if seat is not None else getattr(action, "seat", 0)
        frames.append(
            {
                "number": number,
                "seat": seat,
                "action": str(action),
                "text": public_event(before.view(actor), action),
                "owners": _changes(owners, state.owner),
                "stations": _changes(stations, state.station_owner),
                "route_points": list(state.route_points),
                "wagons": list(state.wagons),
            }
        )
        before = state.clone()
    players = [seat.get("player", f"seat {i}") for i, seat in enumerate(record.get("seats", []))]
    return {
        "map": record["map"],
        "seed": record["seed"],
        "players": players,
        "names": [seat.get("name") for seat in record.get("seats", [])],
        "notes": list(record.get("notes", [])),
        "frames": frames,
        "result": state.result().to_dict() if state is not None and state.is_over else None,
    }


def _changes(known: list[int], now: Sequence[int]) -> dict[str, int]:
    """Entries of `now` that differ from `known` (by index), and update `known`."""
    changed = {}
    for index, value in enumerate(now):
        if known[index] != value:
            changed[str(index)] = known[index] = value
    return changed
