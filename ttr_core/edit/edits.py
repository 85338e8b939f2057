"""What a designer does to a map, as typed edits: each turns one version of the
file's text into the next through `ttr_core.edit.splice`, so only the entries an
edit is about change (a one-route edit changes that route's line).

Edits check what they are given (a city that exists, a length of 1 to 8, a colour
of the rule book) and raise `EditError` with the reason; the map's own checks
(`ttr validate`) then judge the result, problems and all: a half-drawn map is
still drawn and checked.

>>> text = "format: 1\\ncoordinates: plane\\ncities:\\n  A: {x: 0, y: 0}\\nroutes: []\\n"
>>> text = apply_edit(text, AddCity("B", (3.0, 0.0)))
>>> print(apply_edit(text, AddRoute("A", "B", 3, ("red", "blue"))), end="")
format: 1
coordinates: plane
cities:
  A: {x: 0, y: 0}
  B: {x: 3, y: 0}
routes:
  - {between: [A, B], length: 3, color: [red, blue]}
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import yaml

from ttr_core.edit.splice import (
    BOM,
    SpliceError,
    append_entry,
    flow,
    node_at,
    remove_entry,
    replace_node,
    replace_scalars,
)
from ttr_maps.io.limits import MAX_CITY_NAME_CHARS
from ttr_maps.io.yaml_text import lint_clean_changes
from ttr_maps.model import ROUTE_COLORS
from ttr_maps.rules import (
    BASE,
    MAX_PARALLEL_TRACKS,
    RuleSetError,
    field_ranges,
    named,
    route_lengths,
)

#: Digits kept of a coordinate: 4 decimals of a degree are about 10 m.
COORDINATE_DIGITS = 4
#: Digits kept of a board position in centimetres.
BOARD_DIGITS = 2


class EditError(ValueError):
    """An edit that cannot be made (the message says why); nothing changed."""


Point = tuple[float, float]


@dataclass(frozen=True)
class AddCity:
    """A new city at `position` (lat, lon or x, y); on a laid-out map also at
    `board` (cm, pinned: `ttr layout` keeps it there)."""

    name: str
    position: Point
    board: Point | None = None


@dataclass(frozen=True)
class MoveCity:
    """A city dragged: to new coordinates (a board drawn from geography), or on a
    laid-out board to `board`, pinned."""

    name: str
    position: Point | None = None
    board: Point | None = None


@dataclass(frozen=True)
class RenameCity:
    old: str
    new: str


@dataclass(frozen=True)
class DeleteCity:
    """A city, its routes, the tickets naming it and its place in the layout."""

    name: str


@dataclass(frozen=True)
class AddRoute:
    a: str
    b: str
    length: int
    colors: tuple[str, ...]
    tunnel: bool = False
    ferry: int = 0


@dataclass(frozen=True)
class ChangeRoute:
    """New length, colours (two: a double route), tunnel and ferry locomotives of
    the route entry `entry`; its other keys stay."""

    entry: int
    length: int
    colors: tuple[str, ...]
    tunnel: bool = False
    ferry: int = 0


@dataclass(frozen=True)
class DeleteRoute:
    entry: int


@dataclass(frozen=True)
class SetBends:
    """The bend points of the route between `a` and `b` on a laid-out board (cm,
    from `a` towards `b`); none: a straight route."""

    a: str
    b: str
    points: tuple[Point, ...]


@dataclass(frozen=True)
class AddTicket:
    """A ticket between two cities with its value (R2: the caller works it out)."""

    a: str
    b: str
    value: int
    long: bool = False


@dataclass(frozen=True)
class DeleteTicket:
    entry: int


@dataclass(frozen=True)
class ChangeSettings:
    """The map's name, id, rule set and wagons per player (R4; None: the rule
    set's own); only the ones that differ from the file are written."""

    name: str
    map_id: str
    rules: str
    wagons: int | None = None


@dataclass(frozen=True)
class ReplaceText:
    """The whole text at once (`ttr fix`'s values, a reload, a CSV import)."""

    text: str
    what: str


Edit = (
    AddCity
    | MoveCity
    | RenameCity
    | DeleteCity
    | AddRoute
    | ChangeRoute
    | DeleteRoute
    | SetBends
    | AddTicket
    | DeleteTicket
    | ChangeSettings
    | ReplaceText
)


