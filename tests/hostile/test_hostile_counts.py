"""Hostile counts, rule changes, names and long text (issue 27): every count a
user gives is bounded (the bound in the message), every `--set` field has the
documented range and type, empty names are refused, and no message echoes a
long text whole. Property tests draw the values; a few CLI runs check that the
bounds reach the commands."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from ttr_core.bots import check_bot_name
from ttr_core.cli import app
from ttr_maps.authoring.starter import StarterError, starter_map_text, write_starter_map
from ttr_maps.checks.validate import validate_text
from ttr_maps.rules import (
    BASE,
    EUROPE,
    MAX_GAMES,
    MAX_SEARCH_PLAYOUTS,
    MAX_SEED,
    RuleSetError,
    field_ranges,
    parse_overrides,
)
from ttr_maps.text import MESSAGE_CHARS, WORD_CHARS, shorten_message

runner = CliRunner()
FIELDS = sorted(field_ranges())


def changed(assignment: str, base=BASE):
    return base.with_overrides(parse_overrides([assignment]))


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(FIELDS),
    st.one_of(
        st.integers(-(10**40), 10**40),
        st.text(max_size=60),
        st.lists(st.integers(-5, 2000), max_size=12).map(lambda v: ",".join(map(str, v))),
        st.sampled_from(["true", "false", "yes", "no", "1", "0", "", "9" * 25, "nan"]),
    ),
)
def test_every_set_field_is_refused_outside_its_documented_range_with_the_field_named(
    name: str, value: object
) -> None:
    """R-fields: either the variant lies in the range docs/rules.md gives (the map
    schema's `settings`), or a RuleSetError names the field; nothing else."""
    for base in (BASE, EUROPE):
        try:
            rules = changed(f"{name}={value}", base)
        except RuleSetError as error:
            assert name in str(error)
            assert len(str(error)) < 400  # a glimpse of the value, never all of it
            continue
        allowed = field_ranges()[name]
        got = getattr(rules, name)
        if allowed.kind == "boolean":
            assert isinstance(got, bool) and str(value).strip().lower() in ("true", "false")
        elif allowed.kind == "array":
            assert allowed.min_items <= len(got) <= allowed.max_items
            assert all(allowed.minimum <= n <= allowed.maximum for n in got)
        else:
            assert allowed.minimum <= got <= allowed.maximum


@pytest.mark.parametrize(
    "assignment",
    [
        "wagons=" + "9" * 25,
        "tunnel_reveal=1000000000",
        "setup_tickets=20",
        "tickets_drawn=20",
        "tickets_keep=0",
        "setup_keep=0",
        "tunnels=yes",
        "route_points=-1,2,4,7,10,15,18,21",
    ],
)
def test_the_issue_s_rule_changes_are_refused(assignment: str) -> None:
    with pytest.raises(RuleSetError, match=assignment.partition("=")[0]):
        changed(assignment, EUROPE)


def test_a_refused_set_exits_2_before_any_game(tmp_path: Path) -> None:
    result = runner.invoke(app, ["play", "iran", "--bots", "random", "--set", "tunnel_reveal=99"])
    assert result.exit_code == 2 and "tunnel_reveal must be 0 to 10" in result.output


@pytest.mark.parametrize(
    "spec", ["greedy,,random", "greedy,", ",greedy", " , ", "greedy, ,random", ""]
)
def test_an_empty_bot_name_is_refused_by_every_command(spec: str, tmp_path: Path) -> None:
    for args in (
        ["play", "iran", "--bots", spec],
        ["simulate", "iran", "--bots", spec, "-n", "1", "--out", str(tmp_path / "o")],
        ["ladder", "iran", "--bots", spec, "-n", "1"],
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert "empty bot name" in result.output
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("budget", ["4" * 40, "0", str(MAX_SEARCH_PLAYOUTS + 1), "-3", "1e400s"])
def test_search_budgets_past_the_bound_are_refused_with_it(budget: str) -> None:
    with pytest.raises(ValueError, match="search budget") as caught:
        check_bot_name(f"search:{budget}")
    assert len(str(caught.value)) < 300


@pytest.mark.parametrize("games", [str(MAX_GAMES + 1), str(10**12), str(10**30), "-5", "0"])
def test_game_counts_past_the_bound_are_refused_with_it(games: str, tmp_path: Path) -> None:
    for args in (
        ["simulate", "iran", "-n", games, "--out", str(tmp_path / "o")],
        ["ladder", "iran", "--bots", "greedy,random", "-n", games],
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, result.output
        assert "--games" in result.output
    assert f"{MAX_GAMES:,}" in runner.invoke(app, ["simulate", "--help"]).output


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=3000), st.text(max_size=50))
def test_no_message_echoes_long_text_whole(user_text: str, around: str) -> None:
    message = shorten_message(f"unknown city {user_text} {around}")
    assert len(message) <= MESSAGE_CHARS + 100
    assert all(len(word) <= WORD_CHARS + 40 for word in message.split())
    if len(user_text) <= 40 and not any(c.isspace() for c in user_text + around):
        assert user_text in message  # short text is quoted as written


def test_an_unknown_500000_character_city_costs_a_line_not_a_megabyte() -> None:
    text = starter_map_text("big", coordinates="plane").replace(
        "between: [Harbor, Crossing], value: 7",
        "between: [Harbor, " + "Q" * 500_000 + "], value: 7",
    )
    report = validate_text(text, "big.yaml")
    lines = [str(p) for p in report.problems]
    assert lines and sum(len(line) for line in lines) < 5_000
    assert "characters)" in "\n".join(lines)  # the length said, the name cut


@settings(max_examples=40, deadline=None)
@given(st.text(min_size=1, max_size=80))
def test_new_writes_a_map_that_validates_or_refuses_the_schema_reference(
    tmp_path_factory: pytest.TempPathFactory, reference: str
) -> None:
    path = tmp_path_factory.mktemp("new") / "m.yaml"
    try:
        write_starter_map(path, "m", coordinates="plane", schema_ref=reference)
    except StarterError as error:
        assert "--schema" in str(error)
        assert not path.exists()
        return
    report = validate_text(path.read_text(encoding="utf-8"), str(path))
    assert not report.problems, [str(p) for p in report.problems]


@pytest.mark.parametrize("seed", [str(10**40), str(-(10**40)), str(MAX_SEED + 1)])
def test_seeds_a_record_could_not_hold_are_refused(seed: str, tmp_path: Path) -> None:
    for args in (
        ["play", "iran", "--bots", "random", "--seed", seed],
        ["simulate", "iran", "-n", "1", "--seed", seed, "--out", str(tmp_path / "o")],
        ["ladder", "iran", "--bots", "greedy,random", "-n", "1", "--seed", seed],
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 2 and "--seed" in result.output, result.output


def test_the_largest_seed_plays_and_replays(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    args = ["play", "iran", "--bots", "random", "--seed", str(MAX_SEED), "--record", str(record)]
    assert runner.invoke(app, args).exit_code == 0
    assert runner.invoke(app, ["replay", str(record), "--verify"]).exit_code == 0


def test_probe_values_go_through_the_guarded_reader(tmp_path: Path) -> None:
    import os

    fifo, deep = tmp_path / "fifo", tmp_path / "deep.json"
    os.mkfifo(fifo)
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    for values, said in (("/dev/zero", "character device"), (fifo, "FIFO"), (deep, "deep")):
        result = runner.invoke(app, ["probe", "iran", "--values", str(values)])
        assert result.exit_code == 2 and said in result.output, result.output
