"""`ttr serve` in a real browser: Playwright drives the system's Chromium against a
uvicorn server on a free port of 127.0.0.1.

These tests never skip: without Chromium or Playwright they fail and say what to
install. Set TTR_SERVE_SCREENSHOTS=FOLDER to keep the screenshots (docs/ uses them).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serve_server import running_server
from typer.testing import CliRunner

from ttr_core.cli import app as cli_app
from ttr_core.serve.app import create_app

#: Long enough for a shared, busy machine; a healthy run takes a fraction.
WAIT_MS = 15_000


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
    page.click(".fixed-deal summary")  # a fixed deal: the test knows the cards
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


def fast_forward_and_check_the_end(page: Any, tmp_path: Path, seats: int = 2) -> Path:
    js(
        page,
        "fetch(`/api/games/${table.game}/fast-forward`, {method: 'POST', body: '{}', "
        "headers: {'X-Seat-Token': table.token, 'Content-Type': 'application/json'}})",
    )
    page.wait_for_selector("#dialog[open] .result")
    assert page.inner_text("#dialog-title").startswith("Game over")
    rows = page.locator("#dialog .result tr")
    assert rows.count() == seats + 1  # the header and a row per seat
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
    hand_before = js(page, "table.data.view.hand")
    click_route(page, tunnel)
    page.wait_for_selector("#dialog[open] .option")
    page.locator("#dialog .option").first.click()
    page.wait_for_function("document.getElementById('dialog-title').textContent === 'Tunnel'")
    assert page.locator("#dialog .revealed .card").count() == 3  # the three cards turned up
    # The cards laid down lie apart from the hand while the extra cards are asked for.
    laid = js(page, "table.data.view.laid")
    assert laid and page.locator("#laid").is_visible()
    assert page.locator("#laid .card").count() == len(laid)
    held = js(page, "table.data.view.hand")
    assert {c: held[c] + laid.get(c, 0) for c in held} == hand_before  # nothing lost, no double
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


@pytest.fixture
def new_page(browser: Any) -> Iterator[Any]:
    """Pages in contexts of their own (separate browsers, as friends have), each
    checked for JavaScript errors at the end."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make(width: int = 1400, height: int = 860) -> Any:
        context = browser.new_context(
            viewport={"width": width, "height": height}, accept_downloads=True, bypass_csp=True
        )
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        page.on("pageerror", lambda error: errors.append(str(error)))
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, errors


def keep_offered_tickets(page: Any) -> None:
    page.wait_for_selector("#dialog[open] .offer")
    page.click("#dialog-buttons button.primary")
    page.wait_for_selector("#tickets li.ticket")


@pytest.mark.slow  # 2-10 s; the default suite keeps the room's main test
def test_two_players_and_someone_watching_in_three_browsers(
    new_page: Any, server_url: str, tmp_path: Path
) -> None:
    """Ana starts a game for two people and a bot, Bo joins by his link in another
    browser, Cy watches by the watch link: Bo's pace menu is filled, Cy sees the
    board and the log but no hand; names and a chat note reach everyone, and the
    note ends up in the record Bo downloads."""
    ana = new_page()
    ana.goto(server_url)
    ana.select_option("#map", "iran")
    ana.select_option(".seat-player >> nth=1", "human")
    ana.click("#add-seat")
    ana.select_option(".seat-player >> nth=2", "greedy")
    ana.select_option("#lobby-pace", "fast")
    ana.click("#start")
    ana.locator("#join-list a").nth(1).wait_for()
    links = [ana.locator(".join-link").nth(i).input_value() for i in range(2)]
    watch = ana.input_value("#watch-link")
    assert "#watch/" in watch and links[0] != links[1]
    ana.goto(links[0])
    bo, cy = new_page(), new_page()
    bo.goto(links[1])
    cy.goto(watch)
    keep_offered_tickets(ana)
    keep_offered_tickets(bo)
    assert bo.locator("#pace option").count() == 4 and bo.input_value("#pace") == "fast"
    cy.wait_for_function("table.data && table.data.view.phase === 'playing'")
    assert not cy.locator("#hand").is_visible() and not cy.locator("#tickets").is_visible()
    assert cy.locator("#dialog[open]").count() == 0  # nobody's tickets to choose
    assert "watching" in cy.inner_text("#title")

    ana.fill("#my-name", "Ana")
    ana.click("#name-form button")
    for page in (bo, cy):
        page.wait_for_function("table.data.names[0] === 'Ana'")
        assert "0: Ana" in page.inner_text("#scores")
    bo.fill("#note-text", "Tabriz feels cut off from the south")
    bo.press("#note-text", "Enter")
    for page in (ana, cy):
        page.wait_for_function("table.data.notes.length === 1")
        assert "Tabriz feels cut off" in page.inner_text("#notes")
    screenshot(cy, tmp_path, "serve-watching.png")

    fast_forward_and_check_the_end(ana, tmp_path, seats=3)
    bo.wait_for_selector("#dialog[open] .result")
    assert "0: Ana" in bo.inner_text("#dialog .result")
    with bo.expect_download() as download:
        bo.click("text=Download the game record")
    record = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert record["notes"][0]["text"] == "Tabriz feels cut off from the south"
    assert record["notes"][0]["seat"] == 1 and record["notes"][0]["name"] == "seat 1 (human)"
    assert record["seats"][0]["name"] == "Ana"


