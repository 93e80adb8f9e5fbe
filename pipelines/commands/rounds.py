"""Rounds: the services that pair the next round (by the tournament's system or by hand),
swap boards before results, keep players apart, grant byes requested in advance; each decided
by `decide.pairing` or `decide.rounds`."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from decide import pairing
from decide import rounds as decide
from decide import teams as team_decide
from decide.inputs import ByeInput
from decide.rounds import FORBID_SYSTEMS
from decide.state import TournamentState
from events.schema import EventBase, RoundPaired
from events.store import Store
from pipelines.commands.base import CommandError, append, decided_again, load

__all__ = [
    "FORBID_SYSTEMS",
    "forbid",
    "grant_bye",
    "pair",
    "pair_by_hand",
    "read_boards",
    "swap_boards",
]


@decided_again
def pair(
    store: Store, tournament_id: str, notes: list[str] | None = None, *, bye: int | None = None
) -> RoundPaired:
    """Pair the next round with the tournament's system: `decide.pairing.pair` given the
    registry's engine, or in a team event `decide.teams.pair_round` given the team engine;
    `notes` collects the explanation; `bye`: the player the director gives the bye (gopair)."""
    from pipelines.commands.teams import teams_of
    from pipelines.engines.live_team import team_engine
    from pipelines.engines.pair import pair_next_round

    loaded = load(store, tournament_id)

    def engine(state: TournamentState, round_no: int, given: int | None) -> list[EventBase]:
        boards = pair_next_round(state, round_no, notes, given)
        return [RoundPaired(round=round_no, boards=tuple(boards))]

    if loaded.state.system.is_team:
        events = team_decide.pair_round(loaded.state, teams_of(loaded), engine=team_engine, bye=bye)
    else:
        events = pairing.pair(loaded.state, engine=engine, bye=bye)
    append(store, loaded, events, command="pair")
    return next(e for e in events if isinstance(e, RoundPaired))


@decided_again
def grant_bye(store: Store, tournament_id: str, bye: ByeInput | Mapping[str, Any]) -> ByeInput:
    """A bye requested in advance (or an absence) for a round not yet paired
    (`decide.rounds.bye`)."""
    loaded = load(store, tournament_id)
    request = ByeInput.check(bye)
    append(store, loaded, decide.bye(loaded.state, request))
    return request


# ------------------------------------------------------------------ forbidden pairs


@decided_again
def forbid(store: Store, tournament_id: str, first: int, second: int) -> tuple[str, str, int]:
    """Keep two players apart (`decide.rounds.forbid`); their names and the first round."""
    loaded = load(store, tournament_id)
    events = decide.forbid(loaded.state, first, second)
    append(store, loaded, events)
    names = loaded.state.players
    return names[first].name, names[second].name, events[0].from_round


# ------------------------------------------------------------------ pairing by hand


def read_boards(path: Path, ranks: Mapping[int, int]) -> list[tuple[int, int | None]]:
    """The boards of a file in `arbiter-pairings -p` form: a count, then ``white black`` start
    ranks per line, ``N 0`` for the pairing-allocated bye; returned as player ids."""
    by_rank = {n: pid for pid, n in ranks.items()}
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"{path}: {exc.strerror}") from None
    lines = [(i, line.split()) for i, line in enumerate(text.splitlines(), start=1)]
    lines = [(i, words) for i, words in lines if words]
    if not lines or len(lines[0][1]) != 1 or not lines[0][1][0].isdigit():
        raise CommandError(f"{path}:1:1: the first line must be the number of boards")
    count = int(lines[0][1][0])
    rows = lines[1:]
    if count != len(rows):
        raise CommandError(f"{path}:1:1: says {count} boards, the file has {len(rows)}")
    out: list[tuple[int, int | None]] = []
    for number, words in rows:
        if len(words) != 2 or not all(w.isdigit() for w in words):
            raise CommandError(f"{path}:{number}:1: expected 'WHITE BLACK' start ranks")
        white, black = (int(w) for w in words)
        for col, n in ((1, white), (len(words[0]) + 2, black)):
            if n and n not in by_rank:
                raise CommandError(f"{path}:{number}:{col}: no player has start rank {n}")
        if white == 0:
            raise CommandError(f"{path}:{number}:1: the bye is written 'N 0'")
        out.append((by_rank[white], by_rank[black] if black else None))
    return out


@decided_again
def pair_by_hand(
    store: Store, tournament_id: str, path: Path, *, force: bool
) -> tuple[RoundPaired, list[str]]:
    """Record the next round as given in `path` (`decide.pairing.pair_by_hand`); returns the
    event and the criteria broken (refused unless `force`)."""
    loaded = load(store, tournament_id)
    pairs = read_boards(path, loaded.state.start_ranks())
    hand = pairing.pair_by_hand(loaded.state, pairs, force=force)
    append(store, loaded, hand.events, command="pair --boards", forced=bool(hand.broken))
    (event,) = (e for e in hand.events if isinstance(e, RoundPaired))
    return event, hand.broken


@decided_again
def swap_boards(store: Store, tournament_id: str, round_no: int, first: int, second: int) -> None:
    """Swap two boards of a paired round (`decide.rounds.swap`)."""
    loaded = load(store, tournament_id)
    append(store, loaded, decide.swap(loaded.state, round_no, first, second))
