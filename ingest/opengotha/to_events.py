"""OpenGotha tournament XML → the events of a go tournament.

Players are numbered in file order; games become boards in table order, OpenGotha byes the
round's pairing-allocated bye. What the event catalogue has no place for (pairing and
placement parameters, a player's participation mask and rating origin, a game's table
number and ``knownColor``) stays in the metadata, under ``opengotha`` on the created event and
on each registration and ``og_games`` on each round, so the OpenGotha export loses nothing.
Teams also become team events (`ingest.opengotha.teams`).
"""

from __future__ import annotations

from datetime import date

from events.domain import Board, ByeKind, Game, System
from events.go import format_rank
from events.params import GoSettings, PairingParams, TeamSettings
from events.schema import (
    ByeGranted,
    PlayerRegistered,
    ResultRecorded,
    RoundPaired,
    TournamentCreated,
)
from events.scoring import Scoring
from ingest.conversion import Conversion, join_name
from ingest.opengotha.records import (
    GoResult,
    OGGame,
    OGPlayer,
    OGTournament,
    rating_from_rank,
)
from ingest.opengotha.teams import team_events, team_settings

__all__ = ["opengotha_to_events"]


def _date(text: str | None) -> date | None:
    try:
        return date.fromisoformat(text) if text else None
    except ValueError:
        return None


def _float(text: str | None) -> float | None:
    try:
        return float(text) if text else None
    except ValueError:
        return None


def opengotha_to_events(t: OGTournament) -> Conversion:
    """The stream of a parsed OpenGotha tournament: created, players, absences, rounds."""
    created = _created(t)
    conversion = Conversion(
        [created],
        {
            0: {
                "opengotha": t.model_dump(
                    mode="json", exclude={"players", "games", "byes"}, exclude_defaults=True
                )
            }
        },
    )
    number = _register(t, conversion)
    conversion.events.extend(_absences(t, number, created.rounds))
    komi = _float(_general(t).get("komi"))
    conversion.games = _rounds(t, number, komi, conversion)
    conversion.events.extend(team_events(t, number, created.rounds))
    return conversion


def _general(t: OGTournament) -> dict[str, str]:
    """The general parameters OpenGotha keeps as plain attributes (name, dates, komi)."""
    return dict(t.general.other) if t.general is not None else {}


def _created(t: OGTournament) -> TournamentCreated:
    other = _general(t)
    last_game_round = max([g.round for g in t.games] + [b.round for b in t.byes], default=1)
    rounds = t.general.number_of_rounds if t.general is not None else last_game_round
    return TournamentCreated(
        tournament_id="opengotha",
        name=(other.get("name") or other.get("shortName") or "OpenGotha").strip() or "OpenGotha",
        game=Game.GO,
        system=System.IMPORTED,
        rounds=max(rounds, last_game_round, 1),
        scoring=Scoring.for_game_kind(Game.GO),
        pairing_params=PairingParams(
            go=GoSettings(komi=_float(other.get("komi"))), team=team_settings(t) or TeamSettings()
        ),
        start_date=_date(other.get("beginDate")),
        end_date=_date(other.get("endDate")),
        city=(other.get("location") or "").strip() or None,
        chief_arbiter=(other.get("director") or "").strip() or None,
    )


def _rating(p: OGPlayer) -> int | None:
    """The player's rating; none where OpenGotha only derived it from his rank (``INI``)."""
    if p.rating <= 0 or (p.rating_origin == "INI" and p.rating == rating_from_rank(p.rank)):
        return None
    return p.rating


def _register(t: OGTournament, conversion: Conversion) -> dict[str, int]:
    """Register the players in file order; their numbers by OpenGotha key."""
    number: dict[str, int] = {}
    for p in t.players:
        number[p.key] = len(number) + 1
        ids = {
            k: v
            for k, v in (("egd_pin", p.egf_pin), ("ffg", p.ffg_licence), ("aga", p.aga_id))
            if v
        }
        conversion.metadata[len(conversion.events)] = {
            "opengotha": p.model_dump(
                mode="json",
                exclude={"name", "first_name", "rank", "club", "country"},
                exclude_defaults=True,
            )
        }
        conversion.events.append(
            PlayerRegistered(
                player=number[p.key],
                name=join_name(p.name, p.first_name),
                rank=format_rank(p.rank),
                rating=_rating(p),
                federation=p.country or None,
                club=p.club or None,
                ids=ids,
                pairing_number=number[p.key],
            )
        )
    return number


def _absences(t: OGTournament, number: dict[str, int], rounds: int) -> list[ByeGranted]:
    """A player marked as not participating in a round is absent from it.

    OpenGotha counts the absence with its own NBW/MMS values; recorded as a requested bye so
    that a re-pair after an undo leaves him out too.
    """
    seated = {(g.round, g.white) for g in t.games} | {(g.round, g.black) for g in t.games}
    seated |= {(b.round, b.player) for b in t.byes}
    return [
        ByeGranted(player=number[p.key], round=r, kind=ByeKind.HALF)
        for p in t.players
        for r in range(1, rounds + 1)
        if not p.plays_in(r) and (r, p.key) not in seated
    ]


def _rounds(
    t: OGTournament, number: dict[str, int], komi: float | None, conversion: Conversion
) -> int:
    """Append each round's pairing (by table, byes last) and results; the number of games."""
    by_round: dict[int, list[OGGame]] = {}
    for g in t.games:
        by_round.setdefault(g.round, []).append(g)
    byes: dict[int, list[str]] = {}
    for b in t.byes:
        byes.setdefault(b.round, []).append(b.player)
    games = 0
    events = conversion.events
    for round_no in sorted(set(by_round) | set(byes)):
        played = sorted(by_round.get(round_no, []), key=lambda g: g.table)
        boards = [
            Board(
                board=i,
                white=number[g.white],
                black=number[g.black],
                handicap=g.handicap,
                komi=GoSettings(komi=komi).komi_for(g.handicap),
            )
            for i, g in enumerate(played, start=1)
        ]
        boards.extend(
            Board(board=len(played) + i, white=number[key])
            for i, key in enumerate(byes.get(round_no, []), start=1)
        )
        conversion.metadata[len(events)] = {
            "og_games": [[g.table, g.known_color, g.by_default] for g in played]
        }
        events.append(RoundPaired(round=round_no, boards=tuple(boards)))
        games += len(played)
        events.extend(
            ResultRecorded(round=round_no, board=i, outcome=g.result.outcome(g.by_default))
            for i, g in enumerate(played, start=1)
            if g.result is not GoResult.UNKNOWN
        )
    return games
