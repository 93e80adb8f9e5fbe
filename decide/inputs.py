"""What a user enters, as one pydantic model per thing: a player, the event's data, a
tournament, a result, a bye, a team, a team member.

Every door builds these models and hands them to the same command functions
(`pipelines.commands`): the command line (its options are made from the fields,
`pipelines.cli.options`), the CSV import (its columns are the field names), the JSON API (its
request bodies are these models) and the web forms. The validators are the field rules of
`events.validate`; the rules that depend on the tournament read its game (and its rounds, and
the event's data already set) from the validation context, which the commands give
(`Input.check`). Without that context (FastAPI parsing a request body) only the types are
checked, and the command checks the rest. A refusal is an `events.validate.InvalidField` naming
the field, which each door says its own way (`--federation`, ``federation``).

A field's ``description`` is its help text everywhere (``--help``, the OpenAPI schema, the
forms); ``json_schema_extra={"option": ...}`` names its command-line option where it is not
``--`` + the field with dashes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, ClassVar, Self

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from events import validate
from events.domain import ByeKind, Game, System
from events.registration import Registration
from events.schema import TournamentEdited
from events.text import excerpt
from events.validate import InvalidField

__all__ = [
    "OPTION_NAMES",
    "EventData",
    "EventDataInput",
    "Input",
    "PlayerChanges",
    "PlayerInput",
    "Registering",
    "ResultInput",
    "TournamentInput",
    "created_fields",
    "option_name",
    "refusal",
    "refusal_of",
]


def _whole_number(value: Any) -> Any:
    """An integer from the API (a number) or from text (a CSV cell, a form field)."""
    if isinstance(value, str):
        text = value.strip()
        if text.lstrip("+-").isdigit():
            return int(text)
        raise ValueError(f"{excerpt(value)} is not a whole number")
    if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
        raise ValueError(f"{value!r} is not a whole number")
    return value


def _number(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return float(value.strip())
        except ValueError:
            raise ValueError(f"{excerpt(value)} is not a number") from None
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a number")  # noqa: TRY004 (pydantic wants ValueError)
    return value


WholeNumber = Annotated[int, BeforeValidator(_whole_number)]
Number = Annotated[float, BeforeValidator(_number)]


def _game(info: ValidationInfo) -> Game | None:
    context = info.context or {}
    game = context.get("game")
    return game if isinstance(game, Game) else None


class Input(BaseModel):
    """Base of the input models: unknown fields refused, values as entered until checked
    (each model's validator built when it first checks: a command uses one or two)."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    @classmethod
    def check(cls, raw: Mapping[str, Any] | BaseModel, **context: Any) -> Self:
        """``raw`` validated with every rule, the tournament's facts in ``context`` (``game``,
        ``rounds``, ``current``); the first refusal as an `InvalidField` naming its field."""
        data = raw.model_dump(exclude_unset=True) if isinstance(raw, BaseModel) else dict(raw)
        try:
            return cls.model_validate(data, context=context)
        except ValidationError as exc:
            raise refusal(exc) from None


def refusal(exc: ValidationError) -> InvalidField:
    """The first error of ``exc`` as an `InvalidField`: the rule's own one when a rule refused,
    else the field and pydantic's reason (a wrong type, a missing field, an unknown one)."""
    return refusal_of(exc.errors())


def refusal_of(errors: Sequence[Mapping[str, Any]], skip: tuple[str, ...] = ()) -> InvalidField:
    """`refusal` of a list of pydantic errors (FastAPI's request errors: ``skip`` the parts
    of their place that are not the field, such as ``body``)."""
    first: Mapping[str, Any] = (
        errors[0] if errors else {"loc": (), "type": "", "msg": "invalid input"}
    )
    cause = (first.get("ctx") or {}).get("error")
    if isinstance(cause, InvalidField):
        return cause
    field = ".".join(str(x) for x in first["loc"] if x not in skip) or "input"
    if first["type"] == "missing":
        return InvalidField(field, "missing")
    if first["type"] == "extra_forbidden":
        return InvalidField(field, "is not a field of this input")
    message = str(cause) if isinstance(cause, ValueError) else str(first["msg"])
    return InvalidField(field, message[0].lower() + message[1:] if message else message)


# ------------------------------------------------------------------ players


class PlayerInput(Input):
    """A player's registration, as typed (`arbiter player add`, a CSV row, the API, a form)."""

    name: str = Field(description="'Surname, Firstname'.")
    rating: WholeNumber | None = Field(None, description="Rating (chess 0..3000; 0: unrated).")
    federation: str | None = Field(
        None, description="Federation (chess: FIDE code such as NOR; other games their own)."
    )
    fide_id: str | None = Field(None, description="FIDE id (digits).")
    title: str | None = Field(None, description="Chess: GM, IM, WGM, FM, WIM, CM, WFM, WCM.")
    club: str | None = Field(None, description="Club.")
    rank: str | None = Field(None, description="Go rank, e.g. 3d or 12k.")
    birth: str | None = Field(None, description="Birth date YYYY-MM-DD or year YYYY.")
    sex: str | None = Field(None, description="m or f.")
    seed: WholeNumber | None = Field(
        None,
        ge=1,
        description="Seed position (knockout, SoL round robin; fixed start number).",
    )
    aga_rating: Number | None = Field(
        None, description="Go: AGA rating for gopair, e.g. 3.27 (dan) or -5.5 (kyu)."
    )
    egd_pin: str | None = Field(None, description="Go: EGD PIN (digits).")
    aga_id: str | None = Field(None, description="Go: AGA member id (digits).")
    wof_id: str | None = Field(None, description="Othello: WOF player id (digits).")
    paid: bool | None = Field(
        None, description="Entry fee paid (shown in the players list and the printed one)."
    )

    EVENT_NAMES: ClassVar[dict[str, str]] = {"seed": "pairing_number"}
    """Fields stored under another name in `PlayerRegistered`/`PlayerUpdated`."""
    EVENT_IDS: ClassVar[dict[str, str]] = {"egd_pin": "egd_pin", "aga_id": "aga", "wof_id": "wof"}
    """Fields stored in the events' ``ids``, under these keys."""
    GAME_FIELDS: ClassVar[dict[str, Game]] = {
        "title": Game.CHESS,
        "fide_id": Game.CHESS,
        "rank": Game.GO,
        "aga_rating": Game.GO,
        "egd_pin": Game.GO,
        "aga_id": Game.GO,
        "wof_id": Game.OTHELLO,
    }
    """Fields of one game only: a form of another game's event does not ask for them."""

    @classmethod
    def asks(cls, field: str, game: Game) -> bool:
        """Whether a form of a ``game`` event asks for ``field``."""
        return cls.GAME_FIELDS.get(field, game) is game

    @field_validator("name", "club")
    @classmethod
    def _text(cls, value: str | None, info: ValidationInfo) -> str | None:
        return None if value is None else validate.text(str(info.field_name), value)

    @field_validator("rating")
    @classmethod
    def _rating(cls, value: int | None, info: ValidationInfo) -> int | None:
        """Within the game's range; 0 is no rating (unrated), stored as a blank is."""
        return _in_range(value, info) or None

    @field_validator("federation")
    @classmethod
    def _federation(cls, value: str | None, info: ValidationInfo) -> str | None:
        game = _game(info)
        return value if value is None or game is None else validate.federation(value, game)

    @field_validator("title")
    @classmethod
    def _title(cls, value: str | None, info: ValidationInfo) -> str | None:
        game = _game(info)
        return value if value is None or game is None else validate.title(value, game)

    @field_validator("fide_id")
    @classmethod
    def _fide_id(cls, value: str | None) -> str | None:
        return None if value is None else validate.fide_id(value)

    @field_validator("egd_pin")
    @classmethod
    def _egd_pin(cls, value: str | None, info: ValidationInfo) -> str | None:
        return None if value is None else validate.egd_pin(value, _game(info))

    @field_validator("aga_id")
    @classmethod
    def _aga_id(cls, value: str | None, info: ValidationInfo) -> str | None:
        return None if value is None else validate.aga_id(value, _game(info))

    @field_validator("wof_id")
    @classmethod
    def _wof_id(cls, value: str | None, info: ValidationInfo) -> str | None:
        return None if value is None else validate.wof_id(value, _game(info))

    @field_validator("rank")
    @classmethod
    def _rank(cls, value: str | None) -> str | None:
        return None if value is None else validate.go_rank(value)

    @field_validator("birth")
    @classmethod
    def _birth(cls, value: str | None) -> str | None:
        return None if value is None else validate.birth(value)

    @field_validator("sex")
    @classmethod
    def _sex(cls, value: str | None) -> str | None:
        return None if value is None else validate.sex(value)

    @field_validator("paid", mode="before")
    @classmethod
    def _paid(cls, value: object) -> object:
        """yes/no as a CSV or a form writes it (true/false, 1/0 too)."""
        if isinstance(value, str):
            word = value.strip().lower()
            if word in ("yes", "y", "true", "1"):
                return True
            if word in ("no", "n", "false", "0"):
                return False
            raise InvalidField("paid", f"{excerpt(value)} is not yes or no")
        return value

    @field_validator("aga_rating")
    @classmethod
    def _aga(cls, value: float | None, info: ValidationInfo) -> float | None:
        game = _game(info)
        return value if value is None or game is None else validate.aga_rating(value, game)

    def event_fields(self) -> dict[str, Any]:
        """The fields given, by their names in the registration events (the federation ids
        in ``ids``)."""
        given = self.model_dump(exclude_none=True)
        ids = {key: given.pop(name) for name, key in self.EVENT_IDS.items() if name in given}
        fields = {self.EVENT_NAMES.get(k, k): v for k, v in given.items()}
        return {**fields, "ids": ids} if ids else fields


class Registering(Input):
    """How a registration is taken, at every door that registers a player (`player add`,
    `player import`, `team member add`, `registrations T approve`, the API, the forms): the
    two flags declared once, their help the fields' descriptions."""

    force: bool = Field(
        False,
        description="Register a second player of the same name and birth date (a namesake); "
        "nothing else.",
    )
    not_on_list: bool = Field(
        False,
        description="Register a fide_id, egd_pin or aga_id that is on no imported list (a "
        "player new to FIDE, the EGD or the AGA), with the values given.",
    )


class PlayerChanges(PlayerInput):
    """Corrections to a registration (`arbiter player edit`): only the fields given change."""

    name: str | None = Field(None, description="'Surname, Firstname'.")  # type: ignore[assignment]

    @field_validator("rating")
    @classmethod
    def _rating(cls, value: int | None, info: ValidationInfo) -> int | None:
        """Within the game's range; a correction's None is 'unchanged', and 0 takes the rating
        away (`events.schema.RATING_CLEARED`: the player is unrated, as a blank registration)."""
        return _in_range(value, info)


def _in_range(value: int | None, info: ValidationInfo) -> int | None:
    game = _game(info)
    return value if value is None or game is None else validate.rating(value, game)


# ------------------------------------------------------------------ event data


EventData = TournamentEdited
"""The event's data, validated, under the names the tournament events give them: the fields of
`events.schema.TournamentEdited` (the name aside), a field left None not given."""


def created_fields(data: EventData) -> dict[str, Any]:
    """The `TournamentCreated` / `TournamentEdited` fields ``data`` sets (rating type aside,
    which a tournament keeps in its pairing parameters)."""
    out = data.model_dump(exclude_none=True, exclude={"type", "name", "rating_type", "round_dates"})
    if data.round_dates:
        out["round_dates"] = dict(data.round_dates)
    return out


class EventDataInput(Input):
    """The event's data as typed (`tournament create`, `tournament edit`, the API, a form).

    Checked together with what is already set (``current`` in the context: an `EventData`):
    the end not before the start, the round dates inside them and within the event's
    ``rounds``.
    """

    start: str | None = Field(None, description="First day, YYYY-MM-DD.")
    end: str | None = Field(None, description="Last day, YYYY-MM-DD.")
    place: str | None = Field(None, description="Where it is played (city, venue).")
    federation: str | None = Field(
        None, description="Organising federation (chess: FIDE code such as NOR)."
    )
    chief_arbiter: str | None = Field(None, description="'Surname, Firstname'.")
    deputy_arbiters: list[str] | None = Field(
        None,
        description="A deputy chief arbiter (repeat for each).",
        json_schema_extra={"option": "--deputy-arbiter"},
    )
    time_control: str | None = Field(None, description="Free text, e.g. \"90'+30''\".")
    rating_type: str | None = Field(
        None, description="Chess: the FIDE list it counts for: standard|rapid|blitz."
    )
    round_dates: list[str] | None = Field(
        None,
        description="A round's date, ROUND=YYYY-MM-DD (repeat for each round).",
        json_schema_extra={"option": "--round-date"},
    )

    DATA_FIELDS: ClassVar[tuple[str, ...]] = (
        "start", "end", "place", "federation", "chief_arbiter", "deputy_arbiters",
        "time_control", "rating_type", "round_dates",
    )  # fmt: skip

    @field_validator("round_dates", mode="before")
    @classmethod
    def _round_date_map(cls, value: Any) -> Any:
        """The API may give ``{"3": "2026-03-03"}``; the command line ``3=2026-03-03``."""
        if isinstance(value, Mapping):
            return [f"{k}={v}" for k, v in value.items()]
        return value

    def data(self, game: Game, rounds: int, current: EventData | None = None) -> EventData:
        """The validated data (each field's rule, then the dates together)."""
        text = validate.text
        data = EventData(
            start_date=None if self.start is None else validate.calendar_date("start", self.start),
            end_date=None if self.end is None else validate.calendar_date("end", self.end),
            city=None if self.place is None else text("place", self.place),
            federation=(
                None if self.federation is None else validate.federation(self.federation, game)
            ),
            chief_arbiter=(
                None if self.chief_arbiter is None else text("chief_arbiter", self.chief_arbiter)
            ),
            deputy_arbiters=(
                None
                if self.deputy_arbiters is None
                else tuple(text("deputy_arbiters", d) for d in self.deputy_arbiters)
            ),
            time_control=(
                None if self.time_control is None else text("time_control", self.time_control)
            ),
            rating_type=(
                None if self.rating_type is None else validate.rating_type(self.rating_type, game)
            ),
            round_dates=dict(validate.round_date(t, rounds) for t in self.round_dates or ()),
        )
        now = current or EventData()
        first = data.start_date or now.start_date
        last = data.end_date or now.end_date
        if first is not None and last is not None and last < first:
            which = "end" if data.end_date is not None else "start"
            raise InvalidField(which, f"the end {last} is before the start {first}")
        dates = {**now.round_dates, **data.round_dates}
        for n, day in sorted(dates.items()):
            if first is not None and day < first:
                raise InvalidField("round_dates", f"round {n} on {day} is before the start {first}")
            if last is not None and day > last:
                raise InvalidField("round_dates", f"round {n} on {day} is after the end {last}")
        return data

    @model_validator(mode="after")
    def _checked(self, info: ValidationInfo) -> Self:
        context = info.context or {}
        game = context.get("game")
        if isinstance(game, Game):
            self.data(game, int(context.get("rounds", 1)), context.get("current"))
        return self


class EventChanges(EventDataInput):
    """`tournament edit`: the event's data, its name, self-registration and check-in."""

    name: str | None = Field(None, description="New name.")
    registration: str | None = Field(
        None,
        description="Players enter themselves on the event's page: open (registered at once), "
        "approval (the director approves) or closed.",
    )
    check_in: str | None = Field(
        None,
        description="Check-in before round 1, FROM/TO (2026-03-01T09:00/09:45): round 1 leaves "
        "out who did not check in.",
    )

    @field_validator("name")
    @classmethod
    def _name(cls, value: str | None) -> str | None:
        return None if value is None else validate.text("name", value)

    @field_validator("registration")
    @classmethod
    def _registration(cls, value: str | None) -> str | None:
        if value is None:
            return None
        known = [m.value for m in Registration]
        if value.strip().lower() not in known:
            raise InvalidField("registration", f"{value!r} is not one of {', '.join(known)}")
        return value.strip().lower()

    @field_validator("check_in")
    @classmethod
    def _check_in(cls, value: str | None) -> str | None:
        if value is not None:
            validate.check_in_window(value)
        return value

    def access_fields(self) -> dict[str, Any]:
        """The registration mode and check-in window given, as `TournamentEdited` fields."""
        fields: dict[str, Any] = {}
        if self.registration is not None:
            fields["registration"] = Registration(self.registration)
        if self.check_in is not None:
            opens, closes = validate.check_in_window(self.check_in)
            fields["check_in_opens"], fields["check_in_closes"] = opens, closes
        return fields


# ------------------------------------------------------------------ tournaments


class TournamentInput(EventDataInput):
    """A new tournament (`arbiter tournament create`, the API): what it is, how it pairs, and
    the event's data. The system's settings are checked by `pipelines.commands.tournaments`."""

    name: str = Field(description="Tournament name.")
    game: Game = Field(Game.CHESS, description="Game played.")
    system: System = Field(System.ROUNDROBIN, description="Pairing system.")
    rounds: WholeNumber = Field(5, ge=1, description="Rounds (per cycle for round robin).")
    double: bool = Field(False, description="Double round robin (two cycles).")
    scoring: str | None = Field(None, description="Points for win,draw,loss, e.g. 3,1,0.")
    tiebreaks: str | None = Field(None, description="Tie-break chain, e.g. 'BH,SB'.")
    id: str | None = Field(None, description="Explicit id instead of one made from the name.")
    bar: str | None = Field(None, description="Mac-Mahon bar (go rank such as 4d).")
    floor: str | None = Field(None, description="Mac-Mahon floor (go rank such as 20k).")
    komi: Number | None = Field(None, description="Go: komi of even games.")
    handicap_komi: Number | None = Field(
        None, description="Go: komi of handicap games (default 0.5, as EGF and AGA rules give)."
    )
    initial_colour: str | None = Field(
        None, description="Swiss chess: colour of the top seed in round 1 (white/black)."
    )
    pairing: str | None = Field(
        None,
        description="Carrom (SoL) method: swiss serial (default), dazed, staggered or all; "
        "round robin circle (default: always completes), seeds or all; knockout seeds.",
    )
    draw_seed: WholeNumber | None = Field(
        None,
        ge=0,
        description="Carrom (SoL): seed of the random first-round draw of an unrated Swiss "
        "(round r draws with SEED*1000+r); default: fixed by the tournament's id.",
    )
    handicaps: str | None = Field(
        None,
        description="Go gopair: max (handicap games, default) or min (even games), "
        "as gopair's HANDICAPS directive.",
    )
    early_adjustment: bool | None = Field(
        None,
        description="Go gopair: the early-round adjustment (on by default; off is gopair's -ne).",
    )
    delay_top_players: WholeNumber | None = Field(
        None, ge=0, description="SoL: rounds that keep top-rated players apart."
    )
    delay_compatriots: WholeNumber | None = Field(
        None, ge=0, description="SoL: rounds that pair compatriots last."
    )
    phantom_score: WholeNumber | None = Field(
        None, ge=1, le=25, description="SoL: score of a win against the phantom."
    )
    seeding: str | None = Field(
        None, description="Knockout seeding; 'standard' (1 v last) is supported."
    )
    rules: str | None = Field(
        None, description="Chess Dutch: rules edition, 2025 (default) or 2017 (C.04.3 2017-2025)."
    )
    accelerate: str | None = Field(
        None,
        description="Chess Swiss (Dutch, Burstein, Dubov): baku, FIDE's Baku acceleration "
        "(C.04.7: the top half gets virtual points in the first rounds, for pairing only).",
    )
    boards: WholeNumber | None = Field(
        None, ge=1, le=64, description="Team events: boards per match."
    )
    match_points: str | None = Field(
        None, description="Team events: match points win/draw/loss (default 2/1/0)."
    )
    team_type: str | None = Field(
        None, description="Team Swiss colour preferences: A (default), B or none."
    )
    board_colours: str | None = Field(
        None, description="Team events: board colours of the first team (WBWB)."
    )

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return validate.text("name", value)

    @property
    def total_rounds(self) -> int:
        return self.rounds * (2 if self.double else 1)

    @model_validator(mode="after")
    def _checked(self, info: ValidationInfo) -> Self:
        del info  # the event data is checked with the tournament's own game and rounds
        self.data(self.game, self.total_rounds)
        return self


# ------------------------------------------------------------------ rounds


def _board(value: Any) -> Any:
    """``N``, or ``M.B`` (match, board) of a team event, kept as text for the command."""
    if isinstance(value, str) and re.fullmatch(r"\s*\d+\.\d+\s*", value):
        return value.strip()
    if isinstance(value, str) and not value.strip().isdigit():
        raise InvalidField("board", f"{excerpt(value)}: give N, or M.B for a team match", sep=" ")
    return _whole_number(value)


class ResultInput(Input):
    """A board's result as entered (`arbiter result`, the API, the manage form, a line of a
    results file)."""

    round: WholeNumber = Field(
        ge=1, description="Round number.", json_schema_extra={"option": "ROUND"}
    )
    board: Annotated[int | str, BeforeValidator(_board)] = Field(
        description="Board number; M.B (match, board) for teams.",
        json_schema_extra={"option": "BOARD"},
    )
    result: str = Field(
        min_length=1,
        max_length=20,
        description="1-0, 0-1, 1/2-1/2, +-, B+, 40-24, ...",
        json_schema_extra={"option": "RESULT"},
    )
    correct: bool = Field(False, description="Replace a result already entered.")


class ByeInput(Input):
    """A bye requested in advance (or an absence), for a round not yet paired."""

    player: WholeNumber = Field(ge=1, description="Player id.")
    round: WholeNumber = Field(ge=1, description="Round number.")
    kind: ByeKind = Field(ByeKind.HALF, description="half, zero or full point bye.")


# ------------------------------------------------------------------ option names


def _options() -> dict[str, str]:
    found: dict[str, str] = {}
    for model in (PlayerInput, EventDataInput, TournamentInput, ResultInput, ByeInput):
        for name, info in model.model_fields.items():
            extra = info.json_schema_extra
            if isinstance(extra, dict) and isinstance(extra.get("option"), str):
                found[name] = str(extra["option"])
    return found


OPTION_NAMES: dict[str, str] = _options()
"""Fields whose command-line option is not ``--`` + the field with dashes (or that the command
line takes as an argument: ``ROUND``, ``BOARD``, ``RESULT``)."""


def option_name(field: str) -> str:
    """The command-line option of an input field (the CLI's `events.errors.Naming`).

    >>> option_name("fide_id"), option_name("round_dates")
    ('--fide-id', '--round-date')
    """
    return OPTION_NAMES.get(field, "--" + field.replace("_", "-"))
