"""Print-and-play PDF of a map (`ttr print`): the board at real size in tiles, the
ticket cards, the train cards, a scoring track and a one-page rules summary.

Pages, in order:

1. **Assembly**: the whole board shrunk onto one page with the tile grid, so the
   tiles can be laid out and glued in the right order.
2. **Board tiles**, row by row from the top left: the board at real size (its
   layout's width, or `--board-width`), each tile overlapping its right and lower
   neighbours by `OVERLAP_MM` (shaded band: glue the next tile onto it), with
   alignment crosses at the corners of the band and a label ("B2: row B of 3,
   column 2 of 4"). Tiles that would carry nothing (`empty_tiles`: a board around
   an L-shaped country) are left out; the assembly page names them.
3. **Scoring track** 0–100, rows of squares to cut out and lay beside the board.
4. **Card sheets**, each followed by the sheet of its backs (mirrored, for
   printing on both sides flipped on the long edge): the **ticket cards** at
   63 × 88 mm (9 per A4 or Letter page, 16 per A3): the two cities, the value (R2,
   plus a designer's bonus, D7), a small map with both cities marked, long tickets
   (E4) after the regular ones and with a back of their own, so the two piles
   differ face down; then the **train cards** (R3: 12 of each of the 8 colours and
   14 locomotives) at 44 × 68 mm, 16 per A4 page, starting on the last ticket
   sheet when there is room (`card_sheets`: every page is filled before the next).
5. **Rules summary**: one page, with the map's own numbers.

Drawing is matplotlib's PDF backend with TrueType fonts embedded as such
(`pdf.fonttype` 42), so all text is real, selectable text; matplotlib already
draws the board for previews (`ttr_maps.render.draw.draw_map` on the same
`ttr_maps.geometry.board` geometry), so the printed board is the previewed board, and no
second PDF library is needed. Paper sizes are named (A4, A3, Letter).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ttr_maps.geometry.board import BoardGeometry, board_geometry
from ttr_maps.model import Map
from ttr_maps.rules import (
    CARD_COLORS,
    CARDS_PER_COLOR,
    DECK_SIZE,
    LOCOMOTIVES,
    RuleSet,
    map_rules,
    named,
)
from ttr_maps.text import for_matplotlib

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: Paper sizes in millimetres (portrait), by the names designers use.
PAPERS: Mapping[str, tuple[float, float]] = {
    "A4": (210.0, 297.0),
    "A3": (297.0, 420.0),
    "Letter": (215.9, 279.4),
}
MARGIN_MM = 10.0
CARD_SHEET_MARGIN_MM = 5.0
OVERLAP_MM = 10.0
TICKET_MM = (63.0, 88.0)
TRAIN_CARD_MM = (44.0, 68.0)
#: Width of a board drawn from geography (no layout), in cm: a published board.
DEFAULT_BOARD_WIDTH_CM = 80.0
TRACK_SQUARE_MM = 18.0
_MM_PER_INCH = 25.4
_FRAME = "#262626"


class PrintError(ValueError):
    """The PDF cannot be made as asked: unknown paper, board width or output."""


def parse_paper(name: str) -> str:
    """The paper's canonical name, case-insensitively.

    >>> parse_paper("a4"), parse_paper("letter")
    ('A4', 'Letter')
    """
    for known in PAPERS:
        if known.lower() == name.strip().lower():
            return known
    raise PrintError(f"paper {name!r}: use one of {', '.join(PAPERS)}")


@dataclass(frozen=True)
class TileGrid:
    """How the board is cut into pages: `columns` x `rows` tiles."""

    columns: int
    rows: int
    #: Board width and height as printed, in mm.
    board_mm: tuple[float, float]
    #: The printable area of a page (paper minus margins), in mm.
    area_mm: tuple[float, float]
    #: Tiles (row, column) that would carry nothing: not printed.
    empty: frozenset[tuple[int, int]] = frozenset()

    @property
    def printed(self) -> list[tuple[int, int]]:
        """The tiles printed, row by row from the top left."""
        return [
            (row, column)
            for row in range(self.rows)
            for column in range(self.columns)
            if (row, column) not in self.empty
        ]

    @property
    def step_mm(self) -> tuple[float, float]:
        return (self.area_mm[0] - OVERLAP_MM, self.area_mm[1] - OVERLAP_MM)

    def name(self, row: int, column: int) -> str:
        return f"{_row_letter(row)}{column + 1}"


def tile_grid(board_mm: tuple[float, float], paper: str) -> TileGrid:
    """The tiles for a board of `board_mm`, on portrait or landscape pages of
    `paper`, whichever needs fewer pages (portrait on a tie).

    >>> grid = tile_grid((800.0, 530.0), "A4")
    >>> grid.columns * grid.rows, grid.area_mm
    (9, (277.0, 190.0))
    """
    width, height = PAPERS[paper]
    best: TileGrid | None = None
    for area in (
        (width - 2 * MARGIN_MM, height - 2 * MARGIN_MM),
        (height - 2 * MARGIN_MM, width - 2 * MARGIN_MM),
    ):
        step = (area[0] - OVERLAP_MM, area[1] - OVERLAP_MM)
        columns = max(1, math.ceil((board_mm[0] - OVERLAP_MM) / step[0]))
        rows = max(1, math.ceil((board_mm[1] - OVERLAP_MM) / step[1]))
        grid = TileGrid(columns, rows, board_mm, area)
        if best is None or columns * rows < best.columns * best.rows:
            best = grid
    assert best is not None
    return best


def _row_letter(row: int) -> str:
    letters = ""
    row += 1
    while row:
        row, rest = divmod(row - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def board_frame(board: BoardGeometry) -> tuple[float, float, float, float]:
    """The board's rectangle in board units: (0, 0) to the layout's size on a
    laid-out board, else the drawn bounds plus a margin of one wagon space."""
    x0, y0, x1, y1 = board.bounds
    pad = board.space
    return (x0 - pad, y0 - pad, x1 + pad, y1 + pad)


@dataclass(frozen=True)
class PrintPlan:
    """How a board is printed: its frame in board units, the scale and the tiles."""

    board: BoardGeometry
    #: The board's rectangle in board units (`board_frame`, or the layout's size).
    frame: tuple[float, float, float, float]
    mm_per_unit: float
    grid: TileGrid


def print_plan(game_map: Map, paper: str, board_width_cm: float | None = None) -> PrintPlan:
    """The frame, scale and tiles of `game_map` printed `board_width_cm` wide (default:
    the layout's board width, or 80 cm for a map drawn from geography) on `paper`.
    Raises `PrintError` for a width outside 10-500 cm."""
    board = board_geometry(game_map)
    frame = board_frame(board)
    if board.laid_out and game_map.layout is not None and game_map.layout.size:
        frame = (0.0, 0.0, *game_map.layout.size)
    frame_width = frame[2] - frame[0]
    width_cm = board_width_cm
    if width_cm is None:
        width_cm = frame_width if board.laid_out else DEFAULT_BOARD_WIDTH_CM
    if not 10 <= width_cm <= 500:
        raise PrintError(f"board width {width_cm:g} cm: choose 10 to 500 cm")
    mm_per_unit = 10 * width_cm / frame_width
    board_mm = (frame_width * mm_per_unit, (frame[3] - frame[1]) * mm_per_unit)
    grid = tile_grid(board_mm, paper)
    grid = dataclasses.replace(grid, empty=empty_tiles(board, frame, mm_per_unit, grid))
    return PrintPlan(board, frame, mm_per_unit, grid)


def empty_tiles(
    board: BoardGeometry,
    frame: tuple[float, float, float, float],
    mm_per_unit: float,
    grid: TileGrid,
) -> frozenset[tuple[int, int]]:
    """The tiles that would carry nothing: no car, city dot or label meets the part
    of the tile its neighbours do not cover (the band its right and lower neighbours
    are glued onto shows on them too). A board around an L-shaped country leaves
    such tiles; they are left out, and the assembly page says which."""
    from ttr_maps.geometry.grid import BoxGrid

    items: BoxGrid[None] = BoxGrid(max(grid.step_mm) / mm_per_unit)
    for shape in board.routes.values():
        for car in shape.cars:
            xs, ys = [p[0] for p in car.corners], [p[1] for p in car.corners]
            items.add((min(xs), min(ys), max(xs), max(ys)), None)
    r = board.city_radius
    for x, y in board.positions.values():
        items.add((x - r, y - r, x + r, y + r), None)
    for label in board.labels.values():
        items.add(label.box, None)
    step_w, step_h = (s / mm_per_unit for s in grid.step_mm)
    area_w, area_h = (s / mm_per_unit for s in grid.area_mm)
    empty = set()
    for row in range(grid.rows):
        for column in range(grid.columns):
            x0 = frame[0] + column * step_w
            y1 = frame[3] - row * step_h
            width = area_w if column == grid.columns - 1 else step_w
            height = area_h if row == grid.rows - 1 else step_h
            if not items.near((x0, y1 - height, x0 + width, y1)):
                empty.add((row, column))
    return frozenset(empty)


def print_map(
    game_map: Map,
    path: str | Path,
    *,
    paper: str = "A4",
    board_width_cm: float | None = None,
) -> int:
    """Write the print-and-play PDF of `game_map` to `path` (atomically). Returns
    the number of pages. `board_width_cm` defaults to the layout's board width, or
    80 cm for a map drawn from geography."""
    import zlib

    import matplotlib
    from matplotlib.backends.backend_pdf import PdfPages

    from ttr_maps.io.files import (
        OutputPathError,
        atomic_target,
        check_output_path,
        describe_os_error,
    )
    from ttr_maps.render.figure import reporting_missing_glyphs

    paper = parse_paper(paper)
    target = Path(path)
    if target.suffix.lower() != ".pdf":
        raise PrintError(f"{target}: the output must be a .pdf file")
    try:
        check_output_path(target)
    except OutputPathError as error:
        raise PrintError(str(error)) from None
    plan = print_plan(game_map, paper, board_width_cm)
    board, frame, mm_per_unit, grid = plan.board, plan.frame, plan.mm_per_unit, plan.grid
    pages = 0
    metadata = {"Title": f"{game_map.name}: print and play", "Creator": "ttr", "CreationDate": None}
    try:
        with (
            matplotlib.rc_context({"pdf.fonttype": 42, "pdf.compression": 6}),
            atomic_target(target) as temporary,
            reporting_missing_glyphs(),
            PdfPages(temporary, metadata=metadata) as pdf,
        ):
            for figure in _pages(game_map, board, frame, mm_per_unit, grid, paper):
                pdf.savefig(figure)
                pages += 1
    except (OSError, zlib.error) as error:
        # A write that fails inside PdfPages (a full disk) leaves its compressor
        # broken, and closing it raises zlib.error: report the write error.
        cause = error
        while not isinstance(cause, OSError) and cause.__context__ is not None:
            cause = cause.__context__
        reason = describe_os_error(cause) if isinstance(cause, OSError) else "the PDF writer failed"
        raise PrintError(f"{target}: cannot write ({reason})") from None
    return pages


def _pages(game_map, board, frame, mm_per_unit, grid, paper):
    yield _assembly_page(game_map, board, frame, grid, paper)
    for row, column in grid.printed:
        yield _tile_page(game_map, frame, mm_per_unit, grid, row, column, paper)
    yield _track_page(game_map, paper)
    cards = [*_ticket_cards(game_map, board), *_train_cards()]
    for sheet in card_sheets(cards, paper):
        yield _sheet_page(sheet, paper, backs=False)
        yield _sheet_page(sheet, paper, backs=True)
    yield _rules_page(game_map, paper)


# ---------------------------------------------------------------- pages


def _page(paper: str, landscape: bool = False) -> Figure:
    from ttr_maps.render.figure import new_figure

    width, height = PAPERS[paper]
    if landscape:
        width, height = height, width
    return new_figure((width / _MM_PER_INCH, height / _MM_PER_INCH), dpi=72)


def _mm_axes(figure: Figure, x: float, y: float, width: float, height: float) -> Any:
    """An axes at (x, y) mm from the page's lower left, `width` x `height` mm,
    whose data units are millimetres, with nothing drawn around it."""
    page_w = figure.get_figwidth() * _MM_PER_INCH
    page_h = figure.get_figheight() * _MM_PER_INCH
    ax = figure.add_axes((x / page_w, y / page_h, width / page_w, height / page_h))
    ax.set_xlim(0, width)
    ax.set_ylim(0, height)
    ax.set_axis_off()
    return ax


def _text(figure: Figure, x_mm: float, y_mm: float, text: str, size: float, **style: Any) -> None:
    from ttr_maps.render.figure import font_properties

    page_w = figure.get_figwidth() * _MM_PER_INCH
    page_h = figure.get_figheight() * _MM_PER_INCH
    weight = style.pop("weight", "normal")
    figure.text(  # names are text, never mathtext
        x_mm / page_w,
        y_mm / page_h,
        _escaped(text),
        fontproperties=font_properties(size, weight),
        **style,
    )


def _draw_board(ax: Any, game_map: Map, view: tuple[float, float, float, float]) -> None:
    from ttr_maps.render.draw import draw_map

    draw_map(ax, game_map, legend=False, colorbar=False, view=view)
    for text in ax.texts:
        if text.get_path_effects():  # a halo would print the label as outlines
            text.set_path_effects([])
            text.set_bbox({"facecolor": "white", "alpha": 0.75, "edgecolor": "none", "pad": 0.6})


def _label(ax: Any, x: float, y: float, text: str, size: float, **style: Any) -> None:
    """Text on a card or sheet, in the fonts previews use (fallbacks for any script)."""
    from ttr_maps.render.figure import font_properties

    weight = style.pop("weight", "normal")  # names are text, never mathtext
    ax.text(x, y, _escaped(text), fontproperties=font_properties(size, weight), **style)


def _escaped(text: str) -> str:
    """`text` for matplotlib, line by line: the page's own line breaks stay breaks
    (names cannot hold one: the schema's names are single lines), every other
    control character and `$` in a line escaped."""
    return "\n".join(for_matplotlib(line) for line in text.split("\n"))


def _assembly_page(game_map, board, frame, grid, paper) -> Figure:
    from matplotlib.patches import Rectangle

    landscape = grid.area_mm[0] > grid.area_mm[1]
    figure = _page(paper, landscape)
    page_w = figure.get_figwidth() * _MM_PER_INCH
    page_h = figure.get_figheight() * _MM_PER_INCH
    _text(
        figure,
        MARGIN_MM,
        page_h - MARGIN_MM - 5,
        f"{game_map.name}: print and play",
        16,
        weight="bold",
    )
    _text(
        figure,
        MARGIN_MM,
        page_h - MARGIN_MM - 12,
        f"Board {grid.board_mm[0] / 10:.1f} × {grid.board_mm[1] / 10:.1f} cm on "
        f"{len(grid.printed)} {paper} pages ({grid.rows} rows × {grid.columns} columns"
        + (
            f"; left out, nothing on them: {', '.join(grid.name(*t) for t in sorted(grid.empty))}"
            if grid.empty
            else ""
        )
        + f").\nCut each tile along its frame, then glue the next tile onto the shaded "
        f"{OVERLAP_MM:.0f} mm band, crosses on crosses.",
        8.5,
    )
    width, height = page_w - 2 * MARGIN_MM, page_h - 2 * MARGIN_MM - 20
    ax = _mm_axes(figure, MARGIN_MM, MARGIN_MM, width, height)
    unit_per_mm = (frame[2] - frame[0]) / grid.board_mm[0]
    step_x, step_y = (s * unit_per_mm for s in grid.step_mm)
    # Show every tile whole, so the grid reads like the pages on the table.
    tiles_w = ((grid.columns - 1) * grid.step_mm[0] + grid.area_mm[0]) * unit_per_mm
    tiles_h = ((grid.rows - 1) * grid.step_mm[1] + grid.area_mm[1]) * unit_per_mm
    _draw_board(ax, game_map, (frame[0], frame[3] - tiles_h, frame[0] + tiles_w, frame[3]))
    for row in range(grid.rows):
        for column in range(grid.columns):
            x0 = frame[0] + column * step_x
            y1 = frame[3] - row * step_y
            left_out = (row, column) in grid.empty
            tile = Rectangle(
                (x0, y1 - grid.area_mm[1] * unit_per_mm),
                grid.area_mm[0] * unit_per_mm,
                grid.area_mm[1] * unit_per_mm,
                fill=False,
                edgecolor="#9a9a9a" if left_out else "#0063b1",
                linestyle="--" if left_out else "-",
                linewidth=1.0,
                zorder=9,
            )
            ax.add_patch(tile)
            _label(
                ax,
                x0 + step_x / 2,
                y1 - step_y / 2,
                f"{grid.name(row, column)}\n(left out)" if left_out else grid.name(row, column),
                11 if left_out else 18,
                ha="center",
                va="center",
                color="#9a9a9a" if left_out else "#0063b1",
                alpha=0.8,
                zorder=10,
            )
    return figure


def _tile_page(game_map, frame, mm_per_unit, grid, row, column, paper) -> Figure:
    from matplotlib.patches import Rectangle

    landscape = grid.area_mm[0] > grid.area_mm[1]
    figure = _page(paper, landscape)
    page_h = figure.get_figheight() * _MM_PER_INCH
    area_w, area_h = grid.area_mm
    step_w, step_h = grid.step_mm
    ax = _mm_axes(figure, MARGIN_MM, MARGIN_MM, area_w, area_h)
    x0 = frame[0] + column * step_w / mm_per_unit
    y1 = frame[3] - row * step_h / mm_per_unit
    _draw_board(ax, game_map, (x0, y1 - area_h / mm_per_unit, x0 + area_w / mm_per_unit, y1))
    overlay = _mm_axes(figure, MARGIN_MM, MARGIN_MM, area_w, area_h)
    overlay.add_patch(
        Rectangle((0, 0), area_w, area_h, fill=False, edgecolor=_FRAME, linewidth=0.6)
    )
    if column < grid.columns - 1:  # the next tile to the right is glued here
        overlay.add_patch(
            Rectangle((step_w, 0), OVERLAP_MM, area_h, color="#000000", alpha=0.07, linewidth=0)
        )
    if row < grid.rows - 1:
        overlay.add_patch(
            Rectangle((0, 0), area_w, OVERLAP_MM, color="#000000", alpha=0.07, linewidth=0)
        )
    for x in (OVERLAP_MM / 2, step_w + OVERLAP_MM / 2):
        for y in (OVERLAP_MM / 2, area_h - OVERLAP_MM / 2):
            _cross(overlay, x, y)
    name = grid.name(row, column)
    _text(
        figure,
        MARGIN_MM,
        page_h - MARGIN_MM + 3,
        f"{name}: row {_row_letter(row)} of {grid.rows}, column {column + 1} of "
        f"{grid.columns} · {game_map.name} · glue the next tile on the shaded band, "
        "crosses on crosses",
        7,
        va="bottom",
    )
    return figure


def _cross(ax: Any, x: float, y: float, size: float = 3.5) -> None:
    ax.plot([x - size, x + size], [y, y], color=_FRAME, linewidth=0.5)
    ax.plot([x, x], [y - size, y + size], color=_FRAME, linewidth=0.5)


def _track_page(game_map: Map, paper: str) -> Figure:
    from matplotlib.patches import Rectangle

    figure = _page(paper)
    page_w = figure.get_figwidth() * _MM_PER_INCH
    page_h = figure.get_figheight() * _MM_PER_INCH
    _text(
        figure,
        MARGIN_MM,
        page_h - MARGIN_MM - 5,
        f"Scoring track 0–100 · {game_map.name}",
        14,
        weight="bold",
    )
    _text(
        figure,
        MARGIN_MM,
        page_h - MARGIN_MM - 11,
        "Cut along the rows and lay them end to end beside the board; past 100, start again at 0.",
        8.5,
    )
    side = TRACK_SQUARE_MM
    per_row = int((page_w - 2 * MARGIN_MM) // side)
    ax = _mm_axes(figure, MARGIN_MM, MARGIN_MM, page_w - 2 * MARGIN_MM, page_h - 2 * MARGIN_MM - 16)
    top = page_h - 2 * MARGIN_MM - 16
    for value in range(101):
        row, column = divmod(value, per_row)
        x, y = column * side, top - (row + 1) * side - row * 2
        ax.add_patch(
            Rectangle(
                (x, y),
                side,
                side,
                facecolor="#fdf6e3" if value % 5 else "#f3d9a4",
                edgecolor=_FRAME,
                linewidth=0.6,
            )
        )
        _label(
            ax,
            x + side / 2,
            y + side / 2,
            str(value),
            11 if value % 5 else 12,
            ha="center",
            va="center",
            weight="bold" if value % 5 == 0 else "normal",
        )
    return figure


@dataclass(frozen=True)
class Card:
    """A card to print: its size, and how to draw its face and its back on axes in
    the card's millimetres."""

    size_mm: tuple[float, float]
    face: Callable[[Any], None]
    back: Callable[[Any], None]


#: What a sheet holds: each card and the lower-left corner of its place (mm).
Sheet = list[tuple[Card, tuple[float, float]]]


def card_sheets(cards: list[Card], paper: str) -> list[Sheet]:
    """Cards in rows on portrait pages, top down, each row centred and of one size;
    a row of other cards follows on the same page while it fits, so every page is
    filled before a new one starts."""
    width, height = PAPERS[paper]
    margin = CARD_SHEET_MARGIN_MM
    sheets: list[Sheet] = []
    sheet: Sheet = []
    top = height - margin
    k = 0
    while k < len(cards):
        card_w, card_h = cards[k].size_mm
        columns = max(1, int((width - 2 * margin) // card_w))
        row = []
        while k < len(cards) and cards[k].size_mm == (card_w, card_h) and len(row) < columns:
            row.append(cards[k])
            k += 1
        if top - card_h < margin and sheet:
            sheets.append(sheet)
            sheet, top = [], height - margin
        left = (width - columns * card_w) / 2
        sheet += [(card, (left + c * card_w, top - card_h)) for c, card in enumerate(row)]
        top -= card_h
    if sheet:
        sheets.append(sheet)
    return sheets


def _sheet_page(sheet: Sheet, paper: str, *, backs: bool) -> Figure:
    """A page of card faces, or of their backs: mirrored left to right, so that a
    sheet printed on both sides (flipped on its long edge) puts each back behind
    its face."""
    from matplotlib.patches import Rectangle

    figure = _page(paper)
    width = PAPERS[paper][0]
    for card, (x, y) in sheet:
        card_w, card_h = card.size_mm
        ax = _mm_axes(figure, width - x - card_w if backs else x, y, card_w, card_h)
        (card.back if backs else card.face)(ax)
        ax.add_patch(Rectangle((0, 0), card_w, card_h, fill=False, edgecolor=_FRAME, linewidth=0.5))
    return figure


#: Backs of ticket cards: regular and long tickets differ face down (E4: each
#: player is dealt from both piles).
_TICKET_BACK = ("#1f4e79", "DESTINATION")
_LONG_TICKET_BACK = ("#8c2d04", "LONG ROUTE")
_TRAIN_BACK = ("#3f3f3f", "TRAIN CARD")


def _card_back(colour: str, title: str, name: str, size_mm: tuple[float, float]):
    from matplotlib.patches import Rectangle

    card_w, card_h = size_mm

    def draw(ax: Any) -> None:
        ax.add_patch(Rectangle((0, 0), card_w, card_h, color=colour, linewidth=0))
        ax.add_patch(
            Rectangle(
                (3, 3), card_w - 6, card_h - 6, fill=False, edgecolor="#ffffff", linewidth=0.8
            )
        )
        _label(ax, card_w / 2, card_h / 2 + 4, title, 10, ha="center", va="center",
               weight="bold", color="#ffffff")  # fmt: skip
        _label(ax, card_w / 2, card_h / 2 - 4, name, 7, ha="center", va="center",
               color="#ffffff")  # fmt: skip

    return draw


def _ticket_cards(game_map: Map, board: BoardGeometry) -> Iterator[Card]:
    """Ticket cards, regular ones first, then long ones (E4), each with its back."""
    regular = _card_back(*_TICKET_BACK, game_map.name, TICKET_MM)
    long = _card_back(*_LONG_TICKET_BACK, game_map.name, TICKET_MM)
    for ticket in sorted(game_map.tickets, key=lambda t: t.long):
        yield Card(TICKET_MM, _ticket_face(ticket, board), long if ticket.long else regular)


def _ticket_face(ticket: Any, board: BoardGeometry) -> Callable[[Any], None]:
    from matplotlib.patches import Circle

    card_w, card_h = TICKET_MM

    def draw(ax: Any) -> None:
        _label(ax, 4, card_h - 6, ticket.a, 9.5, weight="bold", va="top")
        _label(ax, 4, card_h - 12, f"to {ticket.b}", 9.5, weight="bold", va="top")
        ax.add_patch(
            Circle((card_w - 9, 9), 6.5, facecolor="#f3d9a4", edgecolor=_FRAME, linewidth=0.6)
        )
        _label(ax, card_w - 9, 9, str(ticket.value), 14, ha="center", va="center",
               weight="bold")  # fmt: skip
        notes = []
        if ticket.bonus:
            notes.append(f"+{ticket.bonus} bonus")
        if ticket.long:
            notes.append("long ticket")
        if notes:
            _label(ax, 4, 6, " · ".join(notes), 7, va="center")
        _mini_map(ax, board, (ticket.a, ticket.b), (4, 18, card_w - 8, card_h - 38))

    return draw


def _mini_map(
    ax: Any, board: BoardGeometry, marked: tuple[str, str], box: tuple[float, float, float, float]
) -> None:
    """The board's routes as thin lines and its cities as dots, fitted into `box`
    (x, y, width, height in the card's mm); the `marked` cities in red."""
    x0, y0, x1, y1 = board.bounds
    scale = min(box[2] / max(x1 - x0, 1e-9), box[3] / max(y1 - y0, 1e-9))
    ox = box[0] + (box[2] - (x1 - x0) * scale) / 2
    oy = box[1] + (box[3] - (y1 - y0) * scale) / 2

    def fit(p):
        return (ox + (p[0] - x0) * scale, oy + (p[1] - y0) * scale)

    for shape in board.routes.values():
        if shape.track not in (None, 1):
            continue
        points = [fit(p) for p in shape.path]
        ax.plot([p[0] for p in points], [p[1] for p in points], color="#9a9a9a", linewidth=0.4)
    xs, ys = zip(*(fit(p) for p in board.positions.values()), strict=True)
    ax.scatter(xs, ys, s=1.5, color="#555555", linewidths=0)
    for name in marked:
        x, y = fit(board.positions[name])
        ax.scatter(
            [x], [y], s=22, facecolors="#d7301f", edgecolors=_FRAME, linewidths=0.5, zorder=5
        )


def _train_cards() -> Iterator[Card]:
    """The 110 train cards (R3: 12 of each colour, 14 locomotives), with their back."""
    back = _card_back(*_TRAIN_BACK, "", TRAIN_CARD_MM)
    for card in [c for c in CARD_COLORS for _ in range(CARDS_PER_COLOR)]:
        yield Card(TRAIN_CARD_MM, _train_face(card), back)
    for _ in range(LOCOMOTIVES):
        yield Card(TRAIN_CARD_MM, _train_face("locomotive"), back)


def _train_face(card: str) -> Callable[[Any], None]:
    from matplotlib.patches import Rectangle

    from ttr_maps.render.palette import CAR_FILL

    card_w, card_h = TRAIN_CARD_MM
    rainbow = [CAR_FILL[c] for c in CARD_COLORS if c not in ("white", "black")]

    def draw(ax: Any) -> None:
        if card == "locomotive":
            band = (card_h - 20) / len(rainbow)
            for k, colour in enumerate(rainbow):
                ax.add_patch(
                    Rectangle((4, 10 + k * band), card_w - 8, band, color=colour, linewidth=0)
                )
            label = "locomotive (wild)"
        else:
            ax.add_patch(
                Rectangle(
                    (4, 10),
                    card_w - 8,
                    card_h - 20,
                    facecolor=CAR_FILL[card],
                    edgecolor=_FRAME,
                    linewidth=0.5,
                )
            )
            label = card
        _label(ax, card_w / 2, 5, label, 8, ha="center", va="center", weight="bold")

    return draw


def rules_summary(game_map: Map) -> list[str]:
    """The lines of the one-page rules summary, written from the map's rule set
    (`ttr_maps.rules.map_rules`: every number and switch, with the map's settings)."""
    rules = map_rules(game_map)
    default_wagons = named(rules.name).wagons
    points = ", ".join(f"{n}→{p}" for n, p in enumerate(rules.route_points, start=1))
    market = _number_word(rules.market_size)
    lines = [
        f"{game_map.name}: rules summary",
        "",
        f"Setup (R3, R4). {DECK_SIZE} train cards: {CARDS_PER_COLOR} of each of "
        f"{len(CARD_COLORS)} colours and {LOCOMOTIVES} locomotives; {market} face up. "
        f"Each player takes {rules.wagons} wagons"
        + (
            f" (the map's setting; the base game has {default_wagons})"
            if rules.wagons != default_wagons
            else ""
        )
        + f", {rules.starting_cards} train cards and {rules.setup_tickets} tickets, and "
        f"keeps at least {rules.setup_keep} of the tickets.",
        "",
        "A turn (R6): do exactly one of these.",
        "• Draw two train cards (R7), face up or from the deck. A face-up locomotive taken "
        "first is the whole draw; it may not be the second card. "
        f"{_number_word(rules.market_locomotive_limit).capitalize()} face-up locomotives: "
        f"replace all {market} (R8).",
        "• Claim a route (R9): pay as many cards of its colour as its length (gray: any one "
        "colour; locomotives are wild) and place that many wagons. Double routes (R11): never "
        f"both{_single_track_text(rules)}.",
        f"• Draw {rules.tickets_drawn} tickets and keep at least {rules.tickets_keep} (R12).",
        "",
        f"Route points (R10): {points}.",
        "",
        f"End (R14): when a player has {rules.final_round_wagons} or fewer wagons after their "
        "turn, everyone plays one more turn.",
        "Score (R15–R17): route points, plus each completed ticket's value, minus each "
        "incomplete one's"
        + (
            f"; {rules.longest_path_bonus} points for the longest continuous path"
            if rules.longest_path_bonus
            else ""
        )
        + ". Highest score wins; ties go to more completed tickets, then to the longer path.",
    ]
    europe = _europe_rules_text(rules)
    if europe:
        lines += ["", europe]
    lines += [
        "",
        f"This map: {len(game_map.cities)} cities, {len(game_map.routes)} routes "
        f"({game_map.total_spaces} wagon spaces), {len(game_map.tickets)} tickets.",
    ]
    return lines


_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")


def _number_word(count: int) -> str:
    """A small count in words ("five"), a larger one in digits."""
    return _NUMBER_WORDS[count] if 0 <= count < len(_NUMBER_WORDS) else str(count)


def _single_track_text(rules: RuleSet) -> str:
    """R11's clause: at which player counts only one track of a double is used."""
    counts = rules.single_track_counts()
    if not counts:
        return ""
    players = f"{counts[0]}–{counts[-1]}" if len(counts) > 1 else f"{counts[0]}"
    return f"; with {players} players only one of the two is used"


def _europe_rules_text(rules: RuleSet) -> str:
    """The paragraph on the parts of E1–E4 that the rule set switches on ("" for none)."""
    parts: list[tuple[int, str]] = []
    if rules.stations:
        costs = [rules.station_cost(rules.stations - built) for built in range(rules.stations)]
        paid = ", ".join(str(c) for c in costs[:-1])
        paid = f"{paid} then {costs[-1]}" if paid else f"{costs[-1]}"
        parts.append(
            (
                1,
                f"{rules.stations} stations each, built in a free city for {paid} cards; each "
                "lets its owner use one other player's route at that city for tickets; "
                f"{rules.station_points} points per unbuilt station.",
            )
        )
    if rules.tunnels:
        parts.append(
            (
                2,
                f"Tunnels (hatched): turn up {rules.tunnel_reveal} cards and pay one more per "
                "match.",
            )
        )
    if rules.ferries:
        parts.append((3, "Ferries: the dotted spaces must be paid with locomotives."))
    if rules.long_tickets:
        parts.append(
            (
                4,
                f"Long tickets: each player is dealt {rules.setup_long_tickets} long and "
                f"{rules.setup_tickets} regular and keeps at least {rules.setup_keep}.",
            )
        )
    if not parts:
        return ""
    codes = [code for code, _ in parts]
    if len(codes) > 2 and codes == list(range(codes[0], codes[-1] + 1)):
        named_codes = f"E{codes[0]}–E{codes[-1]}"
    else:
        named_codes = ", ".join(f"E{code}" for code in codes)
    return f"Europe rules ({named_codes}): " + " ".join(text for _, text in parts)


def _rules_page(game_map: Map, paper: str) -> Figure:
    import textwrap

    figure = _page(paper)
    page_w = figure.get_figwidth() * _MM_PER_INCH
    page_h = figure.get_figheight() * _MM_PER_INCH
    y = page_h - MARGIN_MM - 8
    columns = int((page_w - 2 * MARGIN_MM) / 1.95)  # ~1.95 mm per character at 10 pt
    for index, line in enumerate(rules_summary(game_map)):
        if index == 0:
            _text(figure, MARGIN_MM + 5, y, line, 16, weight="bold")
            y -= 10
            continue
        for part in textwrap.wrap(line, columns) or [""]:
            _text(figure, MARGIN_MM + 5, y, part, 10)
            y -= 5.2
    return figure
