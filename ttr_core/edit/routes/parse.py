"""The typed edit (`ttr_core.edit.edits`) a request's JSON asks for: one small
reader per `op`, each checking its fields with a 400 that names the field.

Points of the board (`at`, `points`) come in SVG units and are turned into the
map's coordinates here (the page knows no geography); a place found by name comes
as `place`, in the map's own coordinates.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.exceptions import HTTPException

from ttr_core.edit import edits as ed
from ttr_core.edit.session import EditSession
from ttr_core.web.bodies import flag, point, string_field, text_list, whole_number
from ttr_maps.io.limits import MAX_CITY_NAME_CHARS
from ttr_maps.rules import field_ranges, route_lengths

#: Most bend points of one route.
MAX_BENDS = 8
#: Highest entry number (of a route or a ticket) a request may name.
MAX_ENTRY = 10**6
#: Longest `op` and rule-set name a request may send.
MAX_OP_CHARS = 40
MAX_RULES_CHARS = 20

Point = tuple[float, float]


def parse_edit(data: dict[str, Any], session: EditSession) -> ed.Edit:
    """The edit `data` asks for (`{"op": "add_city", …}`), or a clean 400."""
    op = string_field(data, "op", MAX_OP_CHARS)
    reader = READERS.get(op)
    if reader is None:
        raise HTTPException(400, f"no edit {op!r}")
    return reader(data, session)


def _name(data: dict[str, Any], field: str = "name") -> str:
    return string_field(data, field, MAX_CITY_NAME_CHARS)


def _entry(data: dict[str, Any]) -> int:
    return whole_number(data, "entry", 0, MAX_ENTRY)


def _placed(data: dict[str, Any], session: EditSession) -> tuple[Point, Point | None]:
    """Where a city goes: (the map's coordinates, the laid-out board's point or
    None), from a place's coordinates or a point of the board."""
    frame = session.checked.drawing.frame
    laid_out = session.checked.drawing.geometry.laid_out
    if "place" in data:
        place = point(data["place"], "place")
        return place, frame.board_of_position(place) if laid_out else None
    svg = point(data.get("at"), "at")
    return frame.position(svg), frame.board_point(svg) if laid_out else None


def _route(data: dict[str, Any]) -> tuple[int, tuple[str, ...], bool, int]:
    """A route's length, colours, tunnel flag and ferry locomotives (at most one
    per space)."""
    lengths = route_lengths()  # R9
    length = whole_number(data, "length", lengths.minimum, lengths.maximum)
    colors = tuple(text_list(data, "colors", "one or two colour names"))
    return length, colors, flag(data, "tunnel"), whole_number(data, "ferry", 0, lengths.maximum, 0)


def add_city(data: dict[str, Any], session: EditSession) -> ed.Edit:
    position, board = _placed(data, session)
    return ed.AddCity(_name(data), position, board)


def move_city(data: dict[str, Any], session: EditSession) -> ed.Edit:
    position, board = _placed(data, session)
    return ed.MoveCity(_name(data), position, board)


def rename_city(data: dict[str, Any], session: EditSession) -> ed.Edit:
    return ed.RenameCity(_name(data, "old"), _name(data, "new"))


def delete_city(data: dict[str, Any], session: EditSession) -> ed.Edit:
    return ed.DeleteCity(_name(data))


def add_route(data: dict[str, Any], session: EditSession) -> ed.Edit:
    route = _route(data)
    return ed.AddRoute(_name(data, "a"), _name(data, "b"), *route)


def change_route(data: dict[str, Any], session: EditSession) -> ed.Edit:
    route = _route(data)
    return ed.ChangeRoute(_entry(data), *route)


def delete_route(data: dict[str, Any], session: EditSession) -> ed.Edit:
    return ed.DeleteRoute(_entry(data))


def set_bends(data: dict[str, Any], session: EditSession) -> ed.Edit:
    points = data.get("points")
    if not isinstance(points, list) or len(points) > MAX_BENDS:
        raise HTTPException(400, f"'points' must be a list of at most {MAX_BENDS} [x, y]")
    frame = session.checked.drawing.frame
    board = tuple(frame.board_point(point(p, "points")) for p in points)
    return ed.SetBends(_name(data, "a"), _name(data, "b"), board)


def add_ticket(data: dict[str, Any], session: EditSession) -> ed.Edit:
    a, b = _name(data, "a"), _name(data, "b")
    return ed.AddTicket(a, b, ticket_value(session, a, b), flag(data, "long"))


def delete_ticket(data: dict[str, Any], session: EditSession) -> ed.Edit:
    return ed.DeleteTicket(_entry(data))


def fix(data: dict[str, Any], session: EditSession) -> ed.Edit:
    return fix_edit(session)


def settings(data: dict[str, Any], session: EditSession) -> ed.Edit:
    wagons, allowed = data.get("wagons"), field_ranges()["wagons"]  # R4
    return ed.ChangeSettings(
        _name(data),
        _name(data, "id"),
        string_field(data, "rules", MAX_RULES_CHARS),
        None if wagons is None else whole_number(data, "wagons", allowed.minimum, allowed.maximum),
    )


READERS: dict[str, Callable[[dict[str, Any], EditSession], ed.Edit]] = {
    "add_city": add_city,
    "move_city": move_city,
    "rename_city": rename_city,
    "delete_city": delete_city,
    "add_route": add_route,
    "change_route": change_route,
    "delete_route": delete_route,
    "set_bends": set_bends,
    "add_ticket": add_ticket,
    "delete_ticket": delete_ticket,
    "fix": fix,
    "settings": settings,
}


def ticket_value(session: EditSession, a: str, b: str) -> int:
    """R2: the shortest distance in wagons between the two cities on the map now."""
    from ttr_maps.graph import shortest_wagon_distance

    drawable = session.checked.drawable
    names = {c.name for c in drawable.cities}
    for name in (a, b):
        if name not in names:
            raise HTTPException(400, f"no city {name!r} on the board")
    value = shortest_wagon_distance(drawable, a, b) if a != b else None
    if value is None:
        raise HTTPException(
            400, f"no routes join {a} and {b} yet: a ticket's value is their distance (R2)"
        )
    return value


def fix_edit(session: EditSession) -> ed.Edit:
    """`ttr fix`'s edit of the file now: every ticket value set to its R2 distance
    (409 when other errors stop it, or when there is nothing to fix)."""
    from ttr_maps.analysis.fix import plan_fix_text

    plan = plan_fix_text(session.text, str(session.path))
    if plan.is_skipped:
        first = plan.blockers[0]
        raise HTTPException(
            409, f"ttr fix needs the other errors fixed first: {first.code} {first.message}"
        )
    if not plan.changes:
        raise HTTPException(409, "every ticket value is right already")
    return ed.ReplaceText(plan.fixed_text(), f"fix {len(plan.changes)} ticket values (R2)")
