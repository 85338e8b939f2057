"""The tally: running sums over games, and the report they add up to."""

from __future__ import annotations

import statistics

from balance_reports import checked

from ttr_core.playtest.playout import GameSummary, SeatSummary
from ttr_core.playtest.report import ArcPoint, Distribution, Settings, StalledGame
from ttr_core.playtest.tally import Counts, Tally
from ttr_maps.model import Map
from ttr_maps.rules import rules_for


def _game(index: int, arc: list[tuple[float, float]], end_reason: str = "final round"):
    seat = SeatSummary(10, {"routes": 10}, 1, 0, 0, (), ())
    return GameSummary(
        index, 100 + index, ("greedy",), end_reason, len(arc), 0, (seat,), tuple(arc), None, "x"
    )


def _tally(game_map: Map) -> Tally:
    return Tally(game_map, 1, rules_for(game_map))


def test_arc_keeps_the_final_values_of_finished_games(north_america: Map) -> None:
    tally = _tally(north_america)
    tally.add(_game(0, [(1, 40), (2, 30)]))
    tally.add(_game(1, [(3, 20)]))  # over after one turn: stays at 3 points, 20 wagons
    assert tally.arc() == (
        ArcPoint(turn=1, running=2, mean_route_points=2, mean_wagons=30),
        ArcPoint(turn=2, running=1, mean_route_points=2.5, mean_wagons=25),
    )


def test_r6_stalls_name_the_game_its_bots_and_a_command_to_play_it_again(
    north_america: Map,
) -> None:
    tally = _tally(north_america)
    tally.add(_game(4, [(1, 40)], end_reason="all passed"))
    command = "ttr play x --players 1 --bots greedy --seed 104"
    assert tally.stalls == [StalledGame(104, 4, ("greedy",), command, ())]
    settings = Settings("north_america", "North America", 1, 1, ("greedy",), 0, ())
    report = tally.to_report(settings)
    assert report.stalls.causes == {"none ran out": 1}
    assert checked(report)["stalls"]["seeds"] == [
        {"seed": 104, "index": 4, "bots": ["greedy"], "command": command, "causes": []}
    ]


def test_counts_give_the_distribution_of_the_values_themselves() -> None:
    """Tallies keep how often each value was seen, not every value: the report's
    numbers are those of the plain list."""
    values = [7, 3, 3, 10, 52, 3, 8, 8, 1, 40, 41]
    counts = Counts()
    for value in values:
        counts.append(value)
    ordered = sorted(values)
    summary = counts.distribution()
    assert list(counts) == ordered and len(counts) == len(values)
    assert summary.median == statistics.median(values)
    assert summary.mean == round(statistics.mean(values), 3)
    assert summary.sd == round(statistics.stdev(values), 3)
    assert (summary.min, summary.max) == (1, 52)
    assert summary.q25 == statistics.quantiles(values, n=4, method="inclusive")[0]
    assert Counts().distribution() == Distribution(0)
    assert Distribution(0).to_dict() == {"count": 0}