@pytest.mark.slow  # 2-10 s; the default suite keeps the room's main test
def test_a_server_restart_mid_game_then_both_players_carry_on(
    new_page: Any, tmp_path: Path
) -> None:
    import httpx2

    from ttr_core.serve.store import TableStore
    from ttr_core.serve.tables import TableRegistry
    from ttr_core.serve.thinkers import Thinkers

    store = TableStore(tmp_path / "tables.sqlite3")

    def app() -> Any:
        return create_app(registry=TableRegistry(store=store, thinkers=Thinkers(processes=0)))

    try:
        with running_server(app()) as url:
            created = httpx2.post(
                f"{url}/api/games",
                json={"map": "north_america", "players": ["human", "human"]},
                timeout=10,
            ).json()
            links = [f"{url}/#play/{created['game']}/{s['token']}" for s in created["seats"]]
            pages = [new_page(), new_page()]
            for page, link in zip(pages, links, strict=True):
                page.goto(link)
                keep_offered_tickets(page)
            pages[0].wait_for_function("table.data.view.phase === 'playing'")
            first = js(pages[0], "table.data.view.to_move")
            draw_twice(pages[first])
            pages[1 - first].wait_for_function("table.data.view.to_move === table.data.view.seat")
        port = int(url.rsplit(":", 1)[1])
        with running_server(app(), port=port):
            for page in pages:
                page.reload()
                page.wait_for_selector("#tickets li.ticket")
                assert "drew from the deck" in page.inner_text("#log")
            draw_twice(pages[1 - first])
            pages[first].wait_for_function("table.data.view.to_move === table.data.view.seat")
            assert js(pages[first], "table.data.log.filter((e) => e.seat !== null).length") >= 6
    finally:
        store.close()


def draw_twice(page: Any) -> None:
    wait_my_turn(page)
    before = js(page, hand_size())
    page.click("#deck")
    page.wait_for_function("table.data.view.decision === 'second_card'")
    page.click("#deck")
    page.wait_for_function(f"{hand_size()} === {before + 2}")


# A phone in Chromium; tests/serve/test_serve_phone.py keeps the phone in the default suite.
@pytest.mark.slow
def test_a_phone_shows_the_board_above_and_the_panels_below(
    new_page: Any, server_url: str, tmp_path: Path
) -> None:
    page = new_page(390, 844)
    page.goto(server_url)
    start_from_lobby(page, "north_america", seed=6, pace="instant")
    keep_offered_tickets(page)
    page.wait_for_selector("#market button.slot")
    board = page.locator("#table .board-wrap").bounding_box()
    side = page.locator("#table .side").bounding_box()
    assert board["width"] >= 360 and board["height"] >= 240  # the board is there
    assert side["y"] >= board["y"] + board["height"] - 1  # the panels below it
    assert side["x"] >= 0 and side["x"] + side["width"] <= 390 + 0.5  # nothing cut off
    assert js(page, "document.documentElement.scrollWidth") <= 390
    js(page, "window.scrollTo(0, 0)")
    screenshot(page, tmp_path, "serve-phone.png")
    page.screenshot(path=str(tmp_path / "serve-phone-full.png"), full_page=True)
