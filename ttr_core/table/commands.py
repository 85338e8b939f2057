"""The command language of the table: what a person types, read against their view.

`parse_command(text, view)` turns one line into a `Command`:

- `Play(action)`: an action for the engine (`deck`, `m 3`, `claim dallas little
  rock`, `keep 1 3`, `station wien`, `pay`, `give up`, `pass`, `resign`);
- `ChoosePayment(...)`: a claim, station or tunnel payment the hand can pay in
  several sensible ways (see `ttr_core.table.payments`): the person picks one;
- `Look(kind, argument)`: something to show (`help`, `routes [CITY]`, `?`, `map`),
  a `note TEXT` for the record, `quit`, or an empty line (redraw). Looking never
  changes the game.

A line that cannot be read raises `CommandError`, with "did you mean" for a city
that does not exist. The parser only reads a view: whether an action is legal is
the engine's word (the session asks it, and shows the rule that forbids it).
Numbers on screen count from 1 (market slots, tickets, payments, tracks).

>>> from ttr_core.engine.state import GameState
>>> from ttr_maps import load_map
>>> view = GameState(load_map("north_america"), 2, seed=1).view(0)
>>> parse_command("keep 1 3", view)
Play(action=KeepTickets(indices=(0, 2)))
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from ttr_core.engine.actions import (
    DRAW_DECK,
    DRAW_MARKET,
    DRAW_TICKETS,
    GIVE_UP,
    PASS,
    RESIGN,
    Action,
    BuildStation,
    Claim,
    KeepTickets,
    Payment,
    PayTunnel,
)
from ttr_core.engine.cards import CARD_INDEX, CARD_NAMES, LOCO
from ttr_core.engine.compiled import GRAY_INDEX
from ttr_core.engine.decisions import ChooseTickets, TunnelPayment
from ttr_core.engine.errors import IllegalAction, InvalidAction
from ttr_core.engine.moves.claims import usable_hand
from ttr_core.engine.open_routes import is_open_to
from ttr_core.engine.view import PlayerView
from ttr_core.table.names import CityFinder, fold, quoted_choices
from ttr_core.table.payments import (
    fewest_locos,
    hand_besides,
    sensible_payments,
    tunnel_payments,
    tunnel_refusal,
)
from ttr_core.table.texts import (
    echo,
    payment_text,
    printable,
    route_shape,
    route_title,
    track_number,
)
from ttr_maps.io.limits import MAX_PROMPT_LINE_CHARS
from ttr_maps.model import GRAY, Map, Route

if TYPE_CHECKING:
    from ttr_core.engine.state import GameState

#: Input limits: a longer line, or a longer number, is refused with a message.
MAX_LINE = MAX_PROMPT_LINE_CHARS
MAX_DIGITS = 3

#: Words for a card colour (besides the colour names themselves).
LOCO_WORDS = ("loco", "locos", "locomotive", "locomotives", "wild")


class CommandError(Exception):
    """A line the table cannot read; the message says what and how to write it."""


@dataclass(frozen=True)
class Play:
    """An action for the engine."""

    action: Action


@dataclass(frozen=True)
class ChoosePayment:
    """Several sensible payments: the person picks one (`labels[i]` describes
    `options[i]`)."""

    question: str
    options: tuple[Action, ...]
    labels: tuple[str, ...]


@dataclass(frozen=True)
class Look:
    """Something to do besides playing: `help`, `routes` (with a city or not),
    `kinds`, `map`, `note` (with its text), `quit`, or `redraw` (an empty line)."""

    kind: str
    argument: str = ""


Command = Play | ChoosePayment | Look

_ALIASES = {
    "d": "deck",
    "m": "market",
    "t": "tickets",
    "k": "keep",
    "c": "claim",
    "s": "station",
    "r": "routes",
    "h": "help",
    "q": "quit",
    "exit": "quit",
    "?": "kinds",
    "giveup": "give",
    "ticket": "tickets",
    "route": "routes",
}
_NUMBER = re.compile(r"\d+")


def parse_command(text: str, view: PlayerView) -> Command:
    """Read one line (see the module docstring). Raises `CommandError`."""
    if len(text) > MAX_LINE:
        raise CommandError(f"that line is too long: a command has at most {MAX_LINE:,} characters")
    words = text.replace(",", " ").split()
    if not words:
        return Look("redraw")
    for word in words:
        if is_number(word) and len(word) > MAX_DIGITS:
            raise CommandError(f"{echo(word)} is too long a number (at most {MAX_DIGITS} digits)")
    head, rest = words[0].casefold(), words[1:]
    if head == "draw" and rest:  # `draw deck`, `draw market 2` read like `deck`, `market 2`
        head, rest = rest[0].casefold(), rest[1:]
    head = _ALIASES.get(head, head)
    if head in ("help", "kinds", "map", "quit"):
        return Look(head)
    if head == "note":  # the rest of the line as typed
        return Look("note", text.strip()[len(words[0]) :].strip())
    if head == "routes":
        return Look("routes", " ".join(rest))
    if head in ("resign", "pass") and not rest:
        return Play(RESIGN if head == "resign" else PASS)
    if head == "deck" and not rest:
        return Play(DRAW_DECK)
    if head == "tickets" and not rest:
        return Play(DRAW_TICKETS)
    if head == "market":
        return Play(_market(rest, view))
    if head == "keep":
        return Play(_keep(rest, view))
    if head == "claim":
        return _claim(rest, view)
    if head == "station":
        return _station(rest, view)
    if head == "pay":
        return _pay(rest, view)
    if head == "give" and [w.casefold() for w in rest] in ([], ["up"]):
        return Play(GIVE_UP)
    raise CommandError(f"cannot read {echo(text)}; type `help` for the commands")


def is_number(word: str) -> bool:
    """ASCII digits only (`'²'` and `'３'` are not numbers here, as in the notation)."""
    return word.isascii() and word.isdecimal()


# ------------------------------------------------------------------- cards


def card_of(word: str) -> int | None:
    """The card a word names (`red`, `Loco`, `locomotives`), or None."""
    folded = fold(word)
    return LOCO if folded in LOCO_WORDS else CARD_INDEX.get(folded)


def _market(rest: Sequence[str], view: PlayerView) -> Action:
    """`market N` (1-5) or `market COLOUR` (the first face-up card of it)."""
    if len(rest) != 1:
        raise CommandError("write `market N` (N = 1 to 5) or `market red`")
    word = rest[0]
    if is_number(word):
        slot = int(word) - 1
        if not 0 <= slot < len(view.market):
            raise CommandError(f"face-up cards are numbered 1 to {len(view.market)}")
        return DRAW_MARKET[slot]
    card = card_of(word)
    if card is None:
        raise CommandError(f"{echo(word)} is neither a number 1-5 nor a card colour")
    for slot, face_up in enumerate(view.market):
        if face_up == card:
            return DRAW_MARKET[slot]
    raise CommandError(f"there is no face-up {CARD_NAMES[card]} card")


def _keep(rest: Sequence[str], view: PlayerView) -> Action:
    """R4/R12: `keep 1 3` or `keep all` (tickets numbered as on screen, from 1)."""
    decision = view.decision
    offered = len(decision.offered) if isinstance(decision, ChooseTickets) else 0
    if not offered:
        raise CommandError("you have no tickets to choose from (`tickets` draws some)")
    if [w.casefold() for w in rest] == ["all"]:
        return KeepTickets(tuple(range(offered)))
    if not rest or not all(is_number(w) for w in rest):
        raise CommandError(f"write `keep` and ticket numbers (1 to {offered}), or `keep all`")
    numbers = [int(w) for w in rest]
    if any(not 1 <= n <= offered for n in numbers):
        raise CommandError(f"the offered tickets are numbered 1 to {offered}")
    if len(set(numbers)) != len(numbers):
        raise CommandError("a ticket is named twice")
    return KeepTickets(tuple(sorted(n - 1 for n in numbers)))


# ------------------------------------------------------------------ claims


def _split_payment(words: list[str]) -> tuple[list[str], Payment | None]:
    """Cards written out at the end: `... with red:2 loco:1` or `... red:2 loco:1`."""
    lowered = [w.casefold() for w in words]
    if "with" in lowered:
        at = lowered.index("with")
        return words[:at], _payment(" ".join(words[at + 1 :]))
    at = len(words)
    while at > 0 and ":" in words[at - 1]:
        at -= 1
    if at == len(words):
        return words, None
    return words[:at], _payment(" ".join(words[at:]))


def _payment(text: str) -> Payment:
    try:
        return Payment.from_text(text.casefold())
    except InvalidAction as error:
        raise CommandError(str(error)) from None


def _split_options(words: list[str]) -> list[tuple[list[str], int | None, int | None]]:
    """Readings of a claim's words as (city words, card colour, track), the
    fullest first: a last word may be a track number (`2`, `track 2`), one before
    it (or last) a colour. A city whose name ends like a colour still works: the
    reading without the colour comes next."""
    readings = []
    words_track = [(words, None)]
    if words and is_number(words[-1]):
        cut = 2 if len(words) > 1 and words[-2].casefold() == "track" else 1
        words_track.insert(0, (words[:-cut], int(words[-1])))
    for rest, track in words_track:
        if rest and card_of(rest[-1]) is not None:
            readings.append((rest[:-1], card_of(rest[-1]), track))
        readings.append((rest, None, track))
    return readings


def _claim(words: list[str], view: PlayerView) -> Command:
    """R9: `claim CITY CITY [COLOUR] [TRACK] [with PAYMENT]`."""
    game_map = view.map
    city_words, payment = _split_payment(words)
    if not city_words:
        raise CommandError("name the two cities, e.g. `claim dallas little rock`")
    problem: CommandError | None = None
    for rest, card, track in _split_options(city_words):
        try:
            pair = find_city_pair(rest, game_map)
        except CommandError as error:
            problem = problem or error
            continue
        return _claim_between(pair, card, track, payment, view)
    assert problem is not None
    raise problem


def find_city_pair(words: Sequence[str], game_map: Map) -> tuple[str, str]:
    """Two cities joined by a route, named by `words` in either order (every
    place the words could split is tried). Raises `CommandError`: ambiguous
    prefixes, an unknown city (with "did you mean"), no route between them."""
    finder = city_finder(game_map)
    folded = fold(" ".join(words)).split()
    if len(folded) < 2:
        raise CommandError("name the two cities of the route, e.g. `claim dallas little rock`")
    joined: set[tuple[str, str]] = set()
    unjoined: list[tuple[str, str]] = []
    unknown: list[tuple[bool, str]] = []  # (the other half named a city, query)
    ambiguous: list[tuple[str, tuple[str, ...]]] = []
    for cut in range(1, len(folded)):
        left, right = " ".join(folded[:cut]), " ".join(folded[cut:])
        found = finder.find(left), finder.find(right)
        for query, cities, other in zip((left, right), found, found[::-1], strict=True):
            if not cities:
                unknown.append((bool(other), query))
            elif len(cities) > 1:
                ambiguous.append((query, cities))
        for a in found[0]:
            for b in found[1]:
                if a == b:
                    continue
                if game_map.parallel_routes.get(frozenset((a, b))):
                    joined.add(tuple(sorted((a, b))))  # type: ignore[arg-type]
                elif len(found[0]) == len(found[1]) == 1:
                    unjoined.append((a, b))
    if len(joined) == 1:
        return next(iter(joined))
    if joined:
        pairs = sorted(f"{printable(a)}–{printable(b)}" for a, b in joined)
        raise CommandError(f"which route: {quoted_choices(pairs)}? Type more of the names")
    if unjoined:
        a, b = unjoined[0]
        raise CommandError(
            f"no route joins {printable(a)} and {printable(b)}; "
            f"{printable(a)} has routes to {neighbour_list(a, game_map)}"
        )
    if ambiguous:
        query, cities = min(ambiguous, key=lambda item: len(item[1]))
        names = [printable(c) for c in cities[:6]] + (["…"] if len(cities) > 6 else [])
        raise CommandError(f"{echo(query)} could be {quoted_choices(names)}")
    if not unknown:  # both halves name one and the same city
        raise CommandError("name two different cities: a route joins two")
    # The unknown half beside a known city, else the shortest unknown half.
    _, query = min(unknown, key=lambda item: (not item[0], len(item[1])))
    raise CommandError(unknown_city_message(query, game_map))


def unknown_city_message(query: str, game_map: Map) -> str:
    """`no city 'dalas' on North America; did you mean Dallas?`"""
    suggestions = city_finder(game_map).suggest(query)
    names = quoted_choices(printable(s) for s in suggestions)
    hint = f"; did you mean {names}?" if suggestions else ""
    return f"no city {echo(query)} on {printable(game_map.name)}{hint}"


def neighbour_list(city: str, game_map: Map) -> str:
    names = sorted({r.b if r.a == city else r.a for r in game_map.routes if city in r.cities})
    return ", ".join(printable(n) for n in names)


_FINDERS: WeakKeyDictionary[Map, CityFinder] = WeakKeyDictionary()


def city_finder(game_map: Map) -> CityFinder:
    """The finder of a map's cities, built once per map."""
    finder = _FINDERS.get(game_map)
    if finder is None:
        finder = _FINDERS[game_map] = CityFinder(c.name for c in game_map.cities)
    return finder


