"""Every `--format` of a map command offers exactly its reporter registry's keys."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from ttr_core.cli import app, probe, stats, tickets, validate
from ttr_maps.checks import reporters as check_reporters
from ttr_maps.reports import probe as probe_reports
from ttr_maps.reports import stats as stats_reports
from ttr_maps.reports import tickets as tickets_reports

COMMANDS = [
    (["validate"], validate.OutputFormat, check_reporters.REPORTERS),
    (["stats"], stats.StatsFormat, stats_reports.REPORTERS),
    (["tickets", "analyse"], tickets.TicketsFormat, tickets_reports.REPORTERS),
    (["probe"], probe.ProbeFormat, probe_reports.REPORTERS),
]


@pytest.mark.parametrize(
    ("command", "choices", "registry"), COMMANDS, ids=[" ".join(c[0]) for c in COMMANDS]
)
def test_format_choices_are_the_reporters_keys(command, choices, registry):
    assert [choice.value for choice in choices] == list(registry)
    shown = CliRunner().invoke(app, [*command, "--help"], env={"COLUMNS": "200"}).output
    assert f"<{'|'.join(registry)}>" in shown
    for name in registry:  # the help text says what each format is
        assert f"{name}:" in shown
