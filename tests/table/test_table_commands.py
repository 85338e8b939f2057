"""The command language of the table (`ttr_core.table.commands`): every form,
read against a player's view."""

from __future__ import annotations

import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ttr_core.engine.actions import (
    BuildStation,
    Claim,
    DrawDeck,
    DrawMarket,
    DrawTickets,
    GiveUpTunnel,
    KeepTickets,
    Pass,
    Payment,
    PayTunnel,
    Resign,
)
from ttr_core.engine.cards import CARD_INDEX, CARD_NAMES
from ttr_core.engine.decisions import TunnelPayment
from ttr_core.engine.state import GameState
from ttr_core.engine.view import PlayerView
from ttr_core.table.commands import (
    MAX_LINE,
    ChoosePayment,
    CommandError,
    Look,
    Play,
    completions,
    parse_command,
)
from ttr_core.table.names import CityFinder, fold
from ttr_maps import load_map


def hand_of(**cards: int) -> tuple[int, ...]:
    hand = [0] * len(CARD_NAMES)
    for name, count in cards.items():
        hand[CARD_INDEX[name]] = count
    return tuple(hand)


def turn_view(map_id: str = "north_america", players: int = 3, **cards: int) -> PlayerView:
    """Seat 0's view on its turn, holding `cards`."""
    view = GameState(load_map(map_id), players, seed=1).view(0)
    return view._replace(phase="playing", to_move=0, decision=None, hand=hand_of(**cards))


def owned(view: PlayerView, route_id: str, seat: int) -> PlayerView:
    owners = list(view.owners)
    owners[view.board.route_index[route_id]] = seat
    return view._replace(owners=tuple(owners))


def claim_of(text: str, view: PlayerView) -> Claim:
    command = parse_command(text, view)
    assert isinstance(command, Play), command
    assert isinstance(command.action, Claim)
    return command.action


# ------------------------------------------------------------ cards (R7, R12)


def test_r7_deck_and_market_by_number_or_colour() -> None:
    view = turn_view()
    assert parse_command("deck", view) == Play(DrawDeck())
    assert parse_command("D", view) == Play(DrawDeck())
    assert parse_command("draw deck", view) == Play(DrawDeck())
    assert parse_command("market 3", view) == Play(DrawMarket(2))
    assert parse_command("m 1", view) == Play(DrawMarket(0))
    colour = CARD_NAMES[view.market[4]]  # type: ignore[index]
    first = view.market.index(view.market[4])
    assert parse_command(f"m {colour.upper()}", view) == Play(DrawMarket(first))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("m 6", "face-up cards are numbered 1 to 5"),
        ("m 0", "face-up cards are numbered 1 to 5"),
        ("market", "write `market N`"),
        ("m purple", "neither a number 1-5 nor a card colour"),
    ],
)
def test_r7_bad_market_commands_say_how(text: str, message: str) -> None:
    with pytest.raises(CommandError, match=message):
        parse_command(text, turn_view())


def test_r7_a_colour_not_in_the_market_is_refused() -> None:
    view = turn_view()
    missing = next(c for c in CARD_NAMES if CARD_INDEX[c] not in view.market)
    with pytest.raises(CommandError, match=f"no face-up {missing}"):
        parse_command(f"m {missing}", view)


def test_r4_r12_tickets_and_keep_count_from_one() -> None:
    setup = GameState(load_map("north_america"), 3, seed=1).view(0)
    assert parse_command("t", turn_view()) == Play(DrawTickets())
    assert parse_command("tickets", turn_view()) == Play(DrawTickets())
    assert parse_command("keep 1 3", setup) == Play(KeepTickets((0, 2)))
    assert parse_command("k 3,1", setup) == Play(KeepTickets((0, 2)))
    assert parse_command("keep all", setup) == Play(KeepTickets((0, 1, 2)))
    with pytest.raises(CommandError, match="numbered 1 to 3"):
        parse_command("keep 4", setup)
    with pytest.raises(CommandError, match="named twice"):
        parse_command("keep 1 1", setup)
    with pytest.raises(CommandError, match="no tickets to choose from"):
        parse_command("keep 1", turn_view())


