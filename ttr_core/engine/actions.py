"""Actions: small frozen values with a text notation that parses back.

    draw deck                               R7: the top card of the deck
    draw market 3                           R7: face-up card in slot 3 (slots 0-4)
    claim Denver-Kansas_City/2 with red:3 loco:1     R9: a route and its payment
    claim Atlanta-Miami with loco:5         R9: locomotives only
    tickets                                 R12: draw destination tickets
    keep 0,2                                R4/R12: keep the offered tickets 0 and 2
    pass                                    R6: only when nothing else is possible
    resign                                  D5: leave the game (any moment)
    remove 2                                D5: the host removes seat 2
    timeout 2                               D5: the host ends seat 2's turn (a turn timer)

With the `europe` rule set (E1, E2):

    station Wien with red:2                 E1: build a station (spaces in names: _)
    pay red:1 loco:1                        E2: pay a tunnel's extra cards
    give up                                 E2: take the tunnel's cards back instead

>>> parse_action("claim Denver-Kansas_City/2 with red:3 loco:1")
Claim(route='Denver-Kansas_City/2', payment=Payment(color='red', colored=3, locos=1))
>>> str(parse_action("keep 2, 0"))
'keep 0,2'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ttr_core.engine.cards import CARD_NAMES
from ttr_core.engine.errors import InvalidAction
from ttr_maps.model import CARD_COLORS
from ttr_maps.rules import MARKET_SIZE_MAX


def _is_number(text: str) -> bool:
    """A count in the notation: ASCII digits only (`str.isdigit` also accepts `²`)."""
    return text.isascii() and text.isdigit()


class Action:
    """Base of every action. `str(action)` is its notation; `parse_action` reads it."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Payment:
    """Cards laid down: `colored` cards of `color` and `locos` locomotives.

    `color` is None when only locomotives are paid.
    """

    color: str | None
    colored: int
    locos: int

    def __post_init__(self) -> None:
        if self.colored < 0 or self.locos < 0:
            raise InvalidAction("a payment cannot hold a negative number of cards")
        if self.color is None:
            if self.colored:
                raise InvalidAction("name the colour of the cards paid, e.g. red:3")
        elif self.color not in CARD_COLORS:
            raise InvalidAction(f"{self.color!r} is not a card colour")
        elif self.colored == 0:
            object.__setattr__(self, "color", None)  # one spelling of "locomotives only"

    @property
    def total(self) -> int:
        return self.colored + self.locos

    def __str__(self) -> str:
        parts = []
        if self.color is not None and self.colored:
            parts.append(f"{self.color}:{self.colored}")
        if self.locos or not parts:
            parts.append(f"loco:{self.locos}")
        return " ".join(parts)

    @classmethod
    def from_text(cls, text: str) -> Payment:
        """Parse `red:3 loco:1`, `loco:4`, `green:2`."""
        color: str | None = None
        colored = locos = 0
        tokens = text.split()
        if not tokens:
            raise InvalidAction("a payment needs cards, e.g. 'red:3 loco:1'")
        for token in tokens:
            name, _, count_text = token.partition(":")
            if name not in CARD_NAMES or not _is_number(count_text):
                raise InvalidAction(
                    f"cannot read payment {token!r}: write colour:count, e.g. red:3 or loco:1"
                )
            count = int(count_text)
            if name == "loco":
                if locos:
                    raise InvalidAction("locomotives are named twice in the payment")
                locos = count
            else:
                if color is not None:
                    raise InvalidAction("a payment uses one colour (plus locomotives)")
                color, colored = name, count
        return cls(color, colored, locos)


@dataclass(frozen=True, slots=True)
class DrawDeck(Action):
    def __str__(self) -> str:
        return "draw deck"


@dataclass(frozen=True, slots=True)
class DrawMarket(Action):
    slot: int

    def __str__(self) -> str:
        return f"draw market {self.slot}"


@dataclass(frozen=True, slots=True)
class Claim(Action):
    route: str
    payment: Payment
    #: The notation, made once: claims are built once per map and written often.
    text: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", f"claim {self.route} with {self.payment}")

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class DrawTickets(Action):
    def __str__(self) -> str:
        return "tickets"


@dataclass(frozen=True, slots=True)
class KeepTickets(Action):
    """Keep the offered tickets at these positions (0-based, sorted)."""

    indices: tuple[int, ...]

    def __str__(self) -> str:
        return "keep " + ",".join(str(i) for i in self.indices)


