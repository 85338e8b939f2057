"""`ttr play` with people at the terminal, driven through standard input in the
command language (`ttr_core.table.terminal`, `ttr_core.cli.play`)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from table_player import ScriptedPerson, play_by_screen
from typer.testing import CliRunner

from ttr_core.cli import app
from ttr_core.cli.play import seat_bots
from ttr_core.table.terminal import WIPE_SCROLLBACK, Terminal, play_at_table
from ttr_maps import load_map

runner = CliRunner()
PLAY = ["play", "north_america", "--players", "2", "--bots", "human,greedy", "--seed", "4"]


def replay_verifies(record: Path) -> None:
    verify = runner.invoke(app, ["replay", str(record), "--verify"])
    assert verify.exit_code == 0, verify.output


# --------------------------------------------------------------- end to end


@pytest.mark.parametrize(
    ("map_id", "seed", "stations"),
    [("north_america", 3, ()), ("europe", 3, ("wien", "berlin", "paris"))],
)
def test_a_person_plays_a_whole_3_player_game_with_commands_through_stdin(
    tmp_path: Path, map_id: str, seed: int, stations: tuple[str, ...]
) -> None:
    """A scripted person reads the screens and types commands (never a number
    from a list of actions); the same lines, sent to `ttr play` on stdin, play
    the same game to its end, and the record verifies."""
    names = ["human", "greedy", "route-focus"]
    session, typed, printed = play_by_screen(map_id, names, seed, stations)
    assert session.state.is_over and not session.stopped
    commands = {line.split()[0] for line in typed if line}
    assert {"keep", "routes", "claim", "deck"} <= commands
    if map_id == "europe":
        assert {"station", "pay", "give"} <= commands
        assert "Tunnel " in printed and "Stations 2 left" in printed
        assert re.search(r"claimed .* tunnel\) with .*; (turned up|nothing extra)", printed)
        assert any(city >= 0 for city in session.state.station_owner)
    record = tmp_path / "game.json"
    result = runner.invoke(
        app,
        ["play", map_id, "--bots", ",".join(names), "--seed", str(seed), "--record", str(record)],
        input="\n".join(typed) + "\n",
    )
    assert result.exit_code == 0, result.output[-2000:]
    assert "Final standings" in result.output
    assert "Traceback" not in result.output
    data = json.loads(record.read_text())
    assert data["result"] is not None
    assert [a["action"] for a in data["actions"]] == [str(a) for _, a in session.state.history]
    replay_verifies(record)


# ------------------------------------------------------ errors change nothing


def test_r4_r9_bad_commands_teach_and_change_nothing() -> None:
    lines = [
        "foo",  # not a command
        "keep 5",  # R4: not an offered ticket
        "keep 1",  # R4: keep at least 2
        "deck",  # R4: choose tickets first
        "keep 1 2",
        "claim dalas houston",  # no such city
        "claim atlanta miami",  # R9: cannot pay
        "m 9",  # no such slot
    ]
    result = runner.invoke(app, PLAY, input="\n".join(lines) + "\n")
    out = result.output
    assert "cannot read 'foo'; type `help` for the commands (nothing changed)" in out
    assert "the offered tickets are numbered 1 to 3" in out
    assert "not possible: R4: keep at least 2" in out
    assert "not possible: R4: choose which tickets to keep first" in out
    assert "did you mean Dallas?" in out
    assert "R9: you cannot pay for Atlanta–Miami (blue 5)" in out
    assert "face-up cards are numbered 1 to 5" in out
    assert out.count("(nothing changed)") == 7
    assert "input ended: the game stops here, unfinished" in out
    assert result.exit_code == 1


def test_r9_a_taken_route_is_refused_with_the_rule_and_its_owner() -> None:
    from ttr_core.bots import make_bot
    from ttr_core.engine.state import GameState
    from ttr_core.table.commands import Play, parse_command, why_not

    state = GameState(load_map("north_america"), 2, seed=5)
    bots = [make_bot("greedy", 0), make_bot("route-focus", 1)]
    while 1 not in state.owner:
        seat = state.to_move
        assert seat is not None
        state.apply(bots[seat].act(state.view(seat)), seat)
    route = state.map.routes[state.owner.index(1)]
    command = parse_command(f"claim {route.b} {route.a}", state.view(0))
    assert isinstance(command, Play)
    before = [str(a) for _, a in state.history]
    assert f"R9: {route.id} already belongs to seat 1" in why_not(state, 0, command.action)
    assert [str(a) for _, a in state.history] == before  # judged on a copy


def test_end_of_input_stops_cleanly() -> None:
    result = runner.invoke(app, PLAY, input="keep 1 2\n")
    assert result.exit_code == 1
    assert "input ended" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_quit_asks_and_leaves_an_unfinished_record(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    result = runner.invoke(app, [*PLAY, "--record", str(record)], input="keep 1 2\nquit\nn\nq\ny\n")
    assert result.exit_code == 1
    assert "the game goes on" in result.output
    assert "quit: the game stops here, unfinished" in result.output
    assert json.loads(record.read_text())["result"] is None


def test_d5_resigning_asks_then_ends_a_two_player_game() -> None:
    result = runner.invoke(app, PLAY, input="keep 1 2\nresign\nno\nresign\ny\n")
    assert result.exit_code == 0, result.output
    assert "you stay in the game" in result.output
    assert "Final standings (one player left)" in result.output
    assert "resigned" in result.output


def test_looking_around_changes_nothing_and_fits_the_screen() -> None:
    lines = ["keep 1 2", "help", "routes", "routes denver", "routes nowhere", "?", ""]
    result = runner.invoke(app, PLAY, input="\n".join(lines) + "\n")
    out = result.output
    assert "claim CITY CITY [COLOUR] [TRACK]" in out  # help
    assert "no city 'nowhere' on North America" in out
    assert "What you may do now:" in out and "deck (d): 1 way" in out
    assert "resign: 1 way" in out
    assert out.count("(Enter: back to the table)") == 4
    help_text = out[out.index("On your turn") : out.index("(Enter: back to the table)")]
    assert len(help_text.splitlines()) <= 22


def test_a_blind_draw_says_which_card_came() -> None:
    result = runner.invoke(app, PLAY, input="keep 1 2\ndeck\n")
    assert "from the deck you drew " in result.output


def test_hot_seat_hides_each_hand_behind_a_pass_screen_and_asks_names(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    result = runner.invoke(
        app,
        [
            "play",
            "north_america",
            "--bots",
            "human,human,greedy",
            "--seed",
            "1",
            "--record",
            str(record),
        ],
        input="Ana\nkeep 1 2\n\nkeep all\n",
    )
    out = result.output
    first = out.index("Pass the terminal to seat 0 (human).\nType your name")
    second = out.index("Pass the terminal to seat 1 (human).\nType your name")
    assert first < out.index("seat 0 Ana") < second < out.index("seat 1 human")
    assert re.search(r"^ +0 Ana +45", out[second:], re.MULTILINE)  # seat 1 sees her name
    assert result.exit_code == 1
    seats = json.loads(record.read_text())["seats"]
    assert seats[0] == {"seat": 0, "player": "human", "name": "Ana"} and "name" not in seats[1]


def test_hot_seat_clears_the_scrollback_before_the_next_person() -> None:
    """At a terminal the pass screen wipes the scrollback too (`ESC [3J`): the next
    person cannot scroll up to the previous hand."""
    output = io.StringIO()
    console = Console(file=output, width=80, height=24, color_system=None, force_terminal=True)
    answers = iter(["", "keep all", ""])

    def read_line(prompt: str) -> str:
        for answer in answers:
            return answer
        raise EOFError

    terminal = Terminal(console, read_line, interactive=True)
    play_at_table(load_map("iran"), [None, None], ["human", "human"], 2, terminal)
    text = output.getvalue()
    passes = [m.start() for m in re.finditer("Pass the terminal to seat", text)]
    assert len(passes) == 2
    for start in passes:
        assert text.rfind(WIPE_SCROLLBACK, 0, start) > text.rfind("Hand", 0, start)


def test_default_seating_is_a_person_against_two_bots() -> None:
    assert seat_bots(None, None) == ["human", "greedy", "one-step"]
    assert seat_bots(None, 4, [2]) == ["greedy", "one-step", "human", "route-focus"]
    assert seat_bots("human,random", None) == ["human", "random"]
    assert seat_bots("random", None) == ["random"] * 3
    result = runner.invoke(app, ["play", "north_america"], input="")
    assert "Seats: 0 human, 1 greedy, 2 one-step; you are seat 0." in result.output


def test_a_long_line_is_refused_and_nothing_crashes() -> None:
    result = runner.invoke(app, PLAY, input="x" * 5000 + "\nm 123456\n")
    assert "a command has at most 1,000" in result.output
    assert "too long a number" in result.output
    assert "Traceback" not in result.output


def test_bad_options_exit_2() -> None:
    assert runner.invoke(app, [*PLAY, "--human", "7"]).exit_code == 2
    assert runner.invoke(app, [*PLAY, "--bots", "nobody"]).exit_code == 2
    assert runner.invoke(app, [*PLAY, "--picture", "x.txt"]).exit_code == 2
    assert runner.invoke(app, ["play", "north_america", "--bots", "a,b", "-p", "3"]).exit_code == 2


# ------------------------------------------------ files, Ctrl-C and pictures


def test_map_writes_a_picture_of_the_board_and_prints_its_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tempfile

    monkeypatch.setattr(tempfile, "gettempdir", lambda: str(tmp_path))
    result = runner.invoke(app, PLAY, input="keep 1 2\nmap\n")
    picture = tmp_path / "ttr-north_america-seat0.png"
    assert f"board picture: {picture}" in result.output
    assert picture.read_bytes().startswith(b"\x89PNG")


def test_the_board_picture_marks_owners_stations_and_my_ticket_cities(tmp_path: Path) -> None:
    from ttr_core.table.picture import draw_board

    game_map = load_map("europe")
    owners = [-1] * len(game_map.routes)
    owners[0] = 1
    stations = [-1] * len(game_map.cities)
    stations[game_map.city_index["Wien"]] = 0
    picture = draw_board(
        game_map, owners, stations, ["me", "bot"], tmp_path / "b.svg", "t", ["Berlin", "Roma"]
    )
    svg = picture.read_text()
    for city in ("Wien", "Berlin", "Roma"):
        assert f'id="marker:{city}"' in svg
    assert "station (owner's colour); gold: your ticket cities" in svg
    assert "seat 1: bot" in svg


def test_bot_game_writes_a_picture_of_who_claimed_what(tmp_path: Path) -> None:
    picture = tmp_path / "end.svg"
    result = runner.invoke(
        app, ["play", "north_america", "--bots", "greedy", "-p", "2", "--picture", str(picture)]
    )
    assert result.exit_code == 0, result.output
    assert picture.read_text().lstrip().startswith("<?xml")


def test_record_and_picture_folders_are_checked_before_the_game(tmp_path: Path) -> None:
    for option, path in (
        ("--record", tmp_path / "missing" / "game.json"),
        ("--picture", tmp_path / "missing" / "end.png"),
        ("--record", tmp_path),
    ):
        result = runner.invoke(app, [*PLAY, option, str(path)], input="keep 1 2\n")
        assert result.exit_code == 2, result.output
        assert f"error: {option}" in result.output
        assert "Hand" not in result.output  # no game was started


def test_a_picture_that_fails_after_the_record_says_the_record_is_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ttr_core.cli.play
    from ttr_maps.render.draw import PreviewError

    def broken(*args: object) -> None:
        raise PreviewError("end.png: cannot write (disk full)")

    monkeypatch.setattr(ttr_core.cli.play, "write_picture", broken)
    record, picture = tmp_path / "game.json", tmp_path / "end.png"
    args = ["play", "north_america", "--bots", "greedy", "-p", "2"]
    result = runner.invoke(app, [*args, "--record", str(record), "--picture", str(picture)])
    assert result.exit_code == 2  # an output error (docs/ci.md)
    assert "record written to" in result.output
    assert "error: the picture could not be written: end.png: cannot write (disk full)" in (
        result.output
    )
    assert f"(the record was written to {record})" in result.output
    assert json.loads(record.read_text())["result"] is not None


def test_ctrl_c_saves_the_unfinished_game_and_exits_130(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ttr_core.table.terminal

    def interrupted(console: Console, game_map: object) -> Terminal:
        answers = iter(["keep 1 2"])

        def read_line(prompt: str) -> str:
            for answer in answers:
                return answer
            raise KeyboardInterrupt

        return Terminal(console, read_line, interactive=False)

    monkeypatch.setattr(ttr_core.table.terminal, "stdin_terminal", interrupted)
    record = tmp_path / "game.json"
    result = runner.invoke(app, [*PLAY, "--record", str(record)])
    assert result.exit_code == 130
    assert "interrupted" in result.output and "Traceback" not in result.output
    data = json.loads(record.read_text())
    assert data["result"] is None
    assert {"seat": 0, "action": "keep 0,1"} in data["actions"]


def test_play_help_names_the_commands() -> None:
    out = runner.invoke(app, ["play", "--help"], env={"COLUMNS": "250"}).output
    assert "`claim dallas little rock`" in out
    assert "seats you (seat 0) against two bots" in out


def scripted_terminal(stop_after: int | None = None) -> tuple[Any, ScriptedPerson]:
    """A `stdin_terminal` stand-in: the scripted person at the table, pressing
    Ctrl-C after `stop_after` lines if given."""
    output = io.StringIO()
    person = ScriptedPerson(output)

    def read_line(prompt: str) -> str:
        if stop_after is not None and len(person.typed) >= stop_after:
            raise KeyboardInterrupt
        return person(prompt)

    def make(console: Console, game_map: object) -> Terminal:
        quiet = Console(file=output, width=80, height=24, color_system=None)
        return Terminal(quiet, read_line, interactive=False)

    return make, person


def test_resume_goes_on_with_a_game_stopped_by_ctrl_c_and_its_record_verifies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ttr_core.table.terminal

    stopped, final = tmp_path / "stopped.json", tmp_path / "final.json"
    first, _ = scripted_terminal(stop_after=25)
    monkeypatch.setattr(ttr_core.table.terminal, "stdin_terminal", first)
    args = ["play", "north_america", "--bots", "human,greedy,one-step", "--record", str(stopped)]
    result = runner.invoke(app, args)
    assert result.exit_code == 130, result.output
    seed = int(re.search(r"seed (\d+): `--seed", result.output)[1])  # a random deal
    halfway = json.loads(stopped.read_text())
    assert halfway["result"] is None and halfway["seed"] == seed and len(halfway["actions"]) > 8

    second, _ = scripted_terminal()
    monkeypatch.setattr(ttr_core.table.terminal, "stdin_terminal", second)
    result = runner.invoke(app, ["play", "--resume", str(stopped), "--record", str(final)])
    assert result.exit_code == 0, result.output[-2000:]
    assert "Final standings" in result.output and f"seed {seed}" in result.output
    done = json.loads(final.read_text())
    assert done["result"] is not None and done["seed"] == seed
    assert done["actions"][: len(halfway["actions"])] == halfway["actions"]
    assert done["seats"] == halfway["seats"]
    replay_verifies(final)
    assert json.loads(stopped.read_text()) == halfway  # the record read is left as it was


def test_resume_refuses_what_would_change_the_game_or_overwrite_its_record(
    tmp_path: Path,
) -> None:
    stopped = tmp_path / "stopped.json"
    runner.invoke(app, [*PLAY, "--record", str(stopped)], input="keep 1 2\nnote too many tickets\n")
    assert json.loads(stopped.read_text())["notes"][0]["text"] == "too many tickets"
    for extra, message in (
        (["--seed", "3"], "--seed"),
        (["--bots", "greedy"], "--bots"),
        (["--set", "wagons=20"], "--set"),
        (["--record", str(stopped)], "an input is never overwritten"),
    ):
        result = runner.invoke(app, ["play", "--resume", str(stopped), *extra])
        assert result.exit_code == 2 and message in result.output, result.output
    finished = tmp_path / "finished.json"
    runner.invoke(app, ["play", "iran", "--bots", "greedy", "-p", "2", "--record", str(finished)])
    result = runner.invoke(app, ["play", "--resume", str(finished)])
    assert result.exit_code == 2 and "game is over" in result.output
    result = runner.invoke(app, ["play", "--resume", str(tmp_path / "missing.json")])
    assert result.exit_code == 2 and "--resume" in result.output
    assert runner.invoke(app, ["play"]).exit_code == 2  # neither a map nor a record


def test_a_game_is_dealt_at_random_unless_a_seed_is_given() -> None:
    seeds = set()
    for _ in range(3):
        result = runner.invoke(app, ["play", "iran", "--bots", "random", "-p", "2"])
        seeds.add(re.search(r"seed (\d+): `--seed \1` deals this game again", result.output)[1])
    assert len(seeds) == 3
    again = [
        runner.invoke(app, ["play", "iran", "--bots", "random", "-p", "2", "--seed", "7"]).output
        for _ in range(2)
    ]
    assert again[0] == again[1] and "seed 7:" in again[0]


@pytest.mark.parametrize(("width", "height"), [(80, 24), (60, 18)])
def test_the_routes_list_and_help_fit_the_screen_row_for_row(width: int, height: int) -> None:
    """A listing never wraps on the terminal, so its heading stays on screen: route
    lines use the compact payment form and are cut to the width; help wraps at
    word boundaries under its own column."""
    from ttr_core.engine.positions import give_hand
    from ttr_core.engine.state import GameState
    from ttr_core.table.journal import Journal
    from ttr_core.table.terminal import Continued

    state = GameState(load_map("north_america"), 2, seed=3)
    for seat in (0, 1):
        state.apply(state.legal_actions(seat)[-1], seat)
    give_hand(state, state.current, red=3, blue=3, black=3, white=3, orange=2, loco=2)
    output = io.StringIO()
    console = Console(file=output, width=width, height=height, color_system=None)
    answers = iter(["", "routes", "", "help", ""])  # Enter at the pass screen first

    def read_line(prompt: str) -> str:
        for answer in answers:
            return answer
        raise EOFError

    names = ["human", "human"]
    continued = Continued(state, Journal(), [None, None], [])
    play_at_table(
        state.map, [None, None], names, 3, Terminal(console, read_line, False), continued=continued
    )
    text = output.getvalue()
    start = text.index("You can claim")
    routes = text[start : text.index("(Enter: back to the table)", start)].splitlines()
    assert len(routes) <= height - 2 and all(len(line) <= width for line in routes)
    assert any("/" in line for line in routes)  # several colours in one compact form
    start = text.index("On your turn")
    help_lines = text[start : text.index("(Enter: back to the table)", start)].splitlines()
    assert all(len(line) <= width for line in help_lines)
    joined = " ".join(line.strip() for line in help_lines)
    assert "picks the cards for a gray route" in joined  # no word cut
    assert not any(re.match(r"^\S{1,3}$", line) for line in help_lines)  # no stray fragment
