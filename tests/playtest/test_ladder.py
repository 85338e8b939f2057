"""`ttr ladder`: the round robin, Bradley–Terry ratings, the report and the command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ttr_core.cli import app
from ttr_core.playtest.ladder import (
    LadderError,
    PairResults,
    Rating,
    bradley_terry,
    judge_head_to_head,
    ladder_picture,
    ladder_tables,
    run_ladder,
)
from ttr_core.playtest.plan import PlayedMap
from ttr_core.playtest.playout import GameSummary, SeatSummary
from ttr_maps.model import Map

runner = CliRunner()


def finished(names: tuple[str, ...], ranks: tuple[int, ...]) -> GameSummary:
    seats = tuple(SeatSummary(0, {}, rank, 0, 0, (), ()) for rank in ranks)
    return GameSummary(0, 0, names, "final round", 0, 0, seats, ())


def test_tables_are_every_combination_of_distinct_bots() -> None:
    assert ladder_tables(["a", "b", "c"], 2) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert ladder_tables(["a", "b", "c", "d"], 3)[0] == ("a", "b", "c")
    for bots, players in ((["a", "b"], 3), (["a"], 2), (["a", "a", "b"], 2)):
        with pytest.raises(LadderError):
            ladder_tables(bots, players)


def test_r17_pairs_from_ranks_and_ties_are_shared() -> None:
    results = PairResults(["a", "b", "c"])
    results.add(finished(("a", "b", "c"), (1, 1, 3)))  # a and b share first place
    assert results.wins["a"]["b"] == results.wins["b"]["a"] == 0.25  # half of 1/(3-1)
    assert results.wins["a"]["c"] == 0.5 and results.wins["c"]["a"] == 0.0
    assert results.games["a"]["c"] == 1


def test_bradley_terry_orders_and_separates_strengths() -> None:
    """a beats b 3 times in 4, b beats c 3 times in 4: a > b > c, a-b = b-c, and
    the estimate of p(a beats b) stays near 3/4 (the prior pulls it in a little)."""
    results = PairResults(["a", "b", "c"])
    for _ in range(30):
        for winner, loser in (("a", "b"),) * 3 + (("b", "a"),) + (("b", "c"),) * 3 + (("c", "b"),):
            results.add(finished((winner, loser), (1, 2)))
    fit = bradley_terry(results)
    (ta, ea), (tb, eb), (tc, _) = fit["a"], fit["b"], fit["c"]
    assert ta > tb > tc
    assert ta - tb == pytest.approx(tb - tc, abs=1e-6)
    p = 1 / (1 + pow(2.718281828, tb - ta))
    assert 0.7 < p < 0.75
    assert abs(ta + tb + tc) < 1e-9  # centred
    assert 0 < eb < ea  # the middle bot, met by both others, is known best


def test_a_clean_sweep_keeps_finite_ratings() -> None:
    results = PairResults(["a", "b"])
    for _ in range(10):
        results.add(finished(("a", "b"), (1, 2)))
    fit = bradley_terry(results)
    assert 0 < fit["a"][0] < 5 and fit["a"][1] > 0


def test_greedy_is_rated_above_random_and_the_ladder_has_its_format(north_america: Map) -> None:
    bots = ["random", "greedy", "route-focus"]
    ladder = run_ladder(PlayedMap(north_america, "north_america"), bots, 10, 2, seed=3)
    data = json.loads(json.dumps(ladder.to_dict()))  # JSON-ready
    assert data["format"] == "ttr-ladder" and data["version"] == 2
    keys = ["format", "version", "settings", "decisions", "ratings", "head_to_head", "tables"]
    keys += ["contradictions", "cycles"]
    assert list(data) == keys
    assert ladder.settings.tables == 3 and ladder.settings.games == 30
    ratings = {row.bot: row for row in ladder.ratings}
    assert ladder.ratings[-1].bot == "random"
    assert ratings["greedy"].ci95[0] > ratings["random"].ci95[1]
    for row in ladder.ratings:
        low, high = row.ci95
        assert low < row.rating < high
        assert row.games == 20  # two tables of ten games each
        assert set(data["ratings"][0]) >= {"wins", "win_rate", "win_rate_ci95", "mean_score"}
    assert sum(r.rating for r in ladder.ratings) / 3 == pytest.approx(1500, abs=0.2)
    cell = ladder.head_to_head["greedy"]["random"]
    assert cell.games == 10 and cell.rate == 1.0
    assert ladder.head_to_head["random"]["greedy"].rate == 0.0
    # random lost every pair result: its rating is the prior's, and says so.
    assert ratings["random"].rests_on_prior and not ratings["route-focus"].rests_on_prior
    for table in ladder.tables:
        assert sum(table.wins.values()) == pytest.approx(10)
    assert ladder_picture(ladder).startswith(b"\x89PNG")


def _rating(bot: str, rating: float) -> Rating:
    return Rating(bot, rating, (rating - 50, rating + 50), 0, 0.0, 0.0, (0.0, 1.0), 0.0, False)


def test_a_head_to_head_cycle_and_results_against_the_ratings_are_named() -> None:
    """a beats b, b beats c and c beats a, 40 of 50 each: a cycle; with a rated
    above c, c's win over a goes against the ratings."""
    results = PairResults(["a", "b", "c"])
    for winner, loser in (("a", "b"), ("b", "c"), ("c", "a")):
        for game in range(50):
            first, second = (winner, loser) if game < 40 else (loser, winner)
            results.add(finished((first, second), (1, 2)))
    head = {x: {y: results.head_to_head(x, y) for y in "abc" if y != x} for x in "abc"}
    ratings = [_rating("a", 1550), _rating("b", 1500), _rating("c", 1450)]
    contradictions, cycles = judge_head_to_head(ratings, head)
    assert cycles == (("a", "b", "c"),)
    [against] = contradictions
    assert (against.winner, against.loser, against.rate) == ("c", "a", 0.8)
    assert against.ci95[0] > 0.5 and against.p_value < 0.05
    # 27 of 50 is no significant win: no cycle, no contradiction.
    close = PairResults(["a", "b"])
    for game in range(50):
        close.add(finished(("a", "b") if game < 27 else ("b", "a"), (1, 2)))
    cells = {x: {y: close.head_to_head(x, y) for y in "ab" if y != x} for x in "ab"}
    assert judge_head_to_head([_rating("b", 1600), _rating("a", 1400)], cells) == ((), ())