def _claim_between(
    pair: tuple[str, str],
    card: int | None,
    track: int | None,
    payment: Payment | None,
    view: PlayerView,
) -> Command:
    """The claim of a route between `pair`, narrowed by colour and track; its
    payment chosen as `ttr_core.table.payments` says."""
    tracks = _tracks_named(pair, card, track, view)
    open_tracks = [r for r in tracks if _is_claimable(r, view)]
    if payment is not None or not open_tracks:
        # The engine judges (and names the rule): a written payment, or a route
        # that is taken, closed (R11) or too long for the wagons left.
        candidates = open_tracks or tracks
        if payment is not None:
            candidates.sort(key=lambda r: (r.color != payment.color, r.color != GRAY))
        route = candidates[0]
        return Play(Claim(route.id, payment or _any_payment(route)))
    choices = _payment_choices(open_tracks, card, view)
    chosen = fewest_locos([p for _, p in choices])
    if chosen is not None:
        route = next(r for r, p in choices if p == chosen)
        return Play(Claim(route.id, chosen))
    choices.sort(key=lambda c: c[1].locos)
    return ChoosePayment(
        "Pay how?",
        tuple(Claim(r.id, p) for r, p in choices),
        tuple(f"{route_title(r, view.map)}: {payment_text(p)}" for r, p in choices),
    )


