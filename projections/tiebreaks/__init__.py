"""Tie-break registry: each code (C.07 / EGF / SoL) maps to one function over a shared context.

`lookup("BH/C1")` parses the modifiers and returns a `Tiebreak`; its `compute(state, through)`
gives a value per player (None where undefined). Higher is better unless the entry says
otherwise (direct encounter). Functions read a `TiebreakContext` built once per standings
computation, so a chain of tie-breaks walks the tournament state only once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from decide.state import TournamentState
from projections.tiebreaks import buchholz, counts, encounter, go, performance, scores
from projections.tiebreaks.context import TiebreakContext, TiebreakOptions, build_context
from projections.tiebreaks.spec import TiebreakSpec, UnknownTiebreak, parse_code

__all__ = [
    "REGISTRY",
    "Definition",
    "Tiebreak",
    "TiebreakContext",
    "TiebreakOptions",
    "UnknownTiebreak",
    "Values",
    "build_context",
    "lookup",
]

Values = dict[int, float | None]
EvaluateFn = Callable[[TiebreakContext, TiebreakSpec], Values]
GroupFn = Callable[[TiebreakContext, Sequence[Sequence[int]], dict[int, int]], Values]


@dataclass(frozen=True, slots=True)
class Definition:
    """A registered tie-break: its code, name, function and the modifiers it accepts."""

    code: str
    name: str
    evaluate: EvaluateFn | None = None
    modifiers: str = ""  # letters of the accepted modifiers: C (cut), M (median), U, L
    higher_is_better: bool = True
    grouped: GroupFn | None = None  # computed inside groups tied on the earlier criteria


@dataclass(frozen=True, slots=True)
class Tiebreak:
    """A tie-break as used in a chain: the definition plus its parsed modifiers."""

    spec: TiebreakSpec
    definition: Definition

    @property
    def code(self) -> str:
        return self.spec.code

    @property
    def name(self) -> str:
        return self.definition.name

    @property
    def higher_is_better(self) -> bool:
        return self.definition.higher_is_better

    @property
    def grouped(self) -> bool:
        return self.definition.grouped is not None

    def evaluate(
        self,
        ctx: TiebreakContext,
        groups: Sequence[Sequence[int]] | None = None,
        start: dict[int, int] | None = None,
    ) -> Values:
        """Values over a built context; grouped tie-breaks need the tied groups."""
        if self.definition.grouped is not None:
            ranks = start or {pid: pid for pid in ctx.players}
            if groups is None:
                by_points: dict[float, list[int]] = {}
                for pid, pr in ctx.players.items():
                    by_points.setdefault(pr.points, []).append(pid)
                groups = list(by_points.values())
            return self.definition.grouped(ctx, groups, ranks)
        assert self.definition.evaluate is not None
        return self.definition.evaluate(ctx, self.spec)

    def compute(
        self, state: TournamentState, through: int, options: TiebreakOptions | None = None
    ) -> Values:
        """Values after round `through`; a grouped tie-break splits the groups tied on points."""
        return self.evaluate(build_context(state, through, options), start=state.start_ranks())


def _chess() -> list[Definition]:
    b, c, p = buchholz, counts, performance
    return [
        Definition("BH", "Buchholz", b.buchholz, "CM"),
        Definition("FB", "Fore Buchholz", b.fore_buchholz, "CM"),
        Definition("SB", "Sonneborn-Berger", b.sonneborn_berger, "CM"),
        Definition("AOB", "Average of opponents' Buchholz", b.average_of_buchholz),
        Definition("ABH", "Score as seen by the opponents' Buchholz", b.adjusted_score_values),
        Definition("AFB", "Score as seen by the opponents' Fore Buchholz", b.adjusted_fore_values),
        Definition("WIN", "Number of wins", c.wins),
        Definition("WON", "Games won over the board", c.games_won),
        Definition("BPG", "Games played with black", c.black_games),
        Definition("BWG", "Games won with black", c.black_wins),
        Definition("REP", "Rounds one elected to play", c.rounds_elected_to_play),
        Definition("GE", "Rounds one elected to play (2023 name)", c.rounds_elected_to_play),
        Definition("VUR", "Voluntarily unplayed rounds", c.voluntary_unplayed),
        Definition("PS", "Progressive scores", c.progressive, "C"),
        Definition("KS", "Koya system", c.koya, "L"),
        Definition("STD", "Points under 1/½/0", c.standard_points),
        Definition("ARO", "Average rating of opponents", p.average_rating, "CMU"),
        Definition("TPR", "Tournament performance rating", p.performance_rating, "U"),
        Definition("PTP", "Perfect tournament performance", p.perfect_performance, "U"),
        Definition("APRO", "Average of opponents' TPR", p.average_performance_of_opponents, "U"),
        Definition(
            "APPO", "Average of opponents' PTP", p.average_perfect_performance_of_opponents, "U"
        ),
        Definition(
            "DE", "Direct encounter", higher_is_better=False, grouped=encounter.direct_encounter
        ),
    ]


def _go() -> list[Definition]:
    return [
        Definition("NBW", "Number of wins (go)", go.nbw),
        Definition("MMS", "McMahon score", go.mms),
        Definition("SOSW", "Sum of opponents' NBW", go.sosw, "C"),
        Definition("SOSM", "Sum of opponents' MMS", go.sosm, "C"),
        Definition("SOSOSW", "Sum of opponents' SOSW", go.sososw),
        Definition("SOSOSM", "Sum of opponents' SOSM", go.sososm),
        Definition("SODOSW", "Sum of defeated opponents' NBW", go.sodosw),
        Definition("SODOSM", "Sum of defeated opponents' MMS", go.sodosm),
        Definition("CUSSW", "Cumulative sum of NBW", go.cussw),
        Definition("CUSSM", "Cumulative sum of MMS", go.cussm),
        Definition("EXT", "Exploits attempted", go.exploits_tried),
        Definition("EXR", "Exploits achieved", go.exploits_succeeded),
        Definition("DC", "Direct confrontation", grouped=go.direct_confrontation),
        Definition(
            "SDC", "Simplified direct confrontation", grouped=go.simplified_direct_confrontation
        ),
    ]


def _scores() -> list[Definition]:
    return [
        Definition("BUCHOLZ", "Bucholz with retirements (SoL)", scores.bucholz),
        Definition("NETSCORE", "Net score (SoL)", scores.net_score),
        Definition("TOTSCORE", "Total score (SoL)", scores.total_score),
        Definition("DISCS", "Disc count (othello)", scores.disc_count),
        Definition("BQ", "Brightwell quotient (othello, WOC rules)", scores.brightwell),
    ]


REGISTRY: dict[str, Definition] = {d.code: d for d in (*_chess(), *_go(), *_scores())}


def lookup(code: str) -> Tiebreak:
    """The tie-break for a code such as `BH`, `bh/c1` or `ARO/C1/U1400`.

    :raises UnknownTiebreak: for an unknown code or a modifier the tie-break does not take.
    """
    spec = parse_code(code)
    definition = REGISTRY.get(spec.base)
    if definition is None:
        raise UnknownTiebreak(code, ", ".join(sorted(REGISTRY)))
    allowed = definition.modifiers
    used = {
        "C": spec.cut_low > 0 and spec.cut_high == 0,
        "M": spec.cut_high > 0,
        "U": spec.unrated is not None,
        "L": spec.limit_percent is not None,
    }
    if any(on and letter not in allowed for letter, on in used.items()):
        raise UnknownTiebreak(code, f"{definition.code} takes modifiers '{allowed or 'none'}'")
    return Tiebreak(spec, definition)
