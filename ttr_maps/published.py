"""The published boards ttr bundles, as the yardstick a designer's map is set beside.

`PUBLISHED_MAPS` (in `ttr_maps.io.bundled`) names them; what each one is comes from
its own file, read once: its rule family (the map's `rules`), the table sizes its
rules allow (R1), its size, and the rules of the board ttr does not model
(`not_modelled:`). Nothing here is typed twice.

Every "beside the published boards" number (`ttr stats`, `ttr tickets`, the
editor's Numbers panel, the play-test baselines) orders the boards with
`nearest_first`: the same rule family first, then the same table sizes, then the
boards closest in size.

>>> boards = published_boards()
>>> [b.map_id for b in boards][:2]
['north_america', 'europe']
>>> nordic = next(b for b in boards if b.map_id == "nordic_countries")
>>> nordic.family, nordic.players, nordic.table_sizes
('nordic', (2, 3), '2–3')
>>> [b.map_id for b in nearest_first("nordic", (2, 3), cities=40, routes=80)][:2]
['nordic_countries', 'switzerland']
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache


@dataclass(frozen=True, slots=True)
class PublishedBoard:
    """One published board as its file describes it."""

    map_id: str
    name: str
    #: The rule family: the map's `rules` (base, europe, nordic).
    family: str
    #: The player counts its rules allow (R1), smallest first.
    players: tuple[int, ...]
    cities: int
    routes: int
    #: The board's rules ttr does not model (empty when it models them all).
    not_modelled: tuple[str, ...]

    @property
    def table_sizes(self) -> str:
        """`2–5`, `2–3`: the player counts as people write them."""
        low, high = self.players[0], self.players[-1]
        return str(low) if low == high else f"{low}–{high}"

    @property
    def heading(self) -> str:
        """The board's name with its rule family and table sizes, for a column."""
        return f"{self.name} ({self.family}, {self.table_sizes})"

    def to_dict(self) -> dict[str, object]:
        return {
            "id": self.map_id,
            "name": self.name,
            "rules": self.family,
            "players": list(self.players),
            "not_modelled": list(self.not_modelled),
        }


@cache
def published_boards() -> tuple[PublishedBoard, ...]:
    """Every published board, in the order of `PUBLISHED_MAPS`."""
    from ttr_maps.io.bundled import PUBLISHED_MAPS
    from ttr_maps.load import load_map
    from ttr_maps.rules import map_rules

    boards = []
    for map_id in PUBLISHED_MAPS:
        game_map = load_map(map_id)
        boards.append(
            PublishedBoard(
                map_id=map_id,
                name=game_map.name,
                family=game_map.rules,
                players=tuple(map_rules(game_map).player_counts()),
                cities=len(game_map.cities),
                routes=len(game_map.routes),
                not_modelled=game_map.not_modelled,
            )
        )
    return tuple(boards)


def nearest_first(
    family: str,
    players: Iterable[int],
    *,
    cities: int,
    routes: int,
    boards: Sequence[PublishedBoard] | None = None,
) -> tuple[PublishedBoard, ...]:
    """The published boards, nearest to a map first: the same rule family, then the
    same table sizes (then sharing some), then the closest in size (cities and
    routes, as ratios), then by name. A board is never left out."""
    sizes = tuple(players)

    def key(board: PublishedBoard) -> tuple[int, int, float, str]:
        same_sizes = 0 if board.players == sizes else 1 if set(board.players) & set(sizes) else 2
        size = abs(math.log(max(board.cities, 1) / max(cities, 1)))
        size += abs(math.log(max(board.routes, 1) / max(routes, 1)))
        return (board.family != family, same_sizes, round(size, 6), board.name)

    return tuple(sorted(published_boards() if boards is None else boards, key=key))


def describe_not_modelled(map_id: str, not_modelled: Sequence[str]) -> str:
    """One line for a report: what of the board ttr does not model, or ''."""
    if not not_modelled:
        return ""
    return f"{map_id}: not modelled: " + "; ".join(not_modelled)
