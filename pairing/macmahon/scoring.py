"""Scores before a round, as OpenGotha's ``fillBaseScoringInfo`` keeps them.

Every score is an integer: doubled (NBW, MMS, SOS ...) or quadrupled (SODOS); round indexes
are 0-based. Only games and byes of rounds before the one being paired are read.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from events.go import starting_mms
from pairing.macmahon.model import GoGame, GoPlayer, GoTournament
from pairing.macmahon.params import Criterion, MacMahonParams

__all__ = ["Participation", "ScoreTable", "build_scores", "smms"]


class Participation(enum.Enum):
    ABSENT = "absent"
    NOT_ASSIGNED = "not assigned"
    BYE = "bye"
    PAIRED = "paired"


def smms(player: GoPlayer, params: MacMahonParams) -> int:
    """Starting Mac-Mahon score: clamp(rank, floor, bar) - zero + correction."""
    return starting_mms(
        player.rank, params.mm_floor, params.mm_bar, params.mm_zero, player.smms_correction
    )


def category(player: GoPlayer, params: MacMahonParams) -> int:
    for index, limit in enumerate(params.category_lower_limits):
        if player.rank >= limit:
            return index
    return len(params.category_lower_limits)


@dataclass(slots=True)
class _Row:
    """Per-round arrays of one player (index = 0-based round)."""

    participation: list[Participation]
    games: list[GoGame | None]
    nbw2: list[int]
    mms2: list[int]
    nbw2_virtual: list[int]
    mms2_virtual: list[int]
    values: dict[Criterion, list[int]]


class ScoreTable:
    """Scores of every registered player at the end of each round before ``rounds``."""

    def __init__(self, tournament: GoTournament, params: MacMahonParams, rounds: int) -> None:
        self.params = params
        self.rounds = rounds
        self.players = {p.key: p for p in tournament.players}
        self.smms = {p.key: smms(p, params) for p in tournament.players}
        self.category = {p.key: category(p, params) for p in tournament.players}
        self.rows: dict[str, _Row] = {}

    def game(self, key: str, r: int) -> GoGame | None:
        return self.rows[key].games[r] if 0 <= r < self.rounds else None

    def value(self, key: str, criterion: Criterion, r: int) -> int:
        """OpenGotha's ``getCritValue(criterion, r)``; r = -1 means before round 1."""
        player = self.players[key]
        if criterion is Criterion.NUL or criterion in (Criterion.DC, Criterion.SDC):
            return 0
        if criterion is Criterion.CAT:
            return -self.category[key]
        if criterion is Criterion.RANK:
            return player.rank
        if criterion is Criterion.RATING:
            return player.rating
        if r < 0:
            if criterion in (Criterion.MMS, Criterion.STS):
                return 2 * self.smms[key]
            return 0
        row = self.rows[key]
        if criterion is Criterion.NBW:
            return row.nbw2[r]
        if criterion in (Criterion.MMS, Criterion.STS):
            return row.mms2[r]
        return row.values[criterion][r]

    def nbw2(self, key: str, r: int) -> int:
        return self.value(key, Criterion.NBW, r)

    def mms2(self, key: str, r: int) -> int:
        return self.value(key, Criterion.MMS, r)

    def wb_balance(self, key: str, r: int) -> int:
        """Games as White minus games as Black in rounds 0..r, even games only."""
        balance = 0
        for rr in range(min(r + 1, self.rounds)):
            game = self.rows[key].games[rr]
            if game is None or game.handicap != 0:
                continue
            balance += 1 if game.white == key else -1
        return balance


def _opponent(game: GoGame, key: str) -> str:
    return game.black if game.white == key else game.white


def _points2(game: GoGame, key: str) -> int:
    white, black = game.result.points2()
    return white if game.white == key else black


def _without_lowest(contributions: list[int], r: int) -> tuple[int, int]:
    """OpenGotha's SOS-1 and SOS-2 (with its quirk: after two rounds SOS-1 = max, SOS-2 = 0)."""
    if r == 0:
        return 0, 0
    if r == 1:
        return max(contributions[0], contributions[1]), 0
    lowest = min(range(r + 1), key=lambda i: (contributions[i], i))
    second = 1 if lowest == 0 else 0
    for i in range(r + 1):
        if i != lowest and contributions[i] < contributions[second]:
            second = i
    total = sum(contributions[: r + 1])
    minus1 = total - contributions[lowest]
    return minus1, minus1 - contributions[second]


