"""`ttr play` with people at the terminal, driven through standard input."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ttr_core.bots import make_bot
from ttr_core.cards import CARD_NAMES
from ttr_core.cli import app
from ttr_core.state import GameState
from ttr_core.terminal import HELP, describe_view, play_at_table, read_choice
from ttr_maps import load_map

runner = CliRunner()
PLAY = ["play", "north_america", "--players", "2", "--bots", "greedy", "--seed", "4"]
EUROPE = ["play", "europe", "--seed", "2"]


def test_person_plays_a_whole_game_choosing_by_number(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    result = runner.invoke(
        app, [*PLAY, "--human", "0", "--record", str(record)], input="1\n" * 3000
    )
    assert result.exit_code == 0, result.output
    assert "seat 0 (human): your move" in result.output
    assert "Final standings" in result.output
    data = json.loads(record.read_text())
    assert [s["player"] for s in data["seats"]] == ["human", "greedy"]
    assert data["result"] is not None
    verify = runner.invoke(app, ["replay", str(record), "--verify"])
    assert verify.exit_code == 0, verify.output


def test_illegal_input_changes_nothing_and_asks_again_r4_r7() -> None:
    lines = [
        "foo",  # not an action
        "99",  # not a number on the list
        "keep 5",  # R4: not an offered ticket
        "keep 0",  # R4: keep at least 2
        "draw deck",  # R4: choose tickets first
        "help",
        "keep 0,1",
        "draw market 9",  # no such slot
        "claim Nowhere-Else with red:1",  # no such route
    ]
    result = runner.invoke(app, [*PLAY, "--human", "0"], input="\n".join(lines) + "\n")
    out = result.output
    assert "cannot read action 'foo'" in out
    assert "choose a number from 1 to" in out
    assert "R4: you were offered tickets 0 to 2" in out
    assert "R4: keep at least 2" in out
    assert "R4: choose which tickets to keep first" in out
    assert "market slots are 0 to 4" in out
    assert "there is no route 'Nowhere-Else'" in out
    assert "resign   leave the game" in out  # the help text
    assert out.count("Nothing changed") == 7
    assert out.count("[open]") >= 2  # the two kept tickets are shown on the next turn


def test_end_of_input_stops_cleanly() -> None:
    result = runner.invoke(app, [*PLAY, "--human", "1"], input="1\n")
    assert result.exit_code == 1
    assert "input ended" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output


def test_quit_leaves_an_unfinished_record(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    result = runner.invoke(
        app, [*PLAY, "--human", "0", "--record", str(record)], input="keep 0,1\nquit\n"
    )
    assert result.exit_code == 1
    assert "quit" in result.output
    assert json.loads(record.read_text())["result"] is None


def test_d5_resigning_ends_a_two_player_game() -> None:
    result = runner.invoke(app, [*PLAY, "--human", "0"], input="keep 0,1\nresign\n")
    assert result.exit_code == 0, result.output
    assert "Final standings (one player left)" in result.output
    assert "resigned" in result.output


def test_hot_seat_asks_each_person_in_turn() -> None:
    result = runner.invoke(
        app,
        ["play", "north_america", "--bots", "human,human,greedy", "--players", "3"],
        input="1\n1\n",
    )
    assert "seat 0>" in result.output
    assert "seat 1>" in result.output
    assert result.exit_code == 1


def test_r5_a_person_sees_only_their_own_hand() -> None:
    out: list[str] = []
    play_at_table(load_map("north_america"), [None, None], ["a", "b"], 2, iter(["1"]), out.append)
    first_turn = "\n".join(out).split("seat 0>")[0]
    assert first_turn.count("hand:") == 1
    text = first_turn
    assert "seat 1 (b): 0 route points, 45 wagons, 4 cards, 0 tickets" in text


def test_actions_are_read_by_number_or_notation() -> None:
    from ttr_core.actions import DrawDeck, DrawMarket

    actions = [DrawDeck(), DrawMarket(3)]
    assert read_choice("2", actions) == DrawMarket(3)
    assert read_choice(" draw deck ", actions) == DrawDeck()


def test_a_digit_that_is_not_a_number_is_invalid_not_a_crash() -> None:
    from ttr_core.actions import DrawDeck
    from ttr_core.errors import InvalidAction

    with pytest.raises(InvalidAction):
        read_choice("²", [DrawDeck()])


def test_bad_options_exit_2() -> None:
    assert runner.invoke(app, [*PLAY, "--human", "7"]).exit_code == 2
    assert runner.invoke(app, [*PLAY, "--bots", "nobody"]).exit_code == 2
    assert runner.invoke(app, [*PLAY, "--picture", "x.txt"]).exit_code == 2


def test_bot_game_writes_a_picture_of_who_claimed_what(tmp_path: Path) -> None:
    picture = tmp_path / "end.svg"
    result = runner.invoke(app, [*PLAY, "--picture", str(picture)])
    assert result.exit_code == 0, result.output
    assert picture.read_text().lstrip().startswith("<?xml")


def test_replay_step_prints_every_action(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    assert runner.invoke(app, [*PLAY, "--record", str(record)]).exit_code == 0
    actions = json.loads(record.read_text())["actions"]
    result = runner.invoke(app, ["replay", str(record), "--step"])
    assert result.exit_code == 0, result.output
    assert f"{len(actions):>4}. seat" in result.output
    assert "s0:" in result.output and "Final standings" in result.output


# ------------------------------------------------ files, Ctrl-C and help text


def test_record_and_picture_folders_are_checked_before_the_game(tmp_path: Path) -> None:
    for option, path in (
        ("--record", tmp_path / "missing" / "game.json"),
        ("--picture", tmp_path / "missing" / "end.png"),
        ("--record", tmp_path),
    ):
        result = runner.invoke(app, [*PLAY, "--human", "0", option, str(path)], input="1\n")
        assert result.exit_code == 2, result.output
        assert f"error: {option}" in result.output
        assert "your move" not in result.output  # no game was started


def test_a_picture_that_fails_after_the_record_says_the_record_is_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ttr_core.cli.play
    from ttr_maps.preview import PreviewError

    def broken(*args: object) -> None:
        raise PreviewError("end.png: cannot write (disk full)")

    monkeypatch.setattr(ttr_core.cli.play, "write_picture", broken)
    record, picture = tmp_path / "game.json", tmp_path / "end.png"
    result = runner.invoke(app, [*PLAY, "--record", str(record), "--picture", str(picture)])
    assert result.exit_code == 1
    assert "record written to" in result.output
    assert "error: the picture could not be written: end.png: cannot write (disk full)" in (
        result.output
    )
    assert f"(the record was written to {record})" in result.output
    assert json.loads(record.read_text())["result"] is not None


def test_ctrl_c_saves_the_unfinished_game_and_exits_130(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ttr_core.terminal

    def interrupted(stream: object) -> Iterator[str]:
        yield "keep 0,1"
        raise KeyboardInterrupt

    monkeypatch.setattr(ttr_core.terminal, "iter_lines", interrupted)
    record = tmp_path / "game.json"
    result = runner.invoke(app, [*PLAY, "--human", "0", "--record", str(record)])
    assert result.exit_code == 130
    assert "interrupted" in result.output and "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    data = json.loads(record.read_text())
    assert data["result"] is None
    assert {"seat": 0, "action": "keep 0,1"} in data["actions"]


def test_play_help_renders_each_paragraph_as_one_line_when_wide() -> None:
    out = runner.invoke(app, ["play", "--help"], env={"COLUMNS": "250"}).output
    assert (
        "each turn lists the legal actions; type a number or an action, `help`, `resign` or `quit`."
        in out
    )


# --------------------------------------------------------- europe (E1, E2, E4)


def _tunnel_position() -> tuple[GameState, int]:
    """A europe game between bots, played until a tunnel waits for extra cards."""
    from ttr_core.decisions import TunnelPayment

    state = GameState(load_map("europe"), 2, 5)
    bots = [make_bot("random", 1), make_bot("greedy", 2)]
    while not state.is_over:
        for decision in state.pending:
            if isinstance(decision, TunnelPayment):
                return state, decision.seat
        seat = state.to_move
        assert seat is not None
        state.apply(bots[seat].act(state.view(seat)), seat)
    raise AssertionError("no tunnel in this game")


def test_e2_a_pending_tunnel_is_shown_with_the_cards_laid_and_turned_up() -> None:
    state, seat = _tunnel_position()
    tunnel = state.view(seat).tunnel
    assert tunnel is not None
    text = "\n".join(describe_view(state.view(seat), ["a", "b"], 0))
    turned = ", ".join(CARD_NAMES[c] for c in tunnel.revealed)
    assert f"tunnel: your claim of {tunnel.route}: cards laid {tunnel.payment}" in text
    assert f"turned up {turned}; {tunnel.extra} more card(s) needed" in text
    other = "\n".join(describe_view(state.view(1 - seat), ["a", "b"], 0))
    assert f"tunnel: seat {seat} ({'ab'[seat]})'s claim of {tunnel.route}" in other


def test_e1_e4_a_person_plays_europe_and_sees_stations_and_long_tickets() -> None:
    """A person (seat 0) against a greedy bot, answering through the input lines:
    a station when one is listed, then tunnels and claims, else the first action."""
    game_map = load_map("europe")
    tunnels = {r.id for r in game_map.routes if r.tunnel}
    out: list[str] = []
    built = []

    def person() -> Iterator[str]:
        while True:
            start = max(i for i, line in enumerate(out) if re.match(r"^\s+1\) ", line))
            listed = [
                line.split(") ", 1)[1] for line in out[start:] if re.match(r"^\s+\d+\) ", line)
            ]
            station = [a for a in listed if a.startswith("station ")]
            pay = [a for a in listed if a.startswith("pay ")]
            tunnel = [a for a in listed if a.startswith("claim ") and a.split()[1] in tunnels]
            claim = [a for a in listed if a.startswith("claim ")]
            if station and not built:
                built.append(station[0].split()[1])
                yield station[0]
            else:
                yield (pay or tunnel or claim or listed)[0]

    session = play_at_table(
        game_map, [None, make_bot("greedy", 3)], ["me", "bot"], 11, person(), out.append
    )
    text = "\n".join(out)
    assert session.state.is_over and not session.stopped
    assert "offered tickets (keep at least 2):" in text
    assert "[long]" in text  # E4: the long ticket of the setup offer is marked
    assert "stations: you have 3 left (the next costs 1 card(s) of one colour)" in text
    assert built, "the person never could build a station"
    assert "stations: you have 2 left (the next costs 2 card(s) of one colour)" in text
    assert f"  seat 0 (me) has stations in {built[0].replace('_', ' ')}" in text
    assert "station CITY with COLOUR:N" in HELP and "pay COLOUR:N" in HELP
    assert "give up" in HELP


def test_e1_picture_marks_stations_and_lists_seats_in_order(tmp_path: Path) -> None:
    picture = tmp_path / "end.svg"
    result = runner.invoke(
        app,
        [
            *EUROPE,
            "--players",
            "3",
            "--bots",
            "greedy,random,long-route",
            "--picture",
            str(picture),
        ],
    )
    assert result.exit_code == 0, result.output
    svg = picture.read_text()
    assert 'id="marker:' in svg  # a station (E1) on a city
    positions = [svg.index(f"seat {seat}: ") for seat in range(3)]
    assert positions == sorted(positions)