def test_bots_that_never_met_have_an_empty_head_to_head_cell() -> None:
    assert PairResults(["a", "b"]).head_to_head("a", "b").to_dict() == {
        "games": 0,
        "rate": None,
        "ci95": None,
    }


def test_same_seed_same_ladder(iran: Map) -> None:
    played = PlayedMap(iran, "iran")
    first = run_ladder(played, ["greedy", "one-step"], 2, 2, seed=8)
    assert run_ladder(played, ["greedy", "one-step"], 2, 2, seed=8) == first


def test_ladder_command_writes_json_and_png(tmp_path: Path) -> None:
    out_json, out_png = tmp_path / "ladder.json", tmp_path / "ladder.png"
    result = runner.invoke(
        app,
        [
            "ladder", "north_america", "--bots", "greedy,random,long-route", "--games", "3",
            "--players", "3", "-j", "1", "--json", str(out_json), "--png", str(out_png),
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    report = json.loads(out_json.read_text())
    assert report["settings"]["players"] == 3 and report["settings"]["tables"] == 1
    assert out_png.read_bytes().startswith(b"\x89PNG")
    assert "greedy" in result.output and "rating" in result.output
    assert "* random: won or lost every pair result" in result.output


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--bots", "greedy,nobody"], "unknown bot nobody"),
        (["--bots", "greedy"], "at least two bots"),
        (["--bots", "greedy,random", "--players", "3"], "3 players need at least 3"),
        (["--bots", "greedy,search:0"], "search budget"),
        (["--bots", "greedy,random", "--games", "0"], "--games"),
        (["--bots", "greedy,random", "--json", "/no/such/folder/x.json"], "does not exist"),
        (["--bots", "greedy,random", "--png", "ladder.svg"], ".png"),
    ],
)
def test_ladder_usage_errors_exit_2_and_write_nothing(
    arguments: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["ladder", "north_america", *arguments])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert not list(tmp_path.iterdir())


def test_ladder_on_a_broken_map_exits_2(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("format: 1\nid: x\n")
    result = runner.invoke(app, ["ladder", str(broken), "--bots", "greedy,random"])
    assert result.exit_code == 2
    assert "not a playable map" in result.output
