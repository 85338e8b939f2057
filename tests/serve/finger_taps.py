"""Taps of a finger on the web table's board, in Chromium with a phone's viewport
and touch: where a tap near a route lands (the route, a question which route,
another route, nothing). Shared by tests/serve/test_serve_phone.py and
benchmarks/serve_taps_bench.py."""

from __future__ import annotations

import math
from typing import Any

import httpx2

PHONE = {"width": 390, "height": 844}
#: Replace the page's click handlers by recorders: `window.tapped` is what the
#: last tap resolved to (["route", ID], ["city", NAME], ["ask", ID or NAME…] when
#: the page asked which, or null). Before the tap targets were measured the page
#: had no `board.choose`: nothing to replace then.
RECORD = """() => {
  window.tapped = null;
  table.clickRoute = (node) => { window.tapped = ['route', node.dataset.route]; };
  table.clickCity = (node) => { window.tapped = ['city', node.dataset.city]; };
  board.choose = (hits) => {
    window.tapped = ['ask', ...hits.map((hit) =>
      hit.route ? hit.route.dataset.route : hit.city.dataset.city)];
  };
}"""
KINDS = ("hit", "asked", "wrong", "nothing")
#: Every route: its id and its two cities (a double route's twin has the same).
ROUTES = """() => [...document.querySelectorAll('#board g.route')].map((route) => ({
  id: route.dataset.route,
  pair: route.dataset.a + '|' + route.dataset.b,
}))"""
#: Route `id`'s middle car (an SVG polygon).
MIDDLE_CAR = """(id) => {
  const route = [...document.querySelectorAll('#board g.route')]
    .find((r) => r.dataset.route === id);
  const cars = route.querySelectorAll('polygon.car');
  return cars[Math.floor(cars.length / 2)];
}"""
#: Bring route `id`'s middle car into the middle of the board's view; its centre.
CENTRE = (
    "(id) => {\n  const car = ("
    + MIDDLE_CAR
    + """)(id);
  car.scrollIntoView({ block: 'center', inline: 'center' });
  const box = car.getBoundingClientRect();
  return [box.left + box.width / 2, box.top + box.height / 2];
}"""
)


def directions() -> list[tuple[float, float]]:
    return [(math.cos(k * math.pi / 4), math.sin(k * math.pi / 4)) for k in range(8)]


def phone_page(browser: Any, timeout_ms: float = 30_000) -> tuple[Any, Any]:
    """A page in a new context with a phone's viewport, touch and pixel ratio."""
    context = browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, bypass_csp=True
    )
    page = context.new_page()
    page.set_default_timeout(timeout_ms)
    return context, page


def new_game(url: str, players: list[str], game_map: str = "north_america") -> tuple[str, str]:
    """A game of seed 4 at instant pace on the server at `url`: its id and the
    first seat's token."""
    data = httpx2.post(
        f"{url}/api/games",
        json={"map": game_map, "players": players, "seed": 4, "pace": "instant"},
        timeout=30,
    ).json()
    return data["game"], data["seats"][0]["token"]


def open_phone_seat(browser: Any, url: str, map_id: str) -> tuple[Any, Any]:
    game, token = new_game(url, ["human", "greedy"], map_id)
    context, page = phone_page(browser)
    page.goto(f"{url}/#play/{game}/{token}")
    page.wait_for_selector("#dialog[open]")
    page.click("#dialog-buttons button.primary")  # keep the tickets: the dialog goes
    page.wait_for_function("!document.querySelector('#dialog').open")
    return context, page


def tap_routes(page: Any, offsets: list[float], every: int = 1) -> dict[float, dict[str, float]]:
    """Every `every`-th route, tapped `offsets` px off its middle car in eight
    directions. Per offset: the share of taps that claimed the route (hit), asked which with
    the route among the choices (asked), claimed another route or a city (wrong),
    did nothing; and of routes that all eight taps hit (`routes hit`) or reached,
    hit or asked (`routes reached`)."""
    page.evaluate(RECORD)
    routes = page.evaluate(ROUTES)[::every]
    pair_of = {route["id"]: route["pair"] for route in page.evaluate(ROUTES)}
    counts = {
        offset: dict.fromkeys((*KINDS, "routes hit", "routes reached"), 0) for offset in offsets
    }
    for route in routes:
        x, y = page.evaluate(CENTRE, route["id"])
        for offset in offsets:
            kinds = []
            for dx, dy in directions():
                page.evaluate("window.tapped = null")
                page.touchscreen.tap(x + dx * offset, y + dy * offset)
                kinds.append(kind_of(page.evaluate("window.tapped"), route["pair"], pair_of))
            for kind in kinds:
                counts[offset][kind] += 1
            counts[offset]["routes hit"] += kinds.count("hit") == 8
            counts[offset]["routes reached"] += kinds.count("hit") + kinds.count("asked") == 8
    return {
        offset: {
            name: value / (len(routes) * (1 if name.startswith("routes") else 8))
            for name, value in count.items()
        }
        for offset, count in counts.items()
    }


def kind_of(tapped: list[str] | None, pair: str, pair_of: dict[str, str]) -> str:
    if not tapped:
        return "nothing"
    if tapped[0] == "route":
        return "hit" if pair_of[tapped[1]] == pair else "wrong"
    if tapped[0] == "ask":
        return "asked" if any(pair_of.get(name) == pair for name in tapped[1:]) else "wrong"
    return "wrong"