@dataclass(frozen=True, slots=True)
class Pass(Action):
    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Resign(Action):
    def __str__(self) -> str:
        return "resign"


@dataclass(frozen=True, slots=True)
class Remove(Action):
    """The host removes a seat (D5). Not a player's action: it never appears in
    `legal_actions`."""

    seat: int

    def __str__(self) -> str:
        return f"remove {self.seat}"


@dataclass(frozen=True, slots=True)
class TimeOut(Action):
    """The host ends a seat's turn because its time ran out (D5's host acting for
    inactivity, short of removing: a table's turn timer, see
    `ttr_core.engine.moves.turns.time_out`). Not a player's action either."""

    seat: int

    def __str__(self) -> str:
        return f"timeout {self.seat}"


#: The host's actions (D5): applied for no seat, recorded with seat null.
HOST_ACTIONS = (Remove, TimeOut)


def city_token(name: str) -> str:
    """A city name as one token of the notation: spaces become underscores."""
    return name.replace(" ", "_")


@dataclass(frozen=True, slots=True)
class BuildStation(Action):
    """E1: build a station in `city`, paying 1, 2 or 3 cards of one colour."""

    city: str
    payment: Payment

    def __str__(self) -> str:
        return f"station {city_token(self.city)} with {self.payment}"


@dataclass(frozen=True, slots=True)
class PayTunnel(Action):
    """E2: pay the extra cards the turned-up cards asked for."""

    payment: Payment

    def __str__(self) -> str:
        return f"pay {self.payment}"


@dataclass(frozen=True, slots=True)
class GiveUpTunnel(Action):
    """E2: do not pay the extra cards; the tunnel's cards go back to the hand."""

    def __str__(self) -> str:
        return "give up"


#: The one value of each action without arguments, and of each market slot: the
#: legal-action lists hand out these, and bots and tables answer with them.
DRAW_DECK = DrawDeck()
DRAW_MARKET = tuple(DrawMarket(slot) for slot in range(MARKET_SIZE_MAX))
DRAW_TICKETS = DrawTickets()
PASS = Pass()
RESIGN = Resign()
GIVE_UP = GiveUpTunnel()

_SIMPLE: dict[str, Action] = {
    str(action): action for action in (DRAW_DECK, DRAW_TICKETS, PASS, RESIGN, GIVE_UP)
}
# Only ASCII digits are numbers in the notation: `²` or `١` are not read as 2 or 1.
_MARKET = re.compile(r"draw market ([0-9]+)")
_CLAIM = re.compile(r"claim (\S+) with (.+)")
_KEEP = re.compile(r"keep ([0-9,\s]+)")
_REMOVE = re.compile(r"remove ([0-9]+)")
_TIMEOUT = re.compile(r"timeout ([0-9]+)")
_STATION = re.compile(r"station (\S+) with (.+)")
_PAY = re.compile(r"pay (.+)")


def parse_action(text: str) -> Action:
    """Read an action from its notation. Raises `InvalidAction` with a hint."""
    normalized = " ".join(text.strip().split())
    simple = _SIMPLE.get(normalized.lower())
    if simple is not None:
        return simple
    if match := _MARKET.fullmatch(normalized):
        return DrawMarket(int(match[1]))
    if match := _CLAIM.fullmatch(normalized):
        return Claim(match[1], Payment.from_text(match[2]))
    if match := _KEEP.fullmatch(normalized):
        numbers = [n for n in re.split(r"[,\s]+", match[1]) if n]
        indices = tuple(sorted({int(n) for n in numbers}))
        if len(indices) != len(numbers):
            raise InvalidAction("a ticket is named twice in 'keep'")
        return KeepTickets(indices)
    if match := _REMOVE.fullmatch(normalized):
        return Remove(int(match[1]))
    if match := _TIMEOUT.fullmatch(normalized):
        return TimeOut(int(match[1]))
    if match := _STATION.fullmatch(normalized):
        return BuildStation(match[1].replace("_", " "), Payment.from_text(match[2]))
    if match := _PAY.fullmatch(normalized):
        return PayTunnel(Payment.from_text(match[1]))
    raise InvalidAction(
        f"cannot read action {text.strip()!r}; expected one of: draw deck, draw market N, "
        "claim ROUTE with COLOUR:N [loco:N], tickets, keep I,J, pass, resign "
        "(europe: station CITY with COLOUR:N, pay COLOUR:N, give up)"
    )
