"""Playing in the terminal: people and bots at one table (hot-seat).

A person's turn shows what their `PlayerView` shows (hand by colour, the market,
tickets and whether they are complete, every seat's points, wagons and cards, what
the others did since) and a numbered list of legal actions. A line of input is a
number from that list, an action in notation (`draw market 2`, `claim
Denver-Omaha with red:4`), `help`, `resign` (leave the game, D5) or `quit` (stop
playing; the game is left unfinished). Input that is not legal changes nothing:
the message says why (the rule, for an illegal action) and the question is asked
again. The end of the input stream ends the session like `quit`, and so does
Ctrl-C (`Session.interrupted`).

With the europe rules the screen also shows the stations (E1: who has one where,
how many are left and what the next one costs), a tunnel waiting for its extra
cards (E2) and which tickets are long (E4).

Input is read line by line from any text stream, so a test can play a whole game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TextIO

from ttr_core.actions import Action, Claim, Resign, parse_action
from ttr_core.bots import Bot
from ttr_core.cards import CARD_NAMES
from ttr_core.errors import IllegalAction, InvalidAction
from ttr_core.legal import station_cost
from ttr_core.rules import RuleSet
from ttr_core.state import GameState
from ttr_core.view import PlayerView
from ttr_maps.model import Map, Ticket

HUMAN = "human"

HELP = """\
Type the number of an action from the list, or the action itself:
  draw deck | draw market N | claim ROUTE with COLOUR:N [loco:N] | tickets | keep I,J
With the europe rules also:
  station CITY with COLOUR:N [loco:N]   build a station (E1; `_` for spaces in CITY)
  pay COLOUR:N [loco:N] | give up        settle a tunnel's extra cards (E2)
