"""`ttr edit` in a real browser: Playwright drives the system's Chromium against a
uvicorn server on a free port of 127.0.0.1 (as the web table's browser tests do).

Set TTR_EDIT_SCREENSHOTS=FOLDER to keep the screenshots (docs/ uses them).
"""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import TOKEN
from typer.testing import CliRunner

from ttr_core.cli import app as cli_app
from ttr_core.edit.app import create_app
from ttr_core.edit.session import EditSession
from ttr_maps.authoring.gazetteer import country_frame
from ttr_maps.authoring.starter import empty_map_text

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "serve"))
from serve_server import running_server

CHROMIUM = "/usr/bin/chromium"
WAIT_MS = 20_000


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: install the Debian package 'chromium'")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM)
        yield chromium
        chromium.close()


def open_editor(browser: Any, session: EditSession) -> Iterator[Any]:
    with running_server(create_app(session, TOKEN)) as url:
        context = browser.new_context(viewport={"width": 1400, "height": 860}, bypass_csp=True)
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{url}/#token={TOKEN}")
        page.wait_for_selector("#board svg")
        yield page
        context.close()
        assert not errors, errors


def screenshot(page: Any, tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    page.screenshot(path=str(path))
    keep = os.environ.get("TTR_EDIT_SCREENSHOTS")
    if keep:
        from PIL import Image

        picture = Image.open(path).convert("RGB").quantize(128, dither=Image.Dither.NONE)
        picture.save(Path(keep) / name, optimize=True)


class Designer:
    """The page, with every click and key counted."""

    def __init__(self, page: Any) -> None:
        self.page, self.actions = page, 0

    def routes(self) -> int:
        return self.page.locator("#board svg g.route").count()

    def city(self, name: str) -> Any:
        return self.page.locator(f'#board svg g.city[data-city="{name}"] circle')

    def key(self, key: str) -> None:
        self.actions += 1
        self.page.keyboard.press(key)

    def by_name(self, name: str) -> None:
        page = self.page
        cities = page.locator("#board svg g.city").count()
        page.fill("#place-name", name)
        self.key("Enter")
        choices = page.locator("#place-choices button")
        page.wait_for_function(
            f"document.querySelectorAll('#board svg g.city').length > {cities} || "
            "!document.getElementById('place-choices').hidden"
        )
        if page.locator("#board svg g.city").count() == cities:
            self.actions += 1
            choices.first.click()
        page.wait_for_function(f"document.querySelectorAll('#board svg g.city').length > {cities}")

    def by_click(self, name: str, near: str, dx: float, dy: float) -> None:
        box = self.city(near).bounding_box()
        self.key("c")
        self.actions += 1
        self.page.mouse.click(box["x"] + box["width"] / 2 + dx, box["y"] + box["height"] / 2 + dy)
        self.page.fill("#city-name", name)
        self.key("Enter")
        self.city(name).wait_for()

    def pick(self, name: str) -> None:
        self.actions += 1
        self.city(name).click(force=True)

    def route(self, a: str, b: str) -> None:
        before = self.routes()
        self.key("r")
        self.pick(a)
        self.pick(b)
        self.page.wait_for_function(
            f"document.querySelectorAll('#board svg g.route').length > {before}"
        )

    def ticket(self, a: str, b: str) -> None:
        before = self.page.locator("#tickets li").count()
        self.key("t")
        self.pick(a)
        self.pick(b)
        self.page.wait_for_function(f"document.querySelectorAll('#tickets li').length > {before}")


def test_a_six_city_map_drawn_checked_saved_and_guarded(browser: Any, tmp_path: Path) -> None:
    path = tmp_path / "fjords.yaml"
    text = empty_map_text("fjords", coordinates="geographic", schema_ref="map.schema.json")
    path.write_text("# Fjords: my first map (a comment that must survive)\n" + text)
    session = EditSession.open(path, region=country_frame("NO"), country="NO")
    for page in open_editor(browser, session):
        me = Designer(page)
        started = time.perf_counter()
        for name in ("Oslo", "Bergen", "Trondheim", "Stavanger"):
            me.by_name(name)
        me.by_click("Fjellby", near="Oslo", dx=-60, dy=-90)
        for a, b in (
            ("Oslo", "Bergen"),
            ("Oslo", "Trondheim"),
            ("Bergen", "Trondheim"),
            ("Bergen", "Stavanger"),
            ("Oslo", "Fjellby"),
            ("Fjellby", "Trondheim"),
        ):
            me.route(a, b)
        # A problem appears: a city no route touches (TTR102) ...
        me.by_click("Havn", near="Stavanger", dx=80, dy=40)
        page.locator("#problems li", has_text="TTR102").first.wait_for(state="attached")
        me.route("Stavanger", "Havn")
        me.actions += 1
        page.check("#route-tunnel")
        page.wait_for_selector("#board svg g.route.tunnel")
        me.route("Havn", "Oslo")
        # ... and goes once the cities are joined.
        page.wait_for_function(
            "![...document.querySelectorAll('#problems li')]"
            ".some(li => li.textContent.includes('TTR102'))"
        )
        # The last route (Havn-Oslo) made a double.
        me.actions += 1
        page.check("#route-double")
        page.wait_for_function("document.querySelectorAll('#board svg g.route').length === 9")
        for a, b in (
            ("Oslo", "Stavanger"),
            ("Bergen", "Havn"),
            ("Trondheim", "Stavanger"),
            ("Fjellby", "Bergen"),
        ):
            me.ticket(a, b)
        seconds = time.perf_counter() - started
        screenshot(page, tmp_path, "edit-drawn.png")
        # Undo and redo the last ticket.
        me.key("Escape")
        me.key("Control+z")
        page.wait_for_function("document.querySelectorAll('#tickets li').length === 3")
        me.key("Control+Shift+z")
        page.wait_for_function("document.querySelectorAll('#tickets li').length === 4")
        assert page.is_visible("#dirty")
        me.key("Control+s")
        page.wait_for_selector("#dirty", state="hidden")
        print(f"\nsix-city map: {me.actions} clicks and keys, {seconds:.1f} s in the browser")
        saved = path.read_text()
        assert saved.startswith("# Fjords: my first map (a comment that must survive)\n")
        assert saved.count("tunnel: true") == 1 and saved.count("color: [") == 1
        result = CliRunner().invoke(cli_app, ["validate", str(path)])
        assert result.exit_code == 0, result.output  # no errors; warnings of a tiny map
        assert "0 errors" in result.output, result.output
        # The file changes on disk: the next save refuses, and says so.
        path.write_text(saved + "# edited in another editor\n")
        me.by_name("Kristiansand")
        page.click("#save")
        page.wait_for_selector("#banner:not([hidden])")
        assert "changed on disk" in page.inner_text("#banner")
        assert path.read_text().endswith("# edited in another editor\n")
        assert "Kristiansand" not in path.read_text()
        screenshot(page, tmp_path, "edit-conflict.png")
        # Reload keeps both (the change on disk and Kristiansand), then saves.
        page.click("#reload")
        page.wait_for_selector("#banner", state="hidden")
        assert "both kept" in page.inner_text("#hint")
        me.key("Control+s")
        page.wait_for_selector("#dirty", state="hidden")
        both = path.read_text()
        assert "Kristiansand" in both and both.endswith("# edited in another editor\n")
        # The change on disk again, on a line the page changes too: reload, undo, save.
        path.write_text(both.replace('name: "Fjords"', 'name: "Theirs"'))
        page.click('.tabs button[data-tab="map"]')
        page.fill("#map-name", "Mine")
        page.keyboard.press("Enter")
        page.wait_for_function("state.map.name === 'Mine'")
        me.key("Control+s")
        page.wait_for_selector("#reload:not([hidden])")
        page.click("#reload")
        page.wait_for_function("state.map.name === 'Theirs'")
        page.locator("#board svg").click(position={"x": 5, "y": 5})
        me.key("Control+z")
        page.wait_for_function("state.map.name === 'Mine'")
        me.key("Control+s")  # would drop the disk change: said first, nothing written
        page.wait_for_selector("#save-anyway:not([hidden])")
        assert "undo the change made" in page.inner_text("#banner")
        assert 'name: "Theirs"' in path.read_text()
        page.click("#save-anyway")
        page.wait_for_selector("#dirty", state="hidden")
        assert "name: Mine" in path.read_text()


@pytest.mark.slow  # 2-10 s; the default suite keeps the room's main test
def test_a_playtest_of_50_games_from_the_page(browser: Any, tmp_path: Path) -> None:
    path = tmp_path / "north_america.yaml"
    path.write_text(Path("maps/north_america.yaml").read_text(encoding="utf-8"))
    for page in open_editor(browser, EditSession.open(path)):
        page.click('.tabs button[data-tab="playtest"]')
        page.fill("#pt-players", "2")
        page.fill("#pt-games", "50")
        page.click("#pt-start")
        page.wait_for_selector("#pt-result:not([hidden])", timeout=180_000)
        assert "done: 50 of 50" in page.inner_text("#pt-status")
        assert page.locator("#findings li").count() >= 1
        assert "greedy" in page.inner_text("#winrates")
        # The heatmap on `ttr preview`'s sequential scale, its legend beside it.
        scale = page.evaluate(
            "getComputedStyle(document.getElementById('heat-scale')).backgroundImage"
        )
        assert scale.startswith("linear-gradient") and scale.count("rgb(") == 11
        fills = page.evaluate(
            "[...document.querySelectorAll('#board .route .car')].map(c => c.style.fill)"
        )
        assert fills and all(fill.startswith("rgb(") for fill in fills)
        screenshot(page, tmp_path, "edit-playtest.png")


def _positions(page: Any) -> dict[str, list[float]]:
    return page.evaluate("Object.fromEntries(state.cities.map(c => [c.name, c.position]))")


# the gazetteer loaded in a browser test; tests/edit/test_edit_api.py finds places in the
# default suite
@pytest.mark.slow
@pytest.mark.parametrize(
    ("country", "first", "typed", "near", "far"),
    [
        ("ES", ("Madrid", "Barcelona", "Sevilla"), "San Sebastián", (43.31, -1.97), "Lima"),
        ("AR", ("Buenos Aires", "Mendoza", "Rosario"), "Córdoba", (-31.41, -64.19), "Perth"),
    ],
)
def test_a_place_by_name_is_found_near_the_map_and_a_far_one_is_a_choice(
    browser: Any, tmp_path: Path, country, first, typed, near, far
) -> None:
    path = tmp_path / "places.yaml"
    text = empty_map_text("places", coordinates="geographic", schema_ref="map.schema.json")
    session = EditSession.open(path, text, region=country_frame(country), country=country)
    for page in open_editor(browser, session):
        me = Designer(page)
        for name in (*first, typed):
            me.by_name(name)
        at = _positions(page)
        assert list(at) == [*first, typed]  # the name as typed, accents kept
        assert at[typed] == pytest.approx(list(near), abs=0.02)
        # A name whose every place is far from the map: a choice, never added silently.
        page.fill("#place-name", far)
        page.keyboard.press("Enter")
        page.wait_for_selector("#place-choices:not([hidden]) button.far")
        assert "near the map's cities" in page.inner_text("#hint")
        assert (
            page.locator("#place-choices button").count()
            == page.locator("#place-choices button.far").count()
        )
        assert len(_positions(page)) == 4
        page.keyboard.press("Escape")
        page.wait_for_selector("#place-choices", state="hidden")


def test_places_of_one_name_show_their_states_and_an_unknown_name_says_so(
    browser: Any, tmp_path: Path
) -> None:
    """Issue 38: the search box lists the places of an ambiguous name with their
    states; a name no place has says so, and adds nothing."""
    path = tmp_path / "states.yaml"
    text = empty_map_text("states", coordinates="geographic", schema_ref="map.schema.json")
    session = EditSession.open(path, text, region=country_frame("US"), country="US")
    for page in open_editor(browser, session):
        me = Designer(page)
        for name in ("Atlanta", "Cincinnati", "Nashville"):
            me.by_name(name)
        page.fill("#place-name", "Columbus")
        page.keyboard.press("Enter")
        page.wait_for_selector("#place-choices:not([hidden])")
        listed = page.locator("#place-choices button").all_inner_texts()
        for state in ("Ohio", "Georgia", "Indiana"):
            assert any(f"in {state}, " in item for item in listed), listed
        page.keyboard.press("Escape")
        page.fill("#place-name", "Kotor")
        page.keyboard.press("Enter")
        page.wait_for_function("document.getElementById('hint').textContent.includes('Kotor')")
        assert "No place called Kotor in the gazetteer" in page.inner_text("#hint")
        assert len(_positions(page)) == 3


OVERLAPPING = """format: 1
id: line
name: Line
coordinates: plane
cities:
  Aby: {x: 0, y: 0}
  Bby: {x: 3, y: 0.02}
  Cby: {x: 6, y: 0}
  Dby: {x: 3, y: 3}
routes:
  - {between: [Aby, Cby], length: 6, color: red}
  - {between: [Aby, Bby], length: 3, color: blue}
  - {between: [Bby, Cby], length: 3, color: green}
  - {between: [Aby, Dby], length: 4, color: gray}
  - {between: [Dby, Cby], length: 4, color: gray}
tickets:
  - {between: [Aby, Cby], value: 6}
"""


def test_every_route_under_another_is_selectable_and_keys_act_on_the_board(
    browser: Any, tmp_path: Path
) -> None:
    path = tmp_path / "line.yaml"
    path.write_text(OVERLAPPING)
    for page in open_editor(browser, EditSession.open(path)):
        # A spot of Aby-Cby's cars that another route's cars cover.
        box, under = page.evaluate(
            "(() => { const routesAt = (x, y) => [...new Set(document.elementsFromPoint(x, y)"
            ".map(e => e.closest('.route')).filter(Boolean).map(g => g.dataset.route))];"
            " for (const car of document.querySelectorAll('#board svg g.route .car')) {"
            "  const r = car.getBoundingClientRect();"
            "  const x = r.x + r.width / 2, y = r.y + r.height / 2;"
            "  const here = routesAt(x, y);"
            "  if (here.length > 1 && here.includes('Aby-Cby')) return [[x, y], here.length]; }"
            " return [null, 0]; })()"
        )
        assert under >= 2  # the two routes' cars are on one spot
        chosen = []
        for _ in range(under + 1):
            page.mouse.click(*box)
            page.wait_for_function("!document.getElementById('route-editor').hidden")
            chosen.append(page.inner_text("#route-title"))
        assert "Route Aby – Cby" in chosen[:under] and len(set(chosen[:under])) == under
        assert chosen[under] == chosen[0]  # round them all, then the first again
        assert "Click again for the next" in page.inner_text("#hint")
        # The one selected is the one Delete removes.
        while page.inner_text("#route-title") != "Route Aby – Cby":
            page.mouse.click(*box)
        page.keyboard.press("Delete")
        page.wait_for_function("state.routes.length === 4")
        left = page.evaluate("state.routes.map(r => r.a + '-' + r.b)")
        assert "Aby-Cby" not in left and "Aby-Bby" in left
        # Renaming leaves the text box when the board is clicked: keys act on it.
        page.locator('#board svg g.city[data-city="Dby"] circle').click(force=True)
        page.fill("#rename", "Dby2")
        page.locator('#board svg g.city[data-city="Bby"] circle').click(force=True)
        page.wait_for_function("document.getElementById('rename').value === 'Bby'")
        page.keyboard.press("Delete")
        page.wait_for_selector("#delete-confirm:not([hidden])")
        page.click("#delete-no")
        page.locator("#board svg").click(position={"x": 3, "y": 3})
        page.keyboard.press("r")
        assert page.get_attribute('.tool[data-tool="route"]', "class").endswith("active")
        assert page.input_value("#rename") in ("Bby", "")


def test_a_ferry_locomotive_mark_is_seen_on_a_black_route(browser: Any, tmp_path: Path) -> None:
    path = tmp_path / "line.yaml"
    path.write_text(
        OVERLAPPING.replace("length: 4, color: gray}", "length: 4, color: black, ferry: 2}")
    )
    for page in open_editor(browser, EditSession.open(path)):
        fills = page.evaluate(
            "[...document.querySelectorAll('#board svg g.route[data-color=\"black\"]')].map(g => ["
            " getComputedStyle(g.querySelector('.car')).fill,"
            " getComputedStyle(g.querySelector('.loco-mark')).fill])"
        )
        assert len(fills) == 2
        for car, mark in fills:
            dark = [int(v) for v in car[4:-1].split(",")]
            light = [int(v) for v in mark[4:-1].split(",")]
            assert sum(light) - sum(dark) > 300, (car, mark)  # contrast, not black on black


@pytest.mark.slow  # 2-10 s; the default suite keeps the room's main test
def test_a_city_moved_on_a_laid_out_board_takes_its_routes_along(
    browser: Any, tmp_path: Path
) -> None:
    path = tmp_path / "europe.yaml"
    path.write_text(Path("maps/europe.yaml").read_text(encoding="utf-8"))
    for page in open_editor(browser, EditSession.open(path)):
        car = (
            "(() => { const g = [...document.querySelectorAll('#board svg g.route')]"
            ".find(g => g.dataset.a === 'Brest' && g.dataset.b === 'Paris' ||"
            " g.dataset.a === 'Paris' && g.dataset.b === 'Brest');"
            " const r = g.querySelector('.car').getBoundingClientRect(); return [r.x, r.y]; })()"
        )
        before = page.evaluate(car)
        box = page.locator('#board svg g.city[data-city="Paris"] circle').bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x + 40, y + 60, steps=5)
        during = page.evaluate(car)  # live, before the drop
        assert abs(during[0] - before[0]) + abs(during[1] - before[1]) > 5
        page.mouse.up()
        page.wait_for_function("state.undo.label && state.undo.label.startsWith('move Paris')")
        after = page.evaluate(car)
        assert abs(after[0] - before[0]) + abs(after[1] - before[1]) > 5
        assert "[17.65, 31.31]" in path.read_text()  # nothing saved yet
        page.keyboard.press("Control+s")
        page.wait_for_selector("#dirty", state="hidden")
        text = path.read_text()
        # Brest-Paris's bend point went with Paris (turned about Brest).
        assert "between: [Brest, Paris]" in text and "[17.65, 31.31]" not in text
        assert "[28.26, 27.97]" not in text  # Marseille-Paris's too


