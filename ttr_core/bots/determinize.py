"""A legal game state consistent with what one seat sees: the hidden information
sampled (R5, D6 hide it from the seat; a search bot guesses it).

`determinize(view, rng)` builds a `SampledWorld` (a `GameState` the game loop
lets playout players read) whose `view(seat)` equals the given
view, with everything the view does not show drawn at random and consistently:

- cards (R3): the 110 train cards minus the market, my hand and a tunnel's
  turned-up cards (E2) are shuffled and dealt to the other hands (their counts are
  public), the discard pile and the deck (their sizes are public);
- tickets (R4, R12, E4): the tickets neither mine nor offered to me are shuffled
  and dealt to the other players (their counts are public), the ticket deck (its
  size is public) and, with the europe rules, out of the game (long tickets only:
  each player holds at most the one long ticket dealt at setup). During setup the
  others are still choosing among offers drawn the same way, and who plays first
  is drawn at random;
- the final round (R14, D1): every player has one turn left; the player who
  triggered it is the first one after me with two wagons or fewer (the players
  between us ended their turns before it with more), or me when I have two or
  fewer (I cannot have played a turn of the final round yet);
- the pass streak (R6): the players whose last turns at the end of the public
  log were passes.

The sampled state starts a history of its own (empty), so its views show an
empty log; everything else in them equals the given view.

The sampled state is a game dealt as usual and then set to the sampled position
through the engine's public builder (`ttr_core.engine.positions.arrange`), which
also checks that every card and ticket is accounted for.

>>> import random
>>> from ttr_maps import load_map
>>> from ttr_core.engine.state import GameState
>>> game = GameState(load_map("north_america"), players=3, seed=4)
>>> seat = game.to_move
>>> guess = determinize(game.view(seat), random.Random(1))
>>> guess.view(seat)._replace(log=()) == game.view(seat)._replace(log=())
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from ttr_core.engine.actions import PASS, RESIGN
from ttr_core.engine.cards import CARD_KINDS, full_deck, shuffle
from ttr_core.engine.decisions import ChooseTickets, Decision
from ttr_core.engine.enums import Phase, Status
from ttr_core.engine.loop import SampledWorld
from ttr_core.engine.positions import arrange
from ttr_core.engine.view import PlayerView


class NotDecidingError(ValueError):
    """The view belongs to a seat with nothing to decide: what the others are in
    the middle of (a second card, a ticket choice) is not visible to it."""


def determinize(
    view: PlayerView,
    rng: random.Random,
    ticket_weights: Mapping[int, Sequence[float]] | None = None,
) -> SampledWorld:
    """A game state with `view.seat`'s view equal to `view`, the hidden
    information drawn from `rng` (see the module docstring).

    `ticket_weights[seat][ticket]`, if given, makes the regular tickets held by
    `seat` that many times likelier (a guess from what the seat claimed);
    without it every arrangement of the hidden tickets is equally likely.

    Raises `NotDecidingError` unless the seat has a decision to take (its turn
    during play, or its ticket choice during setup).
    """
    seat = view.seat
    in_setup = view.phase == Phase.SETUP
    if view.phase == Phase.OVER or view.status[seat] != Status.ACTIVE:
        raise NotDecidingError(f"seat {seat} has nothing to decide in this view")
    if in_setup and view.decision is None:
        raise NotDecidingError(f"seat {seat} has already chosen its tickets")
    if not in_setup and view.to_move != seat:
        raise NotDecidingError(f"it is not seat {seat}'s turn")

    players = view.num_players
    state = SampledWorld(view.map, players, rng.getrandbits(62), view.rule_set)
    others = [s for s in range(players) if s != seat]

    # Cards (R3): what I cannot see, shuffled, then dealt by the public counts.
    unseen = full_deck()
    seen = [c for c in view.market if c is not None]
    seen += view.tunnel.revealed if view.tunnel is not None else ()
    for card, count in enumerate(view.hand):
        seen += [card] * count
    for card in seen:
        unseen.remove(card)
    shuffle(rng, unseen)
    hands = [[0] * CARD_KINDS for _ in range(players)]
    hands[seat] = list(view.hand)
    for other in others:
        for _ in range(view.card_counts[other]):
            hands[other][unseen.pop()] += 1
    discard = [unseen.pop() for _ in range(view.discard_size)]

    tickets, ticket_deck, out_of_game, offers = _deal_tickets(
        view, others, rng, ticket_weights or {}
    )
    if in_setup:
        # Everyone chooses at once; who plays first is not known yet.
        first = rng.randrange(players)
        pending, passed, final_queue = offers, (), None
    else:
        first = seat
        pending = [view.decision] if view.decision is not None else []
        passed = _pass_streak(view)
        final_queue = _final_queue(view) if view.final_round else None
    stations = bool(view.station_owners)
    arrange(
        state,
        hands=hands,
        deck=unseen,
        discard=discard,
        market=view.market,
        tickets=tickets,
        ticket_deck=ticket_deck,
        out_of_game_tickets=out_of_game,
        # Public facts, copied.
        owners=view.owners,
        wagons=view.wagons,
        route_points=view.route_points,
        status=view.status,
        station_owners=view.station_owners if stations else None,
        stations_left=view.stations_left if stations else None,
        phase=view.phase,
        current=first,
        first_player=first,
        pending=pending,
        passed=passed,
        final_queue=final_queue,
    )
    return state


def _deal_tickets(
    view: PlayerView,
    others: list[int],
    rng: random.Random,
    weights: Mapping[int, Sequence[float]],
) -> tuple[list[list[int]], list[int], list[int], list[Decision]]:
    """Tickets (R4, R12, E4): mine and my offer as shown, the others drawn. Returns
    the tickets each seat holds, the ticket deck, the tickets out of the game and,
    during setup, everyone's offers."""
    board = view.board
    seat = view.seat
    rule_set = view.rule_set
    is_long = board.ticket_long if rule_set.long_tickets else (False,) * len(board.ticket_value)
    offered = view.decision.held_tickets if view.decision is not None else ()
    known = {t.index for t in view.tickets} | set(offered)
    regular = [t for t in range(len(is_long)) if t not in known and not is_long[t]]
    long_ones = [t for t in range(len(is_long)) if t not in known and is_long[t]]
    shuffle(rng, regular)
    shuffle(rng, long_ones)
    tickets: list[list[int]] = [[] for _ in range(view.num_players)]
    tickets[seat] = [t.index for t in view.tickets]
    pending: list[Decision] = []
    if view.phase == Phase.SETUP:
        # Everyone else is still choosing among 3 regular tickets and, with the
        # europe rules, the long tickets dealt to each seat while they last (E4).
        spare = len(regular) - view.ticket_deck_size
        long_seats = _long_ticket_seats(view)
        for other in sorted([seat, *others]):
            if other == seat:
                assert view.decision is not None
                pending.append(view.decision)
                continue
            count = min(rule_set.setup_tickets, spare)
            spare -= count
            offer = tuple(regular.pop() for _ in range(count))
            offer += tuple(long_ones.pop() for _ in range(long_seats.get(other, 0)))
            if offer:
                pending.append(ChooseTickets(other, offer, rule_set.setup_keep, setup=True))
    else:
        # Regular tickets never leave the game unless P3 sends the ones not kept
        # away: then the unknown regular tickets are the deck, the others' hands and
        # some gone for good. The other tickets held are long ones, at most those
        # dealt at setup (E4): without P3 exactly as many as the regular ones do not
        # cover; with it, that many at least.
        gone = rule_set.setup_returns_leave or rule_set.drawn_returns_leave
        held = sum(view.ticket_counts[s] for s in others)
        most = rule_set.setup_long_tickets if rule_set.long_tickets else 0
        slots = [s for s in others for _ in range(min(most, view.ticket_counts[s]))]
        fewest = max(0, held - (len(regular) - view.ticket_deck_size))
        count = fewest
        if gone and min(len(slots), len(long_ones)) > fewest:
            count = rng.randint(fewest, min(len(slots), len(long_ones)))
        for other in rng.sample(slots, count):
            tickets[other].append(long_ones.pop())
        for other in others:
            count = view.ticket_counts[other] - len(tickets[other])
            if other in weights:
                tickets[other] += _weighted_draw(regular, count, weights[other], rng)
            else:
                tickets[other] += [regular.pop() for _ in range(count)]
        if gone:
            deck = view.ticket_deck_size
            return tickets, regular[:deck], regular[deck:] + long_ones, pending
    return tickets, regular, long_ones, pending