def describe(edit: Edit) -> str:
    """The edit in a few words, for the undo button."""
    match edit:
        case AddCity(name=name):
            return f"add {name}"
        case MoveCity(name=name):
            return f"move {name}"
        case RenameCity(old=old, new=new):
            return f"rename {old} to {new}"
        case DeleteCity(name=name):
            return f"delete {name}"
        case AddRoute(a=a, b=b):
            return f"add route {a}–{b}"
        case ChangeRoute(entry=entry):
            return f"change route {entry + 1}"
        case DeleteRoute(entry=entry):
            return f"delete route {entry + 1}"
        case SetBends(a=a, b=b):
            return f"bend {a}–{b}"
        case AddTicket(a=a, b=b):
            return f"add ticket {a}–{b}"
        case DeleteTicket(entry=entry):
            return f"delete ticket {entry + 1}"
        case ChangeSettings():
            return "change the map's settings"
        case ReplaceText(what=what):
            return what
    raise AssertionError(edit)


# ---------------------------------------------------------------- reading the text


def _data(text: str) -> tuple[dict[str, Any], yaml.Node | None]:
    from ttr_maps.io.document import DocumentError, parse_text

    try:  # the nodes' marks count from after a byte-order mark, as `splice` slices
        document = parse_text(text.removeprefix(BOM))
    except DocumentError as problem:
        raise EditError(f"the file is not YAML the editor can change: {problem}") from None
    if not isinstance(document.data, dict):
        raise EditError("the file is not a map (its top level is not a mapping)")
    return document.data, document.root


def _section(data: dict[str, Any], name: str, kind: type) -> Any:
    value = data.get(name)
    return value if isinstance(value, kind) else kind()


def _is_plane(data: dict[str, Any]) -> bool:
    return data.get("coordinates") == "plane"


def _laid_out(data: dict[str, Any]) -> dict[str, Any] | None:
    layout = data.get("layout")
    if isinstance(layout, dict) and isinstance(layout.get("cities"), dict):
        return layout
    return None


def check_name(name: str) -> str:
    if not isinstance(name, str) or not name.strip():
        raise EditError("a city needs a name")
    if name != name.strip():
        raise EditError(f"{name!r}: a city name may not start or end with a space")
    if len(name) > MAX_CITY_NAME_CHARS or any(not c.isprintable() for c in name):
        raise EditError(f"a city name is 1 to {MAX_CITY_NAME_CHARS} printable characters")
    return name


def _check_city(cities: dict[str, Any], name: str) -> None:
    if name not in cities:
        raise EditError(f"no city {name!r} on this map")


def _number(value: float, digits: int) -> float | int:
    if not math.isfinite(value):
        raise EditError("a position must be a finite number")
    rounded = round(value, digits)
    return int(rounded) if rounded == int(rounded) and abs(rounded) < 1e15 else rounded


def _coordinates(data: dict[str, Any], position: Point) -> dict[str, float | int]:
    first, second = (_number(v, COORDINATE_DIGITS) for v in position)
    if _is_plane(data):
        return {"x": first, "y": second}
    if not (-90 <= first <= 90 and -180 <= second <= 180):
        raise EditError(f"({first}, {second}) is not a latitude and longitude")
    return {"lat": first, "lon": second}


def _board(point: Point, old: Any = None) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "x": _number(point[0], BOARD_DIGITS),
        "y": _number(point[1], BOARD_DIGITS),
    }
    if isinstance(old, dict) and "label" in old:
        spec["label"] = old["label"]
    spec["pin"] = True
    return spec


def check_route(length: int, colors: tuple[str, ...], ferry: int, scored: int = 8) -> None:
    """A route's fields; `scored` is the longest route the map's rule set scores (R10)."""
    if isinstance(length, bool) or not isinstance(length, int):
        raise EditError("a route's length is a whole number")
    lengths = route_lengths()
    if not lengths.minimum <= length <= lengths.maximum:
        raise EditError(f"a route is {lengths.describe()} spaces long (R9)")
    if length > scored:
        raise EditError(
            f"'length' {length}: this map's route_points score routes up to {scored} "
            f"(R10); give settings.route_points {length} numbers first"
        )
    if not 1 <= len(colors) <= MAX_PARALLEL_TRACKS:
        raise EditError(
            f"a route has one colour, or one per track: at most {MAX_PARALLEL_TRACKS} (R11)"
        )
    for color in colors:
        if color not in ROUTE_COLORS:
            raise EditError(f"{color!r} is not a route colour ({', '.join(ROUTE_COLORS)})")
    if isinstance(ferry, bool) or not isinstance(ferry, int) or not 0 <= ferry <= length:
        raise EditError("a ferry needs 0 to its length locomotives (E3)")


