"""What the public pages and their JSON twins show of a tournament, computed once for both:
a player's card, the tournament page (rendered once per version and round, also by the server's
warmers)."""

from __future__ import annotations

from typing import Any

from fastapi import HTTPException
from fastapi.templating import Jinja2Templates

from pipelines.web.hub import TournamentView
from projections.crosstable import format_value
from projections.game_terms import komi_text

__all__ = ["player_card", "public_page", "tournament_context"]


def player_card(view: TournamentView, player_id: int) -> dict[str, Any]:
    """A player's registration, place, points and games (the card's JSON and page data)."""
    state = view.state
    p = state.players.get(player_id)
    if p is None:
        raise HTTPException(404, f"{state.id}: no player {player_id}")
    row = next((r for r in view.standings() if r.player == player_id), None)
    games = []
    for g in state.pairings(player_id):
        opponent = state.players.get(g.opponent) if g.opponent is not None else None
        games.append(
            {
                "round": g.round,
                "board": g.board,
                "colour": g.colour.value if g.colour else None,
                "opponent": None
                if opponent is None
                else {"id": opponent.id, "name": opponent.name, "rating": opponent.rating},
                "result": g.outcome.value if g.outcome else (g.bye.value if g.bye else None),
                "points": g.points,
            }
        )
    return {
        "id": p.id,
        "name": p.name,
        "rating": p.rating,
        "federation": p.federation,
        "title": p.title,
        "club": p.club,
        "rank": row.rank if row else None,
        "points": row.points if row else 0.0,
        "tiebreaks": row.tiebreaks if row else {},
        "games": games,
    }


def tournament_context(view: TournamentView, shown: int) -> dict[str, Any]:
    return {
        "view": view,
        "s": view.summary(),
        "round_no": shown,
        "boards": view.pairings(shown) if shown else [],
        "rows": view.standings(),
        "codes": list(view.state.tiebreaks),
        "fmt": format_value,
        "komi": komi_text,
    }


def public_page(templates: Jinja2Templates, view: TournamentView, shown: int) -> bytes:
    """The anonymous tournament page of one version and round, rendered once."""
    page: bytes = view._cached(
        ("page", shown),
        lambda: (
            templates.get_template("tournament.html")
            .render({"viewer": None, **tournament_context(view, shown)})
            .encode()
        ),
    )
    return page