def _tracks_named(
    pair: tuple[str, str], card: int | None, track: int | None, view: PlayerView
) -> list[Route]:
    """The tracks between `pair` that a track number and a colour name: a colour
    picks the track of that colour, else a gray one it pays for."""
    # Track n is the route whose id ends in /n (the game's numbering may differ).
    tracks = sorted(
        view.map.parallel_routes[frozenset(pair)], key=lambda r: (r.track or 0, r.index)
    )
    if track is not None:
        if not 1 <= track <= len(tracks):
            many = f"tracks 1 to {len(tracks)}" if len(tracks) > 1 else "one track"
            raise CommandError(f"{printable(pair[0])}–{printable(pair[1])} has {many}")
        tracks = [tracks[track - 1]]
    if card is None or card == LOCO:
        return tracks
    same = [r for r in tracks if r.color == CARD_NAMES[card]]
    tracks = same or [r for r in tracks if view.board.route_color[r.index] == GRAY_INDEX]
    if not tracks:
        raise CommandError(
            f"no {CARD_NAMES[card]} or gray track between "
            f"{printable(pair[0])} and {printable(pair[1])}"
        )
    return tracks


def _is_claimable(route: Route, view: PlayerView) -> bool:
    """R9, R11: the track is free and open to the seat, and its wagons are left."""
    open_to_seat = is_open_to(
        view.board,
        route.index,
        view.seat,
        view.owners,
        view.num_players,
        view.rule_set.double_routes_from,
    )
    return open_to_seat and route.length <= view.wagons[view.seat]