def _longest_scored(data: Any) -> int:
    """R10: the longest route the document's rule set scores (its `rules` and
    `settings.route_points`; the base table's 8 when they cannot be read)."""
    rules = data.get("rules", "base") if isinstance(data, dict) else "base"
    settings = data.get("settings") if isinstance(data, dict) else None
    points = settings.get("route_points") if isinstance(settings, dict) else None
    try:
        rule_set = named(rules if isinstance(rules, str) else "base")
        if isinstance(points, list):
            rule_set = rule_set.with_overrides({"route_points": points})
    except RuleSetError:
        return BASE.longest_scored_route
    return rule_set.longest_scored_route


def _route_fields(length: int, colors: tuple[str, ...], tunnel: bool, ferry: int) -> dict:
    fields: dict[str, Any] = {
        "length": length,
        "color": colors[0] if len(colors) == 1 else list(colors),
    }
    if tunnel:
        fields["tunnel"] = True
    if ferry:
        fields["ferry"] = ferry
    return fields


# ---------------------------------------------------------------- the edits


def apply_edit(text: str, edit: Edit) -> str:
    """The text after `edit` (`EditError` if it cannot be made). The lines an edit
    writes are laid out as a default yamllint run wants them (`lint_clean_changes`:
    a long entry broken after its commas); the lines it leaves alone, and a whole
    text given as it is (`ReplaceText`: a reload from disk, `ttr fix`), stay."""
    try:
        edited = _apply(text, edit)
    except SpliceError as problem:
        raise EditError(str(problem)) from None
    return edited if isinstance(edit, ReplaceText) else lint_clean_changes(text, edited)


def _apply(text: str, edit: Edit) -> str:
    if isinstance(edit, ReplaceText):
        return edit.text
    data, root = _data(text)
    cities = _section(data, "cities", dict)
    match edit:
        case AddCity(name=name, position=position, board=board):
            check_name(name)
            if name in cities:
                raise EditError(f"{name!r} is on the map already")
            text = append_entry(text, ("cities",), flow(_coordinates(data, position)), key=name)
            layout = _laid_out(data)
            if layout is not None:
                if board is None:
                    raise EditError("this map has a board layout: place the city on the board")
                text = append_entry(text, ("layout", "cities"), flow(_board(board)), key=name)
            return text
        case MoveCity(name=name, position=position, board=board):
            _check_city(cities, name)
            layout = _laid_out(data)
            if layout is not None and board is not None:
                old = layout["cities"].get(name)
                if name not in layout["cities"]:
                    return append_entry(text, ("layout", "cities"), flow(_board(board)), key=name)
                text = replace_node(text, ("layout", "cities", name), flow(_board(board, old)))
                return _bends_follow(text, layout, name, old, board)
            if position is None:
                raise EditError("say where the city goes")
            old_spec = cities[name] if isinstance(cities[name], dict) else {}
            spec = {**old_spec, **_coordinates(data, position)}
            return replace_node(text, ("cities", name), flow(spec))
        case RenameCity(old=old, new=new):
            _check_city(cities, old)
            check_name(new)
            if new == old:
                return text
            if new in cities:
                raise EditError(f"{new!r} is on the map already")
            return _rename(text, root, old, new)
        case DeleteCity(name=name):
            _check_city(cities, name)
            return _delete_city(text, name)
        case AddRoute(a=a, b=b, length=length, colors=colors, tunnel=tunnel, ferry=ferry):
            for name in (a, b):
                _check_city(cities, name)
            if a == b:
                raise EditError("a route joins two different cities")
            check_route(length, colors, ferry, _longest_scored(data))
            entry = {"between": [a, b], **_route_fields(length, colors, tunnel, ferry)}
            return append_entry(text, ("routes",), flow(entry))
        case ChangeRoute(entry=index, length=length, colors=colors, tunnel=tunnel, ferry=ferry):
            old_entry = _entry(data, "routes", index)
            check_route(length, colors, ferry, _longest_scored(data))
            kept = {k: v for k, v in old_entry.items() if k not in ("tunnel", "ferry")}
            new_entry = {**kept, **_route_fields(length, colors, tunnel, ferry)}
            return replace_node(text, ("routes", index), flow(new_entry))
        case DeleteRoute(entry=index):
            _entry(data, "routes", index)
            return remove_entry(text, ("routes",), index)
        case SetBends(a=a, b=b, points=points):
            return _set_bends(text, data, a, b, points)
        case AddTicket(a=a, b=b, value=value, long=long):
            for name in (a, b):
                _check_city(cities, name)
            if a == b:
                raise EditError("a ticket joins two different cities")
            ticket: dict[str, Any] = {"between": [a, b], "value": value}
            if long:
                ticket["long"] = True
            return append_entry(text, ("tickets",), flow(ticket))
        case DeleteTicket(entry=index):
            _entry(data, "tickets", index)
            return remove_entry(text, ("tickets",), index)
        case ChangeSettings():
            return _change_settings(text, data, edit)
    raise AssertionError(edit)


