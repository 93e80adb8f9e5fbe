"""The random tournament generator's configuration file (``arbiter-pairings -g CONFIG``).

One ``Key=value`` per line, ``#`` starts a comment line, as bbpPairings reads its generator
configuration. The keys bbpPairings has keep its names and meaning (``PlayersNumber``,
``RoundsNumber``, ``DrawPercentage``, ``ForfeitRate``, ``RetiredRate``, ``HalfPointByeRate``,
``HighestRating``, ``LowestRating``, ``PointsFor…``); arbiter adds ``ZeroPointByeRate``,
``LateEntryRate``, ``HasWhiteAdvantage``, ``WhiteAdvantage`` and ``Acceleration``. A key left
out is drawn from the seed in bbpPairings' ranges (docs/generator.md lists them all).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Final, Literal

from pydantic import Field, ValidationError

from events.frozen import Frozen
from ingest.errors import IngestError

__all__ = ["KEYS", "GeneratorConfig", "read_config"]


class GeneratorConfig(Frozen):
    """What the configuration file says; None: drawn from the seed (see `generator.settle`)."""

    players: int | None = Field(None, ge=2, le=9999)
    rounds: int | None = Field(None, ge=1, le=99)
    draw_percentage: int | None = Field(None, ge=0, le=100)
    forfeit_rate: float | None = Field(None, ge=0)
    """One game in N is forfeited (0: none)."""
    retired_rate: float | None = Field(None, ge=0)
    """One player in N withdraws before a round (0: none)."""
    half_point_bye_rate: float | None = Field(None, ge=0)
    """One player in N takes a half-point bye in one round (0: none)."""
    zero_point_bye_rate: float = Field(0, ge=0)
    """One player in N misses one round, a zero-point bye (0: none)."""
    late_entry_rate: float = Field(0, ge=0)
    """One player in N enters late, absent from the first rounds (0: none)."""
    highest_rating: int | None = Field(None, ge=0, le=9999)
    lowest_rating: int | None = Field(None, ge=0, le=9999)
    has_white_advantage: bool = False
    white_advantage: int = Field(35, ge=0, le=800)
    """Rating points added to White's rating in a game's expected score."""
    points_for_win: Decimal = Field(Decimal(1), ge=0, le=Decimal("99.9"))
    points_for_draw: Decimal = Field(Decimal("0.5"), ge=0, le=Decimal("99.9"))
    points_for_loss: Decimal = Field(Decimal(0), ge=0, le=Decimal("99.9"))
    points_for_forfeit_loss: Decimal = Field(Decimal(0), ge=0, le=Decimal("99.9"))
    """The forfeit loss and the zero-point bye (TRF-2026 ``A``), as bbpPairings has it."""
    points_for_pab: Decimal | None = Field(None, ge=0, le=Decimal("99.9"))
    """None: a win's points."""
    acceleration: Literal["none", "baku"] = "none"
    teams: int | None = Field(None, ge=2, le=999)
    """``--team``: teams (None: 8-120 from the seed)."""
    boards: int | None = Field(None, ge=1, le=20)
    """``--team``: boards per match, each team's members (None: 1-4 from the seed)."""
    colour_preference: Literal["A", "B"] = "A"
    """``--team``: C.04.6 1.7 colour preference type, written in the ``192`` code."""
    primary_score: Literal["MP", "GP"] = "MP"
    """``--team``: the primary score (C.04.6 1.2), written in the ``192`` code."""
    points_for_match_win: Decimal = Field(Decimal(2), ge=0, le=Decimal("99.9"))
    points_for_match_draw: Decimal = Field(Decimal(1), ge=0, le=Decimal("99.9"))
    points_for_match_loss: Decimal = Field(Decimal(0), ge=0, le=Decimal("99.9"))
    """``--team``: match points (record ``362``)."""


KEYS: Final = {
    "PlayersNumber": "players",
    "RoundsNumber": "rounds",
    "DrawPercentage": "draw_percentage",
    "ForfeitRate": "forfeit_rate",
    "RetiredRate": "retired_rate",
    "HalfPointByeRate": "half_point_bye_rate",
    "ZeroPointByeRate": "zero_point_bye_rate",
    "LateEntryRate": "late_entry_rate",
    "HighestRating": "highest_rating",
    "LowestRating": "lowest_rating",
    "HasWhiteAdvantage": "has_white_advantage",
    "WhiteAdvantage": "white_advantage",
    "PointsForWin": "points_for_win",
    "PointsForDraw": "points_for_draw",
    "PointsForLoss": "points_for_loss",
    "PointsForForfeitLoss": "points_for_forfeit_loss",
    "PointsForZPB": "points_for_forfeit_loss",
    "PointsForPAB": "points_for_pab",
    "Acceleration": "acceleration",
    "TeamsNumber": "teams",
    "BoardsNumber": "boards",
    "ColourPreferenceType": "colour_preference",
    "PrimaryScore": "primary_score",
    "PointsForMatchWin": "points_for_match_win",
    "PointsForMatchDraw": "points_for_match_draw",
    "PointsForMatchLoss": "points_for_match_loss",
}
"""The file's keys -> the fields (``PointsForZPB`` is another name of the forfeit loss's)."""


def _normal(field: str, value: str) -> str:
    """Word values in one case: ``Baku`` is ``baku``, ``b`` and ``gp`` are ``B`` and ``GP``."""
    if field == "acceleration":
        return value.lower()
    return value.upper() if field in ("colour_preference", "primary_score") else value


def read_config(path: str, text: str) -> GeneratorConfig:
    """The configuration in ``text`` (the file ``path``, named in errors).

    >>> read_config("c.txt", "# ten players\\nPlayersNumber=10\\nAcceleration=baku").players
    10

    :raises IngestError: a line without ``=``, an unknown or repeated key, a value out of
        range, naming the line and column.
    """
    values: dict[str, str] = {}
    lines: dict[str, tuple[int, int]] = {}
    for number, line in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), 1):
        if not line.strip() or line.startswith("#"):
            continue
        key, equals, value = line.partition("=")
        key = key.strip()
        if not equals:
            raise IngestError(path, number, 1, "not a Key=value line", line, "Key=value")
        field = KEYS.get(key)
        if field is None:
            known = ", ".join(KEYS)
            raise IngestError(path, number, 1, f"unknown key '{key}'", key, f"one of {known}")
        if field in values:
            raise IngestError(path, number, 1, f"'{key}' given twice", key, "each key once")
        values[field] = _normal(field, value.strip())
        lines[field] = (number, len(line) - len(line.lstrip()) + len(key) + 2)
    try:
        config = GeneratorConfig.model_validate(values)
    except ValidationError as exc:
        error = exc.errors()[0]
        field = str(error["loc"][0]) if error["loc"] else ""
        line_no, column = lines.get(field, (0, 0))
        key = next((k for k, f in KEYS.items() if f == field), field)
        raise IngestError(
            path, line_no, column, f"bad value for {key}: {error['msg']}", values.get(field)
        ) from None
    low, high = config.lowest_rating, config.highest_rating
    if low is not None and high is not None and high < low:
        line_no, column = lines["highest_rating"]
        raise IngestError(
            path, line_no, column, "HighestRating below LowestRating", str(high), f">= {low}"
        )
    return config