def _payment_choices(
    open_tracks: Sequence[Route], card: int | None, view: PlayerView
) -> list[tuple[Route, Payment]]:
    """Every sensible payment of the open tracks (twin tracks: one of each); a
    CommandError naming R9 (or E3 for a ferry) when the hand pays for none."""
    choices: list[tuple[Route, Payment]] = []
    ferries = view.rule_set.ferries
    for route in open_tracks:
        ferry = route.ferry if ferries else 0  # E3
        # A colour names the cards, unless it named this track by its colour.
        only = None if card is not None and route.color == CARD_NAMES[card] else card
        # P2: a route that is neither a tunnel nor a ferry is paid without locomotives.
        hand = usable_hand(
            view.board, route.index, view.hand, view.rule_set.plain_route_locomotives
        )
        for option in sensible_payments(
            route.length, view.board.route_color[route.index], hand, ferry, only
        ):
            if option not in [p for _, p in choices]:
                choices.append((route, option))
    if not choices:
        route = open_tracks[0]
        rule = "E3" if ferries and route.ferry else "R9"
        raise CommandError(
            f"{rule}: you cannot pay for {route_title(route, view.map)} ({route_shape(route)}) "
            f"with {hand_text(view.hand)}"
        )
    return choices


def _any_payment(route: Route) -> Payment:
    """A payment of the right size, for the engine to judge the claim by."""
    if route.color == GRAY:
        return Payment(None, 0, route.length)
    return Payment(route.color, route.length, 0)


