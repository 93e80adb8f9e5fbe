"""Team standings as an HTML page, in the style of the individual pages (`projections.html`)."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from events.team_results import TeamEntry
from projections.html import page
from projections.team_standings import TeamStanding
from projections.teams import BoardPrizeRow

__all__ = ["board_prizes_html", "team_crosstable_html", "team_standings_html"]


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


def team_crosstable_html(
    title: str, rows: Sequence[TeamStanding], entries: dict[int, TeamEntry]
) -> str:
    """Crosstable by teams: per round the opponent's number, board 1's colour and the game
    points (``PAB``/bye letters without an opponent), then match and game points."""
    rounds = max((len(e.history) for e in entries.values()), default=0)
    head = ["Rank", "No", "Team", *(str(k) for k in range(1, rounds + 1)), "MP", "GP"]
    body = []
    for r in rows:
        cells = []
        for h in entries[r.number].history:
            if h.opponent is None:
                cells.append(f"{h.kind.value} {_num(h.game_points)}")
            else:
                cells.append(f"{h.opponent}{h.colour.value} {_num(h.game_points)}")
        body.append(
            [str(r.rank), str(r.number), r.name, *cells, _num(r.match_points), _num(r.game_points)]
        )
    return page(title, head, body, name_col=2)


def board_prizes_html(title: str, rows: Sequence[BoardPrizeRow]) -> str:
    """Board prizes: per board, each player's games, points and percentage, best first."""
    head = ["Board", "Name", "Team", "Games", "Pts", "%"]
    body = [
        [
            str(r.board),
            r.name,
            r.team,
            str(r.games),
            _num(Decimal(str(r.points))),
            f"{r.percentage:.1f}",
        ]
        for r in rows
    ]
    return page(f"{title}: board prizes", head, body, name_col=1)
