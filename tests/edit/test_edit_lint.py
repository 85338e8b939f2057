"""The editor writes maps that pass a default yamllint run (issue 41): the lines an
edit writes are laid out by `lint_clean_changes`, every line it does not touch stays
as the author wrote it."""

from __future__ import annotations

import pytest
import yaml

from ttr_core.edit.edits import (
    AddCity,
    AddRoute,
    AddTicket,
    ChangeRoute,
    DeleteCity,
    RenameCity,
    ReplaceText,
    apply_edit,
)
from ttr_maps.io.bundled import bundled_map_path
from ttr_maps.io.yaml_text import LINE_WIDTH

LONG_A = "Santa Maria da Feira do Alto Douro"
LONG_B = "Vila Nova de Famalicão de Baixo"


def yamllint_problems(text: str) -> list[str]:
    from yamllint import linter
    from yamllint.config import YamlLintConfig

    config = YamlLintConfig("extends: default")
    return [f"{p.line}:{p.column} {p.rule}: {p.desc}" for p in linter.run(text, config)]


def edits_with_long_lines() -> list:
    return [
        AddCity(LONG_A, (38.1, -8.7), board=(10.0, 10.0)),
        AddCity(LONG_B, (41.4, -8.5), board=(14.0, 12.0)),
        AddRoute(LONG_A, LONG_B, 6, ("orange", "white"), tunnel=True, ferry=1),
        AddTicket(LONG_A, LONG_B, 6, long=True),
        ChangeRoute(0, 2, ("pink", "gray")),
        RenameCity(LONG_A, LONG_A + " e Vale"),
    ]


@pytest.mark.parametrize("map_id", ["iran", pytest.param("europe", marks=pytest.mark.slow)])
def test_a_run_of_edits_on_a_lint_clean_map_leaves_it_lint_clean(map_id: str) -> None:
    original = bundled_map_path(map_id).read_text(encoding="utf-8")
    assert yamllint_problems(original) == []
    text = original
    for edit in edits_with_long_lines():
        text = apply_edit(text, edit)
        assert yamllint_problems(text) == [], edit
    assert max(len(line) for line in text.splitlines()) <= LINE_WIDTH
    data = yaml.safe_load(text)
    assert LONG_A + " e Vale" in data["cities"]
    assert any(LONG_B in ticket["between"] for ticket in data["tickets"])
    # Every line of the original that no edit was about is still there, unchanged.
    kept = set(text.splitlines())
    untouched = [line for line in original.splitlines() if LONG_A not in line]
    assert sum(line in kept for line in untouched) >= len(untouched) - 1  # route 0 changed


def test_lines_the_author_wrote_long_stay_long_and_crlf_stays_crlf() -> None:
    author = (
        "---\r\n"
        "format: 1\r\n"
        "id: crlf\r\n"
        "name: A map with one long line that its author wants exactly as it was written down\r\n"
        "cities:\r\n"
        "  A: {lat: 40.0, lon: -3.0}\r\n"
        "routes:\r\n"
        "  - {between: [A, A2], length: 1}\r\n"
        "tickets: []\r\n"
    )
    text = apply_edit(author, AddCity(LONG_A, (41.0, -4.0)))
    text = apply_edit(text, AddRoute("A", LONG_A, 5, ("orange", "white"), tunnel=True))
    lines = text.split("\r\n")
    assert "\n" not in text.replace("\r\n", "")  # every line end still CRLF
    assert author.split("\r\n")[3] in lines  # the author's long line, as written
    added = [line for line in lines if len(line) > LINE_WIDTH]
    assert added == [author.split("\r\n")[3]]
    assert yaml.safe_load(text)["routes"][-1]["between"] == ["A", LONG_A]


def test_a_whole_text_given_as_it_is_is_kept_as_it_is() -> None:
    text = "---\nname: " + "x" * 100 + "\n"
    assert apply_edit("---\n", ReplaceText(text, "a reload from disk")) == text


def test_deleting_keeps_the_rest_byte_for_byte() -> None:
    original = bundled_map_path("iran").read_text(encoding="utf-8")
    with_city = apply_edit(original, AddCity(LONG_A, (30.0, 50.0), board=(10.0, 10.0)))
    assert apply_edit(with_city, DeleteCity(LONG_A)) == original
