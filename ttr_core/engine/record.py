"""Game records: a game as JSON, enough to replay it exactly.

    {"format": "ttr-game-record", "version": 1, "map": "north_america",
     "map_fingerprint": "…", "rules": "base", "rule_set": {"name": "base", …},
     "seed": 7, "players": 4,
     "seats": [{"seat": 0, "player": "human", "name": "Ana"}, {"seat": 1, "player": "random"}, …],
     "actions": [{"seat": 2, "action": "keep 0,1"}, …, {"seat": null, "action": "remove 3"}],
     "notes": [{"after": 12, "seat": 0, "name": "Ana", "text": "Denver is crowded"}],
     "resumed": [{"after": 40, "inexact_seats": [2]}],
     "result": {"end_reason": "final round", "seats": [ … ]}}

A seat's `name` (what a person called themselves at the table), the `notes`
(the table's chat: play-testers' remarks, kept with the game) and `resumed` (the
times the game was resumed with bots that could not go on exactly as before,
`ttr_core.engine.loop.catch_up`) appear only when there are some; none of them
changes the game, and `--verify` reads none.
The same seed and the same actions give a byte-identical record.
`schemas/game-record.schema.json` describes the format.

**Versions.** Version 2 records are played in the map's play order
(`ttr_core.engine.compiled`: the same map written in another order plays the same
game), and their `map_fingerprint` does not depend on the order the file lists
things in. Version 1 records were dealt in the file's order, with a fingerprint of
that order: they replay in file order (`GameState(..., file_order=True)`), exactly
as they were played, and a game continued from one stays version 1.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ttr_core.engine.actions import Action, parse_action
from ttr_core.engine.cards import CARD_NAMES
from ttr_core.engine.errors import IllegalAction, InvalidAction
from ttr_core.engine.result import GameResult
from ttr_core.engine.state import GameState
from ttr_maps.model import Map
from ttr_maps.rules import RuleSet, RuleSetError

RECORD_FORMAT = "ttr-game-record"
#: The version written for games in play order; 1: games dealt in the file's order.
RECORD_VERSION = 2
FILE_ORDER_VERSION = 1
#: Every version `read_record` and the replays accept.
RECORD_VERSIONS = (FILE_ORDER_VERSION, RECORD_VERSION)
#: Longest schema message shown (a message may quote a whole value).
MESSAGE_LIMIT = 200


class RecordError(ValueError):
    """A record that cannot be read or replayed; the message says where."""


def map_fingerprint(game_map: Map, file_order: bool = False) -> str:
    """A digest of what the rules read from a map, to notice a changed map on
    replay: of the map in play order (the order the file lists things in does not
    count, the ids of a double's tracks do: actions name them), or with
    `file_order` of the file's order (version 1 records)."""
    if file_order:
        ordered = game_map
        tickets: list[Any] = [(t.a, t.b, t.value, t.long) for t in ordered.tickets]
    else:
        ordered = game_map.in_play_order
        tickets = [(*sorted(t.cities), t.value, t.bonus, t.long) for t in ordered.tickets]
    facts = {
        "rules": ordered.rules,
        "wagons": ordered.wagons,
        "cities": [c.name for c in ordered.cities],
        "routes": [(r.id, r.length, r.color, r.tunnel, r.ferry) for r in ordered.routes],
        "tickets": tickets,
    }
    encoded = json.dumps(facts, ensure_ascii=False, separators=(",", ":")).encode()
    return hashlib.sha256(encoded).hexdigest()[:16]


def state_fingerprint(state: GameState) -> str:
    """The fingerprint a record (or a stored game) of `state` carries: of its map in
    the order the game is numbered in."""
    return map_fingerprint(state.map, state.board.file_order)


def order_for_fingerprint(game_map: Map, fingerprint: str) -> bool | None:
    """How a game whose record (or stored game) carries `fingerprint` is dealt on
    `game_map`: False in play order, True in file order (a game from before play
    order), None when the map is not the one the game was played on."""
    if fingerprint == map_fingerprint(game_map):
        return False
    if fingerprint == map_fingerprint(game_map, file_order=True):
        return True
    return None


@dataclass(frozen=True)
class Note:
    """A remark written at the table while the game went on (feedback on the map,
    a question): kept in the record with the game it is about."""

    #: Actions played when it was written (it belongs after action `after`).
    after: int
    #: The seat that wrote it; None for someone watching.
    seat: int | None
    name: str
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {"after": self.after, "seat": self.seat, "name": self.name, "text": self.text}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Note:
        return cls(data["after"], data["seat"], data["name"], data["text"])


@dataclass(frozen=True)
class Resumption:
    """A resume (`ttr play --resume`) after which the bots of some seats could not
    go on exactly as in the game that was cut (`ttr_core.engine.loop.catch_up`):
    from there on, the game is not the one an uncut run would have played."""

    #: Actions played when the game was resumed.
    after: int
    #: The seats whose bots could not go on exactly.
    inexact_seats: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"after": self.after, "inexact_seats": list(self.inexact_seats)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Resumption:
        return cls(data["after"], tuple(data["inexact_seats"]))


def record_of(
    state: GameState,
    players: Sequence[str],
    names: Sequence[str | None] = (),
    notes: Sequence[Note] = (),
    resumed: Sequence[Resumption] = (),
) -> dict[str, Any]:
    """The record of a game (finished or not; `result` is null until it ends).
    `players[seat]` is the bot or `human`; `names[seat]`, if given, what the person
    there was called; `notes` the table's remarks, oldest first; `resumed` the
    resumes that could not go on exactly, oldest first."""
    seats = []
    for seat, player in enumerate(players):
        entry: dict[str, Any] = {"seat": seat, "player": player}
        name = names[seat] if seat < len(names) else None
        if name:
            entry["name"] = name
        seats.append(entry)
    record: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "version": FILE_ORDER_VERSION if state.board.file_order else RECORD_VERSION,
        "map": state.map.id,
        "map_fingerprint": state_fingerprint(state),
        "rules": state.rule_set.name,
        "rule_set": state.rule_set.to_dict(),
        "seed": state.seed,
        "players": state.num_players,
        "seats": seats,
        "actions": [
            _action_entry(state, i, seat, action) for i, (seat, action) in enumerate(state.history)
        ],
    }
    if notes:
        record["notes"] = [note.to_dict() for note in notes]
    if resumed:
        record["resumed"] = [resumption.to_dict() for resumption in resumed]
    record["result"] = state.result().to_dict() if state.is_over else None
    return record