def _entry(data: dict[str, Any], section: str, index: int) -> dict[str, Any]:
    entries = _section(data, section, list)
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(entries):
        raise EditError(
            f"no {section[:-1]} number {index + 1 if isinstance(index, int) else index}"
        )
    entry = entries[index]
    if not isinstance(entry, dict):
        raise EditError(f"{section[:-1]} {index + 1} is not a mapping; edit it by hand")
    return entry


def _rename(text: str, root: yaml.Node | None, old: str, new: str) -> str:
    """Every place the name is written: its key under `cities`, the `between` of
    routes, tickets and bends, its key under `layout.cities`."""
    from ttr_maps.io.yaml_text import name_scalar

    nodes: list[yaml.Node] = []
    for section in (("cities",), ("layout", "cities")):
        found = node_at(root, section)
        if found is not None and isinstance(found[1], yaml.MappingNode):
            nodes += [
                k for k, _ in found[1].value if isinstance(k, yaml.ScalarNode) and k.value == old
            ]
    for section in (("routes",), ("tickets",), ("layout", "bends")):
        found = node_at(root, section)
        if found is None or not isinstance(found[1], yaml.SequenceNode):
            continue
        for item in found[1].value:
            between = node_at(item, ("between",))
            if between is not None and isinstance(between[1], yaml.SequenceNode):
                nodes += [
                    n for n in between[1].value if isinstance(n, yaml.ScalarNode) and n.value == old
                ]
    return replace_scalars(text, nodes, name_scalar(new))


def _touches(entry: Any, name: str) -> bool:
    return (
        isinstance(entry, dict)
        and isinstance(entry.get("between"), list)
        and name in entry["between"]
    )


def _delete_city(text: str, name: str) -> str:
    """The city, then (from the last) each route, ticket and bend naming it."""
    for section in (("layout", "bends"), ("tickets",), ("routes",)):
        data, _ = _data(text)
        entries = data
        for key in section:
            entries = entries.get(key) if isinstance(entries, dict) else None
        if not isinstance(entries, list):
            continue
        for index in reversed(range(len(entries))):
            if _touches(entries[index], name):
                text = remove_entry(text, section, index)
    data, _ = _data(text)
    layout = _laid_out(data)
    if layout is not None and name in layout["cities"]:
        text = remove_entry(text, ("layout", "cities"), name)
    return remove_entry(text, ("cities",), name)


def _set_bends(text: str, data: dict[str, Any], a: str, b: str, points: tuple[Point, ...]) -> str:
    layout = _laid_out(data)
    if layout is None:
        raise EditError("bend points belong to a board layout: this map is drawn from geography")
    cities = _section(data, "cities", dict)
    for name in (a, b):
        _check_city(cities, name)
    bends = layout.get("bends") if isinstance(layout.get("bends"), list) else []
    index = next(
        (i for i, bend in enumerate(bends) if _touches(bend, a) and _touches(bend, b)), None
    )
    written = [[_number(x, BOARD_DIGITS), _number(y, BOARD_DIGITS)] for x, y in points]
    if index is not None and bends[index]["between"][0] != a:
        written.reverse()  # the entry runs from its own first city
        a, b = b, a
    entry = flow({"between": [a, b], "points": written})
    if index is None:
        if not points:
            return text
        if "bends" not in layout:
            return append_entry(text, ("layout",), f"[{entry}]", key="bends")
        return append_entry(text, ("layout", "bends"), entry)
    if not points:
        return remove_entry(text, ("layout", "bends"), index)
    return replace_node(text, ("layout", "bends", index), entry)


