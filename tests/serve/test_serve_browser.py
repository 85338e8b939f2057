"""`ttr serve` in a real browser: Playwright drives the system's Chromium against a
uvicorn server on a free port of 127.0.0.1.

These tests never skip: without Chromium or Playwright they fail and say what to
install. Set TTR_SERVE_SCREENSHOTS=FOLDER to keep the screenshots (docs/ uses them).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serve_server import running_server
from typer.testing import CliRunner

from ttr_core.cli import app as cli_app
from ttr_core.serve.app import create_app

CHROMIUM = "/usr/bin/chromium"
#: Long enough for a shared, busy machine; a healthy run takes a fraction.
WAIT_MS = 15_000


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: install the Debian package 'chromium'")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("Playwright for Python is missing: pip install -e '.[test]'")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    with running_server(create_app(test_hooks=True)) as url:
        yield url


@pytest.fixture
def page(browser: Any, server_url: str) -> Iterator[Any]:
    # The page's CSP forbids eval, which Playwright's wait_for_function needs.
    context = browser.new_context(
        viewport={"width": 1400, "height": 860}, accept_downloads=True, bypass_csp=True
    )
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server_url)
    yield page
    context.close()
    assert not errors, errors  # no JavaScript error on the way


def screenshot(page: Any, tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    page.screenshot(path=str(path))
    keep = os.environ.get("TTR_SERVE_SCREENSHOTS")
    if keep:  # small enough for docs/: 128 colours
        from PIL import Image

        picture = Image.open(path).convert("RGB").quantize(128, dither=Image.Dither.NONE)
        picture.save(Path(keep) / name, optimize=True)


def js(page: Any, expression: str) -> Any:
    return page.evaluate(expression)


def start_from_lobby(page: Any, map_id: str, seed: int, pace: str) -> None:
    page.select_option("#map", map_id)
    page.fill("#seed", str(seed))
    page.select_option("#lobby-pace", pace)
    page.click("#start")
    links = page.locator("#join-list a")
    links.first.wait_for()
    assert links.count() == 1  # one join link per human seat
    assert "#play/" in page.locator(".join-link").first.input_value()
    links.first.click()
    page.wait_for_selector("#dialog[open]")
    assert page.inner_text("#dialog-title") == "Choose your tickets"


def wait_my_turn(page: Any) -> None:
    page.wait_for_function(
        "table.data && table.data.view.to_move === table.data.view.seat"
        " && !table.data.view.decision && !table.busy"
    )


def hand_size() -> str:
    return "Object.values(table.data.view.hand).reduce((a, b) => a + b, 0)"


def click_route(page: Any, route: str) -> None:
    page.locator(f'g.route[data-route="{route}"] polygon.car').first.click()


def fast_forward_and_check_the_end(page: Any, tmp_path: Path) -> Path:
    js(
        page,
        "fetch(`/api/games/${table.game}/fast-forward`, "
        "{method: 'POST', headers: {'X-Seat-Token': table.token}})",
    )
    page.wait_for_selector("#dialog[open] .result")
    assert page.inner_text("#dialog-title").startswith("Game over")
    rows = page.locator("#dialog .result tr")
    assert rows.count() == 3  # the header and two seats
    with page.expect_download() as download:
        page.click("text=Download the game record")
    record = tmp_path / download.value.suggested_filename
    download.value.save_as(record)
    result = CliRunner().invoke(cli_app, ["replay", str(record), "--verify"])
    assert result.exit_code == 0, result.output  # `ttr replay` accepts the record
    return record


def test_north_america_lobby_to_game_over_then_replay(page: Any, tmp_path: Path) -> None:
    start_from_lobby(page, "north_america", seed=4, pace="fast")
    screenshot(page, tmp_path, "serve-tickets.png")
    # R4: keep two of the three tickets offered.
    page.locator("#dialog input[type=checkbox]").first.uncheck()
    page.click("#dialog-buttons button.primary")
    page.wait_for_selector("#tickets li.ticket")
    assert page.locator("#tickets li.ticket").count() == 2

    wait_my_turn(page)
    before = js(page, hand_size())
    # R7: a face-up card that is not a locomotive, then the deck.
    slot = js(
        page,
        "Object.keys(table.data.view.legal.market).find("
        "(s) => table.data.view.market[s] !== 'loco')",
    )
    taken = js(page, f"table.data.view.market[{slot}]")
    page.click(f'#market button[data-slot="{slot}"]')
    page.wait_for_function("table.data.view.decision === 'second_card'")
    page.click("#deck")
    page.wait_for_function(f"{hand_size()} === {before + 2}")
    # The log is told in the table's words (the journal), the colour taken included.
    assert f"seat 0 (human) took {taken}" in page.inner_text("#log")
    assert "seat 0 (human) drew from the deck" in page.inner_text("#log")

    # The bot answers, one move at a time.
    page.wait_for_function(
        "table.data.log.some((e) => e.seat === 1) && table.data.view.to_move === 0"
    )
    assert "seat 1 (greedy)" in page.inner_text("#log")

    # R9: draw until a route can be claimed, then claim it by clicking the board.
    wait_my_turn(page)
    while not js(page, "Object.keys(table.data.view.legal.claims).length"):
        page.click("#deck")
        page.wait_for_function("table.data.view.decision === 'second_card'")
        page.click("#deck")
        wait_my_turn(page)
    claims = js(page, "table.data.view.legal.claims")
    route = min(claims, key=lambda r: (len(claims[r]), r))
    page.hover(f'g.route[data-route="{route}"] polygon.car >> nth=0')
    tooltip = page.locator(".board-wrap .tooltip").first
    assert tooltip.is_visible() and tooltip.inner_text().endswith("open")
    click_route(page, route)
    if len(claims[route]) > 1:  # a real choice of payment: the dialog asks
        page.wait_for_selector("#dialog[open] .option")
        page.locator("#dialog .option").first.click()
    page.wait_for_selector(f'g.route.claimed[data-route="{route}"][data-owner="0"]')
    title = js(page, f"document.querySelector('g.route[data-route=\"{route}\"]').dataset.title")
    assert f"seat 0 (human) claimed {title} (" in page.inner_text("#log")
    page.hover(f'g.route[data-route="{route}"] polygon.car >> nth=0')
    assert tooltip.inner_text().endswith("owner: seat 0 (human)")

    # A ticket's cities light up on the board while the mouse is over it.
    page.hover("#tickets li.ticket >> nth=0")
    assert page.locator("g.city.ticket-end").count() == 2
    page.wait_for_function("table.data.log.slice(-1)[0].seat === 1")  # the bot moved
    screenshot(page, tmp_path, "serve-table.png")

    record = fast_forward_and_check_the_end(page, tmp_path)
    screenshot(page, tmp_path, "serve-game-over.png")

    # The replay viewer steps through the record on the board.
    page.goto(page.url.split("#")[0] + "#replay")
    page.set_input_files("#record-file", str(record))
    page.wait_for_selector("#replay-controls:not([hidden])")
    frames = js(page, "replay.data.frames.length")
    assert page.inner_text("#replay-step").startswith(f"0 / {frames}")
    page.click("#replay-next")
    assert page.inner_text("#replay-step").startswith(f"1 / {frames}")
    page.click("#replay-end")
    claimed = page.locator("#replay-board g.route.claimed").count()
    owned = sum(len(seat["routes"]) for seat in js(page, "replay.data.result.seats"))
    assert claimed == owned > 0
    assert page.locator("#replay-scores tr").count() == 3


def test_europe_through_a_tunnel_and_a_station(page: Any, tmp_path: Path) -> None:
    start_from_lobby(page, "europe", seed=2, pace="instant")
    assert page.locator("#dialog .offer").count() == 4  # E4: three tickets and a long one
    page.click("#dialog-buttons button.primary")
    wait_my_turn(page)

    # E2: claim a tunnel; two ways to pay, so the payment dialog asks first.
    tunnel = "Angora-Constantinople"
    assert page.locator(f'g.route.tunnel[data-route="{tunnel}"]').count() == 1
    assert len(js(page, f"table.data.view.legal.claims['{tunnel}']")) == 2
    click_route(page, tunnel)
    page.wait_for_selector("#dialog[open] .option")
    page.locator("#dialog .option").first.click()
    page.wait_for_function("document.getElementById('dialog-title').textContent === 'Tunnel'")
    assert page.locator("#dialog .revealed .card").count() == 3  # the three cards turned up
    screenshot(page, tmp_path, "serve-tunnel.png")
    page.locator("#dialog .option").first.click()
    page.wait_for_selector(f'g.route.claimed[data-route="{tunnel}"][data-owner="0"]')

    # E1: build a station by clicking a city.
    wait_my_turn(page)
    city = js(page, "Object.keys(table.data.view.legal.stations).sort()[0]")
    page.locator(f'g.city[data-city="{city}"] circle').click(force=True)
    page.wait_for_selector("#dialog[open] .option")
    assert page.inner_text("#dialog-title") == f"Build a station in {city}?"
    page.locator("#dialog .option").first.click()
    page.wait_for_selector(f'g.city[data-city="{city}"] polygon.station')
    assert js(page, f"table.data.view.station_owners['{city}']") == 0
    assert js(page, "table.data.view.stations_left[0]") == 2

    fast_forward_and_check_the_end(page, tmp_path)
    assert "stations" in page.inner_text("#dialog .result")


def test_the_page_works_under_its_own_content_security_policy(
    browser: Any, server_url: str
) -> None:
    context = browser.new_context(viewport={"width": 1200, "height": 800})
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    try:
        page.goto(server_url)
        start_from_lobby(page, "iran", seed=1, pace="instant")
        page.click("#resign")  # D5: asks first; keeping on brings the ticket choice back
        page.click("text=Keep playing")
        page.wait_for_selector("#dialog[open] .offer")
        page.click("#dialog-buttons button.primary")
        page.wait_for_selector("#tickets li.ticket")
        page.wait_for_selector("#market button.slot")
        assert page.locator("#board g.route").count() > 0
    finally:
        context.close()
    assert not problems, problems
