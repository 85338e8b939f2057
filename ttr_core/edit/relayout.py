"""The board laid out from the page: what `ttr layout --write` does, on the text
being edited (pinned cities stay put; nothing is written until the designer saves).
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path


class RelayoutError(ValueError):
    """The board cannot be laid out now (the message says why)."""


@dataclass(frozen=True)
class Relayout:
    """The text with its new `layout:` section and what to tell the designer."""

    text: str
    summary: str
    problems: tuple[str, ...]


def relayout(text: str, name: str) -> Relayout:
    """`text` (a map file named `name`) with a board layout computed afresh by
    `ttr_maps.geometry.layout.compute_layout`, its pins kept."""
    from ttr_maps.authoring.layout_file import laid_out_text
    from ttr_maps.geometry.layout import LayoutError, compute_layout
    from ttr_maps.io.files import write_text_atomically
    from ttr_maps.load import map_ignoring_layout

    with tempfile.TemporaryDirectory(prefix="ttr-edit-layout-") as folder:
        copy = Path(folder) / Path(name).name
        write_text_atomically(copy, text)
        game_map, previous, problems = map_ignoring_layout(copy)
    if game_map is None:
        first = f": {problems[0].message}" if problems else ""
        raise RelayoutError(f"the map has errors to fix before it is laid out{first}")
    pinned = previous.pinned if previous is not None else frozenset()
    try:
        result = compute_layout(game_map, previous, pinned)
    except LayoutError as error:
        raise RelayoutError(str(error)) from None
    laid_out = laid_out_text(text, name, result.layout)
    new_text, board_problems = laid_out.text, laid_out.problems
    width, height = result.layout.size or (0.0, 0.0)
    summary = (
        f"Laid out: {width:.1f} x {height:.1f} cm, {len(result.layout.bends)} bowed route(s)"
        + (f", {len(result.pinned)} pinned city(ies) kept" if result.pinned else "")
        + (
            f"; {len(board_problems)} board problem(s) left (see Checks)"
            if board_problems
            else "; readable (TTR551-TTR557 met)"
        )
    )
    return Relayout(new_text, summary, tuple(p.message for p in board_problems))