def _bends_follow(text: str, layout: dict[str, Any], name: str, old: Any, new: Point) -> str:
    """The bend points of a moved city's routes, moved with it: each route's shape
    turned and stretched about its other city, so its cars follow the city (the
    page shows the same while the city is dragged)."""
    start = _xy(old)
    bends = layout.get("bends") if isinstance(layout.get("bends"), list) else []
    for bend in bends:
        between = bend.get("between") if isinstance(bend, dict) else None
        points = bend.get("points") if isinstance(bend, dict) else None
        if not (isinstance(between, list) and len(between) == 2 and name in between):
            continue
        other = _xy(layout["cities"].get(between[1] if between[0] == name else between[0]))
        if start is None or other is None or not isinstance(points, list):
            continue
        moved = [_about(other, start, new, p) for p in points]
        if any(p is None for p in moved):
            continue
        a, b = between
        text = _set_bends(text, _data(text)[0], a, b, tuple(p for p in moved if p is not None))
    return text


def _xy(spec: Any) -> Point | None:
    if isinstance(spec, dict):
        x, y = spec.get("x"), spec.get("y")
        if isinstance(x, int | float) and isinstance(y, int | float):
            return (float(x), float(y))
    return None


def _about(pivot: Point, start: Point, end: Point, point: Any) -> Point | None:
    """`point` under the turn-and-stretch about `pivot` that takes `start` to `end`.

    >>> _about((0.0, 0.0), (1.0, 0.0), (0.0, 2.0), [0.5, 0.5])
    (-1.0, 1.0)
    """
    if not (isinstance(point, list) and len(point) == 2):
        return None
    if not all(isinstance(v, int | float) for v in point):
        return None
    u = complex(start[0] - pivot[0], start[1] - pivot[1])
    if u == 0:
        return None
    factor = complex(end[0] - pivot[0], end[1] - pivot[1]) / u
    moved = complex(point[0] - pivot[0], point[1] - pivot[1]) * factor
    return (round(moved.real + pivot[0], 6), round(moved.imag + pivot[1], 6))


def _change_settings(text: str, data: dict[str, Any], edit: ChangeSettings) -> str:
    from ttr_maps.authoring.starter import StarterError, check_map_id
    from ttr_maps.rules import RULE_SET_VALUES

    name = edit.name.strip()
    if not name or len(name) > MAX_CITY_NAME_CHARS or any(not c.isprintable() for c in name):
        raise EditError(f"a map's name is 1 to {MAX_CITY_NAME_CHARS} printable characters")
    try:
        check_map_id(edit.map_id)
    except StarterError as problem:
        raise EditError(str(problem)) from None
    if edit.rules not in RULE_SET_VALUES:
        raise EditError(f"rules {edit.rules!r}: one of {', '.join(RULE_SET_VALUES)}")
    wagons = field_ranges()["wagons"]
    if edit.wagons is not None and not wagons.minimum <= edit.wagons <= wagons.maximum:
        raise EditError(f"wagons per player: {wagons.describe()} (R4)")
    for key, value in (("name", name), ("id", edit.map_id), ("rules", edit.rules)):
        if data.get(key) == value:
            continue
        if key in data:
            text = replace_node(text, (key,), flow(value))
        else:
            text = append_entry(text, (), flow(value), key=key)
    settings = data.get("settings")
    written = settings.get("wagons") if isinstance(settings, dict) else None
    if edit.wagons == written:
        return text
    if edit.wagons is None:
        remaining = len(settings) - 1 if isinstance(settings, dict) else 0
        if remaining:
            return remove_entry(text, ("settings",), "wagons")
        return remove_entry(text, (), "settings")
    if isinstance(settings, dict) and "wagons" in settings:
        return replace_node(text, ("settings", "wagons"), str(edit.wagons))
    return append_entry(text, ("settings",), str(edit.wagons), key="wagons")