Other commands:
  help     this text
  resign   leave the game (your routes stay on the board, D5)
  quit     stop playing now (the game is left unfinished)"""


@dataclass
class Session:
    """How a terminal game ended for the people at the table."""

    state: GameState
    #: True when someone typed `quit` or the input ended before the game did.
    stopped: bool = False
    #: True when the session was stopped by Ctrl-C (KeyboardInterrupt).
    interrupted: bool = False


def seat_label(seat: int, names: Sequence[str]) -> str:
    return f"seat {seat} ({names[seat]})"


def describe_view(view: PlayerView, names: Sequence[str], since: int) -> list[str]:
    """What a person needs to decide: the lines shown before their action list.
    `since` is how many log entries of the view are new to them."""
    board = view.board
    lines = [f"=== {seat_label(view.seat, names)}: your move ==="]
    new = view.log[-since:] if since else ()
    for seat, text in new:
        if seat != view.seat:
            who = "host" if seat is None else seat_label(seat, names)
            lines.append(f"  {who}: {text}")
    hand = view.hand_by_color()
    lines.append("hand:   " + (", ".join(f"{c} {n}" for c, n in hand.items()) or "no cards"))
    market = [CARD_NAMES[c] if c is not None else "-" for c in view.market]
    lines.append(
        "market: "
        + "  ".join(f"[{i}] {name}" for i, name in enumerate(market))
        + f"   (deck {view.deck_size}, discards {view.discard_size})"
    )
    if view.tickets:
        lines.append("tickets:")
        for ticket in view.tickets:
            mark = "done" if ticket.completed else "open"
            lines.append(f"  [{mark}] {ticket.ticket}{_long(ticket.ticket)}")
    if view.offered:
        lines.append(f"offered tickets (keep at least {view.keep_at_least}):")
        for position, index in enumerate(view.offered):
            ticket = board.map.tickets[index]
            lines.append(f"  {position}: {ticket}{_long(ticket)}")
    lines += station_lines(view, names)
    lines += tunnel_lines(view, names)
    lines.append("seats:")
    for seat in range(view.num_players):
        status = "" if view.status[seat] == "active" else f" [{view.status[seat]}]"
        lines.append(
            f"  {seat_label(seat, names)}: {view.route_points[seat]} route points, "
            f"{view.wagons[seat]} wagons, {view.card_counts[seat]} cards, "
            f"{view.ticket_counts[seat]} tickets{status}"
        )
    if view.final_round:
        lines.append("** final round: this is your last turn **")
    return lines


def _long(ticket: Ticket) -> str:
    return "  [long]" if ticket.long else ""  # E4


def station_lines(view: PlayerView, names: Sequence[str]) -> list[str]:
    """E1: my stations left and the cost of the next one, and every station built."""
    if view.rules != "europe" or not view.stations_left:
        return []
    left = view.stations_left[view.seat]
    cost = f"the next costs {station_cost(left)} card(s) of one colour" if left else "none"
    lines = [f"stations: you have {left} left ({cost}); each one not built scores 4"]
    cities = view.map.cities
    built = [(cities[c].name, seat) for c, seat in enumerate(view.station_owners) if seat >= 0]
    for seat in range(view.num_players):
        mine = [name for name, owner in built if owner == seat]
        if mine:
            lines.append(f"  {seat_label(seat, names)} has stations in {', '.join(mine)}")
    return lines


def tunnel_lines(view: PlayerView, names: Sequence[str]) -> list[str]:
    """E2: a tunnel claim waiting for its extra cards."""
    tunnel = view.tunnel
    if tunnel is None:
        return []
    who = "your" if tunnel.seat == view.seat else f"{seat_label(tunnel.seat, names)}'s"
    revealed = ", ".join(CARD_NAMES[card] for card in tunnel.revealed) or "nothing"
    return [
        f"tunnel: {who} claim of {tunnel.route}: cards laid {tunnel.payment}; "
        f"turned up {revealed}; {tunnel.extra} more card(s) needed "
        f"({tunnel.payment.color or 'loco'} or loco): `pay …` or `give up`"
    ]


def action_lines(actions: Sequence[Action]) -> list[str]:
    return [f"  {number:>3}) {action}" for number, action in enumerate(actions, start=1)]


def read_choice(text: str, actions: Sequence[Action]) -> Action:
    """A typed line as an action: a number from the list or an action's notation.
    Raises InvalidAction when it is neither."""
    stripped = text.strip()
    if stripped.isdecimal():  # not isdigit: int() refuses digits like '²'
        number = int(stripped)
        if not 1 <= number <= len(actions):
            raise InvalidAction(f"choose a number from 1 to {len(actions)}")
        return actions[number - 1]
    return parse_action(stripped)


def play_at_table(
    game_map: Map,
    players: Sequence[Bot | None],
    names: Sequence[str],
    seed: int,
    lines: Iterator[str],
    write: Callable[[str], None],
    rules: RuleSet | None = None,
) -> Session:
    """Play one game: `None` in `players` is a person reading from `lines`.

    Every person sees only their own view; the bots act as in `play_game`.
    """
    state = GameState(game_map, len(players), seed, rules)
    seen = [0] * len(players)  # public log entries each person has seen
    try:
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            bot = players[seat]
            if bot is not None:
                state.apply(bot.act(state.view(seat)), seat)
                continue
            if not _human_turn(state, seat, names, seen, lines, write):
                return Session(state, stopped=True)
    except KeyboardInterrupt:  # Ctrl-C: stop like `quit`, keeping the game so far
        write("interrupted: the game stops here, unfinished")
        return Session(state, stopped=True, interrupted=True)
    return Session(state)


def _human_turn(
    state: GameState,
    seat: int,
    names: Sequence[str],
    seen: list[int],
    lines: Iterator[str],
    write: Callable[[str], None],
) -> bool:
    """Ask one person for one action until a legal one is applied. False when
    they quit or the input ended."""
    view = state.view(seat)
    since = min(len(state.public_log) - seen[seat], len(view.log))
    for line in describe_view(view, names, since):
        write(line)
    seen[seat] = len(state.public_log)
    actions = view.legal_actions()
    for line in action_lines(actions):
        write(line)
    while True:
        write(f"seat {seat}> ")
        try:
            text = next(lines)
        except StopIteration:
            write("input ended: the game stops here, unfinished")
            return False
        command = text.strip().lower()
        if not command:
            continue
        if command in ("help", "?"):
            write(HELP)
            continue
        if command in ("quit", "exit"):
            write("quit: the game stops here, unfinished")
            return False
        try:
            action = read_choice(text, actions)
            state.apply(action, seat)
        except (InvalidAction, IllegalAction) as error:
            write(f"not possible: {error}. Nothing changed; try again ('help' lists commands).")
            continue
        seen[seat] = len(state.public_log)
        if isinstance(action, Resign):
            write(f"{seat_label(seat, names)} resigns")
        elif isinstance(action, Claim):
            write(f"you claimed {action.route}")
        return True


def iter_lines(stream: TextIO) -> Iterator[str]:
    """Lines of a text stream without their line ends, read one at a time."""
    for line in stream:
        yield line.rstrip("\r\n")


def state_summary(state: GameState) -> str:
    """One line: points and wagons of every seat, and the phase."""
    seats = "  ".join(
        f"s{seat}: {state.route_points[seat]}p {state.wagons[seat]}w"
        + ("" if state.status[seat] == "active" else f" ({state.status[seat]})")
        for seat in range(state.num_players)
    )
    phase = state.phase + (" (final round)" if state.final_queue is not None else "")
    return f"{seats}  | {phase}"