def test_other_words_pass_resign_looks_and_empty_line() -> None:
    view = turn_view()
    assert parse_command("pass", view) == Play(Pass())
    assert parse_command("resign", view) == Play(Resign())
    assert parse_command("", view) == Look("redraw")
    assert parse_command("?", view) == Look("kinds")
    assert parse_command("help", view) == Look("help")
    assert parse_command("h", view) == Look("help")
    assert parse_command("map", view) == Look("map")
    assert parse_command("q", view) == Look("quit")
    assert parse_command("routes denver", view) == Look("routes", "denver")
    assert parse_command("r", view) == Look("routes", "")
    with pytest.raises(CommandError, match="type `help` for the commands"):
        parse_command("fly to the moon", view)


# ------------------------------------------------------------- claims (R9)


def test_r9_claim_names_cities_in_any_order_and_case() -> None:
    view = turn_view(red=2)
    expected = Claim("Dallas-Little_Rock", Payment("red", 2, 0))
    for text in (
        "claim dallas little rock",
        "claim little rock dallas",
        "CLAIM Little Rock Dallas",
        "c little rock - dallas",
        "claim Little_Rock-Dallas",  # the engine's id, cities swapped
    ):
        assert claim_of(text, view) == expected, text


def test_r9_accents_are_optional() -> None:
    view = turn_view(red=2)
    assert claim_of("claim montreal boston", view).route == "Boston-Montréal/1"
    assert claim_of("claim MONTRÉAL boston", view).route == "Boston-Montréal/1"


def test_r9_unique_prefixes_are_enough() -> None:
    view = turn_view(red=3)
    assert claim_of("claim lit ro dal", view).route == "Dallas-Little_Rock"
    assert claim_of("claim sault st marie dul", view).route == "Duluth-Sault_St._Marie"
    assert claim_of("claim salt denver", view).route.startswith("Denver-Salt_Lake_City")


def test_r9_an_ambiguous_prefix_names_the_candidates() -> None:
    with pytest.raises(CommandError) as error:
        parse_command("claim sa denver", turn_view(red=3))
    assert "Denver–Salt Lake City" in str(error.value)
    assert "Denver–Santa Fe" in str(error.value)


def test_r9_a_wrong_city_gets_did_you_mean() -> None:
    with pytest.raises(CommandError, match="no city 'dalas' on North America; did you mean Dallas"):
        parse_command("claim dalas houston", turn_view(red=2))
    with pytest.raises(CommandError, match="did you mean Montréal"):
        parse_command("claim montrel boston", turn_view(red=2))
    with pytest.raises(CommandError, match=r"no city 'little rok'.*did you mean Little Rock"):
        parse_command("claim dallas little rok", turn_view(red=2))


def test_r9_cities_without_a_route_between_them_list_the_neighbours() -> None:
    with pytest.raises(CommandError) as error:
        parse_command("claim dallas boston", turn_view(red=2))
    message = str(error.value)
    assert "no route joins Dallas and Boston" in message
    assert "Dallas has routes to El Paso, Houston, Little Rock" in message


def test_r9_claim_needs_two_cities() -> None:
    with pytest.raises(CommandError, match="name the two cities"):
        parse_command("claim dallas", turn_view(red=2))


def test_r9_a_gray_route_payable_in_two_colours_asks_with_payments_only() -> None:
    command = parse_command("claim dallas little rock", turn_view(red=2, blue=2))
    assert isinstance(command, ChoosePayment)
    assert command.options == (
        Claim("Dallas-Little_Rock", Payment("red", 2, 0)),
        Claim("Dallas-Little_Rock", Payment("blue", 2, 0)),
    )
    assert command.labels == ("Dallas–Little Rock: red 2", "Dallas–Little Rock: blue 2")


def test_r9_a_colour_picks_the_cards_of_a_gray_route() -> None:
    view = turn_view(red=2, blue=2)
    assert claim_of("claim dallas little rock blue", view) == Claim(
        "Dallas-Little_Rock", Payment("blue", 2, 0)
    )


