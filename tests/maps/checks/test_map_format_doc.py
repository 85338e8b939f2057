"""docs/map-format.md: its complete example validates, and it lists every check."""

from __future__ import annotations

import re

from testdata import DOCS

from ttr_maps.checks.catalog import all_checks
from ttr_maps.checks.validate import validate_document
from ttr_maps.io.document import parse_document

DOC = DOCS / "map-format.md"


def _complete_example() -> str:
    section = DOC.read_text(encoding="utf-8").split("## A complete example", 1)[1]
    match = re.search(r"```yaml\n(.*?)```", section, re.S)
    assert match, "the complete example is a ```yaml block"
    return match.group(1)


def test_r2_complete_example_validates_without_any_problem() -> None:
    report = validate_document(parse_document(_complete_example(), "example.yaml"))
    assert report.problems == []
    assert report.map is not None and len(report.map.routes) == 7


def test_doc_lists_every_check_with_its_level_and_summary() -> None:
    text = DOC.read_text(encoding="utf-8")
    for entry in all_checks():
        assert f"| {entry.code} | {entry.level.value} | {entry.summary} |" in text
