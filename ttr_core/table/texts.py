"""Words the table shows a person: routes, payments, tickets, the command reference.

Plain strings, no terminal codes, so the web table can show the same words. Text
that comes from a map (city and map names) or from a person passes through
`printable` first: control characters would move a terminal's cursor.
"""

from __future__ import annotations

from ttr_core.engine.actions import Payment
from ttr_maps.model import Map, Route
from ttr_maps.text import for_terminal

#: The longest piece of a person's input echoed back in a message.
ECHO_LIMIT = 40

COMMANDS_HELP = """\
On your turn (cities in any order; case, accents and unique prefixes are fine):
  deck | d                 draw the top card of the deck (R7)
  market N | m N | m red   take face-up card N (1-5) or a colour (R7)
  claim CITY CITY [COLOUR] [TRACK] | c ...   claim a route (R9)
      COLOUR picks the cards for a gray route (or a coloured track of a double);
      TRACK (1, 2) picks one of double tracks; `with red:2 loco:1` names cards
  tickets | t              draw tickets (R12); then `keep 1 3` or `keep all`
  station CITY [COLOUR]    europe: build a station (E1)
  pay [COLOUR] | give up   europe: a tunnel's extra cards (E2)
  pass                     only when nothing else is possible (R6)
Looking around (never ends your turn):
  routes [CITY] | r        the routes you can claim now, and what each costs you
  ?                        the kinds of action you may take now, with counts
  map                      write a picture of the board and print its path
  note TEXT                a remark on the map, kept in the game record
  help | h                 this text; Enter alone redraws the table
Leaving:
  resign                   leave the game; your routes stay (D5)
  quit | q                 stop now; --record saves it for `ttr play --resume`"""


def printable(text: str, limit: int | None = None) -> str:
    """`text` with control characters shown as escapes (`ttr_maps.text`, the one
    rule for terminals), cut to `limit` characters."""
    clean = for_terminal(text)
    if limit is not None and len(clean) > limit:
        return clean[: limit - 1] + "…"
    return clean


def echo(text: str) -> str:
    """A piece of a person's input, safe and short, quoted for a message."""
    return f"'{printable(text.strip(), ECHO_LIMIT)}'"


def payment_text(payment: Payment) -> str:
    """`red 3 + loco 1`, `loco 4`."""
    parts = [f"{payment.color} {payment.colored}"] if payment.color and payment.colored else []
    if payment.locos or not parts:
        parts.append(f"loco {payment.locos}")
    return " + ".join(parts)


def route_title(route: Route, game_map: Map) -> str:
    """`Dallas–Little Rock`, with `track 2` for one of double tracks."""
    title = f"{printable(route.a)}–{printable(route.b)}"
    if len(game_map.parallel_routes[frozenset(route.cities)]) > 1:
        title += f" track {track_number(route, game_map)}"
    return title


def track_number(route: Route, game_map: Map) -> int:
    """1, 2, … among the tracks joining the same two cities (by the track number of
    their ids, `A-B/2`: the file's order, whatever order the game numbers them in)."""
    tracks = sorted(
        game_map.parallel_routes[frozenset(route.cities)], key=lambda r: (r.track or 0, r.index)
    )
    return 1 + [r.index for r in tracks].index(route.index)


def route_shape(route: Route) -> str:
    """`gray 2`, `red 4 tunnel`, `gray 3 ferry 1`."""
    text = f"{route.color} {route.length}"
    if route.tunnel:
        text += " tunnel"
    if route.ferry:
        text += f" ferry {route.ferry}"
    return text