def test_r9_the_payment_with_fewest_locomotives_is_chosen_without_asking() -> None:
    view = turn_view(red=1, blue=2, loco=3)
    # blue 2 needs no locomotive, red 1 + loco 1 does: blue is chosen.
    assert claim_of("claim dallas little rock", view).payment == Payment("blue", 2, 0)
    assert claim_of("claim denver omaha", turn_view(pink=2, loco=3)).payment == Payment(
        "pink", 2, 2
    )
    assert claim_of("claim denver omaha", turn_view(loco=4)).payment == Payment(None, 0, 4)


def test_r9_a_written_payment_is_taken_as_written() -> None:
    view = turn_view(red=2, loco=2)
    assert claim_of("claim dallas little rock with red:1 loco:1", view).payment == Payment(
        "red", 1, 1
    )
    assert claim_of("claim dallas little rock loco:2", view).payment == Payment(None, 0, 2)
    with pytest.raises(CommandError, match="cannot read payment"):
        parse_command("claim dallas little rock with purple:2", view)


def test_r9_a_route_you_cannot_pay_says_what_you_hold() -> None:
    with pytest.raises(CommandError, match=r"R9: you cannot pay for Denver–Omaha \(pink 4\) with"):
        parse_command("claim denver omaha", turn_view(pink=1, red=3))


def test_r9_a_taken_route_goes_to_the_engine_to_name_the_rule() -> None:
    view = owned(turn_view(red=2), "Dallas-Little_Rock", 1)
    # The parser builds the claim; the session asks the engine, which says R9.
    assert claim_of("claim dallas little rock", view).route == "Dallas-Little_Rock"


def test_r11_doubles_colour_or_track_picks_one() -> None:
    view = turn_view(yellow=4, orange=4)
    both = parse_command("claim atlanta new orleans", view)
    assert isinstance(both, ChoosePayment)
    assert [a.route for a in both.options] == [  # type: ignore[attr-defined]
        "Atlanta-New_Orleans/1",
        "Atlanta-New_Orleans/2",
    ]
    assert both.labels[1] == "Atlanta–New Orleans track 2: orange 4"
    assert claim_of("claim atlanta new orleans orange", view) == Claim(
        "Atlanta-New_Orleans/2", Payment("orange", 4, 0)
    )
    assert claim_of("claim atlanta new orleans 1", view) == Claim(
        "Atlanta-New_Orleans/1", Payment("yellow", 4, 0)
    )
    assert claim_of("claim atlanta new orleans track 2", view).route == "Atlanta-New_Orleans/2"
    with pytest.raises(CommandError, match="has tracks 1 to 2"):
        parse_command("claim atlanta new orleans 3", view)


def test_r11_twin_gray_tracks_do_not_ask_which() -> None:
    view = turn_view(red=2)
    assert claim_of("claim boston montreal", view).route == "Boston-Montréal/1"
    taken = owned(turn_view(red=2, players=4), "Boston-Montréal/1", 2)
    assert claim_of("claim boston montreal", taken).route == "Boston-Montréal/2"


# ----------------------------------------------------------- europe (E1-E3)


def test_e1_station_in_a_city_paid_with_the_cheapest_cards() -> None:
    view = turn_view("europe", red=2)
    assert parse_command("station wien", view) == Play(BuildStation("Wien", Payment("red", 1, 0)))
    assert parse_command("s munchen", view) == Play(BuildStation("München", Payment("red", 1, 0)))
    two = parse_command("station wien", turn_view("europe", red=1, blue=1))
    assert isinstance(two, ChoosePayment) and len(two.options) == 2
    assert parse_command("station wien blue", turn_view("europe", red=1, blue=1)) == Play(
        BuildStation("Wien", Payment("blue", 1, 0))
    )
    with pytest.raises(CommandError, match="E1: stations belong to the europe rule set"):
        parse_command("station denver", turn_view(red=2))
    with pytest.raises(CommandError, match="did you mean Wien"):
        parse_command("station wein", view)


def test_e3_a_ferry_is_paid_with_its_locomotives() -> None:
    view = turn_view("europe", red=3, loco=2)
    # Amsterdam–London: gray 2 with 2 locomotive spaces.
    assert claim_of("claim london amsterdam", view).payment == Payment(None, 0, 2)
    athina = claim_of("claim athina smyrna", view)  # gray 2, 1 locomotive
    assert athina.payment == Payment("red", 1, 1)
    with pytest.raises(CommandError, match="E3: you cannot pay for Amsterdam–London"):
        parse_command("claim london amsterdam", turn_view("europe", red=3, loco=1))


