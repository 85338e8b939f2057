"""Packaging: a plain `pip install .` carries the bundled maps and schemas, so maps
are found by id from any working folder, not only from the repository."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from testdata import ROOT


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), str(ROOT)],
        capture_output=True,
        text=True,
    )
    if built.returncode != 0:
        pytest.skip(f"cannot build a wheel here: {built.stderr.strip()[-300:]}")
    return next(out.glob("ttr_mapkit-*.whl"))


def test_wheel_holds_the_bundled_maps_and_schemas(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for map_id in ("north_america", "europe", "iran"):
        assert f"ttr_maps/data/maps/{map_id}.yaml" in names
    assert "ttr_maps/data/schemas/map.schema.json" in names
    assert "ttr_maps/data/schemas/game-record.schema.json" in names
    assert "ttr_maps/data/schemas/balance-report.schema.json" in names
    assert "ttr_maps/py.typed" in names and "ttr_core/py.typed" in names


def test_installed_package_finds_maps_by_id_from_any_folder(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(target)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code = (
        "import ttr_maps, sys; from ttr_maps.io.bundled import bundled_map_ids;"
        "assert ttr_maps.__file__.startswith(sys.argv[1]), ttr_maps.__file__;"
        "print(bundled_map_ids(), [len(ttr_maps.load_map(i).routes) for i in bundled_map_ids()])"
    )
    env = {**os.environ, "PYTHONPATH": str(target)}
    ran = subprocess.run(
        [sys.executable, "-c", code, str(target)],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
    )
    assert ran.returncode == 0, ran.stderr
    from ttr_maps.io.bundled import bundled_map_ids

    assert ran.stdout.startswith(str(bundled_map_ids()))
    assert {"europe", "iran", "north_america", "nordic_countries"} <= set(bundled_map_ids())


def test_a_map_id_finds_the_bundled_map_even_beside_a_folder_of_that_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ttr_maps.io.bundled import bundled_map_path, resolve_map_argument

    monkeypatch.chdir(tmp_path)
    (tmp_path / "iran").mkdir()
    assert resolve_map_argument("iran") == bundled_map_path("iran")
    (tmp_path / "mine.yaml").write_text("format: 1\n")
    assert resolve_map_argument("mine.yaml") == Path("mine.yaml")


def test_wheel_holds_the_web_tables_page(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in ("index.html", "app.js", "style.css"):
        assert f"ttr_core/serve/static/{name}" in names


def test_the_wheel_is_our_distribution_with_its_licence_and_bounds(wheel: Path) -> None:
    """Installed by a name of its own (the bare `ttr` on the index is another
    project), with the licence and the metadata a package page shows."""
    from ttr_maps.about import DISTRIBUTION

    archive = zipfile.ZipFile(wheel)
    metadata = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
    text = archive.read(metadata).decode()
    assert f"Name: {DISTRIBUTION}\n" in text and DISTRIBUTION != "ttr"
    assert "License-Expression: MIT" in text or "License: MIT" in text
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in archive.namelist())
    assert "Classifier: Topic :: Games/Entertainment :: Board Games" in text
    typer = next(line for line in text.splitlines() if line.startswith("Requires-Dist: typer"))
    assert "<" in typer  # an upper bound keeps --help as written