def build_scores(tournament: GoTournament, params: MacMahonParams, rounds: int) -> ScoreTable:
    """Scores at the end of rounds ``0 .. rounds-1`` (0-based) from games of those rounds."""
    table = ScoreTable(tournament, params, rounds)
    keys = [p.key for p in tournament.players]
    for player in tournament.players:
        participation = [
            Participation.NOT_ASSIGNED if player.plays_in(r + 1) else Participation.ABSENT
            for r in range(rounds)
        ]
        table.rows[player.key] = _Row(participation, [None] * rounds, [], [], [], [], {})
    for past in tournament.games:
        if past.round > rounds:
            continue
        for key in (past.white, past.black):
            table.rows[key].participation[past.round - 1] = Participation.PAIRED
            table.rows[key].games[past.round - 1] = past
    for bye in tournament.byes:
        if bye.round <= rounds:
            table.rows[bye.player].participation[bye.round - 1] = Participation.BYE

    for key in keys:
        row = table.rows[key]
        nbw2 = nbw2_v = 0
        bonus_nbw2 = bonus_mms2 = 0
        not_played = 0
        mms2 = mms2_v = 2 * table.smms[key]
        for r in range(rounds):
            played = row.games[r]
            if played is not None:
                points = _points2(played, key)
                nbw2 += points
                mms2 += points
                if not played.by_default:
                    nbw2_v += points
                    mms2_v += points
            status = row.participation[r]
            if status is Participation.ABSENT:
                bonus_nbw2 += params.nbw2_absent
                bonus_mms2 += params.mms2_absent
            elif status is Participation.BYE:
                bonus_nbw2 += params.nbw2_bye
                bonus_mms2 += params.mms2_bye
            add_nbw2, add_mms2 = bonus_nbw2, bonus_mms2
            if params.round_down_nbw_mms:
                add_nbw2, add_mms2 = add_nbw2 // 2 * 2, add_mms2 // 2 * 2
            row.nbw2.append(nbw2 + add_nbw2)
            row.mms2.append(mms2 + add_mms2)
            if played is None or played.by_default:
                not_played += 1
            row.nbw2_virtual.append(nbw2_v + not_played)
            row.mms2_virtual.append(mms2_v + not_played)
        cussw = cussm = 0
        row.values[Criterion.CUSSW] = []
        row.values[Criterion.CUSSM] = []
        for r in range(rounds):
            cussw += row.nbw2[r]
            cussm += row.mms2[r]
            row.values[Criterion.CUSSW].append(cussw)
            row.values[Criterion.CUSSM].append(cussm)

    _opponent_sums(table, keys, rounds)
    return table


def _opponent_sums(table: ScoreTable, keys: list[str], rounds: int) -> None:
    params = table.params
    virtual = params.count_not_played_as_half_point
    names = (
        Criterion.SOSW,
        Criterion.SOSWM1,
        Criterion.SOSWM2,
        Criterion.SODOSW,
        Criterion.SOSM,
        Criterion.SOSMM1,
        Criterion.SOSMM2,
        Criterion.SODOSM,
        Criterion.SOSTS,
        Criterion.SOSOSW,
        Criterion.SOSOSM,
        Criterion.EXT,
        Criterion.EXR,
    )
    for key in keys:
        for name in names:
            table.rows[key].values[name] = [0] * rounds
    for r in range(rounds):
        for key in keys:
            row = table.rows[key]
            osw = [0] * (r + 1)
            osm = [0] * (r + 1)
            dosw = dosm = 0
            for rr in range(r + 1):
                game = row.games[rr]
                if game is None:
                    osm[rr] = 2 * table.smms[key]
                    continue
                opp = table.rows[_opponent(game, key)]
                result = _points2(game, key)
                osw[rr] = opp.nbw2_virtual[r] if virtual else opp.nbw2[r]
                osm[rr] = opp.mms2_virtual[r] if virtual else opp.mms2[r]
                osm[rr] += 2 * game.handicap if game.white == key else -2 * game.handicap
                dosw += osw[rr] * result
                dosm += osm[rr] * result
            values = row.values
            values[Criterion.SOSW][r] = sum(osw)
            values[Criterion.SODOSW][r] = dosw
            values[Criterion.SOSWM1][r], values[Criterion.SOSWM2][r] = _without_lowest(osw, r)
            values[Criterion.SOSM][r] = sum(osm)
            values[Criterion.SOSTS][r] = sum(osm)
            values[Criterion.SODOSM][r] = dosm
            if r >= 2:  # OpenGotha leaves SOSM-1/-2 at 0 for the first two rounds
                values[Criterion.SOSMM1][r], values[Criterion.SOSMM2][r] = _without_lowest(osm, r)
    for r in range(rounds):
        for key in keys:
            row = table.rows[key]
            sososw = sososm = 0
            ext = exr = 0
            for rr in range(r + 1):
                game = row.games[rr]
                if game is None:
                    sososm += 2 * table.smms[key] * (r + 1)
                    continue
                opp_key = _opponent(game, key)
                opp = table.rows[opp_key]
                sososw += opp.values[Criterion.SOSW][r]
                sososm += opp.values[Criterion.SOSM][r]
                real = game.handicap if game.white == key else -game.handicap
                natural = table.players[key].rank - table.players[opp_key].rank
                coef = min(max(real - natural + 1, 0), 3)
                ext += opp.nbw2[r] * coef
                if _points2(game, key) == 2:
                    exr += opp.nbw2[r] * coef
            row.values[Criterion.SOSOSW][r] = sososw
            row.values[Criterion.SOSOSM][r] = sososm
            row.values[Criterion.EXT][r] = ext
            row.values[Criterion.EXR][r] = exr
