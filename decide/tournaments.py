"""The tournament's deciders: create one, edit the event's data, set the tie-break chain.

Each is pure: the command (`decide.inputs.TournamentInput`, `EventChanges`, codes), the state
of the tournament when it exists, and what it consults as required keyword arguments: whether
an id is taken (``exists``), and the catalogues kept outside the write side (`Catalogues`: the
Dutch rule editions of the engine registry, the carrom methods SoL pairs by, the tie-break
codes the standings compute). A refusal raises before any event exists.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from pydantic import ValidationError

from decide.base import new_event
from decide.errors import CommandError
from decide.inputs import EventChanges, EventData, TournamentInput, created_fields
from decide.state import TournamentState
from events.domain import Game, System
from events.errors import UserError, braced
from events.go import parse_rank
from events.names import slugify
from events.params import CarromSettings, ChessSettings, GoSettings, PairingParams, TeamSettings
from events.schema import TiebreaksChanged, TournamentCreated, TournamentEdited
from events.scoring import Scoring
from events.validate import InvalidField

__all__ = [
    "Catalogues",
    "Edited",
    "create",
    "current_data",
    "default_tiebreaks",
    "edit",
    "pairing_settings",
    "set_tiebreaks",
    "team_settings",
]


@dataclass(frozen=True, slots=True)
class Catalogues:
    """What a tournament's settings are checked against that the write side does not hold:
    each a check that raises a `UserError` naming the field."""

    rules: Callable[[str, Game, System], str]
    """``--rules``: the Dutch edition named, of the editions the engine registry has."""
    acceleration: Callable[[str, Game, System], str | None]
    """``--accelerate``: baku or none, on the systems it applies to."""
    carrom_method: Callable[[System, str], None]
    """``--pairing`` of a carrom event: a method SoL has for the system."""
    tiebreak: Callable[[str], None]
    """A tie-break code of an individual event the standings compute."""


def _codes(text: str | None) -> list[str]:
    return [c.strip() for c in text.split(",") if c.strip()] if text else []


def create(
    command: TournamentInput | Mapping[str, Any],
    *,
    exists: Callable[[str], bool],
    catalogues: Catalogues,
) -> TournamentCreated:
    """A new tournament: its settings checked, its id the one given (refused when
    ``exists``) or a slug of the name made unique (``-2``, ``-3`` ...)."""
    t = TournamentInput.check(command)
    data = t.data(t.game, t.total_rounds)
    scoring, params = pairing_settings(t, catalogues=catalogues)
    if data.rating_type is not None:
        rating = params.rating.model_copy(update={"rating_type": data.rating_type})
        params = params.model_copy(update={"rating": rating})
    tiebreaks = _codes(t.tiebreaks)
    for code in tiebreaks:
        _check_tiebreak(t.system, code, catalogues)
    base = t.id or slugify(t.name)
    tid, n = base, 1
    while exists(tid):
        if t.id is not None:
            raise CommandError(f"tournament '{tid}' already exists")
        n += 1
        tid = f"{base}-{n}"
    return new_event(
        TournamentCreated,
        tid,
        tournament_id=tid,
        name=t.name,
        game=t.game,
        system=t.system,
        rounds=t.rounds,
        cycles=2 if t.double else 1,
        scoring=scoring,
        tiebreaks=tuple(tiebreaks) or default_tiebreaks(t.game, t.system),
        pairing_params=params,
        **created_fields(data),
    )


def _scoring(text: str | None, game: Game) -> Scoring:
    if text is None:
        return Scoring.for_game_kind(game)
    wrong = InvalidField("scoring", f"wants win,draw,loss such as 3,1,0 (found '{text}')", sep=" ")
    try:
        parts = [float(x) for x in text.split(",")]
    except ValueError:
        raise wrong from None
    if len(parts) != 3:
        raise wrong
    try:
        return Scoring(win=parts[0], draw=parts[1], loss=parts[2])
    except ValidationError as exc:
        raise UserError.from_validation(exc, "scoring") from None


def pairing_settings(
    t: TournamentInput, *, catalogues: Catalogues
) -> tuple[Scoring, PairingParams]:
    """The scoring and the system's settings a new tournament asks for, checked."""
    game, system = t.game, t.system
    if t.handicaps is not None and t.handicaps.lower() not in ("max", "min"):
        raise InvalidField(
            "handicaps", f"'{t.handicaps}': expected max (handicap games) or min (even)", sep=" "
        )
    if game is Game.CARROM:
        if system not in (System.SWISS, System.ROUNDROBIN, System.KNOCKOUT):
            raise UserError.naming(
                "carrom is paired by SoL: {0} swiss, roundrobin or knockout", "system"
            )
        if t.pairing is not None:
            catalogues.carrom_method(system, t.pairing)
    if t.seeding not in (None, "standard"):
        seeding = braced(t.seeding)
        raise InvalidField.naming(f"unknown {{0}} '{seeding}' (supported: standard)", "seeding")
    try:
        params = PairingParams(
            chess=ChessSettings.model_validate(
                {
                    "initial_colour": t.initial_colour,
                    "rules": None if t.rules is None else catalogues.rules(t.rules, game, system),
                    "acceleration": (
                        None
                        if t.accelerate is None
                        else catalogues.acceleration(t.accelerate, game, system)
                    ),
                }
            ),
            go=GoSettings(
                komi=t.komi,
                handicap_komi=t.handicap_komi,
                mm_bar=None if t.bar is None else parse_rank(t.bar),
                mm_floor=None if t.floor is None else parse_rank(t.floor),
                gopair_handicaps=None if t.handicaps is None else t.handicaps.lower(),
                gopair_early_adjustment=t.early_adjustment,
            ),
            carrom=CarromSettings(
                couplings=t.pairing,
                delaytoppairing=t.delay_top_players,
                delaycompatriotpairing=t.delay_compatriots,
                phantomscore=t.phantom_score,
                draw_seed=t.draw_seed,
            ),
            team=team_settings(
                t.boards or (4 if system.is_team else None),
                t.match_points,
                t.team_type,
                t.board_colours,
            ),
        )
    except ValidationError as exc:
        raise UserError.from_validation(exc, "tournament settings") from None
    return _scoring(t.scoring, game), params


