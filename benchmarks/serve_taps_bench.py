"""Web table on a phone: how often a finger's tap near a route claims that route.

    .venv/bin/python benchmarks/serve_taps_bench.py [--maps north_america europe] [--offsets 0 8 12]

Starts the web table in this process, opens a seat of a new game in Chromium
(`/usr/bin/chromium`) with a phone's viewport (390×844, touch, device scale 2),
keeps the tickets offered, and then, for every route of the map: scrolls the
board so that the route's middle car is in the middle of the view, and taps
(`page.touchscreen.tap`, a real touch through Chromium's input pipeline) at
the car's centre moved by each offset in eight directions (the four axes and
the four diagonals, at that distance). The page's route and city handlers are
replaced by recorders, so a tap plays nothing; a tap counts as a hit when it
resolved to the route itself or its twin of a double route (no finger tells
those apart); it reached the route when the page asked which route was meant
and offered it. Prints, per map and offset, the shares of taps that hit, asked,
took another route (wrong: the tap was stolen) or did nothing, and the share of
routes that all eight taps hit, and that all eight reached.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ttr_core.serve.app import create_app

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "serve"))
from finger_taps import open_phone_seat, tap_routes  # the tests' own taps
from serve_server import running_server  # the tests' own server

CHROMIUM = "/usr/bin/chromium"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--maps", nargs="+", default=["north_america", "europe"])
    parser.add_argument("--offsets", nargs="+", type=float, default=[0, 8, 12])
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with running_server(create_app()) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM)
        for map_id in args.maps:
            context, page = open_phone_seat(browser, url, map_id)
            try:
                for offset, shares in tap_routes(page, args.offsets).items():
                    print(
                        f"{map_id:14} {offset:3.0f} px off: "
                        + ", ".join(f"{name} {share:6.1%}" for name, share in shares.items())
                    )
            finally:
                context.close()
        browser.close()


if __name__ == "__main__":
    main()
