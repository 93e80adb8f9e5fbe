"""The inputs of a norm check and its verdicts (frozen values, no behaviour)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Opponent:
    """An opponent as the norm rules see him: rating list of the event's start (1.4.6)."""

    id: int
    title: str | None
    """FIDE title code: GM, IM, WGM, WIM, FM, WFM, CM, WCM, or None."""
    federation: str | None
    """FIDE federation code; FID (no federation, 1.4.2a) counts for nothing federal."""
    rating: int | None
    """None: unrated (counted as 1400, 1.4.6c)."""


@dataclass(frozen=True, slots=True)
class CountedGame:
    """A game played over the board (1.4.2c: forfeits and byes are not games)."""

    round: int
    opponent: Opponent
    points: float
    """1, 0.5 or 0 from the applicant's side."""


@dataclass(frozen=True, slots=True)
class Applicant:
    """The player whose norms are checked, with his games in round order."""

    id: int
    name: str
    title: str | None
    federation: str | None
    sex: str | None
    games: tuple[CountedGame, ...]
    credited_rounds: tuple[int, ...] = ()
    """Rounds without a game that 1.4.1c lets count: a forfeit win or a pairing-allocated bye."""


@dataclass(frozen=True, slots=True)
class EventFacts:
    """What the rules need to know of the event itself."""

    rounds: int
    """Rounds scheduled."""
    predetermined: bool
    """Pairings fixed in advance (round robin): 1.4.1e counts every round."""
    federation_exempt: bool
    """1.4.3a-d apply: the foreign-opponent rules 1.4.3 and 1.4.4 are waived."""


@dataclass(frozen=True, slots=True)
class Check:
    """One title's requirements over one set of counted games: every figure and what fails."""

    title: str
    rounds_counted: tuple[int, ...]
    games: int
    """Games counted (a 1.4.1c credited round counts as a game here)."""
    points: float
    titled: int
    """Opponents holding a title other than CM/WCM (1.4.5a)."""
    qualifying: int
    """Opponents holding the norm's title or a higher one (1.4.5b-e)."""
    federations: dict[str, int]
    """Opponents per federation (FID and unknown left out)."""
    ra: int
    """Average rating of the opponents after the 1.4.6 floor (1.4.7)."""
    raised: int | None
    """The opponent whose rating was raised to the floor (1.4.6b), if any."""
    percent: int
    dp: int
    rp: int
    failures: tuple[str, ...]
    """Each requirement not met, with its article; empty: the norm is made."""

    @property
    def made(self) -> bool:
        return not self.failures


@dataclass(frozen=True, slots=True)
class NormResult:
    """A title's best result for one player: the whole event, or the best subset that makes it."""

    check: Check
    dropped: tuple[int, ...]
    """Rounds left out (1.4.1e: the last ones; 1.4.1f: won games); empty: the whole event."""


@dataclass(frozen=True, slots=True)
class PlayerNorms:
    """One player's report: the whole event for each title, and the norms made."""

    applicant: Applicant
    event: dict[str, Check]
    """Title -> the check over every counted game of the event."""
    made: dict[str, NormResult]
    """Title -> the norm made (whole event or best subset); titles missing are not made."""
