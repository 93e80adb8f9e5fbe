"""The reference corpora as engine inputs, and the corpus loop written once.

This is the one module of tests/pairing that reaches into ``pipelines``: reading a TRF or
OpenGotha file into an engine's input is the engines' adapter (``pipelines.engines``), not
the engines. Unit tests of an engine build its input from ``pairing``'s models instead.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path

import pytest

from events.domain import Colour
from events.result_codes import ResultCode
from ingest.opengotha import OGTournament, read_opengotha
from ingest.trf import TrfFile, cut_before_round, parse_trf
from pairing.macmahon import GoTournament, MacMahonParams
from pairing.macmahon.model import GoBye, GoGame, GoPlayer, GoResult
from pairing.swiss.model import SwissInput, SwissRound
from pipelines.engines.macmahon_from_opengotha import params_from_opengotha
from pipelines.engines.swiss_from_trf import (
    initial_colour_of_file,
    swiss_input_from_trf,
    swiss_input_with_absent,
)
from tests.conftest import TESTDATA, require_testdata

__all__ = [
    "REAL_ROUNDS",
    "corpus_cases",
    "differing_rounds",
    "dubov_input",
    "initial_colour",
    "input_before",
    "opengotha_input",
    "played_round",
    "players",
    "published_rounds_reproduced",
    "real_events",
    "swiss_input",
    "tournament_from_opengotha",
]

Pair = Callable[[SwissInput], SwissRound]

REAL_ROUNDS = 9
"""Rounds of the chess-results events of chess/real (their ``_before_r09`` files)."""
_SLOW_EVENTS = frozenset({"international_chessopen_graz_2026_a"})


def players(path: Path) -> int:
    """The player count the corpus file names carry (``..._p040_...``)."""
    return int(path.stem.split("_p")[1][:3])


def corpus_cases(system: str, fast_limit: int) -> list[object]:
    """One case per file of chess/<system>; files above ``fast_limit`` players marked slow."""
    folder = TESTDATA / "chess" / system
    if not folder.exists():
        return ["<absent>"]
    out: list[object] = []
    for path in sorted(folder.glob("*.trf")):
        marks = [pytest.mark.slow] if players(path) > fast_limit else []
        out.append(pytest.param(path.stem, marks=marks, id=path.stem))
    return out


def swiss_input(trf: TrfFile) -> SwissInput:
    """The input to pair the round after the file's last (the engines' TRF contract)."""
    return swiss_input_from_trf(trf)


def dubov_input(tournament: str, k: int) -> SwissInput:
    """Round ``k`` of a chess/dubov tournament (its ``XXZ`` players absent too)."""
    path = require_testdata("chess", "dubov", tournament, f"r{k:02d}.in.trf")
    return swiss_input_with_absent(parse_trf(path))


def initial_colour(trf: TrfFile, total: int) -> Colour:
    """What the generator drew: read back from the complete file, as bbpPairings would."""
    return initial_colour_of_file(trf, total)


def input_before(trf: TrfFile, k: int, total: int, colour: Colour) -> SwissInput:
    """The input to pair round ``k``: the file cut back to before it."""
    return swiss_input_from_trf(cut_before_round(trf, k, total, colour))


def played_round(trf: TrfFile, k: int) -> tuple[set[tuple[int, int]], int | None]:
    """Boards (white, black) and PAB of round k as written in the file."""
    boards: set[tuple[int, int]] = set()
    pab = None
    for player in trf.players:
        if len(player.rounds) < k:
            continue
        entry = player.rounds[k - 1]
        if entry.opponent is not None and entry.colour is Colour.WHITE:
            boards.add((player.number, entry.opponent))
        if entry.result is ResultCode.PAB:
            pab = player.number
    return boards, pab


def differing_rounds(system: str, stem: str, pair: Pair) -> tuple[list[int], int]:
    """Each round of chess/<system>/<stem>.trf re-paired from the history before it (round 1
    included): the rounds whose boards, colours or PAB differ from the file's, and how many
    rounds it has."""
    trf = parse_trf(require_testdata("chess", system, f"{stem}.trf"))
    total = max(len(p.rounds) for p in trf.players)
    colour = initial_colour(trf, total)
    differing = []
    for k in range(1, total + 1):
        result = pair(input_before(trf, k, total, colour))
        if (set(result.boards), result.pab) != played_round(trf, k):
            differing.append(k)
    return differing, total


def real_events(events: Iterable[str]) -> list[object]:
    """One case per chess/real event, the slow ones (the largest field) marked so."""
    return [
        pytest.param(e, marks=[pytest.mark.slow] if e in _SLOW_EVENTS else [], id=e)
        for e in sorted(events)
    ]


def _pairs(published: list[list[str | None]]) -> set[frozenset[int]]:
    return {
        frozenset(int(x) for x in pair if x is not None) for pair in published if None not in pair
    }


def _pab_numbers(trf: TrfFile, k: int) -> set[int]:
    return {
        p.number for p in trf.players if len(p.rounds) >= k and p.rounds[k - 1].result.value == "U"
    }


def published_rounds_reproduced(event: str, pair: Pair) -> set[int]:
    """The rounds of a chess/real event whose published boards ``pair`` reproduces.

    For round k the ``_before_r09`` file is cut before round k; the players missing from the
    published round k (requested byes, absences: listed without opponent) are absent, the
    published PAB (a ``U`` result in the file) is present. Boards are compared as unordered
    pairs, as published.
    """
    folder = require_testdata("chess", "real")
    published = json.loads((folder / "published_pairings" / f"{event}.json").read_text())
    trf = parse_trf(folder / f"chessresults_{event}_before_r09.trf")
    colour = initial_colour(trf, REAL_ROUNDS - 1)
    identical: set[int] = set()
    for k in range(1, REAL_ROUNDS + 1):
        expected = _pairs(published["rounds"][k - 1]["published_pairings"])
        present = {n for pair in expected for n in pair} | _pab_numbers(trf, k)
        swiss = input_before(trf, k, REAL_ROUNDS, colour)
        absent = frozenset(p.number for p in swiss.players if p.number not in present)
        result = pair(replace(swiss, absent=absent))
        if {frozenset(board) for board in result.boards} == expected:
            identical.add(k)
    return identical


def opengotha_input(path: Path) -> tuple[GoTournament, MacMahonParams]:
    """An OpenGotha file's tournament and its parameter sets."""
    source = read_opengotha(path)
    return tournament_from_opengotha(source), params_from_opengotha(source)


def tournament_from_opengotha(source: OGTournament) -> GoTournament:
    """An OpenGotha file's players, games and byes as the Mac-Mahon engine's input, as the
    file has them (the product reads a file into events first: `pipelines.engines.live_go`)."""
    rounds = source.general.number_of_rounds if source.general is not None else 5
    rounds = max([rounds, *(g.round for g in source.games), *(b.round for b in source.byes)])
    return GoTournament(
        number_of_rounds=rounds,
        players=tuple(
            GoPlayer(
                key=p.key,
                name=p.name,
                first_name=p.first_name,
                rank=p.rank,
                rating=p.rating,
                club=p.club,
                country=p.country,
                smms_correction=p.smms_correction,
                participating=p.participating,
                final_registration=p.registering_status == "FIN",
            )
            for p in source.players
        ),
        games=tuple(
            GoGame(
                round=g.round,
                white=g.white,
                black=g.black,
                handicap=g.handicap,
                result=GoResult(g.result.value),
                by_default=g.by_default,
            )
            for g in source.games
        ),
        byes=tuple(GoBye(round=b.round, player=b.player) for b in source.byes),
        clubs_groups=tuple(g.clubs for g in source.clubs_groups or ()),
    )