def team_settings(
    boards: int | None, match_points: str | None, team_type: str | None, board_colours: str | None
) -> TeamSettings:
    """The settings of a team event, checked."""
    if match_points is not None:
        parts = match_points.replace(",", "/").split("/")
        try:
            values = [Decimal(p) for p in parts]
        except ArithmeticError:
            values = []
        if len(values) != 3 or not values[0] >= values[1] >= values[2]:
            raise InvalidField(
                "match_points",
                f"'{match_points}': give win/draw/loss, as 2/1/0 (win >= draw >= loss)",
                sep=" ",
            )
        match_points = "/".join(str(v) for v in values)
    if team_type is not None and team_type.upper() not in ("A", "B", "NONE"):
        raise InvalidField("team_type", f"'{team_type}': A, B or none (C.04.6 1.7)", sep=" ")
    if board_colours is not None and (not board_colours or set(board_colours.upper()) - {"W", "B"}):
        raise InvalidField(
            "board_colours", f"'{board_colours}': a sequence of W and B, as WBWB", sep=" "
        )
    return TeamSettings(
        team_boards=boards,
        team_match_points=match_points,
        team_type=None if team_type is None else team_type.upper().replace("NONE", "none"),
        team_board_colours=None if board_colours is None else board_colours.upper(),
    )


def _check_tiebreak(system: System, code: str, catalogues: Catalogues) -> None:
    if system.is_team:
        from events.team_results import TEAM_TIEBREAKS

        if code.upper() not in TEAM_TIEBREAKS:
            raise CommandError(
                f"unknown team tie-break '{code}' (known: {', '.join(TEAM_TIEBREAKS)})"
            )
        return
    catalogues.tiebreak(code)


def default_tiebreaks(game: Game, system: System) -> tuple[str, ...]:
    """The usual chain of each game and system (C.07 recommendations; OpenGotha's defaults)."""
    if system.is_team:
        from events.team_results import DEFAULT_CHAIN

        return DEFAULT_CHAIN
    if game is Game.GO:
        if system is System.MACMAHON:
            return ("MMS", "SOSM", "SOSOSM")
        return ("NBW", "SOSW", "SOSOSW")
    if game is Game.CARROM:
        # SoL's ranking: Swiss by bucholz, net and total score; round robin by net and total
        # score; a knockout by the bracket, showing SoL's three columns (ranks_by_bracket).
        return {
            System.SWISS: ("BUCHOLZ", "NETSCORE", "TOTSCORE"),
            System.ROUNDROBIN: ("NETSCORE", "TOTSCORE"),
            System.KNOCKOUT: ("BUCHOLZ", "NETSCORE", "TOTSCORE"),
        }.get(system, ())
    if game is Game.OTHELLO and system is not System.ROUNDROBIN:
        return ("BQ", "DISCS")
    if system is System.ROUNDROBIN:
        return ("DE", "SB", "WIN")
    if game is Game.CHESS:
        return ("BH/C1", "BH", "SB")
    return ("BH",)


def set_tiebreaks(
    state: TournamentState, codes: Sequence[str], *, catalogues: Catalogues
) -> list[TiebreaksChanged]:
    """The tie-break chain, each code one the standings compute (a team event's, a team
    tie-break)."""
    for code in codes:
        _check_tiebreak(state.system, code, catalogues)
    return [TiebreaksChanged(tiebreaks=tuple(codes))]


def current_data(state: TournamentState) -> EventData:
    """The event's data already set (what an edit is checked against)."""
    s = state.settings
    return EventData(
        start_date=s.start_date,
        end_date=s.end_date,
        city=s.city,
        federation=s.federation,
        chief_arbiter=s.chief_arbiter,
        deputy_arbiters=tuple(s.deputy_arbiters),
        time_control=s.time_control,
        rating_type=s.pairing_params.rating.rating_type,
        round_dates=dict(s.round_dates),
    )


@dataclass(frozen=True, slots=True)
class Edited:
    """What `edit` decided: the event, and the fields it changes (by the event's names)."""

    event: TournamentEdited
    fields: dict[str, Any]


def edit(state: TournamentState, changes: EventChanges | Mapping[str, Any]) -> Edited:
    """Change the event's data (and name, access): each field by its rule, checked against
    the data already set (`current_data`: the end not before the start, round dates inside
    them); at least one given."""
    current = current_data(state)
    checked = EventChanges.check(
        changes, game=state.game, rounds=state.total_rounds, current=current
    )
    data = checked.data(state.game, state.total_rounds, current)
    fields = created_fields(data)
    if data.deputy_arbiters is not None:
        fields["deputy_arbiters"] = data.deputy_arbiters
    if data.rating_type is not None:
        fields["rating_type"] = data.rating_type
    if checked.name is not None:
        fields["name"] = checked.name
    fields |= checked.access_fields()
    if not fields:
        raise CommandError(f"{state.id}: nothing to change (give at least one option)")
    return Edited(new_event(TournamentEdited, state.id, **fields), fields)
