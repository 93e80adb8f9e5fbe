"""What the public pages and their JSON twins show of a tournament, computed once for both:
a player's card, the tournament page (rendered once per version and round, also by the server's
warmers)."""

from __future__ import annotations

from typing import Any

from fastapi import HTTPException
from fastapi.templating import Jinja2Templates

from decide.state import Pairing, TournamentState
from events.domain import ByeKind, Game
from pipelines.views import teams as team_views
from pipelines.views.tournament import not_paired_view
from pipelines.web.hub import TournamentView
from projections.crosstable import format_value, own_result
from projections.game_terms import board_result, komi_text

__all__ = [
    "default_page",
    "finished",
    "player_card",
    "public_page",
    "team_crosstable_rows",
    "tournament_context",
]


_GO_WORDS = {"1": "won", "+": "won", "0": "lost", "-": "lost", "½": "jigo"}


def _own_text(state: TournamentState, g: Pairing, code: str | None) -> str:
    """A game's result from the player's side as the card prints it: chess ``1``, ``½``,
    ``0``, ``+``, ``−``; go ``won B+R`` / ``lost B+R`` with the code as typed; empty while
    the game has no result."""
    symbol = own_result(g, state)
    if symbol == "*":
        return ""
    if state.game is Game.GO:
        word = _GO_WORDS.get(symbol, symbol)
        return word if not code or code == word else f"{word} {code}"
    return "−" if symbol == "-" else symbol


def _no_game_text(state: TournamentState, g: Pairing, why: str) -> str:
    """A round without a game: ``½ bye``, ``1 bye``, ``0 bye`` for a bye (requested or the
    pairing's), the points alone for an absence or a withdrawal."""
    symbol = own_result(g, state)
    if g.bye is ByeKind.PAIRING or why.endswith("bye"):
        return f"{symbol} bye"
    return "" if symbol == "*" else symbol


def _why_not_paired(state: TournamentState, player_id: int, round_no: int) -> str:
    if round_no not in state.rounds:
        return "absent"
    if player_id in state.rounds[round_no].by_player:
        return "pairing bye"
    rows = not_paired_view(state, round_no)
    return next((r["why"] for r in rows if r["player"]["id"] == player_id), "absent")


def _opponent(state: TournamentState, pid: int, ranks: dict[int, int]) -> dict[str, Any]:
    o = state.players[pid]
    return {
        "id": o.id,
        "name": o.name,
        "rating": o.rating,
        "start_rank": ranks.get(pid),
        "title": o.title,
        "rank": o.rank,
    }


def player_card(view: TournamentView, player_id: int) -> dict[str, Any]:
    """A player's registration, place, points and games (the card's JSON and page data).

    Each game carries ``result`` (the board's, White's side first, as before) and ``own``:
    the result from this player's side (see `_own_text`); a round without a game carries
    ``note`` (why: ``half-point bye``, ``absent``, ...) and ``own`` (``½ bye``).
    """
    state = view.state
    p = state.players.get(player_id)
    if p is None:
        raise HTTPException(404, f"{state.id}: no player {player_id}")
    rows = [] if view.is_team else view.standings()
    row = next((r for r in rows if r.player == player_id), None)
    ranks = state.start_ranks()
    games = []
    for g in state.pairings(player_id):
        board = state.rounds[g.round].board(g.board) if g.board is not None else None
        entry: dict[str, Any] = {
            "round": g.round,
            "board": g.board,
            "colour": g.colour.value if g.colour else None,
            "opponent": None if g.opponent is None else _opponent(state, g.opponent, ranks),
            "result": g.outcome.value if g.outcome else (g.bye.value if g.bye else None),
            "points": g.points,
        }
        if g.opponent is None:
            entry["note"] = _why_not_paired(state, player_id, g.round)
            entry["own"] = _no_game_text(state, g, entry["note"])
        else:
            code = board_result(state.game, board) if board is not None else None
            entry["code"] = code
            entry["own"] = _own_text(state, g, code)
            if state.game is Game.GO and board is not None:
                entry["handicap"] = board.handicap
                entry["komi"] = board.komi
        games.append(entry)
    card: dict[str, Any] = {
        "id": p.id,
        "name": p.name,
        "rating": p.rating,
        "rank_grade": p.rank,
        "start_rank": ranks.get(player_id),
        "federation": p.federation,
        "title": p.title,
        "club": p.club,
        "withdrawn_from": p.withdrawn_from,
        "rank": row.rank if row else None,
        "points": row.points if row else 0.0,
        "tiebreaks": row.tiebreaks if row else {},
        "games": games,
    }
    if view.is_team:  # the teams have the places; a player his points and his team
        number = view.teams().team_of(player_id)
        team = view.teams().teams.get(number) if number is not None else None
        card["points"] = state.points(player_id, through_round=view.as_of().after)
        card["team"] = None if team is None else {"number": team.number, "name": team.name}
    return card


