"""Small maps whose numbers are counted by hand in the tests that use them."""

from __future__ import annotations

from ttr_maps.model import Map


def hand_map() -> Map:
    """Small enough to count by hand (see the expected values in each test).

    A -2x2- B -3- C -1- D -2- E, and B -4- D. A-E has two shortest paths of 8:
    A-B-D-E and A-B-C-D-E.
    """
    return Map.from_data(
        {
            "format": 1,
            "id": "hand",
            "name": "Hand",
            "rules": "europe",
            "coordinates": "plane",
            "settings": {"wagons": 10},
            "cities": {
                "A": {"x": 0, "y": 0},
                "B": {"x": 2, "y": 0},
                "C": {"x": 5, "y": 0},
                "D": {"x": 5, "y": 1},
                "E": {"x": 7, "y": 1},
            },
            "routes": [
                {"between": ["A", "B"], "length": 2, "color": ["red", "blue"]},
                {"between": ["B", "C"], "length": 3, "color": "gray", "tunnel": True},
                {"between": ["C", "D"], "length": 1, "color": "green", "ferry": 1},
                {"between": ["B", "D"], "length": 4, "color": "yellow"},
                {"between": ["D", "E"], "length": 2, "color": "black"},
            ],
            "tickets": [
                {"between": ["A", "C"], "value": 5},
                {"between": ["A", "E"], "value": 8},
                {"between": ["C", "E"], "value": 3, "long": True},
            ],
        }
    )


#: A -1- B -1- C and a long A -6- C (double); one ticket A-C worth 2 (R2).
TRIANGLE = {
    "format": 1,
    "id": "triangle",
    "name": "Triangle",
    "coordinates": "plane",
    "cities": {"A": {"x": 0, "y": 0}, "B": {"x": 1, "y": 1}, "C": {"x": 2, "y": 0}},
    "routes": [
        {"between": ["A", "B"], "length": 1, "color": "red"},
        {"between": ["B", "C"], "length": 1, "color": "red"},
        {"between": ["A", "C"], "length": 6, "color": ["blue", "green"]},
    ],
    "tickets": [{"between": ["A", "C"], "value": 2}],
}


def chain_map(cities: int, disable: str = "") -> str:
    """A line of cities (every route a bridge: every ticket fragile, TTR353), with
    tickets from the first city to each other one, values correct (R2)."""
    lines = ["format: 1", "id: chain", "name: Chain", "coordinates: plane"]
    lines += [f"# ttr: disable={disable}"] if disable else []
    lines.append("cities:")
    lines += [f"  C{i}: {{x: {i}, y: 0}}" for i in range(cities)]
    lines.append("routes:")
    lines += [
        f"  - {{between: [C{i}, C{i + 1}], length: 1, color: red}}" for i in range(cities - 1)
    ]
    lines.append("tickets:")
    lines += [f"  - {{between: [C0, C{i}], value: {i}}}" for i in range(2, cities)]
    return "\n".join(lines) + "\n"