def _weighted_draw(
    pool: list[int], count: int, weights: Sequence[float], rng: random.Random
) -> list[int]:
    """`count` tickets taken from `pool` without replacement, each with chance in
    proportion to its weight (Efraimidis–Spirakis keys)."""
    keyed = sorted(pool, key=lambda t: rng.random() ** (1 / weights[t]))
    chosen = keyed[len(keyed) - count :] if count else []
    for ticket in chosen:
        pool.remove(ticket)
    return chosen


def _long_ticket_seats(view: PlayerView) -> dict[int, int]:
    """E4, during setup: the long tickets dealt to each other seat (in seat order,
    `setup_long_tickets` each while they last). Mine show in my offer."""
    rule_set = view.rule_set
    if not rule_set.long_tickets:
        return {}
    left = sum(view.board.ticket_long)
    dealt = {}
    for seat in range(view.num_players):
        count = min(rule_set.setup_long_tickets, left)
        left -= count
        if seat != view.seat:
            dealt[seat] = count
    return dealt


def _final_queue(view: PlayerView) -> list[int]:
    """R14, D1: the seats still to play in the final round, me first (see the
    module docstring for how the triggering seat is found)."""
    seat, players = view.seat, view.num_players
    queue = [seat]
    trigger = view.rule_set.final_round_wagons
    if view.wagons[seat] <= trigger:
        return queue
    for k in range(1, players):
        other = (seat + k) % players
        if view.status[other] != Status.ACTIVE:
            continue
        queue.append(other)
        if view.wagons[other] <= trigger:
            break
    return queue


def _pass_streak(view: PlayerView) -> set[int]:
    """R6: the seats whose last turns, at the end of the public log, were passes
    (my own entries of this turn come last and are skipped; a removal or a
    resignation does not break the streak)."""
    passed: set[int] = set()
    entries = list(view.log)
    while entries and entries[-1][0] == view.seat:
        entries.pop()
    for who, what in reversed(entries):
        if who is None or what == str(RESIGN):
            continue
        if what != str(PASS) or who in passed:
            break
        passed.add(who)
    return passed
