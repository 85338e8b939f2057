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
from functools import cache, lru_cache
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
    """A figure with its own Agg canvas: headless, and no pyplot global state; its
    text never stops the drawing (`text_safe_figure_class`)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    figure = text_safe_figure_class()(figsize=size, dpi=dpi, facecolor="white")
    FigureCanvasAgg(figure)
    return figure


@cache
def text_safe_figure_class() -> type[Figure]:
    """A matplotlib `Figure` whose text never stops the drawing: before it is laid
    out or drawn, a text that matplotlib would read as mathtext (an even number of
    unescaped `$`) and cannot parse is shown as it is written. Names reach figures
    through `ttr_maps.text.for_matplotlib`, which escapes every `$`; this is the
    net under any text that did not (a map, city or bot name, a ticket, a path),
    so a name such as `$x^$` can never crash a figure. Pass it as `FigureClass` to
    pyplot."""
    from matplotlib.figure import Figure

    class TextSafeFigure(Figure):
        def draw(self, renderer: Any) -> None:
            show_bad_mathtext_as_text(self)
            super().draw(renderer)

        def tight_layout(self, *args: Any, **kwargs: Any) -> None:
            show_bad_mathtext_as_text(self)
            super().tight_layout(*args, **kwargs)

        def get_tightbbox(self, *args: Any, **kwargs: Any) -> Any:
            show_bad_mathtext_as_text(self)
            return super().get_tightbbox(*args, **kwargs)

    return TextSafeFigure


def show_bad_mathtext_as_text(figure: Figure) -> None:
    """Show every text of `figure` that is mathtext matplotlib cannot parse as it is
    written (`Text.set_parse_math(False)`)."""
    from matplotlib.cbook import is_math_text
    from matplotlib.text import Text

    for text in figure.findobj(Text):
        content = text.get_text()
        if (
            "$" in content
            and text.get_parse_math()
            and is_math_text(content)
            and not _parses_as_mathtext(content)
        ):
            text.set_parse_math(False)


@lru_cache(maxsize=1024)
def _parses_as_mathtext(content: str) -> bool:
    from matplotlib.mathtext import MathTextParser

    try:
        MathTextParser("path").parse(content)
    except (ValueError, RuntimeError):  # what matplotlib raises for bad mathtext
        return False
    return True


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