def test_the_board_is_laid_out_by_a_button(browser: Any, tmp_path: Path) -> None:
    from ttr_maps.authoring.starter import write_starter_map

    path = write_starter_map(tmp_path / "lusitania.yaml", "lusitania")
    for page in open_editor(browser, EditSession.open(path)):
        page.click('.tabs button[data-tab="map"]')
        page.click("#relayout")
        page.wait_for_function("state.map.laid_out")
        assert page.inner_text("#hint").startswith("Laid out:")
        page.keyboard.press("Control+z")
        page.wait_for_function("!state.map.laid_out")


@pytest.mark.slow  # 2-10 s; the default suite keeps the room's main test
def test_the_numbers_panel_says_what_the_map_and_each_board_beside_are_played_without(
    browser: Any, tmp_path: Path
) -> None:
    """Issue 37: a board whose twist is not modelled says so wherever its numbers
    stand: Switzerland's own column, and every published board's beside it."""
    from ttr_maps.load import load_map
    from ttr_maps.published import published_boards

    path = tmp_path / "switzerland.yaml"
    path.write_text(Path("maps/switzerland.yaml").read_text(encoding="utf-8"))
    own = list(load_map(path).not_modelled)
    assert own  # the test needs a map with a twist ttr does not play
    for page in open_editor(browser, EditSession.open(path)):
        page.click('.tabs button[data-tab="numbers"]')
        row = page.locator("#numbers tr.not-modelled")
        row.wait_for()
        cells = row.locator("td").all_inner_texts()
        heads = page.locator("#numbers tr").first.locator("th").all_inner_texts()
        assert cells[0] == "played without" and cells[1] == "; ".join(own)
        by_name = {b.name: b for b in published_boards()}
        for head, cell in zip(heads[2:], cells[2:], strict=True):
            board = by_name[head.rsplit(" (", 1)[0]]
            assert cell == ("; ".join(board.not_modelled) or "–")


