"""Team standings as an HTML page, in the style of the individual pages (`projections.html`)."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from projections.html import page
from projections.team_standings import TeamStanding

__all__ = ["team_standings_html"]


def _num(value: Decimal) -> str:
    """``24.5`` → ``24½``, ``11`` → ``11``."""
    whole, rest = divmod(value, 1)
    if rest == Decimal("0.5"):
        return f"{int(whole)}½" if whole else "½"
    return f"{value.normalize():f}"


def team_standings_html(title: str, rows: Sequence[TeamStanding]) -> str:
    """Rank, team, matches played, won/drawn/lost, match points, game points, tie-breaks."""
    codes = [c for c in (rows[0].tiebreaks if rows else {}) if c != "GP"]
    head = ["Rank", "No", "Team", "M", "+", "=", "-", "MP", "GP", *codes]
    body = [
        [
            str(r.rank),
            str(r.number),
            r.name,
            str(r.played),
            str(r.won),
            str(r.drawn),
            str(r.lost),
            _num(r.match_points),
            _num(r.game_points),
            *(_num(r.tiebreaks[c]) for c in codes),
        ]
        for r in rows
    ]
    return page(title, head, body, name_col=2)