def claim_refusal(route: Route, view: PlayerView, judge: Callable[[Action], str]) -> str | None:
    """Why `view.seat` cannot claim `route` now, in the words `claim CITY CITY`
    gets at the terminal (the rule with it); None when it can. `judge(action)`
    gives the engine's reason for an action that is not legal (`why_not`)."""
    game_map = view.map
    tracks = game_map.parallel_routes[frozenset(route.cities)]
    track = track_number(route, game_map) if len(tracks) > 1 else None
    try:
        command = _claim_between((route.a, route.b), None, track, None, view)
    except CommandError as error:
        return str(error)
    if isinstance(command, Play) and command.action not in view.legal_actions():
        return judge(command.action)
    return None


def why_not(state: GameState, seat: int, action: Action) -> str:
    """The engine's reason (with its rule) why `seat` may not play `action` now,
    found on a copy of the game: the game itself never changes."""
    try:
        state.clone().apply(action, seat)
    except (IllegalAction, InvalidAction) as error:
        return str(error)
    return f"'{action}' is not possible now"


def hand_text(hand: Sequence[int]) -> str:
    cards = [f"{CARD_NAMES[c]} {n}" for c, n in enumerate(hand) if n]
    return ", ".join(cards) if cards else "no cards"


# ---------------------------------------------------------------- europe