# Counts crowding in a browser; tests/edit/test_edit_api.py checks the count in the default suite.
@pytest.mark.slow
def test_the_numbers_panel_shows_crowding_counted_in_play(browser: Any, tmp_path: Path) -> None:
    """Issue 36: the crowding row is the count in greedy games, with its interval and
    the games it was counted in, for the map and each board beside it; while it is
    counted the cell says how far it is. No model of crowding is shown."""
    path = tmp_path / "iran.yaml"
    path.write_text(Path("maps/iran.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    for page in open_editor(browser, EditSession.open(path)):
        page.click('.tabs button[data-tab="numbers"]')
        row = page.locator("#numbers tr.crowding")
        row.wait_for()
        assert row.locator("td").first.inner_text().startswith("crowding in play")
        assert "demand no track serves" not in page.inner_text("#numbers")
        # The map's count comes first (the page asks again while one goes on).
        page.wait_for_function(
            "document.querySelectorAll('#numbers tr.crowding td')[1]"
            ".textContent.includes('counted in')",
            timeout=300_000,
        )
        cells = row.locator("td").all_inner_texts()[1:]
        for cell in cells[1:]:  # the boards beside: counted, or how far
            counting = re.fullmatch(r"counting: \d+ of \d+ games|waiting to be counted", cell)
            assert "counted in" in cell or counting
        mine = page.evaluate("api('numbers?players=3')")["crowding"]["map"]
        low, high = mine["ci95"]
        interval = f"{low:.1f}–{high:.1f}, counted in {mine['games']} greedy games"
        assert cells[0] == f"{mine['per_game']:.1f}\n{interval}"
        assert len(cells) == 4
        screenshot(page, tmp_path, "edit-numbers-crowding.png")
