"""City names as YAML scalars read back as the same names (every writer uses it)."""

from __future__ import annotations

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from ttr_maps.io.yaml_text import name_scalar


@settings(max_examples=400, deadline=None)
@given(st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=30))
def test_every_name_reads_back_as_itself_in_a_list_and_as_a_key(name: str) -> None:
    scalar = name_scalar(name)
    assert yaml.safe_load(f"[{scalar}]") == [name]
    assert yaml.safe_load(f"{scalar}: 1\n") == {name: 1}


def test_c1_controls_and_line_separators_are_escaped() -> None:
    for name in ("a\x85b", "x\x9fy", "p\u2028q", "\ufeffz"):
        assert name_scalar(name).isascii() or "\\u" in name_scalar(name)
        assert yaml.safe_load(f"[{name_scalar(name)}]") == [name]


# ------------------------------------------------ yamllint-clean map text (issue 41)

import re  # noqa: E402

import pytest  # noqa: E402

from ttr_maps.io.bundled import bundled_map_ids, bundled_map_path  # noqa: E402
from ttr_maps.io.yaml_text import LINE_WIDTH, lint_clean  # noqa: E402


def yamllint_problems(text: str) -> list[str]:
    """What a default `yamllint` run says about `text` (yamllint's own defaults)."""
    from yamllint import linter
    from yamllint.config import YamlLintConfig

    config = YamlLintConfig("extends: default")
    return [f"{p.line}:{p.column} {p.rule}: {p.desc}" for p in linter.run(text, config)]


def comment_words(text: str) -> list[str]:
    """The words of every comment, in order (a wrapped comment adds only `#`s)."""
    words = (line[line.index("#") :].split() for line in text.splitlines() if "#" in line)
    return [word for line in words for word in line if word != "#"]


@pytest.mark.parametrize("map_id", bundled_map_ids())
def test_bundled_maps_pass_a_default_yamllint_run(map_id: str) -> None:
    text = bundled_map_path(map_id).read_text(encoding="utf-8")
    assert yamllint_problems(text) == []
    assert lint_clean(text) == text  # nothing left to lay out


def test_lint_clean_says_the_same_with_the_same_comments() -> None:
    text = (
        "# a modeline stays first\n"
        "# " + "word " * 30 + "\n"
        "format: 1\n"
        "not_modelled:\n"
        "  - a rule written out in words that goes on for rather longer than the width\n"
        "routes:\n"
        "  - {between: [Salt Lake City, San Francisco], length: 5, color: [orange, white]}"
        "  # a remark\n"
        "  - {between: [A, B], length: 1}  # ttr: disable-line=TTR252 " + "x" * 60 + "\n"
        "notes: |\n"
        "  a block scalar line that is longer than eighty characters stays exactly as it is\n"
    )
    clean = lint_clean(text)
    assert yaml.safe_load(clean) == yaml.safe_load(text)
    assert comment_words(clean) == comment_words(text)
    assert clean.splitlines()[:1] == ["# a modeline stays first"]
    assert "\n---\nformat: 1\n" in clean
    long = [line for line in clean.splitlines() if len(line) > LINE_WIDTH]
    assert len(long) == 2 and "disable-line" in long[0] and "block scalar" in long[1]
    assert lint_clean(clean) == clean


_NAMES = st.text(
    st.characters(whitelist_categories=("Lu", "Ll", "Zs", "Nd", "Pd")), min_size=1, max_size=28
).filter(lambda name: name.strip() == name)
_COMMENTS = st.text(st.characters(whitelist_categories=("L", "Zs", "P")), max_size=120)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(_NAMES, _NAMES, st.integers(1, 10), st.booleans(), _COMMENTS),
        min_size=1,
        max_size=6,
    ),
    _COMMENTS,
)
def test_lint_clean_keeps_every_fact_and_comment_of_any_route_list(
    routes: list[tuple[str, str, int, bool, str]], header: str
) -> None:
    lines = [f"# {header}", "format: 1", "routes:"]
    for a, b, length, double, remark in routes:
        color = "[red, gray]" if double else "gray"
        line = f"  - {{between: [{name_scalar(a)}, {name_scalar(b)}], length: {length}, "
        line += f"color: {color}, tunnel: true}}"
        lines.append(line + (f"  # {remark}" if remark.strip() else ""))
    text = "\n".join(lines) + "\n"
    clean = lint_clean(text)
    assert yaml.safe_load(clean) == yaml.safe_load(text)
    assert comment_words(clean) == comment_words(text)
    for line in clean.splitlines():  # too long only where one word is
        assert len(line) <= LINE_WIDTH or len(max(re.split(r"[ ,]", line), key=len)) > 20


@pytest.mark.parametrize("coordinates", ["geographic", "plane"])
def test_the_starter_map_passes_yamllint(coordinates: str) -> None:
    """The starter `ttr new` writes passes a default yamllint run as written."""
    from ttr_maps.authoring.starter import starter_map_text

    text = starter_map_text("my_map", coordinates=coordinates)  # type: ignore[arg-type]
    assert yamllint_problems(text) == []
    assert lint_clean(text) == text


def test_a_starter_map_of_real_towns_passes_yamllint() -> None:
    from ttr_maps.authoring.starter import starter_map_text

    towns = {f"Town number {i} with a long name": (40 + i / 7, -3 + i / 5) for i in range(12)}
    text = starter_map_text("long_names", cities=towns)
    assert yamllint_problems(text) == []
