"""A go tournament stream → an OpenGotha tournament (records for the OpenGotha writer).

Players, games and byes come from the log; parameter sets, teams and per-player details that
only OpenGotha keeps come back from the import's ``opengotha`` metadata, with OpenGotha's
defaults for a tournament run in arbiter.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from events.domain import Outcome
from events.go_ranks import parse_rank
from events.store import RecordedEvent
from ingest.events_common import split_name
from ingest.opengotha import GameResult, OGBye, OGGame, OGPlayer, OGTournament, player_key
from projections.exports.from_log.common import view_of

__all__ = ["opengotha_from_log"]

_RESULTS: dict[Outcome, GameResult] = {
    Outcome.WHITE_WINS: GameResult.WHITE_WINS,
    Outcome.WHITE_WINS_FORFEIT: GameResult.WHITE_WINS,
    Outcome.BLACK_WINS: GameResult.BLACK_WINS,
    Outcome.BLACK_WINS_FORFEIT: GameResult.BLACK_WINS,
    Outcome.DRAW: GameResult.EQUAL,
    Outcome.BOTH_WIN: GameResult.BOTH_WIN,
    Outcome.BOTH_LOSE: GameResult.BOTH_LOSE,
    Outcome.DOUBLE_FORFEIT: GameResult.BOTH_LOSE,
    Outcome.UNKNOWN: GameResult.UNKNOWN,
}


def opengotha_from_log(events: Sequence[RecordedEvent]) -> OGTournament:
    view = view_of(events)
    state = view.state
    keys: dict[int, str] = {}
    players: list[OGPlayer] = []
    for p in view.players():
        extra: dict[str, Any] = dict(view.player_meta.get(p.id, {}).get("opengotha", {}))
        surname, first_name = split_name(p.name)
        extra.setdefault("key", player_key(surname, first_name))
        extra.setdefault("egf_pin", p.ids.get("egd_pin", ""))
        extra.setdefault("ffg_licence", p.ids.get("ffg", ""))
        extra.setdefault("aga_id", p.ids.get("aga", ""))
        if p.rating is not None:
            extra.setdefault("rating", p.rating)
        rank = parse_rank(p.rank) if p.rank else -20
        players.append(
            OGPlayer.model_validate(
                {
                    **extra,
                    "name": surname,
                    "first_name": first_name,
                    "rank": rank,
                    "club": p.club or "",
                    "country": p.federation or "",
                }
            )
        )
        keys[p.id] = players[-1].key
    games: list[OGGame] = []
    byes: list[OGBye] = []
    for r in sorted(state.rounds):
        stated = view.round_meta.get(r, {}).get("og_games") or []
        for index, b in enumerate(state.rounds[r].boards):
            if b.black is None:
                byes.append(OGBye(round=r, player=keys[b.white]))
                continue
            table, known, by_default = (
                stated[index] if index < len(stated) else (index, True, False)
            )
            outcome = b.outcome or Outcome.UNKNOWN
            games.append(
                OGGame(
                    round=r,
                    table=table,
                    white=keys[b.white],
                    black=keys[b.black],
                    known_color=known,
                    handicap=b.handicap,
                    result=_RESULTS[outcome],
                    by_default=bool(by_default) or outcome.is_forfeit,
                )
            )
    return OGTournament.model_validate(
        {
            **view.created_meta.get("opengotha", {}),
            "players": players,
            "games": games,
            "byes": byes,
        }
    )
