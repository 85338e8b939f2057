"""Starter maps (ttr_maps.io.starter) and `ttr new`."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from typer.testing import CliRunner

from ttr_core.cli import app
from ttr_maps.checks.validate import validate_file
from ttr_maps.graph import shortest_wagon_distance
from ttr_maps.io.bundled import maps_dir, schema_path
from ttr_maps.io.starter import (
    MODELINE_PREFIX,
    StarterError,
    check_map_id,
    default_schema_reference,
    starter_map_text,
)

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


def test_modeline_outside_the_checkout_points_at_the_installed_schema(tmp_path):
    target = tmp_path / "atlas.yaml"
    runner.invoke(app, ["new", "atlas", "-o", str(target)])
    first = target.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith(MODELINE_PREFIX)
    reference = first.removeprefix(MODELINE_PREFIX)
    assert reference.startswith("file://")
    assert Path(unquote(urlparse(reference).path)) == schema_path().resolve()


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
