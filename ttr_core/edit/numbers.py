"""The live numbers beside the board, each beside the published boards' own (the
nearest that seat as many players: the same rule family, the same table sizes,
then size, `ttr_maps.published.nearest_first`; computed the same way from the
bundled maps):

- spaces against wagons at a table size (`ttr stats`: wagons in play per claimable
  space; near 1 the board fills up);
- colour balance: the spaces of each card colour, and their spread (largest over
  smallest; the published boards are near 1);
- crowding in play at that table size: the connections a game takes from players
  who needed them, counted in greedy games in the background with its 95 %
  interval (`ttr_core.edit.crowding`; `ttr tickets --games N` counts the same);
- the deck number (`ttr tickets`: the share of held tickets players complete,
  predicted; its crowding term is the model's, and it was validated as a whole
  against completion in play: docs/tickets.md).

A number that cannot be worked out yet (no tickets, no routes) is None.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ttr_core.edit.state import Checked
from ttr_maps.model import Map
from ttr_maps.rules import CARD_COLORS

#: Published boards the panel sets the map beside (the nearest ones).
BESIDE = 3


def map_numbers(game_map: Map, players: int) -> dict[str, Any]:
    from ttr_maps.analysis.stats import map_stats
    from ttr_maps.analysis.tickets import DeckError, TicketBoard, measure_deck

    numbers: dict[str, Any] = {
        "wagon_ratio": None,
        "wagons_in_play": None,
        "claimable_spaces": None,
        "colors": {},
        "color_spread": None,
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
        # The deck number at this table size: the share of held tickets players
        # complete, predicted (docs/tickets.md).
        completion = measures.completion.get(players)
        numbers["deck_number"] = None if completion is None else f"{100 * completion:.0f} %"
    return numbers


@cache
def published_map(key: str) -> Map:
    from ttr_maps.load import load_map

    return load_map(key)


@cache
def board_numbers(key: str, players: int) -> dict[str, Any]:
    """One published board's numbers at a table size, computed once."""
    return map_numbers(published_map(key), players)


def games_at(players: int) -> int:
    """The games a count plays at least: `ttr tickets`'s default at that table size."""
    from ttr_core.playtest.crowding import DEFAULT_CROWDING_GAMES
    from ttr_core.playtest.crowding import games_at as seat_games

    return seat_games(players, DEFAULT_CROWDING_GAMES)


def nearest_boards(game_map: Map | None, players: int) -> list[Any]:
    """The `BESIDE` published boards nearest the map that seat `players` (without a
    readable map: the first ones that do)."""
    from ttr_maps.published import nearest_first, published_boards
    from ttr_maps.rules import map_rules

    boards: Any = published_boards()
    if game_map is not None:
        boards = nearest_first(
            game_map.rules,
            map_rules(game_map).player_counts(),
            cities=len(game_map.cities),
            routes=len(game_map.routes),
        )
    seated = [b for b in boards if players in b.players]
    return seated[:BESIDE]


def live_numbers(checked: Checked, players: int) -> dict[str, Any]:
    """The numbers of the map now (None where the map has errors that keep
    them from meaning anything) and the nearest published boards' (`boards`
    names them in order, with their rules, table sizes and what of each is not
    modelled; `published` holds their numbers by id; `not_modelled` what of the
    map itself is not)."""
    from ttr_core.edit.crowding import COUNTS

    game_map = checked.report.map if not checked.report.errors else None
    mine = map_numbers(game_map, players) if game_map is not None else None
    boards = nearest_boards(game_map, players)
    crowding: dict[str, Any] = {}
    if mine is not None and game_map is not None and mine["deck_number"] is not None:
        key = ("text", hash(checked.text), players)
        crowding["map"] = COUNTS.ask(key, game_map, players, games_at(players)).payload()
    for board in boards:
        key = ("board", board.map_id, players)
        board_map = published_map(board.map_id)
        count = COUNTS.ask(key, board_map, players, games_at(players), edited=False)
        crowding[board.map_id] = count.payload()
    return {
        "players": players,
        "map": mine,
        # Crowding in play, by column ("map" and each board's id): counted in the
        # background, so a count may still be going on (the page asks again).
        "crowding": crowding,
        # What of the map ttr does not model (its `not_modelled:`): the numbers
        # are the map's played without it.
        "not_modelled": [] if game_map is None else list(game_map.not_modelled),
        "boards": [b.to_dict() for b in boards],
        "published": {b.map_id: board_numbers(b.map_id, players) for b in boards},
    }
