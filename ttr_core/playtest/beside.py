"""What a balance report's numbers are set beside, and what its map plays without.

Every finding sets a number of the map against the same bots at the same table
size on the published boards (the report's `baseline`). A designer reading "the
published boards give 24–27 %" must know which boards those are, what rules each
plays, and what of each (and of the map itself) ttr does not model:
`beside_boards` names the baseline's boards nearest the map first
(`ttr_maps.published.nearest_first`: the same rule family, then the same table
sizes, then size), `beside_lines` says it all in words for the terminal, the
report page and the editor's play-test panel.
"""

from __future__ import annotations

from ttr_core.playtest.report import BalanceReport, Baseline, BesideBoard
from ttr_maps.model import Map
from ttr_maps.rules import RuleSet


def beside_boards(
    game_map: Map, rules: RuleSet, baseline: Baseline | None
) -> tuple[BesideBoard, ...]:
    """The published boards of `baseline`, nearest `game_map` first, each with its
    rules, table sizes and what of it ttr does not model (none without a baseline)."""
    from ttr_maps.published import nearest_first, published_boards

    if baseline is None:
        return ()
    played = {board.map for board in baseline.boards}
    boards = [b for b in published_boards() if b.map_id in played]
    ordered = nearest_first(
        game_map.rules,
        rules.player_counts(),
        cities=len(game_map.cities),
        routes=len(game_map.routes),
        boards=boards,
    )
    known = {b.map_id for b in ordered}
    unknown = sorted(played - known)  # a cached baseline of a board no longer bundled
    return tuple(
        BesideBoard(b.map_id, b.name, b.family, b.players, b.not_modelled) for b in ordered
    ) + tuple(BesideBoard(map_id, map_id, "?", (), ()) for map_id in unknown)


def beside_lines(report: BalanceReport) -> list[str]:
    """What of the map the run plays without, and the published boards every
    finding is set beside (nearest first, each with what it plays without), as
    lines of plain text."""
    settings = report.settings
    lines = []
    if settings.not_modelled:
        lines.append(
            f"{settings.map_name} is played without: {'; '.join(settings.not_modelled)} "
            "(ttr does not model it: every number of this report is the map's without it)"
        )
    baseline = report.baseline
    if baseline is None or baseline.players != settings.players or not report.beside:
        lines.append(
            "set beside: fair shares, no published-board baseline "
            "(a bot's own strength may read as the map's)"
        )
        return lines
    lines.append(
        f"set beside the published boards ({','.join(baseline.bots)} at {baseline.players} "
        f"players, {baseline.source}), nearest first:"
    )
    lines.extend(f"  {board.text()}" for board in report.beside)
    return lines