def finished(state: TournamentState) -> bool:
    """Every round paired and complete: no round to come, none in play."""
    total = state.total_rounds
    return total > 0 and state.last_round == total and state.complete_round == total


def tournament_context(
    view: TournamentView, shown: int, standings_first: bool = False
) -> dict[str, Any]:
    """The tournament page's data: round `shown` (its boards and the players it does not
    pair), or with `standings_first` (a finished event's default page) the standings on top
    and the rounds one click away."""
    state = view.state
    if view.is_team:
        return _team_context(view, shown, standings_first)
    return {
        "view": view,
        "s": view.summary(),
        "round_no": 0 if standings_first else shown,
        "finished": finished(state),
        "boards": view.pairings(shown) if shown and not standings_first else [],
        "not_paired": not_paired_view(state, shown)
        if shown in state.rounds and not standings_first
        else [],
        "rows": view.standings(),
        "grades": {r.player: r.grade for r in view.crosstable().rows},
        "codes": list(state.tiebreaks),
        "fmt": format_value,
        "komi": komi_text,
        "numbers": state.start_ranks(),
    }


def _team_context(view: TournamentView, shown: int, standings_first: bool) -> dict[str, Any]:
    """`tournament_context` of a team event: the teams' standings (the command line's chain)
    and round `shown`'s matches with their game points, the PAB team, then its boards."""
    state = view.state
    tables = view.team_tables()
    teams = view.teams()
    with_round = bool(shown) and not standings_first and shown in teams.rounds
    rows = team_views.team_standings_view(tables.ranked)
    return {
        "view": view,
        "s": view.summary(),
        "team": True,
        "teams": len(teams.teams),
        "round_no": 0 if standings_first else shown,
        "finished": finished(state),
        "matches": view.matches(shown) if with_round else [],
        "scores": {k: float(v) for k, v in team_views.match_scores(tables, shown).items()},
        "boards": view.pairings(shown) if with_round else [],
        "not_paired": [],
        "team_rows": rows,
        "codes": [c for c in (rows[0]["tiebreaks"] if rows else {}) if c not in ("MP", "GP")],
        "fmt": format_value,
        "komi": komi_text,
        "numbers": state.start_ranks(),
    }


def team_crosstable_rows(view: TournamentView) -> list[list[str]]:
    """The crosstable page of a team event: header, then a row per team in standings order
    (rank, number, team, match and game points, then per round the opponent, board 1's colour
    and the game points, as ``arbiter crosstable T`` prints them)."""
    cells = team_views.team_crosstable_cells(team_views.team_crosstable_view(view.team_tables()))
    rounds = [k for k in (cells[0] if cells else {}) if k[0] == "r" and k[1:].isdigit()]
    keys = ["rank", "no", "team", "MP", "GP", *rounds]
    head = ["Rank", "No", "Team", "MP", "GP", *(k.upper() for k in rounds)]
    return [head, *([str(row[k]) for k in keys] for row in cells)]


def public_page(
    templates: Jinja2Templates, view: TournamentView, shown: int, standings_first: bool = False
) -> bytes:
    """The anonymous tournament page of one version and round, rendered once."""
    page: bytes = view._cached(
        ("page", shown, standings_first),
        lambda: (
            templates.get_template("tournament.html")
            .render({"viewer": None, **tournament_context(view, shown, standings_first)})
            .encode()
        ),
    )
    return page


def default_page(templates: Jinja2Templates, view: TournamentView) -> bytes:
    """`/t/{id}` without a round: the round in play, or a finished event's standings."""
    return public_page(templates, view, view.state.last_round, finished(view.state))
