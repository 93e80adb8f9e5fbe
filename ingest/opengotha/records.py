"""OpenGotha tournament XML (formats.md §6): the typed records.

Every attribute arbiter knows is a typed field. Sections that neither pairing nor placement
read (display, publishing, team placement) are kept verbatim as :class:`RawElement` trees so
that the writer in ``projections.exports.opengotha`` loses nothing that matters. The reader
is ``ingest.opengotha.reader``.
"""

from __future__ import annotations

from decimal import Decimal

from pydantic import BaseModel, ConfigDict

from events.go import GoResult

__all__ = [
    "ClubsGroup",
    "GeneralParameters",
    "GoResult",
    "HandicapParameters",
    "OGBoard",
    "OGBye",
    "OGGame",
    "OGPlayer",
    "OGTeam",
    "OGTournament",
    "PairingParameters",
    "RawElement",
    "player_key",
    "rating_from_rank",
]

ROUNDS_IN_MASK = 20


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class RawElement(_Frozen):
    """An element kept verbatim: tag, attributes in file order, children."""

    tag: str
    attributes: tuple[tuple[str, str], ...] = ()
    children: tuple[RawElement, ...] = ()


class OGPlayer(_Frozen):
    """A registered player. ``rank`` is OpenGotha's integer rank (30k = -30, 1d = 0)."""

    key: str
    name: str
    first_name: str
    rank: int
    rating: int = -2950
    club: str = ""
    country: str = ""
    egf_pin: str = ""
    ffg_licence: str = ""
    ffg_licence_status: str = ""
    aga_id: str = ""
    aga_expiration_date: str = ""
    rating_origin: str = ""
    grade: str = ""
    smms_correction: int = 0
    participating: tuple[bool, ...] = (True,) * ROUNDS_IN_MASK
    registering_status: str = "FIN"

    def plays_in(self, round_number: int) -> bool:
        """Whether the player takes part in 1-based round ``round_number``."""
        index = round_number - 1
        return index >= len(self.participating) or self.participating[index]


class OGGame(_Frozen):
    """A game of round ``round`` (1-based); players are keys into the player list."""

    round: int
    table: int
    white: str
    black: str
    known_color: bool = True
    handicap: int = 0
    result: GoResult = GoResult.UNKNOWN
    by_default: bool = False


class OGBye(_Frozen):
    round: int
    player: str


class OGBoard(_Frozen):
    round: int
    board: int
    player: str


class OGTeam(_Frozen):
    number: int
    name: str
    boards: tuple[OGBoard, ...] = ()


class ClubsGroup(_Frozen):
    name: str
    clubs: tuple[str, ...] = ()


class GeneralParameters(_Frozen):
    """``GeneralParameterSet``: the fields pairing and placement read, the rest verbatim."""

    number_of_rounds: int = 5
    number_of_categories: int = 1
    category_lower_limits: tuple[int, ...] = ()
    mm_floor: int = -20
    mm_bar: int = 3
    mm_zero: int = -30
    nbw2_absent: int = 0
    nbw2_bye: int = 2
    mms2_absent: int = 1
    mms2_bye: int = 2
    round_down_nbw_mms: bool = True
    count_not_played_as_half_point: bool = False
    other: tuple[tuple[str, str], ...] = ()
    """Attributes that pairing does not read (names, dates, clocks, komi ...), in file order."""


class HandicapParameters(_Frozen):
    based_on_mms: bool = True
    base: str | None = None
    """OpenGotha 3.52's ``hdBase`` (RANK, MMS, BZS) when the file has it."""
    no_hd_rank_threshold: int = 0
    correction: int = 1
    ceiling: int = 9


class PairingParameters(_Frozen):
    """``PairingParameterSet`` as stored (pairing.md §4.4-4.10); weights are exact integers."""

    standard_nx1_factor: Decimal = Decimal("0.5")
    avoid_duplicate_game: int = 500_000_000_000_000
    random: int = 0
    deterministic: bool = True
    balance_wb: int = 1_000_000
    avoid_mixing_categories: int = 0
    minimize_score_difference: int = 100_000_000_000
    dudd_weight: int = 100_000_000
    compensate_dudd: bool = True
    dudd_upper_mode: str = "MID"
    dudd_lower_mode: str = "MID"
    maximize_seeding: int = 5_000_000
    last_round_for_seed_system1: int = 2
    """As stored: the 0-based code value + 1, so rounds 1..this use seed system 1."""
    seed_system1: str = "SPLITANDRANDOM"
    seed_system2: str = "SPLITANDSLIP"
    additional_placement_crit_system1: str = "Rating"
    additional_placement_crit_system2: str = "NULL"
    bar_threshold_active: bool = True
    rank_threshold: int = 0
    nb_wins_threshold_active: bool = False
    def_sec_crit: int = 100_000_000_000
    minimize_handicap: int = 0
    avoid_same_geo: int = 100_000_000_000
    prefer_mms_diff_rather_than_same_country: int = 1
    prefer_mms_diff_rather_than_same_club: int = 3
    prefer_mms_diff_rather_than_same_clubs_group: int | None = None


class OGTournament(_Frozen):
    """One OpenGotha file."""

    attributes: tuple[tuple[str, str], ...] = ()
    """Root attributes (``dataVersion``, ``fullVersionNumber``, ``saveDT`` ...), in file order."""
    players: tuple[OGPlayer, ...] = ()
    games: tuple[OGGame, ...] = ()
    byes: tuple[OGBye, ...] = ()
    teams: tuple[OGTeam, ...] = ()
    general: GeneralParameters | None = None
    handicap: HandicapParameters | None = None
    placement_criteria: tuple[str, ...] | None = None
    """Criterion names in number order, ``NULL`` included, as stored."""
    pairing: PairingParameters | None = None
    other_parameters: tuple[RawElement, ...] = ()
    """``DPParameterSet``, ``PublishParameterSet``: kept verbatim."""
    team_parameters: RawElement | None = None
    clubs_groups: tuple[ClubsGroup, ...] | None = None

    @property
    def data_version(self) -> int | None:
        value = dict(self.attributes).get("dataVersion")
        return int(value) if value is not None and value.isdecimal() else None

    def player(self, key: str) -> OGPlayer:
        for candidate in self.players:
            if candidate.key == key:
                return candidate
        raise KeyError(key)


def player_key(name: str, first_name: str) -> str:
    """OpenGotha's player key: name + first name, spaces removed, upper-cased.

    >>> player_key("Minieri", "Davide")
    'MINIERIDAVIDE'
    """
    return (name + first_name).replace(" ", "").upper()


MIN_RATING = -900
MAX_RATING = 2949
"""OpenGotha's bounds of a rating."""


def rating_from_rank(rank: int) -> int:
    """The rating OpenGotha gives a player from his rank alone (``ratingOrigin="INI"``):
    100 points a grade, 1d = 2100, 30k = -900 (OpenGotha 3.49 and later; the corpus files
    pair ``3D`` with ``2300 INI`` and ``30K`` with ``-900 INI``).

    >>> rating_from_rank(0), rating_from_rank(-20), rating_from_rank(-30)
    (2100, 100, -900)
    """
    return min(max((rank + 30) * 100 - 900, MIN_RATING), MAX_RATING)
