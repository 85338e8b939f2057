"""Actions and their notation (`ttr_core.engine.actions`): every notation round-trips,
and what cannot be read is an `InvalidAction`."""

from __future__ import annotations

import pytest
from engine_positions import started
from hypothesis import given
from hypothesis import strategies as st

from ttr_core.engine.actions import Payment, parse_action
from ttr_core.engine.errors import InvalidAction


@given(
    st.sampled_from(
        [
            "draw deck",
            "draw market 4",
            "claim Denver-Kansas_City/2 with red:3 loco:1",
            "claim Atlanta-Miami with loco:5",
            "claim A-B with green:2",
            "tickets",
            "keep 0,2",
            "keep 1",
            "pass",
            "resign",
            "remove 3",
            "station Wien with red:2",
            "pay red:1 loco:1",
            "give up",
        ]
    )
)
def test_every_action_notation_round_trips(text):
    action = parse_action(text)
    assert str(action) == text
    assert parse_action(str(action)) == action


def test_legal_actions_round_trip_through_text(north_america):
    state = started(north_america, 4, seed=3)
    for action in state.legal_actions():
        assert parse_action(str(action)) == action


@pytest.mark.parametrize(
    "text", ["", "draw", "claim X", "claim A-B with", "claim A-B with red:x", "keep 0,0", "fly"]
)
def test_unreadable_actions_are_invalid(text):
    with pytest.raises(InvalidAction):
        parse_action(text)


@pytest.mark.parametrize(
    ("color", "colored", "locos"), [(None, 1, 0), ("red", -2, 5), ("purple", 1, 0), (None, 0, -1)]
)
def test_r9_r3_impossible_payments_are_invalid(color, colored, locos):
    """No payment that pays nothing, creates cards or names an unknown colour."""
    with pytest.raises(InvalidAction):
        Payment(color, colored, locos)


@pytest.mark.parametrize(
    "text",
    [
        "claim Atlanta-Miami with red:²",  # superscript two
        "claim Atlanta-Miami with loco:٣",  # Arabic-Indic three
        "keep ١",  # Arabic-Indic one
        "keep 0,١",
        "draw market ٢",
        "remove ３",  # fullwidth three
    ],
)
def test_notation_counts_are_ascii_digits_only(text):
    with pytest.raises(InvalidAction):
        parse_action(text)
