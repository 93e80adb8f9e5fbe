"""The random team tournament generator (``arbiter-pairings --team -g``): a whole team Swiss
(C.04.6) in a TRF-2026 team file, paired round by round by the team engine, reproducible from
its seed.

The parts it shares with the individual generator (`pipelines.engines.generator`) are that
module's: the settled configuration (`settle`: rounds, rates, ratings, board scoring), who is
absent when (`absences`, drawn here among teams: a team's bye is every member's) and each
game's result (`game`). What is a team's own: the members (``BoardsNumber`` a team, dealt at
random, board order by rating, teams numbered by their average rating, highest first), the
``310`` rosters, the ``192`` code (colour preference type, primary score), the ``362`` match
points, the ``240`` record of each round's team byes, and the boards of a match: the team the
engine names first has White on board 1, the boards alternate (`pairing.team.board_colours`).
The match and game points are left to the readers, which aggregate the members' games
(`events.team_results`). Nothing here reads or writes a file.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import replace

from events.domain import Colour
from events.errors import PairingError
from events.result_codes import ResultCode
from ingest.trf import TrfFile
from ingest.trf.records import (
    ByesRecord,
    HeaderRecord,
    InitialColourRecord,
    RawRecord,
    Record,
    RoundEntry,
    TotalRoundsRecord,
)
from pairing.team.boards import board_colours
from pipelines.engines.generator import (
    Pair,
    TournamentFile,
    absences,
    game,
    scoring_record,
    settle,
)
from pipelines.engines.generator_config import GeneratorConfig
from projections.exports.trf import format_points
from projections.exports.trf_teams import roster_310

__all__ = ["generate_teams", "system_code"]

_BYE_CODE = {ResultCode.HALF_BYE: "H", ResultCode.ZERO_BYE: "Z"}


def system_code(config: GeneratorConfig) -> str:
    """The ``192`` code: ``FIDE_TEAM_TYPEA_MP_GP`` (type, primary score, secondary score).

    >>> system_code(GeneratorConfig(colour_preference="B", primary_score="GP"))
    'FIDE_TEAM_TYPEB_GP_MP'
    """
    secondary = "GP" if config.primary_score == "MP" else "MP"
    return f"FIDE_TEAM_TYPE{config.colour_preference}_{config.primary_score}_{secondary}"


def _match_points(config: GeneratorConfig) -> RawRecord:
    """``362`` in the columns the Sharly-Chess fork reads: ``TW`` 5-6, value 7-10, ``TD``
    14-15, value 16-19, ``TL`` 23-24, value 25-28."""
    win, draw, loss = (
        format_points(v)
        for v in (
            config.points_for_match_win,
            config.points_for_match_draw,
            config.points_for_match_loss,
        )
    )
    return RawRecord(f"362 TW{win:>4}   TD{draw:>4}   TL{loss:>4}")


def _teams(count: int, boards: int, low: int, high: int, rng: random.Random) -> list[list[int]]:
    """Each team's members' ratings in board order, strongest team first."""
    ratings = [rng.randint(low, high) for _ in range(count * boards)]
    rng.shuffle(ratings)
    teams = [sorted(ratings[i * boards : (i + 1) * boards], reverse=True) for i in range(count)]
    return sorted(teams, key=lambda t: -sum(t))


def generate_teams(config: GeneratorConfig, seed: int, pair: Pair) -> TrfFile:
    """A whole team tournament of ``config`` from ``seed``, paired by ``pair`` (the team
    engine, which answers in team pairing numbers).

    :raises PairingError: a round the engine cannot pair, naming the round.
    """
    rng = random.Random(seed)
    count = config.teams if config.teams is not None else rng.randint(8, 120)
    boards = config.boards if config.boards is not None else rng.randint(1, 4)
    s = settle(config.model_copy(update={"players": count}), rng)
    teams = _teams(count, boards, s.lowest_rating, s.highest_rating, rng)
    members = {t: [(t - 1) * boards + i for i in range(1, boards + 1)] for t in range(1, count + 1)}
    ratings = {m: teams[t - 1][i] for t, ms in members.items() for i, m in enumerate(ms)}
    colour = rng.choice((Colour.WHITE, Colour.BLACK))
    absent = absences(s, rng)  # s.players is the number of teams: absences are teams'
    tournament = TournamentFile(
        head=(HeaderRecord("012", f"arbiter random team tournament, seed {seed}"),),
        tail=(
            TotalRoundsRecord("142", s.rounds),
            InitialColourRecord(colour),
            HeaderRecord("192", system_code(config)),
            *scoring_record(s.scoring),
            _match_points(config),
            *(roster_310(t, f"Team {t:03}", ms) for t, ms in members.items()),
        ),
        ratings=ratings,
        scoring=s.scoring,
    )
    history: dict[int, list[RoundEntry]] = {p: [] for p in ratings}
    byes: list[Record] = []
    for k in range(1, s.rounds + 1):
        away: dict[ResultCode, list[int]] = defaultdict(list)
        for t, rounds in absent.items():
            if k in rounds:
                away[rounds[k]].append(t)
                for m in members[t]:
                    history[m].append(RoundEntry(None, Colour.NONE, rounds[k]))
        byes += [ByesRecord(_BYE_CODE[code], k, tuple(ts)) for code, ts in away.items()]
        if sum(len(ts) for ts in away.values()) == count:
            continue  # every team absent: nobody to pair
        file = tournament.file(history, ranked=False)
        try:
            paired = pair(replace(file, records=(*file.records, *byes)))
        except PairingError as exc:
            raise PairingError(f"round {k} of the generated tournament: {exc}") from None
        for match in paired.boards:
            if match.black is None:
                for m in members[match.white]:
                    history[m].append(RoundEntry(None, Colour.NONE, ResultCode.PAB))
                continue
            colours = board_colours(boards, Colour.WHITE)
            pairs = zip(members[match.white], members[match.black], colours, strict=True)
            for ours, theirs, board in pairs:
                white, black = (ours, theirs) if board is Colour.WHITE else (theirs, ours)
                w, b = game(s, ratings[white], ratings[black], rng)
                history[white].append(RoundEntry(black, Colour.WHITE, w))
                history[black].append(RoundEntry(white, Colour.BLACK, b))
    done = tournament.file(history, ranked=True)
    return replace(done, records=(*done.records, *byes))
