"""Every rule number a map analysis uses comes from the map's rule set
(ttr_maps.rules), its settings included: change a setting and the answers move."""

from __future__ import annotations

import ast
import copy
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
import yaml

from ttr_maps.analysis.probe import solve_max_score, ticket_rates
from ttr_maps.analysis.stats import map_stats
from ttr_maps.analysis.tickets import analyse_deck
from ttr_maps.checks.validate import validate_file
from ttr_maps.model import Map
from ttr_maps.render.pdf import rules_summary
from ttr_maps.rules import BASE, RuleSet, map_rules

PACKAGE = Path(__file__).resolve().parents[2] / "ttr_maps"

#: A -2x2- B -3- C -1- D, B -4- D: one double route, 12 spaces.
DATA: dict[str, Any] = {
    "format": 1,
    "id": "variant",
    "name": "Variant",
    "coordinates": "plane",
    "cities": {
        "A": {"x": 0, "y": 0},
        "B": {"x": 2, "y": 0},
        "C": {"x": 5, "y": 0},
        "D": {"x": 5, "y": 1},
    },
    "routes": [
        {"between": ["A", "B"], "length": 2, "color": ["red", "blue"]},
        {"between": ["B", "C"], "length": 3, "color": "gray"},
        {"between": ["C", "D"], "length": 1, "color": "green"},
        {"between": ["B", "D"], "length": 4, "color": "yellow"},
    ],
    "tickets": [
        {"between": ["A", "C"], "value": 5},
        {"between": ["A", "D"], "value": 6},
        {"between": ["B", "D"], "value": 4},
    ],
}


def variant(rules: str = "base", **settings: Any) -> dict[str, Any]:
    data = copy.deepcopy(DATA)
    data["rules"] = rules
    data["settings"] = settings
    return data


def variant_map(rules: str = "base", **settings: Any) -> Map:
    return Map.from_data(variant(rules, **settings))


def messages(tmp_path: Path, code: str, rules: str = "base", **settings: Any) -> list[str]:
    path = tmp_path / "variant.yaml"
    path.write_text(yaml.safe_dump(variant(rules, **settings)), encoding="utf-8")
    return [p.message for p in validate_file(path).problems if p.code == code]


def test_r4_wagons_setting_reaches_stats_probe_and_the_printout():
    base, fewer = variant_map(), variant_map(wagons=30)
    assert [p.wagons_in_play for p in map_stats(fewer).players] == [60, 90, 120, 150]
    assert map_stats(base).wagons == 45 and map_stats(fewer).wagons == 30
    assert solve_max_score(variant_map(wagons=3)).wagons == 3
    assert "takes 30 wagons (the map's setting; the base game has 45)" in rules_summary(fewer)[2]


def test_r1_r11_player_counts_and_open_tracks_follow_the_settings():
    stats = map_stats(variant_map(max_players=4, double_routes_from=3))
    assert [p.players for p in stats.players] == [2, 3, 4]
    # R11: one track of A-B at 2 players only; both from 3 on (double_routes_from 3).
    assert [p.claimable_spaces for p in stats.players] == [10, 12, 12]
    deck = analyse_deck(variant_map(max_players=4, double_routes_from=3), samples=0)
    crowding = {c.players: c for c in deck.measures.crowding}
    assert sorted(crowding) == [2, 3, 4]
    a_b = next(r for r in crowding[3].routes() if str(r.connection) == "A–B")
    assert a_b.capacity == 2
    assert next(r for r in crowding[2].routes() if str(r.connection) == "A–B").capacity == 1


def test_r10_route_points_reach_the_probe_and_the_printout():
    points = (1, 3, 5, 8, 11, 16, 19, 22)
    game_map = variant_map(route_points=list(points))
    rates = {(r.ticket.a, r.ticket.b): r for r in ticket_rates(game_map)}
    assert rates[("B", "D")].route_points == 8  # B -4- D, worth 8 here (7 in the base game)
    assert "Route points (R10): 1→1, 2→3, 3→5, 4→8" in "\n".join(rules_summary(game_map))


def test_r4_r12_ticket_counts_reach_the_deck_size_warning(tmp_path: Path):
    (base,) = messages(tmp_path, "TTR352")
    assert base.startswith("3 regular tickets: 5 players take 15 at setup (R4) and need 15 more")
    (fewer,) = messages(
        tmp_path, "TTR352", max_players=3, setup_tickets=2, tickets_drawn=1, tickets_keep=1
    )
    assert fewer.startswith("3 regular tickets: 3 players take 6 at setup (R4) and need 3 more")


def test_e4_long_tickets_are_counted_when_the_rule_set_has_them(tmp_path: Path):
    assert "long tickets" not in messages(tmp_path, "TTR352")[0]
    assert (
        "0 long tickets for 5 players (E4 deals 5): add 5"
        in messages(tmp_path, "TTR352", "europe")[0]
    )
    assert "long tickets" not in messages(tmp_path, "TTR352", "europe", long_tickets=False)[0]


def test_r11_clause_of_the_track_warning_follows_double_routes_from(tmp_path: Path):
    (base,) = messages(tmp_path, "TTR451", wagons=20)
    assert "R11: one track per double route with 2–3 players" in base
    (always,) = messages(tmp_path, "TTR451", wagons=20, double_routes_from=2)
    assert "R11" not in always


def test_the_rules_page_is_written_from_the_rule_set():
    base = "\n".join(rules_summary(variant_map()))
    assert "Europe rules" not in base
    europe = "\n".join(rules_summary(variant_map("europe", stations=2, station_costs=[2, 4])))
    assert "2 stations each, built in a free city for 2 then 4 cards" in europe
    assert "Europe rules (E1–E4)" in europe
    tunnels_only = "\n".join(rules_summary(variant_map(tunnels=True, longest_path_bonus=0)))
    assert "Europe rules (E2): Tunnels (hatched): turn up 3 cards" in tunnels_only
    assert "longest continuous path" not in tunnels_only


def test_a_map_whose_settings_make_no_rule_set_is_still_analysed():
    """The engine refuses it (setup_keep above setup_tickets); reports read the named set."""
    game_map = variant_map(setup_tickets=1, setup_keep=3)
    assert map_rules(game_map) == BASE
    assert map_stats(game_map).players[0].wagons_in_play == 90


def _rule_field_words() -> set[str]:
    words = {f.name.upper() for f in fields(RuleSet) if f.name != "name"}
    return words | {"PLAYER_COUNTS", "TABLE_SIZES", "DEFAULT_WAGONS", "HAND_SIZE"}


def test_no_module_but_rules_defines_a_rule_number_or_names_a_rule_set():
    """`ROUTE_POINTS`, `PLAYER_COUNTS`, `TICKETS_DEALT`… once lived in four modules."""
    suspicious = _rule_field_words() | {"TICKETS_DEALT", "TICKETS_DRAWN", "CARDS_PER_COLOR"}
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "rules.py":
            continue
        source = path.read_text(encoding="utf-8")
        assert '== "europe"' not in source and "== 'europe'" not in source, path
        for node in ast.parse(source).body:
            targets = node.targets if isinstance(node, ast.Assign) else []
            if isinstance(node, ast.AnnAssign):
                targets = [node.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    assert target.id not in suspicious, f"{path}: {target.id}"


@pytest.mark.parametrize("field", ["wagons", "route_points", "double_routes_from"])
def test_the_rule_fields_the_analyses_read_are_map_settings(field: str):
    """The schema lets a map change each field these tests change."""
    from ttr_maps.checks.schema import map_schema

    assert field in map_schema()["properties"]["settings"]["properties"]
