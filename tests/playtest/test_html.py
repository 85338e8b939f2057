"""report.html and the pictures of a balance report."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import ttr_maps.render.draw
from ttr_core.playtest import html
from ttr_core.playtest.plan import PlayedMap, RunPlan
from ttr_core.playtest.simulate import Simulation, simulate
from ttr_maps.model import Map


@pytest.fixture(scope="module")
def simulation(north_america: Map) -> Simulation:
    return simulate(
        PlayedMap(north_america, "north_america"), RunPlan(3, 2, ("greedy", "random"), 4)
    )


def test_heatmap_is_on_an_absolute_scale(
    simulation: Simulation, north_america: Map, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: dict[str, Any] = {}

    def spy(game_map: Map, path: Path, overlay: Any, **options: Any) -> Path:
        seen.update(options, heat=overlay.heat)
        return path

    monkeypatch.setattr(ttr_maps.render.draw, "render_map", spy)
    report = simulation.report
    written = html.write_pictures(report, north_america, tmp_path, simulation.scores)
    assert [p.name for p in written] == list(html.PICTURES.values())
    assert seen["heat"].routes == {r.route: r.claimed / 3 for r in report.routes}
    assert seen["heat"].cities == dict(report.cities)
    assert "share of games" in seen["heat"].label


def test_the_page_shows_names_as_text(simulation: Simulation) -> None:
    report = simulation.report
    hostile = replace(report, settings=replace(report.settings, map_name="<script>&"))
    page = html.to_html(hostile)
    assert page.startswith('<!DOCTYPE html>\n<html lang="en">')
    assert "<title>Play-test report: &lt;script&gt;&amp;</title>" in page
    assert "<h1>Play-test report: &lt;script&gt;&amp;</h1>" in page
    assert "<script>" not in page
    for name in html.PICTURES.values():
        assert f'src="{name}"' in page
