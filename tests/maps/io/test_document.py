"""Reading YAML with positions (ttr_maps.io.document)."""

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from ttr_maps.io import document
from ttr_maps.io.document import DocumentError, Position, parse_document, read_document


def test_positions_of_values_and_keys_are_one_based():
    doc = parse_document("cities:\n  Oslo: {x: 1, y: 2}\nroutes:\n  - a\n  - b\n")
    assert doc.position(("cities", "Oslo")) == Position(2, 9)
    assert doc.position(("cities", "Oslo"), key=True) == Position(2, 3)
    assert doc.position(("routes", 1)) == Position(5, 5)


def test_missing_path_falls_back_to_nearest_parent():
    doc = parse_document("routes:\n  - {length: 3}\n")
    assert doc.position(("routes", 0, "color")) == Position(2, 5)


def test_duplicate_keys_are_kept_for_validation_and_first_wins():
    doc = parse_document("cities:\n  Oslo: 1\n  Oslo: 2\n")
    assert doc.data == {"cities": {"Oslo": 1}}
    assert doc.duplicate_keys == [(("cities", "Oslo"), Position(3, 3))]


def test_syntax_error_has_a_position():
    with pytest.raises(DocumentError) as caught:
        parse_document("a: [1, 2\nb: 3\n", "x.yaml")
    assert caught.value.position is not None
    assert caught.value.position.line == 2


def test_unreadable_file_is_a_document_error(tmp_path):
    with pytest.raises(DocumentError, match="no such file"):
        read_document(tmp_path / "missing.yaml")
    (tmp_path / "latin1.yaml").write_bytes(b"name: Z\xfcrich\n")
    with pytest.raises(DocumentError, match="UTF-8"):
        read_document(tmp_path / "latin1.yaml")


def test_keys_that_yaml_reads_as_null_or_number_have_their_own_positions():
    doc = parse_document("cities:\n  A: 1\n  ~: 2\n  7: 3\n")
    assert doc.data == {"cities": {"A": 1, None: 2, 7: 3}}
    assert doc.position(("cities", None), key=True) == Position(3, 3)
    assert doc.position(("cities", 7), key=True) == Position(4, 3)
    # callers that name keys as text find them too
    assert doc.position(("cities", "7"), key=True) == Position(4, 3)
    assert doc.position(("cities", "8"), key=True) == Position(2, 3)  # the mapping


def test_is_map_text_knows_maps_from_other_yaml() -> None:
    from testdata import ROOT

    from ttr_maps.authoring.starter import starter_map_text
    from ttr_maps.io.document import is_map_text

    for path in (ROOT / "maps").glob("*.yaml"):
        assert is_map_text(path.read_text(encoding="utf-8")), path
    assert is_map_text(starter_map_text("x", coordinates="plane", schema_ref="other.json"))
    assert is_map_text("format: 1\nid: [unclosed\ncities: {}\n")  # broken, still a map
    assert not is_map_text((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert not is_map_text("services:\n  web:\n    format: 1\n    cities: []\n")  # not top level


PLAIN = ["1", "x", "''", "2024-01-01", "!!binary aGk=", "!!int 3", "a b"]
REFUSED = ["!city Oslo", "<<", "!!python/str x"]


@st.composite
def alias_free_yaml(draw: st.DrawFn, depth: int = 1) -> str:
    """Flow YAML without aliases: nested lists and mappings (deep enough to pass
    MAX_DEPTH), and now and then a tag or a merge key the reader refuses."""
    refused = draw(st.integers(0, 40)) == 0
    if depth > 24 or draw(st.integers(0, 12)) == 0:
        return draw(st.sampled_from(REFUSED if refused else PLAIN))
    # Wide near the top, a chain below: deep without growing exponentially.
    items = draw(st.lists(alias_free_yaml(depth + 1), min_size=1, max_size=3 if depth < 4 else 1))
    if draw(st.booleans()):
        tag = draw(st.sampled_from(["!!set ", "!x "] if refused else ["", "!!seq "]))
        return f"{tag}[{', '.join(items)}]"
    tag = draw(st.sampled_from(["!!omap ", "!x "] if refused else ["", "!!map "]))
    keys = draw(st.lists(st.sampled_from(REFUSED if refused else PLAIN), min_size=len(items)))
    return tag + "{" + ", ".join(f"{k}: {v}" for k, v in zip(keys, items, strict=False)) + "}"


def _refusal(check, root):
    try:
        check(root)
    except document._Refused as refusal:
        return refusal.code, refusal.message, refusal.mark.line, refusal.mark.column
    return None


@settings(max_examples=30, deadline=None)
@given(alias_free_yaml())
def test_the_alias_free_check_refuses_what_the_full_check_refuses(text):
    """A document without `*` takes `_check_node_tree`: the same refusal (code,
    message, position) as the full node-graph check, or none from both."""
    root = yaml.compose(text, Loader=document._Loader)
    assert _refusal(document._check_node_tree, root) == _refusal(document._check_node_graph, root)
