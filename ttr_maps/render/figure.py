"""Figures and their files: a headless matplotlib figure, the fonts for any
script, output formats by extension, atomic saving, and one warning for the
characters no installed font has.

Every picture ttr writes (previews, report figures, the print PDF) is made and
saved here. matplotlib is imported inside the functions; importing this module
stays cheap and never touches pyplot or the global backend (figures get their own
Agg canvas).

>>> output_format("board.svg")
'svg'
>>> parse_size("16x10")
(16.0, 10.0)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ttr_maps.io.files import OutputPathError, atomic_target, check_output_path

if TYPE_CHECKING:
    from matplotlib.figure import Figure
    from matplotlib.font_manager import FontProperties

#: Output formats by file extension.
OUTPUT_FORMATS: Mapping[str, str] = {".png": "png", ".svg": "svg", ".pdf": "pdf"}
DEFAULT_DPI = 110
#: Fonts tried in order for each glyph; DejaVu Sans ships with matplotlib.
_FONT_PREFERENCE = (
    "DejaVu Sans",
    "Noto Sans",
    "Noto Sans Arabic",
    "Vazirmatn",
    "Noto Sans CJK JP",
    "Noto Sans CJK SC",
    "WenQuanYi Zen Hei",
    "Droid Sans Fallback",
    "Noto Sans Devanagari",
    "Noto Sans Thai",
    "FreeSans",
)


class PreviewError(ValueError):
    """A preview cannot be made as asked: unknown format, ticket, size or folder."""


class MissingGlyphsWarning(UserWarning):
    """Some characters have no glyph in any installed font; they show as boxes."""

    def __init__(self, characters: str):
        self.characters = characters
        super().__init__(
            f"no installed font has the characters {characters!r}; they are drawn as "
            "boxes (install a font that covers them, e.g. one of the Noto family)"
        )


# ---------------------------------------------------------------- options


def output_format(path: str | Path) -> str:
    """The output format for a file name: 'png', 'svg' or 'pdf'.

    Raises `PreviewError` for any other extension.
    """
    suffix = Path(path).suffix.lower()
    if suffix not in OUTPUT_FORMATS:
        known = ", ".join(OUTPUT_FORMATS)
        shown = suffix or "no extension"
        raise PreviewError(f"{path}: unknown output format ({shown}); use one of {known}")
    return OUTPUT_FORMATS[suffix]


def check_figure_path(path: str | Path) -> str:
    """The output format of a figure file (`output_format`), after checking that it
    can be written at `path` with the one output check of every command
    (`ttr_maps.io.files.check_output_path`). Raises `PreviewError`; call it before
    drawing, so a bad path fails at once."""
    fmt = output_format(path)
    try:
        check_output_path(path)
    except OutputPathError as error:
        raise PreviewError(str(error)) from None
    return fmt


def parse_size(text: str) -> tuple[float, float]:
    """A figure size in inches from 'WIDTHxHEIGHT', e.g. '16x10'."""
    parts = text.lower().replace("×", "x").split("x")
    try:
        width, height = (float(p) for p in parts)
    except ValueError:
        raise PreviewError(f"size {text!r}: expected WIDTHxHEIGHT in inches, e.g. 16x10") from None
    if not (1 <= width <= 100 and 1 <= height <= 100):
        raise PreviewError(f"size {text!r}: width and height must be 1 to 100 inches")
    return (width, height)


# ---------------------------------------------------------------- figures and files


def font_families() -> list[str]:
    """Installed fonts to try, in order; matplotlib falls back glyph by glyph."""
    from matplotlib import font_manager

    installed = {f.name for f in font_manager.fontManager.ttflist}
    return [name for name in _FONT_PREFERENCE if name in installed] + ["sans-serif"]


def font_properties(size: float, weight: str = "normal") -> FontProperties:
    """Font for any text of a figure: DejaVu Sans first, then installed fallbacks."""
    from matplotlib.font_manager import FontProperties

    return FontProperties(family=font_families(), size=size, weight=weight)


def new_figure(size: tuple[float, float], dpi: float = DEFAULT_DPI) -> Figure:
    """A figure with its own Agg canvas: headless, and no pyplot global state."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=size, dpi=dpi, facecolor="white")
    FigureCanvasAgg(figure)
    return figure


def save_figure(figure: Figure, path: str | Path, *, dpi: float | None = None) -> Path:
    """Write a figure atomically: render into a temporary file next to `path`, then
    rename it over `path`, so readers never see half a file.

    The format comes from the extension (`output_format`). Text stays text in SVG
    (`<text>` elements) and PDF (embedded TrueType), so it can be selected and
    edited in Inkscape, except where a halo (path effect) draws it as outlines.
    """
    import matplotlib

    target = Path(path)
    fmt = check_figure_path(target)
    # No creation date in the metadata, so the same map gives the same file.
    metadata: dict[str, Any] = {"Software": "ttr"} if fmt == "png" else {"Date": None}
    try:
        with (
            matplotlib.rc_context({"svg.fonttype": "none", "pdf.fonttype": 42}),
            atomic_target(target) as temporary,
            reporting_missing_glyphs(),
        ):
            figure.savefig(temporary, format=fmt, dpi=dpi or figure.dpi, metadata=metadata)
    except OSError as error:
        raise PreviewError(f"{target}: cannot write ({error.strerror or error})") from None
    return target


@contextmanager
def reporting_missing_glyphs() -> Iterator[None]:
    """Turn matplotlib's one warning per missing glyph (per text, per draw) into a
    single `MissingGlyphsWarning` naming all the characters. Nested uses merge."""
    import re
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    missing: dict[str, None] = {}
    for warning in caught:
        message = warning.message
        found = re.search(r"Glyph (\d+) .*missing from", str(message))
        if isinstance(message, MissingGlyphsWarning):
            missing.update(dict.fromkeys(message.characters))
        elif found:
            missing[chr(int(found.group(1)))] = None
        else:
            warnings.warn_explicit(message, warning.category, warning.filename, warning.lineno)
    if missing:
        warnings.warn(MissingGlyphsWarning("".join(missing)), stacklevel=3)
