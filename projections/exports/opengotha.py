"""OpenGotha tournament XML writer: the inverse of ``ingest.opengotha`` (formats.md §6).

`opengotha_from_log` rebuilds the records (``ingest.opengotha.records``) from a go tournament
stream: players, games and byes come from the log; parameter sets, teams and per-player
details that only OpenGotha keeps come back from the import's ``opengotha`` metadata. A
tournament run in arbiter gets its name, dates, place, director and komi in the general set,
its engine's parameters (given by the caller) in the parameter sets, each player's rating as
OpenGotha would write it, and its requested half-point byes as OpenGotha's absences
(``participating``). What OpenGotha cannot hold (a zero- or full-point bye, a withdrawal, how a
game was won) is written in its nearest terms and named by `opengotha_losses`, one line each.

``read_opengotha_bytes(write_opengotha(t)) == t`` for every tournament the reader returns.
Output is UTF-8, elements in the DTD's order, attributes as OpenGotha 3.51 writes them.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from decide.state import BoardState, PlayerState, TournamentState
from events.domain import ByeKind, Outcome
from events.go import format_rank, parse_rank
from events.store import RecordedEvent
from ingest.conversion import split_name
from ingest.opengotha.records import (
    ROUNDS_IN_MASK,
    ClubsGroup,
    GeneralParameters,
    GoResult,
    HandicapParameters,
    OGBye,
    OGGame,
    OGPlayer,
    OGTeam,
    OGTournament,
    PairingParameters,
    RawElement,
    player_key,
    rating_from_rank,
)
from projections.exports.log_view import view_of

__all__ = ["dump_opengotha", "opengotha_from_log", "opengotha_losses", "write_opengotha"]

DATA_VERSION = "201"
"""The root's ``dataVersion`` of OpenGotha 3.x files; OpenGotha reads players' keys by it."""

_OG_CRITERIA = frozenset(
    {
        "CAT",
        "Rank",
        "Rating",
        "NBW",
        "MMS",
        "STS",
        "CUSSW",
        "CUSSM",
        "SOSW",
        "SOSW-1",
        "SOSW-2",
        "SODOSW",
        "SOSM",
        "SOSM-1",
        "SOSM-2",
        "SODOSM",
        "SOSTS",
        "SOSOSW",
        "SOSOSM",
        "EXT",
        "EXR",
        "DC",
        "SDC",
    }
)
"""OpenGotha's placement criteria by their XML names."""


def _live_parameters(state: TournamentState, sets: Mapping[str, Any]) -> dict[str, Any]:
    """The root and parameter sets of a tournament run in arbiter: ``sets`` (its engine's
    parameters as OpenGotha's sets, from the caller), else its rounds, Mac-Mahon bar and
    floor and placement criteria (its tie-break chain); the general set carries the name,
    dates, place, director and komi as OpenGotha keeps them."""
    go = state.settings.pairing_params.go
    s = state.settings
    other = [("name", s.name), ("shortName", s.tournament_id)]
    other += [(k, v) for k, v in (("location", s.city), ("director", s.chief_arbiter)) if v]
    other += [
        (k, d.isoformat())
        for k, d in (("beginDate", s.start_date), ("endDate", s.end_date))
        if d is not None
    ]
    if go.komi is not None:
        other.append(("komi", f"{go.komi:g}"))
    live: dict[str, Any] = {"attributes": (("dataVersion", DATA_VERSION),), **sets}
    general = live.get("general")
    if general is None:
        values: dict[str, Any] = {"number_of_rounds": state.total_rounds}
        if go.mm_bar is not None:
            values["mm_bar"] = go.mm_bar
        if go.mm_floor is not None:
            values["mm_floor"] = go.mm_floor
        general = GeneralParameters.model_validate(values)
        criteria = [c for c in state.tiebreaks if c in _OG_CRITERIA]
        if criteria and "placement_criteria" not in live:
            live["placement_criteria"] = tuple((criteria + ["NULL"] * 6)[: max(6, len(criteria))])
    live["general"] = general.model_copy(update={"other": tuple(other)})
    return live


