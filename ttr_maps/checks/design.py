"""Design warnings: what makes games stall or play badly, before anyone plays.

Each warning gives the numbers behind it and what to change. The thresholds are
set so that the published North America and Europe boards raise none of them
(except TTR151, whose six ticketless cities the North America file silences on
purpose), and are named constants here.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator

from ttr_maps.checks.problem import Level
from ttr_maps.checks.registry import CheckContext, Finding, check
from ttr_maps.checks.routes import route_path
from ttr_maps.graph import distances_within
from ttr_maps.model import GRAY, Map, Route, Ticket, player_loads
from ttr_maps.rules import CARD_COLORS, CARDS_PER_COLOR

#: TTR451: claimable spaces should exceed the wagons in play by this factor. The
#: published boards have at least 1.33 (Europe, 5 players); below 1 the board
#: cannot hold the wagons and games stall before anyone runs out (R14).
TRACK_MARGIN = 1.25
#: TTR254: a card colour's spaces per card of that colour, and the longest route of
#: one card colour (the published boards: at most 28 / 12 = 2.3, and 6).
MAX_SPACES_PER_CARD = 3.0
MAX_COLORED_LENGTH = 6
#: TTR254: the share of gray spaces (published boards: 30 % to 41 %).
MAX_GRAY_SHARE = 0.5
#: TTR353: a ticket is fragile when one route lies on every shortest path and
#: without it the ticket costs more than this many times its distance (or is cut).
FRAGILE_FACTOR = 2.0
#: TTR353 costs a few searches per ticket, each as wide as the ticket is long, so
#: tickets across a huge map would make it quadratic: the check stops after
#: settling this many cities in all (about 1 s of CPU) and says which tickets it
#: did not check. Real boards use under 1 % of it.
FRAGILE_SEARCH_BUDGET = 200_000
#: TTR354: a ticket worth less than this is hardly a goal (the published boards'
#: least ticket values are 4, North America, and 5, Europe).
MIN_TICKET_VALUE = 4


def _line(ctx: CheckContext, route: Route) -> int:
    return ctx.document.position(("routes", route.entry)).line


@check("TTR151", Level.WARNING, "no ticket touches a city", stage="design")
def city_without_ticket(ctx: CheckContext) -> Iterator[Finding]:
    """A city that no ticket names is never a goal: players pass through it or
    ignore it. Fine for a few junctions; name it on a ticket if it should matter.

    Failing (nobody needs to go to C):

        cities: {A: {x: 0, y: 0}, B: {x: 1, y: 0}, C: {x: 2, y: 0}}
        routes:
          - {between: [A, B], length: 1, color: red}
          - {between: [B, C], length: 1, color: blue}
        tickets:
          - {between: [A, B], value: 1}

    Passing: the same map with a ticket `{between: [A, C], value: 2}`.
    """
    named = {name for ticket in ctx.map.tickets for name in ticket.cities}
    if not ctx.map.tickets:
        return
    for city in ctx.map.cities:
        if city.name not in named:
            yield Finding(
                f"no ticket names {city.name}: it is never a goal; add a ticket to or from "
                f"it, or leave it as a junction",
                ("cities", city.name),
                on_key=True,
            )


@check("TTR152", Level.WARNING, "a dead-end city hangs on one single-track route", stage="design")
def dead_end_city(ctx: CheckContext) -> Iterator[Finding]:
    """A city with one neighbour joined by a single track: the first player to claim
    that route shuts everyone else out of the city and its tickets. A double route
    (Edinburgh–London on Europe) leaves a second way in with 4 or 5 players.

    Failing:

        cities: {A: {x: 0, y: 0}, B: {x: 1, y: 0}, C: {x: 2, y: 0}}
        routes:
          - {between: [A, B], length: 1, color: red}
          - {between: [B, C], length: 1, color: blue}
          - {between: [A, C], length: 2, color: green}
          - {between: [C, D], length: 2, color: pink}

    Passing: the same map with `color: [pink, white]` for C–D, or a second route to D.
    """
    for name, neighbours in ctx.adjacency.items():
        if len(neighbours) != 1:
            continue
        (other,) = neighbours
        tracks = ctx.map.parallel_routes[frozenset((name, other))]
        if len(tracks) == 1:
            route = tracks[0]
            yield Finding(
                f"{name} is a dead end: its only route is {route.a}–{route.b} (line "
                f"{_line(ctx, route)}), and whoever claims it shuts everyone else out; "
                f"add a second route to {name} or make this one a double route",
                ("cities", name),
                on_key=True,
            )


@check("TTR254", Level.WARNING, "card supply does not meet a color's demand", stage="design")
def color_supply(ctx: CheckContext) -> Iterator[Finding]:
    """R3 deals 12 cards of each color and 14 locomotives, whatever the map. A color
    whose spaces are more than 3 per card, a route of one card color longer than 6
    (a player must hold that many cards of one color, from 12), or gray covering
    more than half of the spaces (colors stop mattering) is flagged. The published
    boards have at most 28 spaces per color, colored routes of at most 6, and 30–41 %
    gray.

    Failing:

        routes:
          - {between: [Denver, Omaha], length: 8, color: red}

    Passing:

        routes:
          - {between: [Denver, Omaha], length: 8, color: gray}
    """
    routes = ctx.map.routes
    total = ctx.map.total_spaces
    spaces = Counter(route.color for route in routes for _ in range(route.length))
    for color in CARD_COLORS:
        per_card = spaces[color] / CARDS_PER_COLOR
        if per_card > MAX_SPACES_PER_CARD:
            extra = spaces[color] - math.floor(MAX_SPACES_PER_CARD * CARDS_PER_COLOR)
            longest = max((r for r in routes if r.color == color), key=lambda r: r.length)
            yield Finding(
                f"{color} routes cover {spaces[color]} spaces, {per_card:.1f} per {color} card "
                f"(R3: {CARDS_PER_COLOR} cards); recolor at least {extra} of these spaces "
                f"to other colors or gray, starting with the longest, {longest.a}–{longest.b}",
                route_path(ctx, longest, "color"),
            )
    for route in routes:
        if route.color != GRAY and route.length > MAX_COLORED_LENGTH:
            yield Finding(
                f"route {route.a}–{route.b} needs {route.length} {route.color} cards in one "
                f"hand (of {CARDS_PER_COLOR}, locomotives aside); make it gray or at most "
                f"{MAX_COLORED_LENGTH} long",
                route_path(ctx, route, "color"),
            )
    if total and spaces[GRAY] / total > MAX_GRAY_SHARE:
        longest = max((r for r in routes if r.color == GRAY), key=lambda r: r.length)
        yield Finding(
            f"gray covers {spaces[GRAY]} of {total} spaces ({100 * spaces[GRAY] / total:.0f} %): "
            f"card colors hardly matter; color some gray routes, such as {longest.a}–"
            f"{longest.b} (published boards: 30–41 %)",
            route_path(ctx, longest, "color"),
        )


@check("TTR352", Level.WARNING, "the ticket deck is too small for the players", stage="design")
def ticket_deck_size(ctx: CheckContext) -> Iterator[Finding]:
    """R4 deals 3 tickets to each player (E4: plus 1 long ticket); R12 draws 3 more
    at a time. The deck should survive setup with 5 players and still let each
    player draw once; otherwise drawing tickets stops (D4) and games can stall.

    Failing (5 players take 15 tickets at setup, and none is left to draw):

        tickets: 15 tickets

    Passing: 30 tickets (North America).
    """
    # The numbers are the map's rule set's (its settings included), not the base game's.
    rules = ctx.rules
    dealt, drawn = rules.setup_tickets, rules.tickets_drawn
    regular = sum(1 for t in ctx.map.tickets if not t.long)
    long = sum(1 for t in ctx.map.tickets if t.long)

    def long_needed(players: int) -> int:  # E4: long tickets dealt at setup
        return rules.setup_long_tickets * players if rules.long_tickets else 0

    counts = rules.player_counts()
    short = [
        players
        for players in counts
        if regular < (dealt + drawn) * players or long < long_needed(players)
    ]
    if not short:
        return
    players = short[-1]
    needed = (dealt + drawn) * players
    supported = [p for p in counts if p not in short]
    up_to = f"it suits up to {supported[-1]} players" if supported else "it suits no count"
    parts = []
    if regular < needed:
        parts.append(
            f"{regular} regular tickets: {players} players take {dealt * players} at "
            f"setup (R4) and need {drawn * players} more for one draw each (R12); "
            f"add at least {needed - regular} tickets"
        )
    long_short = [p for p in counts if long < long_needed(p)]
    if long_short:
        most = long_short[-1]
        parts.append(
            f"{long} long tickets for {most} players (E4 deals {long_needed(most)}): "
            f"add {long_needed(most) - long}"
        )
    text = "; ".join(parts) + f" ({up_to})"
    yield Finding(text, ("tickets",), on_key=True)


@check(
    "TTR353",
    Level.WARNING,
    "a fragile ticket: one route lies on every shortest path",
    stage="design",
)
def fragile_ticket(ctx: CheckContext) -> Iterator[Finding]:
    """A ticket whose every shortest path uses one single-track route, and which
    costs more than twice its value (or becomes impossible) once an opponent claims
    that route. One claim then decides the ticket. Add a parallel track or another
    way round.

    Failing (A–C must use B–C; without it the way round is 7 wagons):

        cities: {A: {x: 0, y: 0}, B: {x: 1, y: 0}, C: {x: 2, y: 0}, D: {x: 1, y: 3}}
        routes:
          - {between: [A, B], length: 1, color: red}
          - {between: [B, C], length: 1, color: blue}
          - {between: [A, D], length: 3, color: green}
          - {between: [D, C], length: 4, color: pink}
        tickets:
          - {between: [A, C], value: 2}

    Passing: the same map with `color: [blue, white]` for B–C.
    """
    adjacency = ctx.adjacency
    budget = [FRAGILE_SEARCH_BUDGET]
    tickets = ctx.routable_tickets
    for checked, ticket in enumerate(tickets):
        if budget[0] <= 0:
            yield Finding(
                f"{len(tickets) - checked} of {len(tickets)} tickets were not checked for "
                f"fragility: the map is too big for this check (its searches stop after "
                f"{FRAGILE_SEARCH_BUDGET:,} cities); the first unchecked is "
                f"{ticket.a}–{ticket.b}",
                ("tickets", ticket.entry),
            )
            return
        distance = ctx.wagon_distance(ticket.a, ticket.b)
        if distance is None or distance != ticket.value:
            continue  # TTR304/TTR305/TTR351 say what is wrong with it
        route = fragile_route(ctx.map, adjacency, ticket, distance, budget)
        if route is not None:
            worse = f"the way round is more than {FRAGILE_FACTOR * distance:.0f} wagons"
            yield Finding(
                f"ticket {ticket.a}–{ticket.b} ({distance}) depends on route "
                f"{route.a}–{route.b} (line {_line(ctx, route)}): every shortest path uses "
                f"it, and once it is claimed {worse}; add a parallel track or another way",
                ("tickets", ticket.entry),
            )


@check(
    "TTR354",
    Level.WARNING,
    "a ticket one route completes, or worth less than 4",
    stage="design",
)
def trivial_ticket(ctx: CheckContext) -> Iterator[Finding]:
    """A ticket whose cities are joined by one direct route that is a shortest way
    between them is done with a single claim: no choice of path, nothing to plan.
    A ticket worth less than 4 wagons is hardly a goal either (the published
    boards' least values are 4 and 5).

    Failing (the route A–B of 4 is the shortest way from A to B):

        cities: {A: {x: 0, y: 0}, B: {x: 4, y: 0}, C: {x: 2, y: 2}, D: {x: 6, y: 2}}
        routes:
          - {between: [A, B], length: 4, color: red}
          - {between: [A, C], length: 3, color: blue}
          - {between: [C, B], length: 3, color: green}
          - {between: [B, D], length: 3, color: pink}
        tickets:
          - {between: [A, B], value: 4}

    Passing: the same map with the ticket `{between: [A, D], value: 7}` (two routes).
    """
    for ticket in ctx.routable_tickets:
        distance = ctx.wagon_distance(ticket.a, ticket.b)
        if distance is None or distance != ticket.value:
            continue  # TTR304/TTR305/TTR351 say what is wrong with it
        route = direct_route(ctx.map, ticket, distance)
        if route is not None:
            yield Finding(
                f"ticket {ticket.a}–{ticket.b} ({distance}) is one route, {route.a}–{route.b} "
                f"(line {_line(ctx, route)}): a single claim completes it; join cities two "
                "routes or more apart",
                ("tickets", ticket.entry),
            )
        elif distance < MIN_TICKET_VALUE:
            yield Finding(
                f"ticket {ticket.a}–{ticket.b} is worth {distance}, less than "
                f"{MIN_TICKET_VALUE}: hardly a goal; join cities farther apart",
                ("tickets", ticket.entry, "value"),
            )


#: In `ticket_design_codes`' answer: the fragility search ran out of its budget.
UNCHECKED_FRAGILITY = "TTR353 unchecked"


def ticket_design_codes(
    game_map: Map,
    adjacency: dict[str, dict[str, int]],
    ticket: Ticket,
    distance: int,
    budget: list[int] | None = None,
) -> tuple[str, ...]:
    """The design warnings (TTR353, TTR354) a ticket of R2 value `distance` would
    raise on `game_map`: what `ttr validate` says, for `ttr tickets suggest` and
    `ttr probe` to share. With `budget` (as for `fragile_route`), a ticket whose
    fragility search it cut short gets `UNCHECKED_FRAGILITY` instead of TTR353."""
    codes = []
    if fragile_route(game_map, adjacency, ticket, distance, budget) is not None:
        codes.append("TTR353")
    elif budget is not None and budget[0] <= 0:
        codes.append(UNCHECKED_FRAGILITY)
    if direct_route(game_map, ticket, distance) is not None or distance < MIN_TICKET_VALUE:
        codes.append("TTR354")
    return tuple(codes)


def direct_route(game_map: Map, ticket: Ticket, distance: int) -> Route | None:
    """A route joining the ticket's two cities that is a shortest way between
    them (R2: its length is the ticket's distance), or None."""
    tracks = game_map.parallel_routes.get(frozenset(ticket.cities), ())
    return next((r for r in tracks if r.length == distance), None)


def fragile_route(
    game_map: Map,
    adjacency: dict[str, dict[str, int]],
    ticket: Ticket,
    distance: int,
    budget: list[int] | None = None,
) -> Route | None:
    """The first single-track route that makes a ticket fragile (TTR353), or None.
    With `budget`, every city a search settles is taken from `budget[0]`, and the
    searches stop (None) when it runs out."""
    return next(_fragile_routes(game_map, adjacency, ticket, distance, budget), None)


def _fragile_routes(
    game_map: Map,
    adjacency: dict[str, dict[str, int]],
    ticket: Ticket,
    distance: int,
    budget: list[int] | None,
) -> Iterator[Route]:
    """Single-track routes on every shortest path of a ticket whose loss makes it
    cost more than FRAGILE_FACTOR times its distance.

    A connection lies on every shortest path exactly when no other connection of
    the shortest paths spans part of the same stretch of distance from `a`."""
    if budget is not None and budget[0] <= 0:
        return
    from_a = distances_within(adjacency, ticket.a, distance)
    from_b = distances_within(adjacency, ticket.b, distance)
    spent = [0] if budget is None else budget
    spent[0] -= len(from_a) + len(from_b)
    spans = []
    for city, start in from_a.items():
        for neighbour, length in adjacency[city].items():
            rest = from_b.get(neighbour)
            if rest is not None and start + length + rest == distance:
                spans.append((start, start + length, city, neighbour))
    spans.sort()
    reach = -1  # the farthest end of the spans before this one
    for i, (start, end, city, neighbour) in enumerate(spans):
        overlapped = reach > start or (i + 1 < len(spans) and spans[i + 1][0] < end)
        reach = max(reach, end)
        tracks = game_map.parallel_routes[frozenset((city, neighbour))]
        if overlapped or len(tracks) > 1:
            continue
        if budget is not None and budget[0] <= 0:
            return
        limit = FRAGILE_FACTOR * distance
        reached = distances_within(
            adjacency, ticket.a, limit, without=frozenset((city, neighbour)), target=ticket.b
        )
        spent[0] -= len(reached)
        if ticket.b not in reached:
            yield tracks[0]


@check("TTR451", Level.WARNING, "too little track for the wagons: games can stall", stage="design")
def track_for_wagons(ctx: CheckContext) -> Iterator[Finding]:
    """R14 ends a game when a player is down to 2 wagons. When the claimable spaces
    are not well above the wagons in play, players run out of routes first and
    every game ends with everybody passing (R6). R11 counts one track per double
    route with 2 or 3 players. Flagged below 1.25 spaces per wagon in play for any
    player count (the published boards: at least 1.33); the message says how many
    spaces to add, or how many wagons each player may have (`settings.wagons`).

    Failing (4 players bring 180 wagons to 126 spaces):

        settings: {wagons: 45}
        routes: 126 spaces in all

    Passing: the same map with `settings: {wagons: 25}`.
    """
    tight = [
        load
        for load in player_loads(ctx.map, ctx.rules)
        if load.claimable_spaces < TRACK_MARGIN * load.wagons_in_play
    ]
    if not tight:
        return
    worst = min(tight, key=lambda load: load.claimable_spaces / max(load.wagons_in_play, 1))
    add = math.ceil(TRACK_MARGIN * worst.wagons_in_play - worst.claimable_spaces)
    wagons = math.floor(worst.claimable_spaces / (TRACK_MARGIN * worst.players))
    counts = ", ".join(
        f"{load.players} players: {load.wagons_in_play} wagons for {load.claimable_spaces} "
        "claimable spaces"
        for load in tight
    )
    fewer = (
        f", or give each player at most {wagons} wagons (settings.wagons)"
        if wagons >= _fewest_wagons()
        else ""
    )
    path = ("settings", "wagons") if "wagons" in (ctx.document.data.get("settings") or {}) else ()
    single = ctx.rules.single_track_counts()
    r11 = f"; R11: one track per double route with {_count_range(single)} players" if single else ""
    yield Finding(
        f"too little track for the wagons ({counts}{r11}): games can stall before anyone "
        f"runs out of wagons; add at least {add} spaces of track{fewer}, or do not offer "
        f"{worst.players} players",
        path or ("routes",),
        on_key=not path,
    )


def _count_range(counts: range) -> str:
    """Player counts as text: "2–3", or "2" for one count."""
    return f"{counts[0]}–{counts[-1]}" if len(counts) > 1 else f"{counts[0]}"


def _fewest_wagons() -> int:
    """The fewest wagons `settings.wagons` allows: the schema's minimum."""
    from ttr_maps.checks.schema import map_schema

    return int(map_schema()["properties"]["settings"]["properties"]["wagons"]["minimum"])
