"""The norms report as rows (JSON, text) and as an HTML page."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

from decide.state import TournamentState
from projections import html
from projections.norms import Check, NormResult, PlayerNorms
from projections.norms.from_state import Ratings, norm_ratings
from projections.norms.rules import UNRATED
from ratings.fide_tables import dp_for_percent

__all__ = ["norms_html", "norms_rows", "norms_text_rows", "norms_title"]


def norms_title(state: TournamentState) -> str:
    return f"{state.settings.name}: title norms (FIDE B.01 1.4)"


def _check(c: Check) -> dict[str, Any]:
    return {
        "games": c.games,
        "points": c.points,
        "rounds": list(c.rounds_counted),
        "titled": c.titled,
        "qualifying": c.qualifying,
        "federations": c.federations,
        "ra": c.ra,
        "raised": c.raised,
        "percent": c.percent,
        "dp": c.dp,
        "rp": c.rp,
        "failures": list(c.failures),
    }


def _made(title: str, r: NormResult) -> dict[str, Any]:
    return {"title": title, "dropped": list(r.dropped), **_check(r.check)}


def _whole(p: PlayerNorms) -> dict[str, Any]:
    """The opponents of every game played: titles, federations, plain average (unrated 1400,
    no floor) and the performance over it."""
    games = p.applicant.games
    titles = Counter(g.opponent.title for g in games if g.opponent.title)
    feds = Counter(g.opponent.federation for g in games if g.opponent.federation)
    n = len(games)
    if n == 0:
        return {
            "games": 0,
            "points": 0.0,
            "titles": {},
            "federations": {},
            "average": None,
            "rp": None,
        }
    points = sum((Fraction(g.points) for g in games), Fraction(0))
    total = sum(UNRATED if g.opponent.rating is None else g.opponent.rating for g in games)
    average = int(Fraction(total, n) + Fraction(1, 2))
    percent = int(points * 100 / n + Fraction(1, 2))
    return {
        "games": n,
        "points": float(points),
        "titles": dict(titles.most_common()),
        "federations": dict(feds.most_common()),
        "average": average,
        "rp": average + dp_for_percent(percent),
    }


def norms_rows(
    state: TournamentState, report: list[PlayerNorms], in_force: Ratings | None = None
) -> list[dict[str, Any]]:
    """One object per player: ``player``, his title and federation, the opponents, ``norms``
    (the titles made), ``made`` (each with its rounds dropped) and ``checks`` (each title
    sought over the whole event, with what fails)."""
    ratings = norm_ratings(state, in_force)
    rows: list[dict[str, Any]] = []
    for p in report:
        a = p.applicant
        whole = _whole(p)
        rows.append(
            {
                "player": {"id": a.id, "name": a.name},
                "title": a.title,
                "federation": a.federation,
                "rating": ratings[a.id],
                "games": whole["games"],
                "points": whole["points"],
                "opponents": {
                    "titles": whole["titles"],
                    "federations": whole["federations"],
                    "average": whole["average"],
                },
                "rp": whole["rp"],
                "norms": list(p.made),
                "made": [_made(t, r) for t, r in p.made.items()],
                "checks": {t: _check(c) for t, c in p.event.items()},
            }
        )
    return rows


def _subset(r: dict[str, Any]) -> str:
    return "; ".join(
        f"{m['title']}: "
        + (
            "whole event"
            if not m["dropped"]
            else "without round " + ",".join(map(str, m["dropped"]))
        )
        + f" (Ra {m['ra']}, Rp {m['rp']})"
        for m in r["made"]
    )


def norms_text_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The text table: one line per player."""
    return [
        {
            "player": r["player"],
            "title": r["title"] or "",
            "fed": r["federation"] or "",
            "rating": r["rating"],
            "games": r["games"],
            "points": r["points"],
            "titled": sum(
                r["opponents"]["titles"].get(t, 0) for t in ("GM", "IM", "WGM", "WIM", "FM", "WFM")
            ),
            "feds": len(r["opponents"]["federations"]),
            "average": r["opponents"]["average"],
            "rp": r["rp"],
            "norms": ",".join(r["norms"]),
            "counted": _subset(r),
        }
        for r in rows
    ]


def norms_html(state: TournamentState, rows: list[dict[str, Any]]) -> str:
    head = [
        "Name",
        "Title",
        "Fed",
        "Rtg",
        "Games",
        "Pts",
        "Titled",
        "Feds",
        "Ra",
        "Rp",
        "Norms",
        "Counted",
    ]
    body = [
        [
            r["player"]["name"], str(r["title"]), str(r["fed"]), str(r["rating"] or ""),
            str(r["games"]), f"{r['points']:g}", str(r["titled"]), str(r["feds"]),
            str(r["average"] or ""), str(r["rp"] or ""), r["norms"], r["counted"],
        ]
        for r in norms_text_rows(rows)
    ]  # fmt: skip
    return html.page(norms_title(state), head, body, name_col=0)
