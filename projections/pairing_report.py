"""The check a go director reads after pairing a round, as OpenGotha's pairing report gives it.

For one round: games between players whose Mac-Mahon scores differ (by gap), games inside a club
and inside a country, players whose colours are out of balance, and handicap games above a
threshold. MMS are the scores before the round, as the pairing saw them.
"""

from __future__ import annotations

from dataclasses import dataclass

from decide.state import TournamentState
from projections.tiebreaks import lookup


@dataclass(frozen=True, slots=True)
class ReportGame:
    board: int
    white: int
    black: int
    white_mms: float | None
    black_mms: float | None
    handicap: int

    @property
    def mms_gap(self) -> float:
        if self.white_mms is None or self.black_mms is None:
            return 0.0
        return abs(self.white_mms - self.black_mms)


@dataclass(frozen=True, slots=True)
class PairingReport:
    round: int
    games: tuple[ReportGame, ...]
    mms_gaps: dict[float, int]  # gap -> number of games with that MMS difference (gap > 0)
    same_club: tuple[ReportGame, ...]
    same_country: tuple[ReportGame, ...]
    colour_imbalance: dict[int, int]  # player -> whites minus blacks (even games), |x| >= 2
    handicap_above: tuple[ReportGame, ...]
    handicap_threshold: int

    def lines(self, names: dict[int, str]) -> list[str]:
        """The report as text lines, as a director reads it."""

        def game(g: ReportGame) -> str:
            return f"board {g.board}: {names[g.white]} - {names[g.black]}"

        out = [f"round {self.round}: {len(self.games)} games"]
        if self.mms_gaps:
            gaps = ", ".join(
                f"{n} game(s) {gap:g} apart" for gap, n in sorted(self.mms_gaps.items())
            )
            out.append(f"MMS differences: {gaps}")
        else:
            out.append("MMS differences: none")
        out.append(f"same club: {len(self.same_club)}")
        out.extend(f"  {game(g)}" for g in self.same_club)
        out.append(f"same country: {len(self.same_country)}")
        out.extend(f"  {game(g)}" for g in self.same_country)
        out.append(f"colour imbalance (|whites - blacks| >= 2): {len(self.colour_imbalance)}")
        out.extend(
            f"  {names[p]}: {'+' if d > 0 else ''}{d}"
            for p, d in sorted(self.colour_imbalance.items())
        )
        out.append(f"handicap above {self.handicap_threshold}: {len(self.handicap_above)}")
        out.extend(f"  {game(g)} ({g.handicap} stones)" for g in self.handicap_above)
        return out


def pairing_report(
    state: TournamentState, round_no: int, handicap_threshold: int = 0
) -> PairingReport:
    rnd = state.rounds[round_no]
    mms = lookup("MMS").compute(state, round_no - 1)
    games = tuple(
        ReportGame(b.board, b.white, b.black, mms.get(b.white), mms.get(b.black), b.handicap)
        for b in rnd.boards
        if b.black is not None
    )
    gaps: dict[float, int] = {}
    for g in games:
        if g.mms_gap > 0:
            gaps[g.mms_gap] = gaps.get(g.mms_gap, 0) + 1
    players = state.players

    def shared(attr: str, g: ReportGame) -> bool:
        a = getattr(players[g.white], attr)
        return bool(a) and a == getattr(players[g.black], attr)

    balance: dict[int, int] = {}
    for r in range(1, round_no + 1):
        for b in state.rounds[r].boards if r in state.rounds else ():
            if b.black is None or b.handicap:
                continue
            balance[b.white] = balance.get(b.white, 0) + 1
            balance[b.black] = balance.get(b.black, 0) - 1
    return PairingReport(
        round=round_no,
        games=games,
        mms_gaps=gaps,
        same_club=tuple(g for g in games if shared("club", g)),
        same_country=tuple(g for g in games if shared("federation", g)),
        colour_imbalance={p: d for p, d in balance.items() if abs(d) >= 2},
        handicap_above=tuple(g for g in games if g.handicap > handicap_threshold),
        handicap_threshold=handicap_threshold,
    )