def _station(words: list[str], view: PlayerView) -> Command:
    """E1: `station CITY [COLOUR] [with PAYMENT]`."""
    if not view.rule_set.stations:
        raise CommandError("E1: stations belong to the europe rule set")
    city_words, payment = _split_payment(words)
    card = card_of(city_words[-1]) if len(city_words) > 1 else None
    if card is not None and not city_finder(view.map).find(" ".join(city_words)):
        city_words = city_words[:-1]
    else:
        card = None
    city = find_city(city_words, view.map)
    left = view.stations_left[view.seat] if view.stations_left else 0
    if payment is not None or left == 0:
        return Play(BuildStation(city, payment or Payment(None, 0, 1)))
    cost = view.rule_set.station_cost(left)
    options = sensible_payments(cost, GRAY_INDEX, view.hand, 0, card)
    if not options:
        raise CommandError(
            f"E1: your next station costs {cost} card(s) of one colour; "
            f"you hold {hand_text(view.hand)}"
        )
    chosen = fewest_locos(options)
    if chosen is not None:
        return Play(BuildStation(city, chosen))
    return ChoosePayment(
        f"Pay the station in {printable(city)} how?",
        tuple(BuildStation(city, p) for p in options),
        tuple(payment_text(p) for p in options),
    )


def find_city(words: Sequence[str], game_map: Map) -> str:
    """One city named by `words`. Raises `CommandError` (ambiguous, unknown)."""
    query = " ".join(words)
    if not fold(query):
        raise CommandError("name a city")
    cities = city_finder(game_map).find(query)
    if len(cities) == 1:
        return cities[0]
    if cities:
        names = [printable(c) for c in cities[:6]] + (["…"] if len(cities) > 6 else [])
        raise CommandError(f"{echo(query)} could be {quoted_choices(names)}")
    raise CommandError(unknown_city_message(query, game_map))


def _pay(words: list[str], view: PlayerView) -> Command:
    """E2: `pay`, `pay loco`, `pay red:1 loco:1` for a tunnel's extra cards."""
    tunnel = view.decision
    if not isinstance(tunnel, TunnelPayment):
        raise CommandError("`pay` settles a tunnel's extra cards (E2); no tunnel waits for you")
    if any(":" in w for w in words):
        return Play(PayTunnel(_payment(" ".join(words))))
    card = card_of(words[0]) if len(words) == 1 else None
    if words and card is None:
        raise CommandError("write `pay`, `pay loco` or `pay red:1 loco:1`")
    options = tunnel_payments(view.hand, tunnel.payment, tunnel.extra, card)
    if not options:
        why = tunnel_refusal(view) or (
            f"E2: you cannot pay {tunnel.extra} more with locomotives only: besides those "
            f"laid down you hold loco {hand_besides(view.hand, tunnel.payment)[LOCO]}"
        )
        raise CommandError(f"{why}; `give up` takes your cards back")
    return Play(PayTunnel(options[0]))


# -------------------------------------------------------------- completion

#: The command words, as completion offers them.
COMMAND_WORDS = (
    "deck",
    "market",
    "tickets",
    "keep",
    "claim",
    "station",
    "pay",
    "give up",
    "pass",
    "resign",
    "routes",
    "help",
    "map",
    "note",
    "quit",
)
_CITY_COMMANDS = {"claim", "station", "routes"}


def completions(line: str, game_map: Map) -> list[str]:
    """Completions of the last word of `line` (what readline's Tab offers): a
    command word first, then city names after `claim`, `station` and `routes`.

    >>> from ttr_maps import load_map
    >>> completions("cl", load_map("north_america"))
    ['claim']
    >>> completions("claim little r", load_map("north_america"))
    ['rock']
    """
    words = line.split(" ")
    if len(words) == 1:
        return sorted(w for w in COMMAND_WORDS if w.startswith(words[0].casefold()))
    command = _ALIASES.get(words[0].casefold(), words[0].casefold())
    if command not in _CITY_COMMANDS:
        return []
    return city_finder(game_map).complete(" ".join(words[1:]))
