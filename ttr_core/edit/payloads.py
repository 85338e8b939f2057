"""The JSON the page receives: the state of the opened file after every request
(the board, the elements, the problems tied to them, the history)."""

from __future__ import annotations

from typing import Any

from ttr_core.bots import BOTS
from ttr_core.edit.drawing import drawn_route_entries
from ttr_core.edit.session import EditSession
from ttr_core.edit.state import TICKET_VALUE, Checked

#: Most problems sent to the page (a pasted 10,000-city file has more).
MAX_PROBLEMS = 500


def state_payload(session: EditSession) -> dict[str, Any]:
    checked = session.checked
    data = checked.report.document.data if checked.report.document is not None else None
    data = data if isinstance(data, dict) else {}
    return {
        "file": session.path.name,
        "revision": session.revision,
        "dirty": session.dirty,
        "new_file": session.identity is None,
        "undo": {"count": len(session.undo_steps), "label": session.undo_label()},
        "redo": {"count": len(session.redo_steps), "label": session.redo_label()},
        "map": {
            "id": str(data.get("id", "")),
            "name": str(data.get("name", "")),
            "coordinates": checked.drawable.coordinates,
            "rules": checked.drawable.rules,
            "laid_out": checked.drawing.geometry.laid_out,
            "wagons": checked.drawable.wagons,
            "wagons_set": "wagons" in checked.drawable.settings,
        },
        "svg": checked.drawing.svg,
        "bots": [name for name in BOTS if name != "search"],
        **elements(checked, data),
        **problems(checked),
    }


def elements(checked: Checked, data: dict[str, Any]) -> dict[str, Any]:
    """Every city, route entry and ticket entry as written, with what the page
    needs beside (drawn or not, the track ids, a ticket's R2 value)."""
    from ttr_maps.graph import shortest_wagon_distance

    drawable = checked.drawable
    drawn = {c.name for c in drawable.cities}
    layout = drawable.layout
    named = set()
    raw_tickets = data.get("tickets") if isinstance(data.get("tickets"), list) else []
    for ticket in raw_tickets:
        between = ticket.get("between") if isinstance(ticket, dict) else None
        if isinstance(between, list):
            named.update(c for c in between if isinstance(c, str))
    raw_cities = data.get("cities") if isinstance(data.get("cities"), dict) else {}
    cities = [
        {
            "name": str(name),
            "drawn": name in drawn,
            "position": list(drawable.city(name).position) if name in drawn else None,
            "ticketless": name not in named,
            "pinned": bool(layout and name in layout.pinned),
        }
        for name in raw_cities
    ]
    # The drawable map numbers only the route entries it kept.
    drawn_entries = drawn_route_entries(data, drawable)
    ids: dict[int, list[str]] = {}
    for route in drawable.routes:
        ids.setdefault(drawn_entries[route.entry], []).append(route.id)
    bends = route_bends(checked, data)
    routes = []
    for index, route in enumerate(data.get("routes") or []):
        if not isinstance(route, dict):
            continue
        between = route.get("between") if isinstance(route.get("between"), list) else []
        colors = route.get("color")
        routes.append(
            {
                "entry": index,
                "a": str(between[0]) if len(between) > 0 else "",
                "b": str(between[1]) if len(between) > 1 else "",
                "length": route.get("length") if isinstance(route.get("length"), int) else None,
                "colors": [str(c) for c in (colors if isinstance(colors, list) else [colors])],
                "tunnel": route.get("tunnel") is True,
                "ferry": route.get("ferry") if isinstance(route.get("ferry"), int) else 0,
                "ids": ids.get(index, []),
                "bends": bends.get(tuple(between[:2]), []) if len(between) == 2 else [],
            }
        )
    tickets = []
    for index, ticket in enumerate(raw_tickets):
        if not isinstance(ticket, dict):
            continue
        between = ticket.get("between") if isinstance(ticket.get("between"), list) else []
        a = str(between[0]) if len(between) > 0 else ""
        b = str(between[1]) if len(between) > 1 else ""
        shortest = (
            shortest_wagon_distance(drawable, a, b)
            if a in drawn and b in drawn and a != b
            else None
        )
        tickets.append(
            {
                "entry": index,
                "a": a,
                "b": b,
                "value": ticket.get("value"),
                "long": ticket.get("long") is True,
                "shortest": shortest,
            }
        )
    return {"cities": cities, "routes": routes, "tickets": tickets}


def route_bends(checked: Checked, data: dict[str, Any]) -> dict[tuple, list[list[float]]]:
    """The bend points of a laid-out board's routes in SVG units, under (a, b)
    and (b, a), each running from its first city."""
    layout = checked.drawable.layout
    if layout is None or not isinstance(data.get("layout"), dict):
        return {}
    frame = checked.drawing.frame
    found: dict[tuple, list[list[float]]] = {}
    for bend in data["layout"].get("bends") or []:
        between = bend.get("between") if isinstance(bend, dict) else None
        points = bend.get("points") if isinstance(bend, dict) else None
        if not (isinstance(between, list) and len(between) == 2 and isinstance(points, list)):
            continue
        try:
            shown = [[round(v, 1) for v in frame.svg_of_board((p[0], p[1]))] for p in points]
        except (TypeError, IndexError):
            continue  # not drawn: the checks name it
        a, b = str(between[0]), str(between[1])
        found[(a, b)], found[(b, a)] = shown, shown[::-1]
    return found


def problems(checked: Checked) -> dict[str, Any]:
    """`ttr validate`'s problems, each with the element it is about."""
    shown = []
    for problem in checked.report.problems[:MAX_PROBLEMS]:
        element = checked.element_at(problem.position.line)
        shown.append(
            {
                "code": problem.code,
                "level": problem.level.value,
                "message": problem.message,
                "line": problem.position.line,
                "column": problem.position.column,
                "element": element.payload() if element else None,
            }
        )
    fixable = 0
    if any(p.code == TICKET_VALUE for p in checked.report.problems):
        from ttr_maps.analysis.fix import plan_fix_text

        plan = plan_fix_text(checked.text, checked.report.path)
        fixable = 0 if plan.is_skipped else len(plan.changes)
    return {
        "problems": shown,
        "problem_count": len(checked.report.problems),
        "errors": len(checked.report.errors),
        "warnings": len(checked.report.warnings),
        "fixable": fixable,
    }
