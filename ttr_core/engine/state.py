"""The game state: the one thing that changes, and only through `apply(action)`.

A `GameState` is the game's bookkeeping (`ttr_core.engine.books.Books`: hands,
piles, tickets, routes, turn order) dealt for a new game (R4), with the three things
a game does: list the legal actions (`ttr_core.engine.legal`), hand each action or
answer to the module of its action family (`ttr_core.engine.moves`), and score the
end (`ttr_core.engine.result`).

The state holds everything, hidden information included (hands, ticket offers,
deck order). Players and bots see a `PlayerView` (`state.view(seat)`), never the
state itself (R5, D6).

>>> from ttr_maps import load_map
>>> game = GameState(load_map("north_america"), players=2, seed=7)
>>> game.phase, len(game.legal_actions(0)) > 0
('setup', True)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ttr_core.engine.actions import (
    HOST_ACTIONS,
    Action,
    BuildStation,
    Claim,
    DrawDeck,
    DrawMarket,
    DrawTickets,
    Pass,
    Remove,
    Resign,
)
from ttr_core.engine.books import Books
from ttr_core.engine.compiled import board_for
from ttr_core.engine.decisions import SecondCard
from ttr_core.engine.enums import Phase, Status
from ttr_core.engine.errors import IllegalAction, InvalidAction
from ttr_core.engine.legal import DECISIONS, legal_actions, turn_actions
from ttr_core.engine.moves.claims import claim
from ttr_core.engine.moves.draws import draw_first_card, second_card_draws
from ttr_core.engine.moves.stations import build_station
from ttr_core.engine.moves.tickets import draw_tickets, end_setup_if_done, offer_setup_tickets
from ttr_core.engine.moves.turns import pass_turn, remove, resign, time_out
from ttr_core.engine.result import GameResult, score_game
from ttr_core.engine.view import PlayerView, view_of
from ttr_maps.model import Map
from ttr_maps.rules import RuleSet, RuleSetError, misfit, rules_for

# Enum members as module names: `Phase.OVER` is a Python-level lookup on the enum
# class (about 50 ns in CPython 3.11), and these run on every action.
_PLAYING, _OVER, _ACTIVE = Phase.PLAYING, Phase.OVER, Status.ACTIVE


class GameState(Books):
    """A game of Ticket to Ride in progress on one map, for 2-5 seats (R1).

    `rules` is a rule-set name ("base", "europe": the named set with the map's
    `settings`), a `RuleSet` (used as given), or None for the map's own rules.
    The game is numbered in the map's play order (`state.map` is the map in that
    order, `ttr_core.engine.compiled`); `file_order` numbers and deals it as the
    file lists things, as games recorded before play order were (record version 1).
    """

    def __init__(
        self,
        game_map: Map,
        players: int,
        seed: int,
        rules: str | RuleSet | None = None,
        *,
        file_order: bool = False,
    ) -> None:
        board = board_for(game_map, file_order)
        # The board's own map has its rule sets made once; an equal map (the board is
        # shared) may have other `settings`.
        own = board.source is game_map or board.map is game_map
        rule_set = board.rule_set(rules) if own else rules_for(game_map, rules)
        if not rule_set.min_players <= players <= rule_set.max_players:
            raise ValueError(
                f"R1: a game has {rule_set.min_players} to {rule_set.max_players} players, "
                f"not {players}"
            )
        problem = misfit(rule_set, game_map)
        if problem:
            raise RuleSetError(problem)
        # The map in the board's order (every index refers to it), with this map's
        # own settings and layout when the board was built for an equal one.
        in_order = board.map if own else game_map if file_order else game_map.in_play_order
        super().__init__(in_order, board, rule_set, players, seed)
        self._deal()

    def _deal(self) -> None:
        """R4: deal 4 cards to everyone, turn up the market (R7), offer everyone
        their tickets (E4: long ones too), pick the first player at random.
        Everyone then chooses tickets at the same time."""
        cards = self.cards
        for hand in self.hands:
            for _ in range(self.rule_set.starting_cards):
                hand[cards.draw()] += 1  # type: ignore[index]
        cards.refill_market()
        offer_setup_tickets(self)
        self.first_player = self.current = self.rng.randrange(self.num_players)
        end_setup_if_done(self)  # a map without tickets starts at once

    # ------------------------------------------------------------------ queries
    def legal_actions(self, seat: int | None = None, include_resign: bool = False) -> list[Action]:
        """Every action `seat` (default: the seat to move) may take now, in a stable
        order (see `ttr_core.engine.legal`). An active seat may always resign (D5);
        `resign` closes the list only with `include_resign`."""
        seat = self.to_move if seat is None else seat
        if seat is None or self.phase == _OVER or self.status[seat] != _ACTIVE:
            return []
        pending = self.pending
        if seat != self.current or self.phase != _PLAYING or include_resign:
            return legal_actions(self.legal_facts(seat), include_resign)
        if pending:
            decision = pending[0]
            if len(pending) == 1 and type(decision) is SecondCard and decision.seat == seat:
                # R7: the other common case, a second card, straight from the piles.
                cards = self.cards
                return second_card_draws(
                    cards.market, cards.can_draw(), self.rule_set.face_up_locomotive_ends_draw
                )
        else:
            # The common case, straight to its list (R6): the facts `legal_facts`
            # would bundle, passed as they are.
            cards = self.cards
            return turn_actions(
                self.board,
                self.hands[seat],
                self._open_groups[seat] or self._open_list(seat),
                self.wagons[seat],
                cards.market,
                cards.can_draw(),
                len(self.ticket_deck),
                self.rule_set,
                self.stations_left[seat],
                self.station_owner,
            )
        return legal_actions(self.legal_facts(seat))

    def view(self, seat: int) -> PlayerView:
        """What `seat` may see (R5, D6)."""
        return view_of(self, seat)

    def result(self) -> GameResult:
        """The final result (R15-R17). Only for a finished game."""
        if self.phase != _OVER:
            raise IllegalAction("R6", "the game is not over")
        return score_game(self)

    # -------------------------------------------------------------------- apply
    def apply(self, action: Action, seat: int | None = None) -> None:
        """Apply `action` for `seat` (default: the seat to move).

        Raises `IllegalAction` naming the rule that forbids it, or `InvalidAction`
        if it names something that does not exist; either way the state is left
        exactly as it was.
        """
        if self.phase == _OVER:
            raise IllegalAction("R6", "the game is over")
        if isinstance(action, HOST_ACTIONS):  # D5: the host, at any moment
            self._refuse_seat(action.seat)
            if isinstance(action, Remove):
                remove(self, action)
            else:
                time_out(self, action)
            self.history.append((None, action))
            return
        seat = self.to_move if seat is None else seat
        if seat is None:
            raise IllegalAction("R6", "no seat is to move")
        if not (0 <= seat < self.num_players and self.status[seat] == _ACTIVE):
            self._refuse_seat(seat)
        if isinstance(action, Resign):  # D5: at any moment
            resign(self, seat, action)
        elif self.pending and (decision := self.decision_for(seat)) is not None:
            DECISIONS[type(decision)].apply(self, seat, decision, action)
        elif self.phase != _PLAYING or seat != self.current:
            raise IllegalAction("R6", f"it is not seat {seat}'s turn")
        else:
            start_turn = TURN_ACTIONS.get(type(action))
            if start_turn is None:
                raise IllegalAction("R6", f"'{action}' is not a turn action")
            start_turn(self, seat, action)
        self.history.append((seat, action))

    def _refuse_seat(self, seat: int) -> None:
        """Raise unless `seat` is a seat of the game that is still in it (D5)."""
        if not 0 <= seat < self.num_players:
            raise InvalidAction(f"there is no seat {seat} in a {self.num_players}-player game")
        if self.status[seat] != _ACTIVE:
            raise IllegalAction("D5", f"seat {seat} has left the game ({self.status[seat]})")


#: The actions that start a turn (R6), by type: the module of its family applies it.
TURN_ACTIONS: dict[type, Callable[[Books, int, Any], None]] = {
    DrawDeck: draw_first_card,  # R7: moves/draws.py
    DrawMarket: draw_first_card,
    Claim: claim,  # R9 (E2: tunnels): moves/claims.py
    DrawTickets: draw_tickets,  # R12: moves/tickets.py
    Pass: pass_turn,  # R6: moves/turns.py
    BuildStation: build_station,  # E1: moves/stations.py
}
