"""The same map written in another order: its cities, routes and tickets shuffled,
each route's and ticket's two cities swapped at random and a double's colours
reversed. Play, reports and analyses must not tell the two apart (docs/engine.md,
"Play order"): `renaming` pairs the route ids of the two (a double's tracks may
swap numbers), so that records compare up to it.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any

from ttr_maps.model import Map, Route


def map_data(map_id_or_path: str) -> dict[str, Any]:
    """The parsed data of a bundled map (or a map file)."""
    from ttr_maps.io.bundled import resolve_map_argument
    from ttr_maps.io.document import read_document

    return dict(read_document(resolve_map_argument(map_id_or_path)).data)


def reordered_data(data: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
    """`data` with every list in another order (see the module's docstring)."""
    out = dict(data)
    cities = list(data["cities"].items())
    rng.shuffle(cities)
    out["cities"] = dict(cities)
    routes = []
    for entry in data["routes"]:
        entry = dict(entry)
        if rng.random() < 0.5:
            entry["between"] = list(reversed(entry["between"]))
        if isinstance(entry["color"], list):
            entry["color"] = list(reversed(entry["color"]))
        routes.append(entry)
    rng.shuffle(routes)
    out["routes"] = routes
    tickets = []
    for entry in data.get("tickets", []):
        entry = dict(entry)
        if rng.random() < 0.5:
            entry["between"] = list(reversed(entry["between"]))
        tickets.append(entry)
    rng.shuffle(tickets)
    out["tickets"] = tickets
    out.pop("layout", None)  # drawn positions: nothing play reads
    return out


def _content(route: Route) -> tuple[Any, ...]:
    return (*sorted(route.cities), route.length, route.color, route.tunnel, route.ferry)


def renaming(one: Map, other: Map) -> dict[str, str]:
    """Route id in `one` -> the id of the same route in `other` (a double's two
    tracks alike in every way are paired in play order, as the engine numbers them)."""

    def by_content(game_map: Map) -> dict[tuple[Any, ...], list[str]]:
        found: dict[tuple[Any, ...], list[str]] = {}
        for route in game_map.in_play_order.routes:
            found.setdefault(_content(route), []).append(route.id)
        return found

    mine, theirs = by_content(one), by_content(other)
    assert mine.keys() == theirs.keys()
    return {a: b for key in mine for a, b in zip(mine[key], theirs[key], strict=True)}


_ROUTE_ID = re.compile(r"\S+-\S+")


def renamed_record(record: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    """A game record with its route ids renamed (`renaming`), its fingerprint and
    the order of each seat's routes and stations left out: what two games in two
    orders of one map share."""

    def rename_action(text: str) -> str:
        return _ROUTE_ID.sub(lambda m: names.get(m.group(0), m.group(0)), text)

    def seat(entry: Mapping[str, Any]) -> dict[str, Any]:
        out = dict(entry)
        out["routes"] = sorted(
            (names.get(r["id"], r["id"]), r["length"], r["color"]) for r in entry["routes"]
        )
        out["tickets"] = [
            (*sorted((t["a"], t["b"])), t["value"], t["completed"], t.get("long", False))
            for t in entry["tickets"]
        ]
        out["stations"] = sorted(entry.get("stations", ()))
        out["station_routes"] = sorted(names.get(r, r) for r in entry.get("station_routes", ()))
        return out

    out = {key: value for key, value in record.items() if key != "map_fingerprint"}
    out["actions"] = [
        {**entry, "action": rename_action(entry["action"])} for entry in record["actions"]
    ]
    if record.get("result") is not None:
        result = dict(record["result"])
        result["seats"] = [seat(s) for s in result["seats"]]
        out["result"] = result
    return out