def _bool(value: bool) -> str:
    return "true" if value else "false"


def _player(player: OGPlayer) -> dict[str, str]:
    return {
        "agaExpirationDate": player.aga_expiration_date,
        "agaId": player.aga_id,
        "club": player.club,
        "country": player.country,
        "egfPin": player.egf_pin,
        "ffgLicence": player.ffg_licence,
        "ffgLicenceStatus": player.ffg_licence_status,
        "firstName": player.first_name,
        "grade": player.grade,
        "name": player.name,
        "participating": "".join("1" if p else "0" for p in player.participating),
        "rank": format_rank(player.rank),
        "rating": str(player.rating),
        "ratingOrigin": player.rating_origin,
        "registeringStatus": player.registering_status,
        "smmsCorrection": str(player.smms_correction),
    }


def _game(game: OGGame) -> dict[str, str]:
    result = game.result.value + ("_BYDEF" if game.by_default else "")
    return {
        "blackPlayer": game.black,
        "handicap": str(game.handicap),
        "knownColor": _bool(game.known_color),
        "result": result,
        "roundNumber": str(game.round),
        "tableNumber": str(game.table),
        "whitePlayer": game.white,
    }


def _team(parent: ET.Element, team: OGTeam) -> None:
    node = ET.SubElement(parent, "Team", {"teamName": team.name, "teamNumber": str(team.number)})
    for board in team.boards:
        ET.SubElement(
            node,
            "Board",
            {
                "boardNumber": str(board.board),
                "player": board.player,
                "roundNumber": str(board.round),
            },
        )


def _general(parent: ET.Element, general: GeneralParameters) -> None:
    attributes = dict(general.other)
    attributes.update(
        {
            "genCountNotPlayedGamesAsHalfPoint": _bool(general.count_not_played_as_half_point),
            "genMMBar": format_rank(general.mm_bar),
            "genMMFloor": format_rank(general.mm_floor),
            "genMMS2ValueAbsent": str(general.mms2_absent),
            "genMMS2ValueBye": str(general.mms2_bye),
            "genMMZero": format_rank(general.mm_zero),
            "genNBW2ValueAbsent": str(general.nbw2_absent),
            "genNBW2ValueBye": str(general.nbw2_bye),
            "genRoundDownNBWMMS": _bool(general.round_down_nbw_mms),
            "numberOfCategories": str(general.number_of_categories),
            "numberOfRounds": str(general.number_of_rounds),
        }
    )
    node = ET.SubElement(parent, "GeneralParameterSet", dict(sorted(attributes.items())))
    if general.category_lower_limits:
        categories = ET.SubElement(node, "Categories")
        for number, limit in enumerate(general.category_lower_limits, start=1):
            ET.SubElement(
                categories, "Category", {"lowerLimit": format_rank(limit), "number": str(number)}
            )


def _handicap(parent: ET.Element, handicap: HandicapParameters) -> None:
    attributes = {"hdBasedOnMMS": _bool(handicap.based_on_mms)}
    if handicap.base is not None:
        attributes["hdBase"] = handicap.base
    attributes.update(
        {
            "hdCeiling": str(handicap.ceiling),
            "hdCorrection": str(handicap.correction),
            "hdNoHdRankThreshold": format_rank(handicap.no_hd_rank_threshold),
        }
    )
    ET.SubElement(parent, "HandicapParameterSet", attributes)


