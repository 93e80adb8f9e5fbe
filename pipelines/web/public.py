"""Public pages (no login): the federation's home, a tournament, its crosstable, a player's
card, the published rating lists; and the server-sent events that keep open pages live."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import AsyncIterator
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import FileResponse, HTMLResponse, Response, StreamingResponse

from events.domain import Game
from events.text import excerpt, text_problem
from pipelines.web.hub import ListEntry, TournamentView
from pipelines.web.pages import (
    finished,
    player_card,
    public_page,
    team_crosstable_rows,
    tournament_context,
)
from pipelines.web.server import server_of, tournament_view
from projections.crosstable import as_rows, format_value
from projections.game_terms import komi_text
from projections.html import points_after_name

router = APIRouter(include_in_schema=False)


def _page(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    server = server_of(request)
    viewer = server.viewer(request)
    return server.templates.TemplateResponse(
        request,
        template,
        {"viewer": viewer, "fmt": format_value, "komi": komi_text, **context},
        status_code=status,
    )


@router.get("/", response_class=HTMLResponse)
async def home(request: Request) -> HTMLResponse:
    hub = server_of(request).hub
    by_game: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for view in hub.views.values():
        s = view.summary()
        by_game[s["game"]].append(s)
    games = {
        g: sorted(rows, key=lambda r: (r["start_date"], r["id"]), reverse=True)
        for g, rows in sorted(by_game.items())
    }
    lists = sorted(hub.lists, key=lambda e: (e.as_of, e.position), reverse=True)
    return _page(request, "home.html", games=games, lists=lists)


def _round_of(view: TournamentView, requested: int | None) -> int:
    last = view.state.last_round
    if requested is None:
        return last
    if requested not in view.state.rounds:
        raise HTTPException(404, f"{view.id}: round {requested} is not paired")
    return requested


@router.get("/t/{tournament_id}", response_class=HTMLResponse)
async def tournament(request: Request, tournament_id: str, round: int | None = None) -> Response:
    view = tournament_view(request, tournament_id)
    shown = _round_of(view, round)
    standings_first = round is None and finished(view.state)
    server = server_of(request)
    if server.viewer(request) is None:
        return HTMLResponse(public_page(server.templates, view, shown, standings_first))
    return _page(request, "tournament.html", **tournament_context(view, shown, standings_first))


@router.get("/t/{tournament_id}/crosstable", response_class=HTMLResponse)
async def crosstable(request: Request, tournament_id: str) -> HTMLResponse:
    view = tournament_view(request, tournament_id)
    if view.is_team:
        head, *rows = team_crosstable_rows(view)
    else:
        head, *rows = points_after_name(as_rows(view.crosstable(), titles=True))
    return _page(request, "crosstable.html", view=view, s=view.summary(), head=head, rows=rows)


@router.get("/t/{tournament_id}/players/{number}", response_class=HTMLResponse)
async def player(request: Request, tournament_id: str, number: int) -> HTMLResponse:
    """The card of the player whose pairing number (start rank) is ``number``: the number
    every page shows him by (the API's paths keep the stable id)."""
    view = tournament_view(request, tournament_id)
    numbers = view.state.start_ranks()
    player_id = next((pid for pid, rank in numbers.items() if rank == number), None)
    if player_id is None:
        raise HTTPException(404, f"{tournament_id}: no player has pairing number {number}")
    card = player_card(view, player_id)
    change = None
    found = None
    if view.state.game in (Game.CHESS, Game.GO):
        from pipelines.commands.base import CommandError
        from pipelines.views.rating_change import event_change  # polars: on demand

        try:
            with server_of(request).access.open() as store:
                found = event_change(store, view.state)
        except CommandError:  # a go player with neither GoR nor rank: the card goes without
            found = None
    if found is not None:
        change = {
            "system": found.system,
            "source": found.source,
            **found.players.get(player_id, {}),
            "rated_games": found.games.get(player_id, []),
        }
    return _page(
        request, "player.html", view=view, s=view.summary(), card=card, change=change,
        numbers=numbers,
    )  # fmt: skip


@router.get("/t/{tournament_id}/live")
async def live(request: Request, tournament_id: str) -> StreamingResponse:
    """Server-sent events: the tournament's stream version, sent again whenever it changes."""
    tournament_view(request, tournament_id)
    server = server_of(request)

    async def versions() -> AsyncIterator[str]:
        sent: int | None = None
        yield "retry: 1000\n\n"
        while not await request.is_disconnected():
            view = server.hub.view(tournament_id)
            version = view.version if view is not None else -1
            if version != sent:
                sent = version
                yield f"data: {version}\n\n"
            else:
                yield ": idle\n\n"
            await server.notifier.wait(10.0)

    return StreamingResponse(
        versions(),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


# ------------------------------------------------------------------ rating lists


def _entry(request: Request, name: str, as_of: str | None) -> ListEntry:
    entries = [e for e in server_of(request).hub.lists if e.name == name]
    if as_of is not None:
        entries = [e for e in entries if e.as_of.isoformat() == as_of]
    if not entries:
        raise HTTPException(404, f"no published rating list '{name}' {as_of or ''}".strip())
    return max(entries, key=lambda e: e.position)


@router.get("/ratings/{name}", response_class=HTMLResponse)
async def rating_list(request: Request, name: str) -> Response:
    entry = _entry(request, name, None)
    return _list_file(request, entry, "index.html")


@router.get("/ratings/{name}/{as_of}/{file_name}")
async def rating_list_file(request: Request, name: str, as_of: str, file_name: str) -> Response:
    return _list_file(request, _entry(request, name, as_of), file_name)


def _framed(request: Request, page: str, base: str) -> str:
    """A list's page (written by the run, self-contained) in the site's frame: the `<base>`
    of its own files, the site's header (a way back to `/`) on top."""
    server = server_of(request)
    context = {"viewer": server.viewer(request)}
    style = server.templates.get_template("_top_style.html").render(context)
    header = server.templates.get_template("_top.html").render(context)
    page = page.replace("<head>", f"<head>{base}<style>{style}</style>", 1)
    return page.replace("<body>", "<body>" + header, 1)


def _list_file(request: Request, entry: ListEntry, file_name: str) -> Response:
    """A file the run wrote (the page, a chart, diff.csv), from the list's own folder only."""
    folder = Path(entry.output).resolve()
    missing = HTTPException(404, f"no file {excerpt(file_name)} in list {entry.name} {entry.as_of}")
    if text_problem(file_name) is not None:  # a NUL (a%00b) made resolve() raise: 500
        raise missing
    path = (folder / file_name).resolve()
    if (folder not in path.parents and path != folder) or not path.is_file():
        raise missing
    if file_name == "index.html":
        text = path.read_text(encoding="utf-8")
        href = escape(f"/ratings/{quote(entry.name)}/{entry.as_of.isoformat()}/", quote=True)
        return HTMLResponse(_framed(request, text, f'<base href="{href}">'))
    return FileResponse(path)
