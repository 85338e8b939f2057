"""One screen per turn: everything a seat needs to decide, fitted to the terminal.

`render_screen` returns the lines of the screen as rich `Text` (no markup is
parsed, so city and player names are shown as they are, after `printable`). The
hand, the market, the tickets and the question being asked always fit, at 80×24
too; the seats, what the others did since my last turn and (on a wide terminal,
in a second column) the routes I can claim now fill the space that is left.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text

from ttr_core.engine.cards import CARD_NAMES
from ttr_core.engine.decisions import ChooseTickets, SecondCard, TunnelPayment
from ttr_core.engine.view import PlayerView
from ttr_core.table.journal import Event
from ttr_core.table.payments import hand_besides, tunnel_refusal
from ttr_core.table.progress import claimable_routes, offered_needs, ticket_needs
from ttr_core.table.texts import payment_text, printable, route_title
from ttr_maps.model import Ticket

#: How each card looks (a chip with the card's colour).
CARD_STYLES = {
    "red": "bold white on red3",
    "orange": "bold black on dark_orange",
    "yellow": "bold black on yellow",
    "green": "bold white on green4",
    "blue": "bold white on blue",
    "pink": "bold black on plum1",
    "black": "bold white on grey15",
    "white": "bold black on grey93",
    "loco": "bold black on cyan",
}
#: A terminal at least this wide shows two columns.
WIDE = 120
#: The longest a name of a seat is shown.
NAME_LIMIT = 18


@dataclass(frozen=True)
class Screen:
    """What the table shows besides the view."""

    names: Sequence[str]
    #: What the others did since this seat's last turn, oldest first.
    events: Sequence[Event] = ()
    #: The answer to the last command (an error, a listing's note), one line each.
    message: Sequence[str] = ()


def card_chip(card: str, count: int | None = None) -> Text:
    label = f" {card} {count} " if count is not None else f" {card} "
    return Text(label, style=CARD_STYLES.get(card, ""))


def seat_name(names: Sequence[str], seat: int) -> str:
    return printable(names[seat], NAME_LIMIT)


#: The smallest screen drawn (a smaller terminal cuts or wraps it).
MIN_WIDTH, MIN_HEIGHT = 40, 12


def render_screen(view: PlayerView, screen: Screen, width: int, height: int) -> list[Text]:
    """The screen of `view.seat`, at most `height - 1` lines of at most `width`
    cells (the last line is left for the prompt); at least 40×12."""
    width, height = max(width, MIN_WIDTH), max(height, MIN_HEIGHT)
    top = _header(view, screen, width)
    bottom = [
        Text(part, style="bold")
        for line in screen.message
        for part in textwrap.wrap(printable(line), width, subsequent_indent="  ") or [""]
    ]
    room = max(height - 1 - len(top) - len(bottom), 0)
    if width >= WIDE:
        left_width = (width - 3) // 2
        left = _fit_left(view, left_width, room)
        right = _right_column(view, screen, width - left_width - 3, room)
        body = [_beside(a, b, left_width) for a, b in _zip_longest(left, right)]
    else:
        body = _fit_narrow(view, screen, width, room)
    lines = [*top, *body[:room], *bottom]
    for line in lines:
        line.truncate(width, overflow="ellipsis")
    return lines


def _zip_longest(a: list[Text], b: list[Text]) -> list[tuple[Text, Text]]:
    size = max(len(a), len(b))
    return [(a[i] if i < len(a) else Text(), b[i] if i < len(b) else Text()) for i in range(size)]


def _beside(left: Text, right: Text, left_width: int) -> Text:
    left = left.copy()
    left.truncate(left_width, overflow="ellipsis", pad=True)
    return Text.assemble(left, " │ ", right)


# ------------------------------------------------------------------- parts


def _header(view: PlayerView, screen: Screen, width: int) -> list[Text]:
    me = seat_name(screen.names, view.seat)
    title = Text.assemble(
        (printable(view.map.name, 30), "bold"),
        f" · seat {view.seat} {me} · {view.num_players} players · ",
        f"deck {view.deck_size} · discards {view.discard_size} · tickets {view.ticket_deck_size}",
    )
    lines = [title]
    if view.final_round:
        banner = " FINAL ROUND: this is your last turn ".center(width)
        lines.append(Text(banner, style="bold reverse red"))
    lines.append(Text(_prompt_hint(view), style="italic"))
    return lines


def _prompt_hint(view: PlayerView) -> str:
    """What is asked now, with the commands that answer it."""
    decision = view.decision
    if isinstance(decision, ChooseTickets):
        return f"Choose tickets: keep at least {decision.minimum} (`keep 1 3`, `keep all`)"
    if isinstance(decision, SecondCard):
        return "Second card: `deck` or `m N` (not a face-up loco, R7)"
    if isinstance(decision, TunnelPayment):
        return "Your tunnel: `pay` the extra cards or `give up` (E2)"
    extra = ", `station CITY`" if _stations_left(view) else ""
    return f"Your turn: `deck`, `m N`, `claim CITY CITY`, `tickets`{extra} · `help`"


def _stations_left(view: PlayerView) -> int:
    return view.stations_left[view.seat] if view.stations_left else 0


def _hand(view: PlayerView, width: int) -> Text:
    """My cards by colour; colour names cut to three letters if the line is long.
    During my tunnel (E2) the cards laid down are shown apart, after the hand."""
    tunnel = view.decision if isinstance(view.decision, TunnelPayment) else None
    hand = hand_besides(view.hand, tunnel.payment) if tunnel is not None else view.hand
    counts = {CARD_NAMES[card]: n for card, n in enumerate(hand) if n}
    line = Text(f"Hand {sum(hand):<3}", style="bold")
    if not counts:
        line.append("no cards ")
    laid = f"· laid for the tunnel: {payment_text(tunnel.payment)}" if tunnel is not None else ""
    full = sum(len(card) + len(str(n)) + 4 for card, n in counts.items()) + len(line) + len(laid)
    for card, count in counts.items():
        line.append_text(card_chip(card if full <= width else card[:3], count))
        line.append(" ")
    if laid:
        line.append(laid, style="italic")
    return line


def _market(view: PlayerView) -> Text:
    line = Text("Market   ", style="bold")
    for slot, card in enumerate(view.market):
        line.append(f"{slot + 1}")
        line.append_text(card_chip(CARD_NAMES[card]) if card is not None else Text(" - "))
        line.append(" ")
    return line


def _ticket_text(ticket: Ticket, need: int | None, done: bool) -> str:
    """`Boston–Miami 12 · needs 8` (wagons to go), `done Denver–El Paso 4`."""
    long = " [long]" if ticket.long else ""  # E4
    name = f"{printable(ticket.a)}–{printable(ticket.b)} {ticket.value}{long}"
    if done:
        return f"done {name}"
    return f"{name} · {'cut off' if need is None else f'needs {need}'}"


def _tickets(view: PlayerView, width: int, limit: int | None = None) -> list[Text]:
    """My tickets, in as many columns as fit; open ones first."""
    if not view.tickets:
        return [Text("Tickets none yet", style="bold")] if view.phase == "playing" else []
    needs = ticket_needs(view)
    items = sorted(
        zip(view.tickets, needs, strict=True), key=lambda item: (item[0].completed, item[1] or 0)
    )
    texts = [_ticket_text(t.ticket, need, t.completed) for t, need in items]
    done = sum(1 for t in view.tickets if t.completed)
    head = Text(f"Tickets {len(texts) - done} open, {done} done", style="bold")
    head.append(" (needs: wagons to go on routes still open to you)", style="")
    cells = [Text(t, style="green" if t.startswith("done") else "") for t in texts]
    rows = _columns(cells, width)
    if limit is not None and len(rows) + 1 > limit:
        # Tight screen: done tickets collapse into the heading line.
        cells = [c for c, t in zip(cells, texts, strict=True) if not t.startswith("done")]
        rows = _columns(cells, width)
        if len(rows) + 1 > limit:
            hidden = len(rows) - max(limit - 1, 0)
            rows = rows[: max(limit - 1, 0)]
            head.append(f" (+{hidden} more rows: widen the terminal)")
    return [head, *rows]


def _columns(cells: list[Text], width: int) -> list[Text]:
    """`cells` in rows of as many equal columns as fit in `width`."""
    if not cells:
        return []
    cell_width = max(len(c) for c in cells) + 2
    per_row = max(1, min(len(cells), (width - 2) // cell_width))
    rows = []
    for start in range(0, len(cells), per_row):
        row = Text("  ")
        for cell in cells[start : start + per_row]:
            padded = cell.copy()
            padded.truncate(cell_width, pad=True)
            row.append_text(padded)
        rows.append(row)
    return rows


def _decision(view: PlayerView) -> list[Text]:
    """The question being asked: tickets offered, a tunnel to pay; stations (E1)."""
    lines = []
    decision = view.decision
    if isinstance(decision, ChooseTickets) and decision.offered:
        lines.append(Text(f"Offered (keep at least {decision.minimum}):", style="bold"))
        for number, (index, need) in enumerate(
            zip(decision.offered, offered_needs(view), strict=True), start=1
        ):
            ticket = view.map.tickets[index]
            cost = "cut off" if need is None else f"needs {need}"
            long = " [long]" if ticket.long else ""
            lines.append(
                Text(
                    f"  {number}  {printable(ticket.a)}–{printable(ticket.b)} "
                    f"{ticket.value}{long} · {cost}"
                )
            )
    tunnel = decision if isinstance(decision, TunnelPayment) else None
    if tunnel is not None:
        route = view.map.routes[tunnel.route]
        turned = ", ".join(CARD_NAMES[c] for c in tunnel.revealed)
        kinds = f"{tunnel.payment.color} or loco" if tunnel.payment.color else "loco"
        lines.append(
            Text(
                f"Tunnel {route_title(route, view.map)}: you laid {payment_text(tunnel.payment)}",
                style="bold",
            )
        )
        lines.append(Text(f"  turned up {turned}: {tunnel.extra} more {kinds} to pay (E2)"))
        refusal = tunnel_refusal(view)
        if refusal is not None:
            lines.append(Text(f"  {refusal}: `give up` takes them back", style="bold"))
    left = _stations_left(view)
    if view.rule_set.stations and view.stations_left:
        rules = view.rule_set
        cost = f"next costs {rules.station_cost(left)} card(s)" if left else "all built"
        unbuilt = f"{rules.station_points} pts each unbuilt"
        lines.append(Text(f"Stations {left} left · {cost} · {unbuilt} (E1)"))
    return lines


def _seats(view: PlayerView, names: Sequence[str]) -> list[Text]:
    europe = bool(view.stations_left)
    head = "  seat player              wagons cards tickets " + ("stations " if europe else "")
    lines = [Text(head + "points", style="bold")]
    cities = view.map.cities
    for seat in range(view.num_players):
        marker = ">" if seat == view.seat else " "
        status = "" if view.status[seat] == "active" else f" ({view.status[seat]})"
        name = printable(names[seat] + (" (you)" if seat == view.seat else "") + status, 19)
        stations = f"{view.stations_left[seat]:>8} " if europe else ""
        line = Text(
            f"{marker} {seat:>4} {name:<19} {view.wagons[seat]:>6} {view.card_counts[seat]:>5} "
            f"{view.ticket_counts[seat]:>7} {stations}{view.route_points[seat]:>6}"
        )
        built = [printable(cities[c].name) for c, s in enumerate(view.station_owners) if s == seat]
        if built:
            line.append(f"  stations: {', '.join(built)}")
        if seat == view.seat:
            line.stylize("bold")
        lines.append(line)
    return lines


def _seats_compact(view: PlayerView, names: Sequence[str], width: int) -> list[Text]:
    """The seats in few lines: `0 ana 15w 8c 5t 40p` (wagons, cards, tickets, points)."""
    parts = [
        f"{seat} {printable(names[seat], 10)} {view.wagons[seat]}w {view.card_counts[seat]}c "
        f"{view.ticket_counts[seat]}t {view.route_points[seat]}p"
        for seat in range(view.num_players)
    ]
    lines: list[str] = []
    for part in parts:
        if lines and len(lines[-1]) + 3 + len(part) <= width:
            lines[-1] += " | " + part
        else:
            lines.append(("Seats   " if not lines else "        ") + part)
    return [Text(line) for line in lines]


def _events(view: PlayerView, screen: Screen, width: int) -> list[Text]:
    """What the others did since my last turn: one line per turn of a seat."""
    if not screen.events:
        return []
    lines = [Text("Since your last turn", style="bold")]
    groups: list[tuple[int, list[str]]] = []
    for event in screen.events:
        if groups and groups[-1][0] == event.seat:
            groups[-1][1].append(event.text)
        else:
            groups.append((event.seat, [event.text]))
    for seat, texts in groups:
        who = "you" if seat == view.seat else seat_name(screen.names, seat)
        text = f"  {who}: {'; '.join(texts)}"
        lines += [Text(part) for part in textwrap.wrap(text, width, subsequent_indent="      ")]
    return lines


# ----------------------------------------------------------------- fitting


def _fit_narrow(view: PlayerView, screen: Screen, width: int, room: int) -> list[Text]:
    """One column: hand, market, question, tickets, then seats and events as
    room allows (events cut from the oldest, seats on one line if need be)."""
    must = [_hand(view, width), _market(view), *_decision(view)]
    tickets = _tickets(view, width, max(room - len(must) - 2, 2))
    seats = _seats(view, screen.names)
    events = _events(view, screen, width)
    used = len(must) + len(tickets)
    if used + len(seats) > room:
        seats = _seats_compact(view, screen.names, width)
    spare = room - used - len(seats)
    if len(events) > spare:
        # The latest turns, under a heading that says some are left out.
        heading = Text("Since your last turn (latest)", style="bold")
        events = [heading, *events[len(events) - spare + 1 :]] if spare >= 2 else []
    return [*must, *tickets, *seats, *events]


def _fit_left(view: PlayerView, width: int, room: int) -> list[Text]:
    must = [_hand(view, width), _market(view), *_decision(view)]
    return [*must, Text(), *_tickets(view, width, max(room - len(must) - 1, 2))]


def _right_column(view: PlayerView, screen: Screen, width: int, room: int) -> list[Text]:
    lines = [*_seats(view, screen.names), Text(), *_events(view, screen, width)]
    lines = lines[:room]
    spare = room - len(lines) - 2
    offers = claimable_routes(view)
    if spare > 0 and offers:
        heading = f"You can claim {len(offers)} routes now (* on a ticket's path)"
        lines += [Text(), Text(heading, style="bold")]
        shown = offers[:spare] if len(offers) <= spare else offers[: spare - 1]
        lines += [Text(" " + offer.line(view)) for offer in shown]
        if len(shown) < len(offers):
            lines.append(Text(f"  … {len(offers) - len(shown)} more: `routes CITY`"))
    return lines
