"""OpenGotha tournament XML writer: the inverse of ``ingest.opengotha`` (formats.md §6).

`opengotha_from_log` rebuilds the records (``ingest.opengotha.records``) from a go tournament
stream: players, games and byes come from the log; parameter sets, teams and per-player
details that only OpenGotha keeps come back from the import's ``opengotha`` metadata, with
OpenGotha's defaults for a tournament run in arbiter.

``read_opengotha_bytes(write_opengotha(t)) == t`` for every tournament the reader returns.
Output is UTF-8, elements in the DTD's order, attributes as OpenGotha 3.51 writes them.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from events.domain import Outcome
from events.go import format_rank, parse_rank
from events.store import RecordedEvent
from ingest.conversion import split_name
from ingest.opengotha.records import (
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
)
from projections.exports.log_view import view_of
from projections.state import TournamentState

__all__ = ["dump_opengotha", "opengotha_from_log", "write_opengotha"]

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


def _live_parameters(state: TournamentState) -> dict[str, Any]:
    """The parameter sets of a tournament run in arbiter: its rounds, Mac-Mahon bar and floor,
    komi and placement criteria (its tie-break chain), so that a re-import pairs and ranks
    the same. An imported tournament's own sets (its metadata) take precedence."""
    go = state.settings.pairing_params.go
    general: dict[str, Any] = {"number_of_rounds": state.total_rounds}
    if go.mm_bar is not None:
        general["mm_bar"] = go.mm_bar
    if go.mm_floor is not None:
        general["mm_floor"] = go.mm_floor
    if go.komi is not None:
        general["other"] = (("komi", f"{go.komi:g}"),)
    criteria = [c for c in state.tiebreaks if c in _OG_CRITERIA]
    live: dict[str, Any] = {"general": general}
    if criteria:
        live["placement_criteria"] = tuple((criteria + ["NULL"] * 6)[: max(6, len(criteria))])
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


def opengotha_from_log(events: Sequence[RecordedEvent]) -> OGTournament:
    view = view_of(events)
    state = view.state
    keys: dict[int, str] = {}
    players: list[OGPlayer] = []
    for p in view.players():
        extra: dict[str, Any] = dict(view.player_meta.get(p.id, {}).get("opengotha", {}))
        surname, first_name = split_name(p.name)
        extra.setdefault("key", player_key(surname, first_name))
        extra.setdefault("egf_pin", p.ids.get("egd_pin", ""))
        extra.setdefault("ffg_licence", p.ids.get("ffg", ""))
        extra.setdefault("aga_id", p.ids.get("aga", ""))
        if p.rating is not None:
            extra.setdefault("rating", p.rating)
        rank = parse_rank(p.rank) if p.rank else -20
        players.append(
            OGPlayer.model_validate(
                {
                    **extra,
                    "name": surname,
                    "first_name": first_name,
                    "rank": rank,
                    "club": p.club or "",
                    "country": p.federation or "",
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
                stated[index] if index < len(stated) else (index, True, False)
            )
            result, forfeit = GoResult.of(b.outcome or Outcome.UNKNOWN)
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
    return OGTournament.model_validate(
        {
            **_live_parameters(state),
            **view.created_meta.get("opengotha", {}),
            "players": players,
            "games": games,
            "byes": byes,
        }
    )
