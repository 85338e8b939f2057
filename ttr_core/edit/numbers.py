"""The live numbers beside the board, each beside the published boards' own
(North America and Europe, computed the same way from the bundled maps):

- spaces against wagons at a table size (`ttr stats`: wagons in play per claimable
  space; near 1 the board fills up);
- colour balance: the spaces of each card colour, and their spread (largest over
  smallest; the published boards are near 1);
- crowding at that table size (`ttr tickets`: the share of demanded wagons no free
  track can serve);
- the deck number (`ttr tickets`: the share of held tickets players complete, predicted).

A number that cannot be worked out yet (no tickets, no routes) is None.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ttr_core.edit.state import Checked
from ttr_maps.model import Map
from ttr_maps.rules import CARD_COLORS

PUBLISHED = ("north_america", "europe")


def map_numbers(game_map: Map, players: int) -> dict[str, Any]:
    from ttr_maps.analysis.stats import map_stats
    from ttr_maps.analysis.tickets import DeckError, TicketBoard, measure_deck

    numbers: dict[str, Any] = {
        "wagon_ratio": None,
        "wagons_in_play": None,
        "claimable_spaces": None,
        "colors": {},
        "color_spread": None,
        "crowding": None,
        "deck_number": None,
    }
    if not game_map.routes:
        return numbers
    stats = map_stats(game_map)
    load = next((p for p in stats.players if p.players == players), None)
    if load is not None:
        numbers["wagon_ratio"] = round(load.wagon_ratio, 3)
        numbers["wagons_in_play"] = load.wagons_in_play
        numbers["claimable_spaces"] = load.claimable_spaces
    spaces = {color: 0 for color in CARD_COLORS}
    for use in stats.colors:
        if use.color in spaces:
            spaces[use.color] = use.spaces
    numbers["colors"] = spaces
    used = [s for s in spaces.values()]
    if min(used) > 0:
        numbers["color_spread"] = round(max(used) / min(used), 2)
    if game_map.tickets:
        try:
            measures = measure_deck(TicketBoard(game_map), game_map.tickets)
        except DeckError:
            return numbers
        crowding = next((c for c in measures.crowding if c.players == players), None)
        if crowding is not None:
            numbers["crowding"] = round(crowding.excess_share, 3)
        # The deck number at this table size: the share of held tickets players
        # complete, predicted (docs/tickets.md).
        completion = measures.completion.get(players)
        numbers["deck_number"] = None if completion is None else f"{100 * completion:.0f} %"
    return numbers


@cache
def published_numbers(players: int) -> dict[str, dict[str, Any]]:
    from ttr_maps.load import load_map

    return {key: map_numbers(load_map(key), players) for key in PUBLISHED}


def live_numbers(checked: Checked, players: int) -> dict[str, Any]:
    """The numbers of the map now (None where the map has errors that keep
    them from meaning anything) and the published boards'."""
    game_map = checked.report.map if not checked.report.errors else None
    mine = map_numbers(game_map, players) if game_map is not None else None
    return {"players": players, "map": mine, "published": published_numbers(players)}
