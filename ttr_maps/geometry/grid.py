"""A uniform grid of boxes: find what is near a box in about constant time, for the
label placement and the readability checks (pure Python, so validating a laid-out
map imports no numerical library)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Generic, TypeVar

Bounds = tuple[float, float, float, float]
T = TypeVar("T")


class BoxGrid(Generic[T]):
    """Items with bounding boxes in a uniform grid of square cells, to find those
    near a box fast."""

    def __init__(self, cell: float) -> None:
        self.cell = cell
        self.cells: dict[tuple[int, int], list[int]] = {}
        self.items: list[tuple[Bounds, T]] = []

    def _keys(self, box: Bounds) -> Iterator[tuple[int, int]]:
        x0, y0, x1, y1 = (math.floor(v / self.cell) for v in box)
        for gx in range(x0, x1 + 1):
            for gy in range(y0, y1 + 1):
                yield (gx, gy)

    def add(self, box: Bounds, item: T) -> None:
        self.items.append((box, item))
        for key in self._keys(box):
            self.cells.setdefault(key, []).append(len(self.items) - 1)

    def near(self, box: Bounds) -> list[T]:
        """The items whose bounding boxes meet `box`."""
        found = sorted({i for key in self._keys(box) for i in self.cells.get(key, ())})
        return [
            item
            for (x0, y0, x1, y1), item in (self.items[i] for i in found)
            if x0 <= box[2] and box[0] <= x1 and y0 <= box[3] and box[1] <= y1
        ]
