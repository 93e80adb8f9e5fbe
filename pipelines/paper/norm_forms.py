"""FIDE's norm forms as printed documents: IT1, the certificate of one player's title norm,
and IT3, the tournament report of the norms made. Their figures are the norm report's
(`projections.norms`); this module only lays them out for `pipelines.paper.pdf`/`html`, with
blank lines where the arbiters sign."""

from __future__ import annotations

from decide.state import TournamentState
from events.errors import UserError
from pipelines.paper.documents import Doc, Document, Table, details_of
from projections.crosstable import format_value
from projections.norms import PlayerNorms

__all__ = ["certificate", "report"]


def _pts(value: float) -> str:
    return format_value(value) or "0"


def _facts(state: TournamentState) -> Table:
    s = state.settings
    rows = (
        ("Event", s.name),
        ("Place", s.city or ""),
        ("Dates", " – ".join(d.isoformat() for d in (s.start_date, s.end_date) if d)),
        ("Organising federation", s.federation or ""),
        ("System", s.system.value),
        ("Rounds", str(state.total_rounds)),
        ("Players", str(len(state.players))),
        ("Chief arbiter", s.chief_arbiter or ""),
    )
    return Table("The event", ("", ""), rows, "ll")


def _signatures(*who: str) -> Table:
    line = "_" * 28
    return Table(
        "Signatures",
        ("", "Name", "Signature", "Date"),
        tuple((w, line, line, "_" * 12) for w in who),
        "llll",
    )


def _result(points: float) -> str:
    return {1.0: "1", 0.5: "½", 0.0: "0"}.get(points, _pts(points))


def certificate(state: TournamentState, norms: PlayerNorms, title: str | None) -> Document:
    """IT1 for ``norms``'s player: the norm of ``title`` (default: the highest made), the games
    it counts (the subset's rounds), Ra, points, Rp."""
    a = norms.applicant
    if not norms.made:
        raise UserError(f"{state.id}: player {a.id} ({a.name}) made no title norm")
    chosen = title.upper() if title else next(iter(norms.made))
    result = norms.made.get(chosen)
    if result is None:
        made = ", ".join(norms.made)
        raise UserError(
            f"{state.id}: player {a.id} ({a.name}) made no {chosen} norm (made: {made})"
        )
    c = result.check
    p = state.players[a.id]
    applicant = Table(
        "The applicant",
        ("", ""),
        (
            ("Name", a.name),
            ("FIDE id", p.fide_id or ""),
            ("Federation", a.federation or ""),
            ("Title held", a.title or "none"),
            ("Birth", p.birth or ""),
            ("Norm", f"{chosen} (FIDE B.01 1.4)"),
        ),
        "ll",
    )
    counted = set(c.rounds_counted)
    games = Table(
        "Games counted",
        ("Round", "Opponent", "Title", "Fed", "Rating", "Result"),
        tuple(
            (
                str(g.round),
                state.players[g.opponent.id].name,
                g.opponent.title or "",
                g.opponent.federation or "",
                "" if g.opponent.rating is None else str(g.opponent.rating),
                _result(g.points),
            )
            for g in a.games
            if g.round in counted
        ),
        "rllllr",
    )
    dropped = ", ".join(map(str, result.dropped)) or "none"
    figures = Table(
        "The norm",
        ("", ""),
        (
            ("Games counted", str(c.games)),
            ("Rounds left out (1.4.1e/f)", dropped),
            ("Points", _pts(c.points)),
            ("Opponents with a title (1.4.5)", str(c.titled)),
            (f"Opponents {chosen} or higher", str(c.qualifying)),
            ("Federations of the opponents", str(len(c.federations))),
            ("Average rating of the opponents, Ra (1.4.7)", str(c.ra)),
            ("Score", f"{c.percent} %"),
            ("Performance, Rp = Ra + dp (1.4.9)", f"{c.rp} (dp {c.dp})"),
        ),
        "ll",
    )
    return Document(
        Doc.NORM_CERTIFICATE,
        f"IT1 Certificate of title norm: {chosen}, {a.name}",
        state.settings.name,
        details_of(state),
        tables=(
            applicant,
            _facts(state),
            figures,
            games,
            _signatures("Chief arbiter", "Organiser"),
        ),
    )


def report(state: TournamentState, norms: list[PlayerNorms]) -> Document:
    """IT3: the event and every norm made (player, title, games, points, Ra, Rp, rounds left
    out)."""
    titled = sum(1 for p in state.players.values() if p.title)
    feds = len({p.federation for p in state.players.values() if p.federation})
    made = tuple(
        (
            n.applicant.name,
            n.applicant.federation or "",
            title,
            str(r.check.games),
            _pts(r.check.points),
            str(r.check.ra),
            str(r.check.rp),
            ", ".join(map(str, r.dropped)) or "",
        )
        for n in norms
        for title, r in n.made.items()
    )
    field = Table(
        "The field",
        ("", ""),
        (
            ("Players", str(len(state.players))),
            ("Titled players", str(titled)),
            ("Federations", str(feds)),
            ("Rated players", str(sum(1 for p in state.players.values() if p.rating))),
        ),
        "ll",
    )
    norms_made = Table(
        "Norms made" if made else "Norms made: none",
        ("Player", "Fed", "Norm", "Games", "Pts", "Ra", "Rp", "Rounds left out"),
        made,
        "llcrrrrl",
    )
    return Document(
        Doc.NORM_REPORT,
        "IT3 Tournament report (title norms)",
        state.settings.name,
        details_of(state),
        tables=(_facts(state), field, norms_made, _signatures("Chief arbiter", "Organiser")),
    )