def _pairing(parent: ET.Element, p: PairingParameters) -> None:
    attributes = {
        "paiBaAvoidDuplGame": str(p.avoid_duplicate_game),
        "paiBaBalanceWB": str(p.balance_wb),
        "paiBaDeterministic": _bool(p.deterministic),
        "paiBaRandom": str(p.random),
        "paiMaAdditionalPlacementCritSystem1": p.additional_placement_crit_system1,
        "paiMaAdditionalPlacementCritSystem2": p.additional_placement_crit_system2,
        "paiMaAvoidMixingCategories": str(p.avoid_mixing_categories),
        "paiMaCompensateDUDD": _bool(p.compensate_dudd),
        "paiMaDUDDLowerMode": p.dudd_lower_mode,
        "paiMaDUDDUpperMode": p.dudd_upper_mode,
        "paiMaDUDDWeight": str(p.dudd_weight),
        "paiMaLastRoundForSeedSystem1": str(p.last_round_for_seed_system1),
        "paiMaMaximizeSeeding": str(p.maximize_seeding),
        "paiMaMinimizeScoreDifference": str(p.minimize_score_difference),
        "paiMaSeedSystem1": p.seed_system1,
        "paiMaSeedSystem2": p.seed_system2,
        "paiSeAvoidSameGeo": str(p.avoid_same_geo),
        "paiSeBarThresholdActive": _bool(p.bar_threshold_active),
        "paiSeDefSecCrit": str(p.def_sec_crit),
        "paiSeMinimizeHandicap": str(p.minimize_handicap),
        "paiSeNbWinsThresholdActive": _bool(p.nb_wins_threshold_active),
        "paiSePreferMMSDiffRatherThanSameClub": str(p.prefer_mms_diff_rather_than_same_club),
    }
    if p.prefer_mms_diff_rather_than_same_clubs_group is not None:
        attributes["paiSePreferMMSDiffRatherThanSameClubsGroup"] = str(
            p.prefer_mms_diff_rather_than_same_clubs_group
        )
    attributes["paiSePreferMMSDiffRatherThanSameCountry"] = str(
        p.prefer_mms_diff_rather_than_same_country
    )
    attributes["paiSeRankThreshold"] = format_rank(p.rank_threshold)
    attributes["paiStandardNX1Factor"] = str(p.standard_nx1_factor)
    ET.SubElement(parent, "PairingParameterSet", attributes)


def _placement(parent: ET.Element, criteria: tuple[str, ...]) -> None:
    node = ET.SubElement(ET.SubElement(parent, "PlacementParameterSet"), "PlacementCriteria")
    for number, name in enumerate(criteria, start=1):
        ET.SubElement(node, "PlacementCriterion", {"name": name, "number": str(number)})


def _raw(parent: ET.Element, raw: RawElement) -> None:
    node = ET.SubElement(parent, raw.tag, dict(raw.attributes))
    for child in raw.children:
        _raw(node, child)


def _clubs_groups(parent: ET.Element, groups: tuple[ClubsGroup, ...]) -> None:
    node = ET.SubElement(parent, "ClubsGroups")
    for group in groups:
        element = ET.SubElement(node, "ClubsGroup", {"name": group.name})
        for club in group.clubs:
            ET.SubElement(element, "Club", {"name": club})


def _tree(tournament: OGTournament) -> ET.Element:
    root = ET.Element("Tournament", dict(tournament.attributes))
    players = ET.SubElement(root, "Players")
    for player in tournament.players:
        ET.SubElement(players, "Player", _player(player))
    games = ET.SubElement(root, "Games")
    for game in tournament.games:
        ET.SubElement(games, "Game", _game(game))
    if tournament.byes:
        byes = ET.SubElement(root, "ByePlayers")
        for bye in tournament.byes:
            ET.SubElement(byes, "ByePlayer", {"player": bye.player, "roundNumber": str(bye.round)})
    if tournament.teams:
        teams = ET.SubElement(root, "Teams")
        for team in tournament.teams:
            _team(teams, team)
    has_parameters = (
        tournament.general,
        tournament.handicap,
        tournament.placement_criteria,
        tournament.pairing,
    ) != (None, None, None, None) or tournament.other_parameters
    if has_parameters:
        parameters = ET.SubElement(root, "TournamentParameterSet")
        if tournament.general is not None:
            _general(parameters, tournament.general)
        if tournament.handicap is not None:
            _handicap(parameters, tournament.handicap)
        if tournament.placement_criteria is not None:
            _placement(parameters, tournament.placement_criteria)
        if tournament.pairing is not None:
            _pairing(parameters, tournament.pairing)
        for raw in tournament.other_parameters:
            _raw(parameters, raw)
    if tournament.team_parameters is not None:
        _raw(root, tournament.team_parameters)
    if tournament.clubs_groups is not None:
        _clubs_groups(root, tournament.clubs_groups)
    return root


