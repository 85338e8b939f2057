"""Every picture in docs/, made again from today's code and compared with the one
in the folder, or written over it.

    .venv/bin/python scripts/doc_pictures.py            # compare: exit 1 if any is stale
    .venv/bin/python scripts/doc_pictures.py --write    # make them all again in docs/
    .venv/bin/python scripts/doc_pictures.py --only preview-iran --only serve-phone

Each picture has one maker, the documented way it is made: `ttr preview MAP -o
docs/preview-MAP.png --dpi 86` (README), `ttr tickets europe --plot` (docs/tickets.md),
pages of `ttr print europe` rendered with `pdftoppm -png -r 45` (docs/print.md),
and the editor's and the table's screenshots, taken by their browser tests
(`TTR_EDIT_SCREENSHOTS`, `TTR_SERVE_SCREENSHOTS`). A picture is the same when it
has the same size and its pixels differ by at most `SAME_RMS` (root mean square
over the channels, 0-255): anti-aliasing and font hinting move a few levels, a
moved label, a new colour or a changed number move far more (the assembly page
that printed `\\x0a` for its line breaks was 9.0 off). The web table's screenshots
are moments of live games (a new game id each run, bots at their own pace: 4-22
apart from run to run), so they are made again and checked for their size only;
`--write` redraws them with the rest. tests/docs/test_doc_pictures.py runs the
comparison in the slow suite.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
#: Pictures further apart than this (RMS over the channels, 0-255) are different.
SAME_RMS = 3.0
PRINTED_MAP = "europe"
PRINT_DPI = 45
PREVIEW_DPI = 86


@dataclass(frozen=True)
class Picture:
    name: str  # docs/NAME.png
    group: str  # pictures made together (one PDF, one browser test file)
    #: False for a moment of a live game (the web table's screenshots: a new game id
    #: each run, bots at their own pace): made again and checked for its size only.
    exact: bool = True


def _pictures() -> list[Picture]:
    pictures = [
        Picture(f"preview-{m}", f"preview-{m}") for m in ("north_america", "europe", "iran")
    ]
    pictures.append(Picture("tickets-europe", "tickets-europe"))
    pictures += [
        Picture(f"print-{PRINTED_MAP}-{page}", "print")
        for page in ("assembly", "tile", "track", "tickets", "train-cards", "rules")
    ]
    pictures += [Picture(name, "edit") for name in ("edit-drawn", "edit-playtest")]
    table = ("serve-table", "serve-tunnel", "serve-phone")
    pictures += [Picture(name, "serve", exact=False) for name in table]
    return pictures


PICTURES = _pictures()


def _ttr(*arguments: str) -> None:
    subprocess.run([sys.executable, "-m", "ttr_core", *arguments], check=True, cwd=ROOT)


def _make_preview(group: str, out: Path) -> None:
    map_id = group.removeprefix("preview-")
    _ttr("preview", map_id, "-o", str(out / f"{group}.png"), "--dpi", str(PREVIEW_DPI))


def _make_tickets(group: str, out: Path) -> None:
    _ttr("tickets", "europe", "--plot", str(out / f"{group}.png"))


def _print_pages(pdf: Path) -> dict[str, int]:
    """The page number of each printed picture, found by what the page says:
    the assembly page first, tile B2, the scoring track (0 1 2 ...), the first
    ticket page after it, the first page of train-card fronts, the rules last."""
    from pypdf import PdfReader

    texts = [page.extract_text() for page in PdfReader(pdf).pages]
    track = next(i for i, text in enumerate(texts) if text.startswith("0 1 2 3"))
    cards = next(i for i in range(track + 1, len(texts)) if _is_card_front(texts[i]))
    tile = next(i for i, text in enumerate(texts) if "B2: row" in text)
    found = {"assembly": 0, "tile": tile, "track": track, "tickets": track + 1}
    found |= {"train-cards": cards, "rules": len(texts) - 1}
    return {name: number + 1 for name, number in found.items()}


def _is_card_front(text: str) -> bool:
    """A page of train-card fronts: its first line names one colour, card by card
    (`red red red red`); ticket pages start with a city, card backs with a title."""
    words = text.split("\n", 1)[0].split()
    return len(words) > 1 and len(set(words)) == 1 and words[0].islower()


def _make_print(_group: str, out: Path) -> None:
    if shutil.which("pdftoppm") is None:
        raise SystemExit("pdftoppm is missing: apt-get install poppler-utils")
    pdf = out / f"{PRINTED_MAP}.pdf"
    _ttr("print", PRINTED_MAP, "-o", str(pdf))
    for page, number in _print_pages(pdf).items():
        stem = out / f"print-{PRINTED_MAP}-{page}"
        subprocess.run(
            [
                "pdftoppm",
                "-png",
                "-r",
                str(PRINT_DPI),
                "-f",
                str(number),
                "-l",
                str(number),
                "-singlefile",
                str(pdf),
                str(stem),
            ],
            check=True,
        )


def _make_screenshots(group: str, out: Path) -> None:
    """The browser tests that take the screenshots, keeping them in `out`."""
    tests = dict.fromkeys(_TAKEN_BY[p.name] for p in PICTURES if p.group == group)
    environment = os.environ | {f"TTR_{group.upper()}_SCREENSHOTS": str(out)}
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-n",
            "0",
            "-p",
            "no:cacheprovider",
            "-m",
            "slow or not slow",
            *tests,
        ],
        check=True,
        cwd=ROOT,
        env=environment,
    )


_EDIT_TESTS = "tests/edit/test_edit_browser.py::test_"
_SERVE_TESTS = "tests/serve/test_serve_browser.py::test_"
#: The browser test that takes each screenshot.
_TAKEN_BY = {
    "edit-drawn": f"{_EDIT_TESTS}a_six_city_map_drawn_checked_saved_and_guarded",
    "edit-playtest": f"{_EDIT_TESTS}a_playtest_of_50_games_from_the_page",
    "serve-table": f"{_SERVE_TESTS}north_america_lobby_to_game_over_then_replay",
    "serve-tunnel": f"{_SERVE_TESTS}europe_through_a_tunnel_and_a_station",
    "serve-phone": f"{_SERVE_TESTS}a_phone_shows_the_board_above_and_the_panels_below",
}

_MAKERS: dict[str, Callable[[str, Path], None]] = {
    "print": _make_print,
    "edit": _make_screenshots,
    "serve": _make_screenshots,
    "tickets-europe": _make_tickets,
}


def make(pictures: Iterable[Picture], out: Path) -> None:
    """Make `pictures` in `out`, each group once; a group whose maker fails is
    named on stderr and its pictures are missing (`compare` says so)."""
    for group in dict.fromkeys(p.group for p in pictures):
        try:
            _MAKERS.get(group, _make_preview)(group, out)
        except subprocess.CalledProcessError as failed:
            print(f"{group}: its maker failed (exit {failed.returncode})", file=sys.stderr)


def difference(a: Path, b: Path) -> float | None:
    """How far apart two pictures are (RMS over the channels, 0-255), or None when
    their sizes differ."""
    from PIL import Image, ImageChops, ImageStat

    one, other = (Image.open(p).convert("RGB") for p in (a, b))
    if one.size != other.size:
        return None
    rms = ImageStat.Stat(ImageChops.difference(one, other)).rms
    return sum(rms) / len(rms)


def compare(pictures: list[Picture], made: Path) -> list[str]:
    """One line per picture that is not the same as today's output."""
    stale = []
    for picture in pictures:
        new, old = made / f"{picture.name}.png", DOCS / f"{picture.name}.png"
        if not new.exists():
            stale.append(f"{picture.name}: not made (its maker made no {new.name})")
            continue
        apart = difference(old, new)
        if apart is None:
            stale.append(f"{picture.name}: another size today")
        elif apart > SAME_RMS and picture.exact:
            stale.append(f"{picture.name}: {apart:.1f} apart (same is at most {SAME_RMS})")
    return stale


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write them over docs/")
    parser.add_argument("--only", action="append", metavar="NAME", help="e.g. preview-iran")
    options = parser.parse_args(argv)
    known = {p.name: p for p in PICTURES}
    unknown = [name for name in options.only or () if name not in known]
    if unknown:
        parser.error(f"no such picture: {', '.join(unknown)} (known: {', '.join(known)})")
    chosen = [known[name] for name in options.only] if options.only else PICTURES
    with tempfile.TemporaryDirectory() as folder:
        made = Path(folder)
        # Screenshots are kept only for the pictures asked for; make them all in a group.
        make(chosen, made)
        if options.write:
            missing = [p.name for p in chosen if not (made / f"{p.name}.png").exists()]
            for picture in chosen:
                if picture.name not in missing:
                    shutil.copyfile(made / f"{picture.name}.png", DOCS / f"{picture.name}.png")
                    print(f"wrote docs/{picture.name}.png")
            for name in missing:
                print(f"{name}: not made, docs/{name}.png left as it was")
            return 1 if missing else 0
        stale = compare(chosen, made)
    for line in stale:
        print(line)
    print(f"{len(chosen) - len(stale)} of {len(chosen)} pictures in docs/ are today's output")
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
