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
