"""The findings' published-board baseline (ttr_core/playtest/baseline.py): the
shipped file, bots matched as a multiset, the cache, and `ttr simulate --baseline`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ttr_core.cli import app
from ttr_core.playtest import baseline as baseline_module
from ttr_core.playtest.baseline import (
    SHIPPED_BOTS,
    baseline_for,
    boards_seating,
    bot_key,
    cache_path,
    compute_baseline,
    find_baseline,
    store_cached,
)
from ttr_maps.io.bundled import PUBLISHED_MAPS

runner = CliRunner()


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return tmp_path


@pytest.mark.parametrize("bots", SHIPPED_BOTS)
def test_the_shipped_baseline_holds_both_published_boards_at_every_table_size(bots) -> None:
    for players in (2, 3, 4, 5):
        found = find_baseline(list(reversed(bots)), players)  # the seat order does not matter
        assert found is not None and found.source.startswith("shipped with ttr")
        assert found.players == players and found.bots == tuple(sorted(bots))
        assert [b.map for b in found.boards] == list(boards_seating(players))
        for board in found.boards:
            assert board.games == found.boards[0].games and len(board.turn_order) == players
            assert sum(e.value for e in board.turn_order) == pytest.approx(1.0, abs=1e-4)


def test_other_bots_have_no_baseline_until_one_is_computed_and_cached(cache: Path) -> None:
    bots = ["greedy", "route-focus"]
    assert find_baseline(bots, 2) is None
    computed = compute_baseline(bots, 2, games=3, seed=5)
    # Every published board seats 2 players; at 4, Nordic Countries and Switzerland
    # (2-3 players) are left out (R1).
    assert computed.source == "computed"
    assert [b.map for b in computed.boards] == list(boards_seating(2)) == list(PUBLISHED_MAPS)
    assert "nordic_countries" not in boards_seating(4) and "europe" in boards_seating(4)
    path = store_cached(computed)
    assert path == cache_path(bots, 2) and path.is_relative_to(cache)
    found = find_baseline(["route-focus", "greedy"], 2)
    assert found is not None and "cached in" in found.source
    assert found.boards == computed.boards
    assert find_baseline(bots, 3) is None  # another table size is another baseline


def test_a_damaged_cache_file_is_no_baseline(cache: Path) -> None:
    path = cache_path(["greedy", "one-step"], 2)
    path.parent.mkdir(parents=True)
    path.write_text('{"source": "x", "bots": ', encoding="utf-8")
    assert find_baseline(["greedy", "one-step"], 2) is None
    path.write_text(json.dumps({"source": "x"}), encoding="utf-8")
    assert find_baseline(["greedy", "one-step"], 2) is None


def _screening(out: Path) -> str:
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    return report["screening"]["baseline"]


def test_bots_are_a_multiset_and_a_repeated_list_counts_once() -> None:
    assert bot_key(["route-focus", "greedy"]) == ("greedy", "route-focus")
    assert bot_key(["greedy"] * 4) == ("greedy",)  # seats the same games as greedy alone
    assert bot_key(["a", "b", "a", "b"]) == ("a", "b")
    assert bot_key(["a", "a", "b"]) == ("a", "a", "b")


def test_baseline_for_finds_the_shipped_one_and_plays_and_caches_a_missing_one(
    cache: Path,
) -> None:
    shipped, path = baseline_for(["greedy"], 4)
    assert path is None and shipped.source.startswith("shipped")
    played: list[object] = []
    computed, path = baseline_for(["greedy", "one-step"], 2, on_game=played.append, games=2)
    assert path == cache_path(["greedy", "one-step"], 2) and path.is_file()
    assert len(played) == 2 * len(boards_seating(2)) and "cached in" in computed.source
    again, path = baseline_for(["one-step", "greedy"], 2, on_game=played.append, games=2)
    assert path is None and again == computed and len(played) == 2 * len(boards_seating(2))
    # A baseline missing a published board (made before it joined the list) is not used.
    partial = computed.__class__(**{**computed.__dict__, "boards": computed.boards[:1]})
    store_cached(partial)
    assert find_baseline(["greedy", "one-step"], 2) is None


# plays a whole baseline; the auto test keeps the room in the default suite
@pytest.mark.slow
def test_cli_baseline_off_and_compute(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    common = ["simulate", "north_america", "--games", "3", "--players", "2", "--jobs", "1"]
    result = runner.invoke(app, [*common, "--out", str(tmp_path / "off"), "--baseline", "off"])
    assert result.exit_code == 0, result.output
    assert _screening(tmp_path / "off").startswith("none")
    assert "set against fair shares (--baseline off)" in result.output
    # Bots the shipped file lacks (auto would find none): compute plays the
    # published boards and caches them (3 games a board here instead of 1,000).
    monkeypatch.setattr(baseline_module, "DEFAULT_GAMES", 3)
    out = tmp_path / "computed"
    bots = ["--bots", "greedy,route-focus", "--baseline", "compute"]
    result = runner.invoke(app, [*common, *bots, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "cached in" in _screening(out) and cache_path(["greedy", "route-focus"], 2).is_file()


@pytest.mark.slow  # 2-10 s; the default suite keeps the room's main test
def test_cli_baseline_auto_plays_a_missing_baseline_never_fair_shares(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`ttr simulate north_america --bots greedy,long-route --players 2` set the
    published board against fair shares: greedy's strength on any board read as the
    map's. Now the baseline is played (and cached) when none is shipped."""
    monkeypatch.setattr(baseline_module, "DEFAULT_GAMES", 3)
    common = ["simulate", "north_america", "--games", "3", "--players", "3", "--jobs", "1"]
    out = tmp_path / "auto"
    result = runner.invoke(app, [*common, "--bots", "one-step,random", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "cached in" in _screening(out) and "fair" not in _screening(out)
    assert cache_path(["one-step", "random"], 3).is_file()