def dump_opengotha(tournament: OGTournament) -> bytes:
    """The tournament as OpenGotha XML (UTF-8 bytes, indented)."""
    root = _tree(tournament)
    ET.indent(root, space="    ")
    body = ET.tostring(root, encoding="unicode")
    return ('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' + body + "\n").encode()


def write_opengotha(tournament: OGTournament, path: str | Path) -> None:
    """Write the tournament to ``path`` as OpenGotha XML."""
    Path(path).write_bytes(dump_opengotha(tournament))


def _who(p: PlayerState) -> str:
    number = p.pairing_number if p.pairing_number is not None else p.id
    return f"opengotha: {p.name} (#{number})"


def _participating(
    state: TournamentState, p: PlayerState, stated: Sequence[bool]
) -> tuple[tuple[bool, ...], list[str]]:
    """OpenGotha's participation mask of a player, and what it cannot say, one line each.

    A round with a board is played; a half-point bye is OpenGotha's absence (scored with the
    absent values, as arbiter's go placement scores it). A paired round without a board
    (zero-point bye, after a withdrawal, before a late entry) is "not paired", which scores
    nothing in both. A round not yet paired that the player will miss is an absence: the only
    way OpenGotha has to keep him out of its pairing.
    """
    seated = {
        r for r, rnd in state.rounds.items() for b in rnd.boards if p.id in (b.white, b.black)
    }
    mask: list[bool] = []
    losses: list[str] = []
    for r in range(1, state.total_rounds + 1):
        paired = r in state.rounds
        kind = state.byes.get(r, {}).get(p.id)
        if r in seated:  # an imported file may mark a player absent who still played
            mask.append(stated[r - 1] if r <= len(stated) else True)
        elif kind is ByeKind.HALF:
            mask.append(False)
        elif kind is not None:
            mask.append(paired and kind is ByeKind.ZERO)
            written = (
                "not paired (it scores the same)"
                if mask[-1]
                else "an absence, which OpenGotha scores with genNBW2ValueAbsent/genMMS2ValueAbsent"
            )
            losses.append(
                f"{_who(p)}: {kind.value} bye in round {r} written as {written}; "
                "OpenGotha's only requested bye is the absence"
            )
        else:
            mask.append(paired or p.active_in(r))
    if p.withdrawn_from is not None and p.withdrawn_from <= state.total_rounds:
        losses.append(
            f"{_who(p)}: withdrawn from round {p.withdrawn_from}, written as not paired in "
            "the rounds paired and absent in the rounds to come; OpenGotha has no withdrawal"
        )
    rest = [
        stated[i] if i < len(stated) else True
        for i in range(state.total_rounds, max(ROUNDS_IN_MASK, len(stated)))
    ]
    return tuple(mask + rest), losses


def _game_losses(state: TournamentState, r: int, b: BoardState) -> list[str]:
    """What a game's ``Game`` element cannot say: how it was won, a margin, its own komi."""
    assert b.black is not None
    names = f"{state.players[b.white].name} - {state.players[b.black].name}"
    where = f"opengotha: round {r} board {b.board} ({names})"
    lost = []
    if b.how is not None or b.white_score is not None or b.black_score is not None:
        lost.append(f"{where}: OpenGotha keeps the winner only, not how or by how much")
    komi = state.settings.pairing_params.go.komi_for(b.handicap)
    if b.komi is not None and b.komi != komi:
        lost.append(f"{where}: komi {b.komi:g} written as the rules' ({komi})")
    return lost


