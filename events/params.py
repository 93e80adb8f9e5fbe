"""A tournament's pairing (and rating-class) parameters: one frozen model per system.

`TournamentCreated.pairing_params` holds a `PairingParams`: the settings of chess Swiss
pairing, of go (Mac-Mahon and go Swiss, OpenGotha's parameters), of carrom Swiss (SoL) and
the rating class of the event. Each part is read by attribute (``params.go.komi``), never by
a string key.

Stored, the parameters stay one flat JSON object, as events written before these models
have them (``{"mm_bar": 3, "mm_floor": -20, "komi": 7.5}``, ``{"initial_colour": "black"}``):
`PairingParams` reads that shape and writes it back, so old payloads decode unchanged and no
upcaster is needed. A flat key that no typed field claims is one of OpenGotha's tunables (an
imported OpenGotha file stores its whole parameter set); those are kept in
`GoSettings.opengotha` and checked when the Mac-Mahon engine's parameters are built.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field, JsonValue, field_validator, model_serializer, model_validator

from events.domain import Colour
from events.frozen import Frozen

__all__ = [
    "HANDICAP_KOMI",
    "CarromSettings",
    "ChessSettings",
    "GoSettings",
    "PairingParams",
    "RatingSettings",
    "TeamSettings",
]


class ChessSettings(Frozen):
    """Chess Swiss (Dutch, Burstein)."""

    initial_colour: Colour | None = None
    """The top seed's colour in round 1; ``None``: white, or read back from an import."""
    rules: str | None = None
    """The edition of the Dutch rules: ``2017`` (C.04.3 as in force 2017-2025); ``None``: 2025."""
    acceleration: str | None = None
    """``baku``: FIDE's Baku acceleration (C.04.7) on the Dutch, Burstein and Dubov systems;
    ``None``: none (Burstein: its own round-1 acceleration, as bbpPairings)."""

    @field_validator("initial_colour", mode="before")
    @classmethod
    def _colour(cls, value: object) -> object:
        # Stored as "white"/"black" (older events: any text, read as black when it starts
        # with "b", as the pairing always read it).
        if isinstance(value, str):
            return Colour.BLACK if value.strip().lower().startswith("b") else Colour.WHITE
        return value


HANDICAP_KOMI = 0.5
"""Komi of a handicap game by EGF and AGA rules (White wins a tie of the board count)."""


class GoSettings(Frozen):
    """Go: Mac-Mahon and go Swiss as OpenGotha pairs them; ranks on OpenGotha's scale."""

    komi: float | None = None
    """Komi of even games (boards record it)."""
    handicap_komi: float | None = None
    """Komi of handicap games (a handicap of 1 or more); ``None``: `HANDICAP_KOMI`."""
    mm_bar: int | None = Field(None, ge=-30, le=8)
    """Mac-Mahon bar (3 = 4d); ``None``: the system's default."""
    mm_floor: int | None = Field(None, ge=-30, le=8)
    """Mac-Mahon floor (-20 = 20k); ``None``: the system's default."""
    gopair_handicaps: str | None = Field(None, pattern="^(max|min)$")
    """gopair: ``max`` (handicap games, ``## HANDICAPS MAX``) or ``min`` (even games)."""
    gopair_early_adjustment: bool | None = None
    """gopair: the early-round adjustment (off as gopair's ``-ne``); ``None``: on."""
    opengotha: dict[str, JsonValue] = Field(default_factory=dict)
    """OpenGotha's other tunables by its parameter names (``placement_criteria``, ...)."""

    def komi_for(self, handicap: int | None) -> float | None:
        """The komi of a board: the even komi, or on a handicap board the handicap komi
        (one rule for the pairing, the ingested files and every export).

        >>> go = GoSettings(komi=7.5)
        >>> go.komi_for(0), go.komi_for(1), go.komi_for(4), GoSettings(handicap_komi=0).komi_for(2)
        (7.5, 0.5, 0.5, 0.0)
        """
        if not handicap:
            return self.komi
        return HANDICAP_KOMI if self.handicap_komi is None else self.handicap_komi

    def macmahon(self) -> dict[str, JsonValue]:
        """The values for the Mac-Mahon engine's parameters (all but the komi)."""
        values = dict(self.opengotha)
        for name in ("mm_bar", "mm_floor"):
            value = getattr(self, name)
            if value is not None:
                values[name] = value
        return values


