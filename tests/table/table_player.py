"""A scripted person for end-to-end tests of `ttr play`: it reads only what the
table printed and answers in the command language (no numbered options).

It keeps all offered tickets, asks `routes` at the start of each turn and claims
the first route listed (by the names and track the listing shows), else draws
from the deck or the market, else takes tickets; on a europe map it tries a
station once; it pays a tunnel's extra cards or gives it up. Every line it types
is kept, so the same game can be played again through stdin.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence

from rich.console import Console

from ttr_core.bots import make_bot
from ttr_core.engine.loop import bot_seed
from ttr_core.table import HUMAN
from ttr_core.table.names import fold
from ttr_core.table.terminal import Session, Terminal, play_at_table
from ttr_maps import load_map

_HEADER = re.compile(r"^.+ · seat \d+ .+ · \d players · deck ", re.MULTILINE)
_ROUTE_LINE = re.compile(r"^ [* ] (.+?)–(.+?)(?: track (\d))? · ", re.MULTILINE)
CARD_DRAWS = ["deck", "m 1", "m 2", "m 3", "m 4", "m 5"]


class ScriptedPerson:
    def __init__(self, output: io.StringIO, stations: Sequence[str] = ()) -> None:
        self.output = output
        self.read = 0
        self.queue: list[str] = []
        self.typed: list[str] = []
        self.stations = list(stations)
        self.turns = 0

    def __call__(self, prompt: str) -> str:
        text = self.output.getvalue()[self.read :]
        self.read = len(self.output.getvalue())
        line = self._decide(text)
        self.typed.append(line)
        return line

    def _decide(self, text: str) -> str:
        if "Pass the terminal to seat" in text:
            return ""
        if "how?\n" in text:  # which payment
            return "1"
        headers = list(_HEADER.finditer(text))
        if headers:  # a new screen: a new question
            screen = text[headers[-1].start() :]
            self.queue = self._plan(screen)
        elif "You can claim" in text:
            claims = [
                f"claim {fold(a)} {fold(b)}" + (f" {track}" if track else "")
                for a, b, track in _ROUTE_LINE.findall(text)
            ]
            self.queue[:0] = claims[:1]
        return self.queue.pop(0) if self.queue else "pass"

    def _plan(self, screen: str) -> list[str]:
        if "Choose tickets" in screen:
            return ["keep all"]
        if "Second card" in screen:
            return CARD_DRAWS[:]
        if "Your tunnel" in screen:
            return ["pay", "give up"]
        self.turns += 1
        plan = ["routes", *CARD_DRAWS, "tickets"]
        if self.stations and self.turns >= 8:
            plan[:0] = [f"station {city}" for city in self.stations]
            self.stations = []
        return plan


def play_by_screen(
    map_id: str, names: Sequence[str], seed: int, stations: Sequence[str] = ()
) -> tuple[Session, list[str], str]:
    """Play a whole game with the scripted person in every `human` seat and the
    named bots elsewhere (seeded as `ttr play` seeds them); return the session,
    the lines typed and everything printed."""
    output = io.StringIO()
    console = Console(file=output, width=80, height=24, color_system=None)
    person = ScriptedPerson(output, stations)
    players = [
        None if name == HUMAN else make_bot(name, bot_seed(seed, seat))
        for seat, name in enumerate(names)
    ]
    terminal = Terminal(console, person, interactive=False)
    session = play_at_table(load_map(map_id), players, names, seed, terminal)
    return session, person.typed, output.getvalue()
