"""Event schemas (round trip, upcasting) and the state fold (purity, replay, --at-round)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from decide.state import project
from events import schema
from events.domain import Board, ByeKind, Game, Outcome, System
from events.duckdb_store import DuckDBStore
from events.results import ResultSyntaxError, parse_result
from events.schema import (
    ByeGranted,
    Event,
    PlayerRegistered,
    ResultCorrected,
    ResultRecorded,
    RoundPaired,
    TournamentCreated,
    decode,
    encode,
)
from events.scoring import Scoring
from events.store import NewEvent
from pairing.roundrobin import pair_round_robin


def season(seed: int, players: int = 6) -> list[Event]:
    rng = random.Random(seed)
    events: list[Event] = [
        TournamentCreated(
            tournament_id="t",
            name="T",
            game=Game.CHESS,
            system=System.ROUNDROBIN,
            rounds=players - 1 + players % 2,
        )
    ]
    events += [
        PlayerRegistered(player=i, name=f"P{i}", rating=2000 - 10 * i)
        for i in range(1, players + 1)
    ]
    ids = list(range(1, players + 1))
    for rnd in range(1, players - 1 + players % 2 + 1):
        boards = pair_round_robin(ids, rnd)
        events.append(RoundPaired(round=rnd, boards=tuple(boards)))
        for b in boards:
            if b.black is not None:
                outcome = rng.choice([Outcome.WHITE_WINS, Outcome.BLACK_WINS, Outcome.DRAW])
                events.append(ResultRecorded(round=rnd, board=b.board, outcome=outcome))
    return events


@pytest.mark.parametrize("seed", range(3))
def test_every_event_round_trips_through_json(seed: int) -> None:
    for e in season(seed):
        assert decode(e.type, 1, encode(e)) == e


def test_upcaster_lifts_old_payloads(monkeypatch: pytest.MonkeyPatch) -> None:
    # Pretend PlayerRegistered is at schema 2, whose v1 used "full_name" for "name".
    monkeypatch.setattr(PlayerRegistered, "SCHEMA_VERSION", 2)
    monkeypatch.setitem(
        schema.UPCASTERS,
        ("PlayerRegistered", 1),
        lambda d: {**{k: v for k, v in d.items() if k != "full_name"}, "name": d["full_name"]},
    )
    old = json.dumps({"type": "PlayerRegistered", "player": 3, "full_name": "Old, Style"})
    assert decode("PlayerRegistered", 1, old) == PlayerRegistered(player=3, name="Old, Style")
    with pytest.raises(ValueError, match="newer than this program"):
        decode("PlayerRegistered", 3, old)


def test_invalid_events_are_refused() -> None:
    # A board is a plain value object (no pydantic: the engines' start-up); an event holding
    # it is validated as before.
    with pytest.raises(ValueError, match="cannot play himself"):
        Board(board=1, white=2, black=2)
    with pytest.raises(ValidationError, match="cannot play himself"):
        RoundPaired.model_validate({"round": 1, "boards": [{"board": 1, "white": 2, "black": 2}]})
    with pytest.raises(ValidationError):
        ByeGranted(player=1, round=1, kind=ByeKind.PAIRING)
    with pytest.raises(ValidationError):
        Scoring(win=0, draw=1, loss=0)


@given(st.integers(min_value=0, max_value=10_000), st.integers(min_value=3, max_value=9))
def test_projection_is_pure_and_prefix_consistent(seed: int, players: int) -> None:
    events = season(seed, players)
    a, b = project(events), project(list(events))
    pts = {p: a.points(p) for p in a.players}
    assert pts == {p: b.points(p) for p in b.players}
    # Round robin with 1/½/0: points add up to the number of games played.
    games = sum(1 for e in events if isinstance(e, ResultRecorded))
    assert sum(pts.values()) == pytest.approx(
        games
        + sum(
            1.0 for e in events if isinstance(e, RoundPaired) for bd in e.boards if bd.black is None
        )
    )
    # --at-round N equals the fold of the stream cut before round N+1's pairing.
    for n in range(a.last_round + 1):
        cut = next(
            (i for i, e in enumerate(events) if isinstance(e, RoundPaired) and e.round == n + 1),
            len(events),
        )
        at = project(events, at_round=n)
        prefix = project(events[:cut])
        assert {p: at.points(p) for p in at.players} == {
            p: prefix.points(p) for p in prefix.players
        }


def test_at_round_keeps_later_corrections_of_earlier_rounds() -> None:
    events = season(1)
    first = next(e for e in events if isinstance(e, ResultRecorded) and e.round == 1)
    fixed = Outcome.DRAW if first.outcome is not Outcome.DRAW else Outcome.WHITE_WINS
    events.append(ResultCorrected(round=1, board=first.board, outcome=fixed))
    state = project(events, at_round=1)
    assert state.last_round == 1
    assert state.rounds[1].board(first.board).outcome is fixed  # type: ignore[union-attr]


def test_replay_from_store_equals_in_memory_fold() -> None:
    events = season(7, 8)
    with DuckDBStore(":memory:") as store:
        store.append("tournament-t", [NewEvent(e) for e in events], -1)
        replayed = project(e.event for e in store.read_stream("tournament-t"))
    direct = project(events)
    assert {p: replayed.points(p) for p in replayed.players} == {
        p: direct.points(p) for p in direct.players
    }
    assert replayed.rounds.keys() == direct.rounds.keys()


def test_requested_byes_score_by_scoring() -> None:
    events = season(2, 5)[:6]  # created + 5 players, nothing paired
    events.append(ByeGranted(player=2, round=1, kind=ByeKind.HALF))
    state = project(events)
    assert state.pairing(2, 1).points == 0.5
    assert state.pairing(2, 1).bye is ByeKind.HALF


@pytest.mark.parametrize(
    ("game", "text", "outcome", "scores"),
    [
        ("chess", "1-0", Outcome.WHITE_WINS, (None, None)),
        ("chess", "½-½", Outcome.DRAW, (None, None)),
        ("chess", "-+", Outcome.BLACK_WINS_FORFEIT, (None, None)),
        ("chess", "--", Outcome.DOUBLE_FORFEIT, (None, None)),
        ("chess", "*", Outcome.UNKNOWN, (None, None)),
        ("go", "B+R", Outcome.BLACK_WINS, (None, None)),
        ("go", "W+6.5", Outcome.WHITE_WINS, (6.5, 0.0)),
        ("go", "jigo", Outcome.DRAW, (None, None)),
        ("go", "W+F", Outcome.WHITE_WINS_FORFEIT, (None, None)),
        ("othello", "40-24", Outcome.WHITE_WINS, (40.0, 24.0)),
        ("othello", "32-32", Outcome.DRAW, (32.0, 32.0)),
        ("carrom", "3-25", Outcome.BLACK_WINS, (3.0, 25.0)),
    ],
)
def test_result_parsing(
    game: str, text: str, outcome: Outcome, scores: tuple[float | None, float | None]
) -> None:
    from events.domain import Game

    parsed = parse_result(text, Game(game))
    assert parsed.outcome is outcome
    assert (parsed.white_score, parsed.black_score) == scores


def test_result_parsing_rejects_nonsense() -> None:
    from events.domain import Game

    with pytest.raises(ResultSyntaxError, match="unknown go result 'X\\+'"):
        parse_result("X+", Game.GO)