class CarromSettings(Frozen):
    """Carrom Swiss as SoL pairs it (SoL's own parameter names)."""

    couplings: str | None = Field(None, pattern="^(serial|dazed|staggered|seeds|circle|all)$")
    """SoL's ``couplings``: serial, dazed, staggered or all (Swiss); seeds, circle or all
    (round robin); seeds (knockout)."""
    delaytoppairing: int | None = Field(None, ge=0)
    delaycompatriotpairing: int | None = Field(None, ge=0)
    phantomscore: int | None = Field(None, ge=1, le=25)
    """Score of a win against the phantom (the bye); SoL's default is 25."""
    draw_seed: int | None = Field(None, ge=0)
    """Seed of SoL's random first-round draw: round r draws with ``draw_seed * 1000 + r``;
    ``None``: a seed fixed by the tournament's id."""


class RatingSettings(Frozen):
    """The event's class for the rating lists (its games' weight)."""

    egf_class: str | None = None
    rating_class: str | None = None
    rating_weight: float | None = None
    rating_type: str | None = None
    """Chess: the FIDE rating type the event counts for (standard, rapid, blitz)."""


class TeamSettings(Frozen):
    """Team events (TRF-2026 ``192``, ``352``, ``362``, ``320``)."""

    team_boards: int | None = Field(None, ge=1, le=64)
    """Boards per match."""
    team_match_points: str | None = None
    """Match points of a won/drawn/lost match, ``2/1/0`` (the default)."""
    team_type: str | None = None
    """Colour preferences of the team Swiss (C.04.6 1.7): ``A`` (default), ``B`` or ``none``."""
    team_primary: str | None = None
    """``MP`` (default) or ``GP``: the score that makes scoregroups and ranks first."""
    team_secondary: bool | None = None
    """Whether the secondary score chooses the first team for colours (default yes)."""
    team_board_colours: str | None = None
    """Board colours of the team with White on board 1 (``352``), default ``WBWB…``."""
    team_pab_points: str | None = None
    """Match and game points of the team PAB, ``1/2`` (default: a drawn match)."""
    team_tiebreaks: str | None = None
    """Team tie-breaks after the primary score, ``GP,BH:MP``, where the tournament's own chain
    is an individual one (a go event with teams, from OpenGotha); default: that chain."""


_PARTS: dict[str, type[Frozen]] = {
    "chess": ChessSettings,
    "go": GoSettings,
    "carrom": CarromSettings,
    "rating": RatingSettings,
    "team": TeamSettings,
}
_OWNER = {name: part for part, cls in _PARTS.items() for name in cls.model_fields}
del _OWNER["opengotha"]


class PairingParams(Frozen):
    """Every system's settings; a system reads its own part, the others stay empty.

    >>> params = PairingParams.model_validate({"mm_bar": 3, "komi": 7.5, "initial_colour": "b"})
    >>> params.go.mm_bar, params.go.komi, params.chess.initial_colour
    (3, 7.5, <Colour.BLACK: 'b'>)
    >>> params.model_dump()
    {'initial_colour': 'black', 'komi': 7.5, 'mm_bar': 3}
    """

    chess: ChessSettings = Field(default_factory=ChessSettings)
    go: GoSettings = Field(default_factory=GoSettings)
    carrom: CarromSettings = Field(default_factory=CarromSettings)
    rating: RatingSettings = Field(default_factory=RatingSettings)
    team: TeamSettings = Field(default_factory=TeamSettings)

    @model_validator(mode="before")
    @classmethod
    def _from_flat(cls, data: Any) -> Any:
        """The stored flat object → the parts (a nested object passes unchanged)."""
        if not isinstance(data, dict) or any(key in _PARTS for key in data):
            return data
        parts: dict[str, dict[str, Any]] = {name: {} for name in _PARTS}
        for key, value in data.items():
            owner = _OWNER.get(key)
            if owner is None:
                parts["go"].setdefault("opengotha", {})[key] = value
            else:
                parts[owner][key] = value
        return parts

    @model_serializer(mode="plain")
    def _to_flat(self) -> dict[str, Any]:
        """The flat object events store: only the values that are set."""
        flat: dict[str, Any] = {}
        if self.chess.initial_colour is not None:
            flat["initial_colour"] = self.chess.initial_colour.word
        if self.chess.rules is not None:
            flat["rules"] = self.chess.rules
        if self.chess.acceleration is not None:
            flat["acceleration"] = self.chess.acceleration
        for part in (self.go, self.carrom, self.rating, self.team):
            for name in type(part).model_fields:
                value = getattr(part, name)
                if name == "opengotha":
                    flat.update(value)
                elif value is not None:
                    flat[name] = value
        return flat