def players_of(record: Mapping[str, Any]) -> list[str]:
    """The player of every seat of a (schema-checked) record: a bot or `human`."""
    return [seat["player"] for seat in record["seats"]]


def names_of(record: Mapping[str, Any]) -> list[str | None]:
    """What the people at each seat were called, None where nobody said."""
    return [seat.get("name") for seat in record["seats"]]


def notes_of(record: Mapping[str, Any]) -> list[Note]:
    """The table's remarks kept in a (schema-checked) record, oldest first."""
    return [Note.from_dict(note) for note in record.get("notes", ())]


def resumptions_of(record: Mapping[str, Any]) -> list[Resumption]:
    """The inexact resumes a (schema-checked) record names, oldest first."""
    return [Resumption.from_dict(entry) for entry in record.get("resumed", ())]


def _action_entry(state: GameState, index: int, seat: int | None, action: object) -> dict:
    entry: dict[str, Any] = {"seat": seat, "action": str(action)}
    revealed = state.tunnel_reveals.get(index)
    if revealed is not None:  # E2: the cards a tunnel claim turned up
        entry["revealed"] = [CARD_NAMES[card] for card in revealed]
    return entry


def dump_record(record: Mapping[str, Any]) -> str:
    """Records as text: one field per line, one action per line, UTF-8, stable."""
    lines = []
    for key, value in record.items():
        if key == "rule_set":
            text = _compact(value)
        elif isinstance(value, list) and key in ("seats", "actions", "notes", "resumed"):
            items = ",\n".join(f"  {_compact(item)}" for item in value)
            text = f"[\n{items}\n ]" if value else "[]"
        else:
            text = json.dumps(value, ensure_ascii=False, indent=1).replace("\n", "\n ")
        lines.append(f" {json.dumps(key)}: {text}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def write_record(record: Mapping[str, Any], path: str | Path) -> None:
    from ttr_maps.io.files import write_text_atomically

    write_text_atomically(Path(path), dump_record(record))


def read_record(path: str | Path) -> dict[str, Any]:
    """Read a record file and check it against `schemas/game-record.schema.json`.
    Raises `RecordError` saying what is wrong and where."""
    record = parse_json(_read_text(path), str(path))
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise RecordError(f"{path}: not a ttr game record (format is not {RECORD_FORMAT!r})")
    if record.get("version") not in RECORD_VERSIONS:
        raise RecordError(f"{path}: record version {record.get('version')!r} is not supported")
    problem = first_schema_problem(record)
    if problem:
        raise RecordError(f"{path}: {problem}")
    return record


def _read_text(path: str | Path) -> str:
    """A record file's text: a regular file of at most `MAX_RECORD_BYTES`, UTF-8."""
    from ttr_maps.io.files import read_regular_file
    from ttr_maps.io.limits import MAX_RECORD_BYTES

    try:
        return read_regular_file(path, MAX_RECORD_BYTES).decode("utf-8")
    except OSError as error:
        raise RecordError(f"{path}: cannot read: {error}") from None
    except UnicodeDecodeError as error:
        raise RecordError(
            f"{path}: not UTF-8 text ({error.reason} at byte {error.start})"
        ) from None


def parse_json(
    text: str, where: str, max_depth: int | None = None, *, kind: str = "ttr game record"
) -> Any:
    """JSON within the record limits (`where` names it in messages, `kind` says
    what it should be): numbers of at most `MAX_NUMBER_CHARS` characters, no NaN
    or Infinity, nesting at most `max_depth` (default `MAX_RECORD_DEPTH`) deep.
    Raises `RecordError`."""
    from ttr_maps.io.limits import MAX_NUMBER_CHARS, MAX_RECORD_DEPTH

    deepest = MAX_RECORD_DEPTH if max_depth is None else max_depth

    def number(kind: type) -> Any:
        def parse(written: str) -> Any:
            if len(written) > MAX_NUMBER_CHARS:
                raise ValueError(f"a number of {len(written):,} characters")
            return kind(written)

        return parse

    def refuse_constant(written: str) -> Any:
        raise ValueError(f"{written} is not a number JSON allows")

    try:
        value = json.loads(
            text,
            parse_int=number(int),
            parse_float=number(float),
            parse_constant=refuse_constant,
        )
    except json.JSONDecodeError as error:
        raise RecordError(f"{where}:{error.lineno}:{error.colno}: not JSON: {error.msg}") from None
    except ValueError as error:
        raise RecordError(f"{where}: not a {kind}: {error}") from None
    except RecursionError:
        raise RecordError(f"{where}: nested more than {deepest} deep") from None
    if _depth(value) > deepest:
        raise RecordError(f"{where}: nested more than {deepest} deep")
    return value


def _depth(value: Any) -> int:
    """How deep arrays and objects nest in `value` (without recursion)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth)
            stack.extend(
                (child, depth + 1) for child in (item.values() if isinstance(item, dict) else item)
            )
    return deepest


def first_schema_problem(record: Any) -> str | None:
    """The first way `record` breaks the game-record schema, or None: the deepest
    field that breaks it and why (`result/seats/1/rank: 9 is greater than the
    maximum of 5`), never a whole value that fails as a unit."""
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match

    if _passes_fast_check(record):  # a valid record needs no explaining (and may be long)
        return None
    error = best_match(Draft202012Validator(_record_schema()).iter_errors(record))
    if error is None:
        return None
    while error.context:  # "not valid under any of the given schemas": say which part
        error = best_match(error.context) or error.context[0]
    where = "/".join(str(p) for p in error.absolute_path) or "the record"
    message = error.message
    if len(message) > MESSAGE_LIMIT:
        message = message[:MESSAGE_LIMIT] + "…"
    return f"{where}: {message}"


@cache
def _record_schema() -> dict[str, Any]:
    from ttr_maps.io.bundled import schema_path

    return json.loads(schema_path("game-record").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


@cache
def _fast_check() -> Any:
    """A yes/no check of the record schema by jsonschema-rs (compiled: a record of
    200,000 actions in well under a second, where jsonschema takes seconds), or
    None where that package is not installed."""
    try:
        import jsonschema_rs
    except ImportError:  # pragma: no cover - depends on the platform's wheels
        return None
    return jsonschema_rs.validator_for(_record_schema()).is_valid


def _passes_fast_check(record: Any) -> bool:
    fast_check = _fast_check()
    if fast_check is None:
        return False
    try:
        return bool(fast_check(record))
    except (ValueError, TypeError, OverflowError):  # what JSON cannot hold: explain it slowly
        return False


def iter_replay(
    record: Mapping[str, Any], game_map: Map
) -> Iterator[tuple[int, int | None, Action, GameState]]:
    """Replay a record step by step: yields (action number, seat, action, state after
    it). Raises `RecordError` naming the first action that cannot be applied."""
    state = _start(record, game_map)
    for number, entry in enumerate(record["actions"], start=1):
        yield number, *_apply_entry(state, number, entry), state


def replay(record: Mapping[str, Any], game_map: Map) -> GameState:
    """Replay a record's actions on `game_map` and return the state they lead to."""
    state = _start(record, game_map)
    for number, entry in enumerate(record["actions"], start=1):
        _apply_entry(state, number, entry)
    return state


def _start(record: Mapping[str, Any], game_map: Map) -> GameState:
    """The game as dealt for a record, on the map it was played on (version 1 in
    the file's order)."""
    file_order = record.get("version") == FILE_ORDER_VERSION
    fingerprint = record.get("map_fingerprint")
    if fingerprint is not None and fingerprint != map_fingerprint(game_map, file_order):
        raise RecordError(f"the map {game_map.id!r} differs from the one the game was played on")
    try:
        stored = record.get("rule_set")
        rules = RuleSet.from_dict(stored) if stored is not None else record.get("rules")
        return GameState(game_map, record["players"], record["seed"], rules, file_order=file_order)
    except RuleSetError as error:
        raise RecordError(f"rule_set: {error}") from None
    except (ValueError, KeyError, TypeError) as error:
        raise RecordError(f"cannot start the game: {error}") from None


def _apply_entry(state: GameState, number: int, entry: Any) -> tuple[int | None, Action]:
    from ttr_maps.text import glimpse

    try:
        seat, text = entry["seat"], entry["action"]
        action = parse_action(text)  # its error quotes the text
    except (InvalidAction, KeyError, TypeError) as error:
        raise RecordError(f"action {number}: {error}") from None
    try:
        state.apply(action, seat)
    except (InvalidAction, IllegalAction, KeyError, TypeError) as error:
        shown = glimpse(str(text))
        raise RecordError(f"action {number} (seat {seat}: {shown}): {error}") from None
    return seat, action


def first_difference(expected: Any, actual: Any, path: str = "result") -> str | None:
    """The first place where two JSON-like values differ, e.g.
    `result.seats[1].total: 87 != 85`; None if they are equal."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in list(expected) + [k for k in actual if k not in expected]:
            if key not in expected or key not in actual:
                return f"{path}.{key}: present in only one of them"
            found = first_difference(expected[key], actual[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(expected, list) and isinstance(actual, list):
        for i, (e, a) in enumerate(zip(expected, actual, strict=False)):
            found = first_difference(e, a, f"{path}[{i}]")
            if found:
                return found
        if len(expected) != len(actual):
            return f"{path}: {len(expected)} items != {len(actual)} items"
        return None
    return None if expected == actual else f"{path}: {expected!r} != {actual!r}"


def verify_record(record: Mapping[str, Any], game_map: Map) -> str | None:
    """Replay and compare with the stored actions (with the cards tunnels turned
    up) and result: None if identical, else the first difference."""
    state = replay(record, game_map)
    replayed = json.loads(dump_record(record_of(state, [])))
    difference = first_difference(record["actions"], replayed["actions"], "actions")
    if difference:
        return difference
    stored = record.get("result")
    if stored is not None and not state.is_over:
        return (
            f"the record has a result, but the game is not over after {len(state.history)} actions"
        )
    if stored is None and state.is_over:
        return f"the game is over after {len(state.history)} actions, but the record has no result"
    if stored is not None:
        try:
            # Normalise the stored form: defaults filled in, as JSON reads it back.
            stored = json.loads(json.dumps(GameResult.from_dict(stored).to_dict()))
        except (KeyError, TypeError, ValueError) as error:
            raise RecordError(
                f"the recorded result is malformed ({error!r} missing or wrong)"
            ) from None
    return first_difference(stored, replayed["result"])
