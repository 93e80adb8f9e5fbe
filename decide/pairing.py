"""The pairing deciders: the next round paired by the tournament's system (`pair`) or as the
director gives it (`pair_by_hand`).

Both pair the round after the last, once every board of the last has its result
(`next_round`). `pair` is given the engine as a required argument (`RoundEngine`: the
service's registry engine for the tournament, or its team pairing); the decider says when a
round may be paired, who sits it out (round 1 of an event with a check-in:
`decide.registration.left_out`), and refuses a proposal that puts a player on two boards or a
player the tournament does not have. `pair_by_hand` checks the boards the director gives
against the absolute criteria (C.04.1), refused unless ``force``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from decide.base import known_player, numbered
from decide.errors import CommandError
from decide.registration import left_out
from decide.state import TournamentState, evolve
from events.domain import Board, Colour, Game
from events.errors import PairingError, UserError, braced
from events.schema import EventBase, RoundPaired

__all__ = [
    "HandPaired",
    "RoundEngine",
    "check_round",
    "engine_refused",
    "next_round",
    "pair",
    "pair_by_hand",
]

RoundEngine = Callable[[TournamentState, int, int | None], Sequence[EventBase]]
"""The events that pair round ``round_no`` of the state (its `RoundPaired`, and a team
event's `TeamRoundPaired`), given ``(state, round_no, bye)``: ``bye`` the player the
director gives the bye of an odd field (gopair's ``-bye``), or None. It raises `PairingError`
(or a `UserError`) when it cannot pair the round."""


def next_round(state: TournamentState) -> int:
    """The round to pair next: refused when every round is paired, or while the last round
    lacks results."""
    round_no = state.last_round + 1
    if round_no > state.total_rounds:
        raise CommandError(f"{state.id}: all {state.total_rounds} rounds are paired")
    if state.last_round:
        missing = [b.board for b in state.rounds[state.last_round].boards if not b.has_result]
        if missing:
            shown = ", ".join(map(str, missing[:10])) + (" ..." if len(missing) > 10 else "")
            raise CommandError(
                f"{state.id}: round {state.last_round} still lacks results on board(s) {shown}"
            )
    return round_no


def engine_refused(state: TournamentState, exc: UserError | PairingError) -> CommandError:
    """An engine's refusal as the decider's: the tournament named first, the fields the
    engine's message names kept for each door."""
    template, fields = exc.template()
    return CommandError.naming(f"{braced(state.id)}: {template}", *fields)


def _proposed(state: TournamentState, round_no: int, events: Sequence[EventBase]) -> None:
    """Refuse an engine's proposal that is not one pairing of ``round_no`` with each of the
    tournament's players on one board at most."""
    paired = [e for e in events if isinstance(e, RoundPaired)]
    if len(paired) != 1 or paired[0].round != round_no:
        raise CommandError(f"{state.id}: the engine did not pair round {round_no}")
    seen: set[int] = set()
    for board in paired[0].boards:
        for pid in (board.white, board.black):
            if pid is None:
                continue
            if pid not in state.players:
                raise CommandError(
                    f"{state.id}: the engine paired player id:{pid}, who is not in it"
                )
            if pid in seen:
                raise CommandError(
                    f"{state.id}: the engine put player {numbered(state, pid)} on two boards"
                )
            seen.add(pid)


def pair(state: TournamentState, *, engine: RoundEngine, bye: int | None) -> list[EventBase]:
    """The next round paired by ``engine``: round 1's absences of an event with a check-in
    (who did not check in sits it out), then the engine's events; ``bye``: the player the
    director gives the bye (gopair), or None."""
    round_no = next_round(state)
    if len(state.players) < 2:
        raise CommandError(f"{state.id}: register at least two players before pairing")
    if bye is not None:  # the director's own input first, before what the round's state refuses
        known_player(state, bye)
    absences = [] if state.system.is_team else left_out(state, round_no)
    seen = state
    if absences:
        seen = state.detached_copy()
        for absence in absences:
            evolve(seen, absence)
        if len(seen.players) - len(seen.byes.get(1, {})) < 2:
            raise CommandError(
                f"{state.id}: fewer than two players checked in "
                f"(arbiter check-in {state.id} PLAYER ticks one in)"
            )
    try:
        proposal = list(engine(seen, round_no, bye))
    except (UserError, PairingError) as exc:
        raise engine_refused(state, exc) from exc
    _proposed(state, round_no, proposal)
    return [*absences, *proposal]


# ------------------------------------------------------------------ pairing by hand


@dataclass(frozen=True, slots=True)
class HandPaired:
    """What `pair_by_hand` decided: the events, and the absolute criteria the boards break
    (recorded only with ``force``)."""

    events: list[EventBase]
    broken: list[str]


def _colour_history(state: TournamentState, pid: int) -> list[Colour]:
    return [p.colour for p in state.pairings(pid) if p.colour is not None and p.played]


def _placed(state: TournamentState, round_no: int, pairs: Sequence[tuple[int, int | None]]) -> None:
    """Refuse boards that do not place every player of the round once: a player on two
    boards, one who is not in the tournament, withdrawn or with a bye, one on no board."""
    ranks = state.start_ranks()
    names = {pid: numbered(state, pid, ranks) for pid in state.players}
    seen: set[int] = set()
    for white, black in pairs:
        for pid in (white, black):
            if pid is None:
                continue
            known_player(state, pid)
            if pid in seen:
                raise CommandError(f"{state.id}: player {names[pid]} is on two boards")
            seen.add(pid)
    expected = {
        pid
        for pid, p in state.players.items()
        if p.active_in(round_no) and pid not in state.byes.get(round_no, {})
    }
    for pid in sorted(seen - expected, key=names.__getitem__):
        raise CommandError(
            f"{state.id}: player {names[pid]} is withdrawn or has a bye in round {round_no}"
        )
    missing = sorted(expected - seen, key=lambda pid: ranks[pid])
    if missing:
        raise CommandError.naming(
            f"{braced(state.id)}: player {braced(names[missing[0]])} is on no board "
            f"({len(missing)} missing; give absences as byes of {{0}} zero)",
            "kind",
        )


def check_round(
    state: TournamentState, round_no: int, pairs: Sequence[tuple[int, int | None]]
) -> tuple[list[Board], list[str]]:
    """Boards for the pairs (``(white, None)``: the pairing-allocated bye), and every
    absolute criterion (C.04.1) they break, named; refused when they do not place every
    player of the round once."""
    _placed(state, round_no, pairs)
    ranks = state.start_ranks()
    names = {pid: numbered(state, pid, ranks) for pid in state.players}
    errors: list[str] = []
    byes = [w for w, b in pairs if b is None]
    if len(byes) > 1:
        errors.append(f"{len(byes)} players get the pairing-allocated bye (at most one)")
    boards: list[Board] = []
    games = [(w, b) for w, b in pairs if b is not None]
    for i, (white, black) in enumerate(games, start=1):
        assert black is not None
        boards.append(Board(board=i, white=white, black=black))
        met = any(p.opponent == black and p.played for p in state.pairings(white))
        if met:
            errors.append(f"{names[white]} and {names[black]} have already played each other")
        first = state.forbidden.get(frozenset((white, black)))
        if first is not None and first <= round_no:
            errors.append(f"{names[white]} and {names[black]} must not be paired (forbidden)")
        if state.game is Game.CHESS:
            for pid, colour in ((white, Colour.WHITE), (black, Colour.BLACK)):
                history = [*_colour_history(state, pid), colour]
                diff = history.count(Colour.WHITE) - history.count(Colour.BLACK)
                if abs(diff) > 2:
                    errors.append(f"{names[pid]} would have a colour difference of {diff:+d}")
                if len(history) >= 3 and len(set(history[-3:])) == 1:
                    errors.append(f"{names[pid]} would have {colour.word} three times in a row")
    for pid in byes:
        win = state.scoring.win
        had = any(
            (p.bye is not None and state.scoring.for_bye(p.bye) >= win)
            or (p.outcome is not None and p.outcome.is_forfeit and (p.points or 0) >= win)
            for p in state.pairings(pid)
        )
        if had:
            errors.append(f"{names[pid]} already had a bye or a win without playing")
        boards.append(Board(board=len(boards) + 1, white=pid, black=None))
    return boards, errors


def pair_by_hand(
    state: TournamentState, pairs: Sequence[tuple[int, int | None]], *, force: bool
) -> HandPaired:
    """The next round as the director gives it (``pairs``: player ids, white first;
    ``(white, None)`` the pairing-allocated bye); refused when the boards break an absolute
    criterion, unless ``force`` (then recorded, the criteria broken returned)."""
    round_no = next_round(state)
    boards, broken = check_round(state, round_no, pairs)
    if broken and not force:
        shown = braced("; ".join(broken))
        raise CommandError.naming(
            f"{braced(state.id)}: round {round_no} as given breaks {len(broken)} "
            f"absolute criteria: {shown}; {{0}} records it anyway",
            "force",
        )
    return HandPaired([RoundPaired(round=round_no, boards=tuple(boards))], broken)
