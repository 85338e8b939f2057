"""The maps a web table offers: the bundled ones and the map files it was started
with (a file wins over a bundled map of the same id), each with its board drawn
once as SVG."""

from __future__ import annotations

from collections.abc import Sequence

from ttr_core.web.svg import board_svg
from ttr_maps.model import Map


class MapCatalogue:
    """The maps a server offers: the bundled ones (loaded on first use, and kept by
    `load_map`'s own cache) and the files it was started with, as they were read
    then (a file wins over a bundled map of the same id)."""

    def __init__(self, extra_maps: Sequence[Map] = ()) -> None:
        from ttr_maps.io.bundled import bundled_map_ids

        self._files = {game_map.id: game_map for game_map in extra_maps}
        self._keys = sorted({*bundled_map_ids(), *self._files})
        self._svg: dict[str, str] = {}

    def ordered_keys(self) -> list[str]:
        """Map files first (what a designer came to test), then the bundled maps."""
        return sorted(self._keys, key=lambda key: (key not in self._files, key))

    def get(self, key: str) -> Map | None:
        if key not in self._keys:
            return None
        if key in self._files:
            return self._files[key]
        from ttr_maps.load import load_map

        return load_map(key)

    def is_file(self, key: str) -> bool:
        return key in self._files

    def svg(self, key: str) -> str | None:
        game_map = self.get(key)
        if game_map is None:
            return None
        if key not in self._svg:
            self._svg[key] = board_svg(game_map)
        return self._svg[key]
