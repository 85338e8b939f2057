"""Starter maps (ttr_maps.authoring.starter) and `ttr new`."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from ttr_core.cli import app
from ttr_maps.authoring.starter import (
    MODELINE_PREFIX,
    StarterError,
    check_map_id,
    default_schema_reference,
    starter_map_text,
)
from ttr_maps.checks.validate import validate_file
from ttr_maps.graph import shortest_wagon_distance
from ttr_maps.io.bundled import maps_dir, schema_path

runner = CliRunner()


@pytest.mark.parametrize("flag", ["--geographic", "--plane"])
def test_new_map_validates_with_no_problems(flag, tmp_path):
    target = tmp_path / "my_map.yaml"
    result = runner.invoke(app, ["new", "my_map", flag, "-o", str(target)])
    assert result.exit_code == 0, result.output
    report = validate_file(target)
    assert report.problems == []
    game_map = report.map
    assert game_map is not None
    assert game_map.id == "my_map"
    assert game_map.coordinates == flag.removeprefix("--")
    assert any(r.is_double for r in game_map.routes)
    assert len(game_map.cities) >= 5 and len(game_map.tickets) >= 3
    for ticket in game_map.tickets:  # R2, independently of the validator
        assert ticket.value == shortest_wagon_distance(game_map, ticket.a, ticket.b)


def test_new_refuses_to_overwrite_unless_forced(tmp_path):
    target = tmp_path / "mine.yaml"
    target.write_text("keep me\n", encoding="utf-8")
    result = runner.invoke(app, ["new", "mine", "-o", str(target)])
    assert result.exit_code == 2
    assert "already exists" in result.output and "--force" in result.output
    assert target.read_text(encoding="utf-8") == "keep me\n"
    result = runner.invoke(app, ["new", "mine", "-o", str(target), "--force"])
    assert result.exit_code == 0, result.output
    assert validate_file(target).problems == []


@pytest.mark.parametrize("bad_id", ["My-Map", "1map", "map id", "_x", ""])
def test_new_rejects_an_id_that_breaks_the_schema_pattern(bad_id, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["new", bad_id])
    assert result.exit_code == 2
    assert "not valid" in result.output and "^[a-z][a-z0-9_]*$" in result.output
    assert list(tmp_path.iterdir()) == []


def test_new_writes_id_yaml_in_the_current_folder_by_default(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["new", "atlas"])
    assert result.exit_code == 0, result.output
    assert validate_file(tmp_path / "atlas.yaml").problems == []


def test_new_into_a_missing_folder_is_a_clear_error(tmp_path):
    result = runner.invoke(app, ["new", "atlas", "-o", str(tmp_path / "no" / "atlas.yaml")])
    assert result.exit_code == 2
    assert "does not exist" in result.output


def test_modeline_outside_the_checkout_points_at_a_copy_beside_the_map(tmp_path):
    target = tmp_path / "atlas.yaml"
    runner.invoke(app, ["new", "atlas", "-o", str(target)])
    first = target.read_text(encoding="utf-8").splitlines()[0]
    assert first == MODELINE_PREFIX + "map.schema.json"  # no path of this machine
    copy = tmp_path / "map.schema.json"
    assert copy.read_bytes() == schema_path().read_bytes()
    # Moved to another folder (another machine), the reference still resolves.
    moved = tmp_path / "elsewhere"
    moved.mkdir()
    for name in ("atlas.yaml", "map.schema.json"):
        (tmp_path / name).rename(moved / name)
    assert (moved / first.removeprefix(MODELINE_PREFIX)).is_file()
    # A schema file of the designer's own is never replaced.
    (moved / "map.schema.json").write_text("{}")
    result = runner.invoke(app, ["new", "second", "-o", str(moved / "second.yaml")])
    assert result.exit_code == 0 and (moved / "map.schema.json").read_text() == "{}"


def test_modeline_inside_the_checkout_is_relative_like_the_bundled_maps():
    reference = default_schema_reference(maps_dir() / "new_map.yaml")
    assert reference == "../schemas/map.schema.json"
    bundled_first_line = (maps_dir() / "north_america.yaml").read_text(encoding="utf-8")
    assert bundled_first_line.startswith(MODELINE_PREFIX + reference)


def test_schema_option_sets_the_modeline(tmp_path):
    target = tmp_path / "atlas.yaml"
    url = "https://example.org/schemas/map.schema.json"
    result = runner.invoke(app, ["new", "atlas", "-o", str(target), "--schema", url])
    assert result.exit_code == 0, result.output
    assert target.read_text(encoding="utf-8").splitlines()[0] == MODELINE_PREFIX + url


def test_check_map_id_and_starter_text():
    check_map_id("ok_map_2")
    with pytest.raises(StarterError):
        check_map_id("Nope")
    text = starter_map_text("ok_map_2", coordinates="plane")
    assert "id: ok_map_2" in text and "coordinates: plane" in text


# ---------------------------------------------------------------- ttr new --cities


def test_new_with_cities_places_them_from_the_gazetteer(tmp_path):
    target = tmp_path / "norge.yaml"
    result = runner.invoke(
        app, ["new", "norge", "-o", str(target), "--cities", "Oslo, Bergen, Trondheim, tromso"]
    )
    assert result.exit_code == 0, result.output
    report = validate_file(target)
    assert report.errors == []
    game_map = report.map
    assert game_map is not None
    # Names as typed, but one typed in lower case takes the gazetteer's spelling.
    assert [c.name for c in game_map.cities] == ["Oslo", "Bergen", "Trondheim", "Tromsø"]
    assert game_map.city("Oslo").position == pytest.approx((59.91, 10.75), abs=0.02)
    assert game_map.city("Tromsø").position == pytest.approx((69.65, 18.96), abs=0.02)
    joined = {name for route in game_map.routes for name in (route.a, route.b)}
    assert joined == {c.name for c in game_map.cities}
    assert {n for t in game_map.tickets for n in (t.a, t.b)} == joined
    for ticket in game_map.tickets:  # R2, independently of the validator
        assert ticket.value == shortest_wagon_distance(game_map, ticket.a, ticket.b)
    # Tromsø's only route is its one way in: a double route, so no claim shuts it.
    (tromso,) = {r.entry for r in game_map.routes if "Tromsø" in (r.a, r.b)}
    assert sum(1 for r in game_map.routes if r.entry == tromso) == 2


def test_new_with_an_ambiguous_or_unknown_city_lists_choices_and_writes_nothing(tmp_path):
    target = tmp_path / "x.yaml"
    result = runner.invoke(
        app, ["new", "x", "-o", str(target), "--cities", "Bergen, Springfield, Trondhiem"]
    )
    assert result.exit_code == 2
    assert "'Bergen' is ambiguous" in result.output
    assert "Bergen (NO)" in result.output and "Bergen (NL)" in result.output
    assert "'Springfield' is ambiguous" in result.output
    assert "did you mean 'Trondheim'?" in result.output
    assert "15,000 people or more" in result.output and "'Trondhiem (LAT, LON)'" in result.output
    # Places of one name in one country are told apart by their states (issue 38).
    assert "in Illinois, " in result.output and "in Massachusetts, " in result.output
    assert not target.exists()


@pytest.mark.parametrize(
    ("cities", "region", "bergen"),
    [
        ("Bergen (NL), Amsterdam", None, (52.67, 4.70)),
        ("Bergen, Stavanger", "Norway", (60.39, 5.32)),
        ("Bergen, Oslo", None, (60.39, 5.32)),  # settled by the list's other city
        ("Bergen (60.5, 5.5), Oslo", None, (60.5, 5.5)),
    ],
)
def test_new_with_cities_settles_a_doubtful_name(tmp_path, cities, region, bergen):
    target = tmp_path / "x.yaml"
    args = ["new", "x", "-o", str(target), "--cities", cities]
    result = runner.invoke(app, args + (["--region", region] if region else []))
    assert result.exit_code == 0, result.output
    game_map = validate_file(target).map
    assert game_map is not None
    assert game_map.city("Bergen").position == pytest.approx(bergen, abs=0.01)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--cities", "Oslo"], "at least two cities"),
        (["--cities", "Oslo, Oslo"], "twice"),
        (["--cities", "Oslo (, Bergen"], "cannot read"),
        (["--cities", "Oslo (95, 3), Bergen (NO)"], "not a latitude"),
        (["--cities", "Oslo, Bergen", "--region", "Atlantis"], "no such country"),
        (["--cities", "Oslo, Bergen", "--plane"], "leave out --plane"),
        (["--region", "NO"], "--region goes with --cities"),
    ],
)
def test_new_with_cities_refuses_bad_lists(tmp_path, args, message):
    target = tmp_path / "x.yaml"
    result = runner.invoke(app, ["new", "x", "-o", str(target), *args])
    assert result.exit_code == 2 and message in result.output, result.output
    assert not target.exists()


def test_new_with_cities_places_each_near_the_others_and_keeps_names_as_typed(tmp_path):
    target = tmp_path / "iberia.yaml"
    cities = "Madrid, Barcelona, Sevilla, San Sebastián, Cádiz, Salamanca"
    result = runner.invoke(app, ["new", "iberia", "-o", str(target), "--cities", cities])
    assert result.exit_code == 0, result.output
    game_map = validate_file(target).map
    assert game_map is not None
    assert [c.name for c in game_map.cities] == [n.strip() for n in cities.split(",")]
    assert game_map.city("San Sebastián").position == pytest.approx((43.31, -1.97), abs=0.02)
    assert game_map.city("Salamanca").position == pytest.approx((40.97, -5.66), abs=0.02)


def test_new_refuses_a_city_only_far_from_the_others_and_warns_when_its_country_is_named(
    tmp_path,
):
    target = tmp_path / "x.yaml"
    args = ["new", "x", "-o", str(target), "--cities"]
    result = runner.invoke(app, [*args, "Bergen, Stavanger, Trondheim, Lima"])
    assert result.exit_code == 2 and "near the map's other cities" in result.output
    assert not target.exists()
    result = runner.invoke(app, [*args, "Bergen, Stavanger, Trondheim, Lima (PE)"])
    assert result.exit_code == 0, result.output
    assert "warning: 'Lima' is placed in PE" in result.output
