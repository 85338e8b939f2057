"""Disable comments: a whole file, one line, the next line (warnings only)."""

from __future__ import annotations

from ttr_maps.checks.validate import validate_text

MAP = """format: 1
id: t
name: T
coordinates: plane
cities:
  A: {x: 0, y: 0}@A@
  B: {x: 1, y: 0}
  C: {x: 2, y: 0}
routes:
  - {between: [A, B], length: 2, color: red}
  - {between: [B, C], length: 2, color: red}
tickets:@T@
  - {between: [A, C], value: 4}
"""


def _map(a: str = "", before_ticket: str = "") -> str:
    return MAP.replace("@A@", a).replace("@T@", before_ticket)


def _codes(text: str) -> list[tuple[str, int]]:
    return [(p.code, p.position.line) for p in validate_text(text, "t.yaml").problems]


def test_a_line_disable_silences_its_own_line_only() -> None:
    plain = _codes(_map(a="", before_ticket=""))
    assert ("TTR152", 6) in plain and ("TTR152", 8) in plain
    quiet = _codes(_map(a="  # ttr: disable-line=TTR152", before_ticket=""))
    assert ("TTR152", 6) not in quiet and ("TTR152", 8) in quiet
    assert len(quiet) == len(plain) - 1


def test_a_next_line_disable_silences_the_line_below_it() -> None:
    text = _map(a="", before_ticket="\n  # ttr: disable-next-line=TTR353")
    codes = _codes(text)
    assert not any(code == "TTR353" for code, _ in codes)
    assert ("TTR152", 6) in codes  # nothing else silenced


def test_a_line_disable_never_silences_an_error_and_a_typo_is_reported() -> None:
    text = _map(a="", before_ticket="").replace(
        "value: 4}", "value: 9}  # ttr: disable-line=TTR304, TTR999"
    )
    codes = _codes(text)
    assert ("TTR304", 13) in codes  # R2: a wrong value is an error
    assert [line for code, line in codes if code == "TTR051"] == [13, 13]


def test_a_disable_comment_is_placed_on_its_own_line_even_below_a_leading_blank_line() -> None:
    from ttr_maps.checks.suppress import iter_disabled_codes

    found = [(c, p.line, p.column) for c, p in iter_disabled_codes("\n# ttr: disable=TTR999\n")]
    assert found == [("TTR999", 2, 16)]