def test_e2_tunnel_extra_cards_pay_or_give_up() -> None:
    view = turn_view("europe", red=3, loco=1)
    route = view.board.route_index["München-Wien"]
    tunnel = TunnelPayment(0, route, Payment("red", 2, 0), (0, 8, 4), 2)
    view = view._replace(decision=tunnel, tunnel=tunnel)
    # Two extra cards: red 1 still in hand, then a locomotive.
    assert parse_command("pay", view) == Play(PayTunnel(Payment("red", 1, 1)))
    assert parse_command("pay red:1 loco:1", view) == Play(PayTunnel(Payment("red", 1, 1)))
    assert parse_command("give up", view) == Play(GiveUpTunnel())
    with pytest.raises(CommandError, match="E2: you cannot pay 2 more"):
        parse_command("pay loco", view)
    with pytest.raises(CommandError, match="no tunnel waits for you"):
        parse_command("pay", turn_view("europe", red=3))


# -------------------------------------------------------- limits and help


def test_input_limits_refuse_long_lines_and_numbers() -> None:
    view = turn_view()
    with pytest.raises(CommandError, match="at most 1,000"):
        parse_command("claim " + "a" * MAX_LINE, view)
    with pytest.raises(CommandError, match="too long a number"):
        parse_command("m 00001", view)


def test_echoed_input_has_no_control_characters() -> None:
    with pytest.raises(CommandError) as error:
        parse_command("\x1b[2Jboom", turn_view())
    assert "\x1b" not in str(error.value)


def test_names_fold_accents_case_and_punctuation() -> None:
    assert fold("Sault St. Marie") == "sault st marie"
    assert fold("MÜNCHEN") == "munchen"
    assert fold("Little_Rock") == "little rock"
    finder = CityFinder(["København", "Kyiv", "Kharkov"])
    assert finder.find("kobenhavn") == ("København",)
    assert finder.find("k") == ("København", "Kyiv", "Kharkov")
    assert finder.find("x") == ()


def test_tab_completion_of_commands_and_city_names() -> None:
    game_map = load_map("north_america")
    assert len(completions("", game_map)) == 15  # every command word
    assert completions("ma", game_map) == ["map", "market"]
    assert completions("claim dal", game_map) == ["dallas"]
    assert completions("claim dallas little r", game_map) == ["rock"]
    assert completions("c sault st", game_map) == ["st. marie"]
    assert completions("claim montr", game_map) == ["montréal"]
    assert completions("deck x", game_map) == []


def test_only_ascii_digits_are_numbers() -> None:
    with pytest.raises(CommandError, match="neither a number 1-5 nor a card colour"):
        parse_command("m ３", turn_view())
    with pytest.raises(CommandError):
        parse_command("keep ²", GameState(load_map("north_america"), 3, seed=1).view(0))


@functools.cache
def _fuzz_views() -> tuple[PlayerView, ...]:
    return (
        turn_view(red=2, loco=1),
        turn_view("europe", blue=3),
        GameState(load_map("north_america"), 3, seed=1).view(0),
    )


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(
                [
                    "claim",
                    "c",
                    "m",
                    "keep",
                    "station",
                    "pay",
                    "routes",
                    "with",
                    "red:2",
                    "2",
                    "dallas",
                    "little",
                    "rock",
                    "sa",
                    "loco",
                    "track",
                    "-",
                    "give",
                    "up",
                    "all",
                ]
            ),
            st.text(max_size=12),
        ),
        max_size=7,
    ).map(" ".join)
)
def test_any_line_is_read_or_refused_with_a_message_never_a_crash(line: str) -> None:
    for view in _fuzz_views():
        try:
            command = parse_command(line, view)
        except CommandError as error:
            assert str(error)
        else:
            assert isinstance(command, Play | ChoosePayment | Look)


def test_the_same_city_twice_is_refused_with_a_message() -> None:
    with pytest.raises(CommandError, match="two different cities"):
        parse_command("claim dallas dallas", turn_view(red=2))