def _rating(p: PlayerState, rank: int) -> dict[str, Any]:
    """The rating OpenGotha would write: the player's own (``EGF`` with an EGD pin, else
    ``MAN``: set by the organiser), else the one OpenGotha derives from his rank (``INI``)."""
    if p.rating is not None:
        return {"rating": p.rating, "rating_origin": "EGF" if p.ids.get("egd_pin") else "MAN"}
    return {"rating": rating_from_rank(rank), "rating_origin": "INI"}


def _encode(
    events: Sequence[RecordedEvent], sets: Mapping[str, Any]
) -> tuple[OGTournament, list[str]]:
    view = view_of(events)
    state = view.state
    imported = view.created_meta.get("opengotha")
    keys: dict[int, str] = {}
    players: list[OGPlayer] = []
    losses: list[str] = []
    for p in view.players():
        extra: dict[str, Any] = dict(view.player_meta.get(p.id, {}).get("opengotha", {}))
        surname, first_name = split_name(p.name)
        rank = parse_rank(p.rank) if p.rank else -20
        extra.setdefault("key", player_key(surname, first_name))
        extra.setdefault("egf_pin", p.ids.get("egd_pin", ""))
        extra.setdefault("ffg_licence", p.ids.get("ffg", ""))
        extra.setdefault("aga_id", p.ids.get("aga", ""))
        if imported is None:
            extra.update(_rating(p, rank))
            extra.setdefault("grade", format_rank(rank))
        elif p.rating is not None:
            extra.setdefault("rating", p.rating)
        mask, lost = _participating(state, p, extra.get("participating", ()))
        losses += lost
        players.append(
            OGPlayer.model_validate(
                {
                    **extra,
                    "name": surname,
                    "first_name": first_name,
                    "rank": rank,
                    "club": p.club or "",
                    "country": p.federation or "",
                    "participating": mask,
                }
            )
        )
        keys[p.id] = players[-1].key
    games: list[OGGame] = []
    byes: list[OGBye] = []
    for r in sorted(state.rounds):
        stated = view.round_meta.get(r, {}).get("og_games") or []
        for index, b in enumerate(state.rounds[r].boards):
            if b.black is None:
                byes.append(OGBye(round=r, player=keys[b.white]))
                continue
            table, known, by_default = (
                stated[index] if index < len(stated) else (index + 1, True, False)
            )
            result, forfeit = GoResult.of(b.outcome or Outcome.UNKNOWN)
            losses += _game_losses(state, r, b)
            games.append(
                OGGame(
                    round=r,
                    table=table,
                    white=keys[b.white],
                    black=keys[b.black],
                    known_color=known,
                    handicap=b.handicap,
                    result=result,
                    by_default=bool(by_default) or forfeit,
                )
            )
    base = imported if imported is not None else _live_parameters(state, sets)
    tournament = OGTournament.model_validate(
        {**base, "players": players, "games": games, "byes": byes}
    )
    return tournament, losses


def opengotha_from_log(
    events: Sequence[RecordedEvent], sets: Mapping[str, Any] | None = None
) -> OGTournament:
    """The OpenGotha records of a go tournament stream. ``sets``: the parameter sets of the
    event's engine (general, handicap, placement criteria, pairing) for an event run in
    arbiter; an imported event keeps its file's own."""
    return _encode(events, sets or {})[0]


def opengotha_losses(events: Sequence[RecordedEvent]) -> list[str]:
    """What the OpenGotha file of the stream cannot hold, one line per player and fact
    (a zero- or full-point bye, a withdrawal): written in OpenGotha's nearest terms."""
    return _encode(events, {})[1]
