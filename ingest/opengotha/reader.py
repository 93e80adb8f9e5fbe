"""Reader for OpenGotha tournament XML (formats.md §6) into ``ingest.opengotha.records``.

Errors name the file, line and column of the offending element (expat's positions).
"""

from __future__ import annotations

import xml.parsers.expat
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path

from events.go import parse_rank
from ingest.errors import IngestError
from ingest.limits import MAX_DEPTH, MAX_INTEGER, MAX_ROUNDS
from ingest.opengotha.records import (
    ROUNDS_IN_MASK,
    ClubsGroup,
    GeneralParameters,
    GoResult,
    HandicapParameters,
    OGBoard,
    OGBye,
    OGGame,
    OGPlayer,
    OGTeam,
    OGTournament,
    PairingParameters,
    RawElement,
    player_key,
)

__all__ = ["read_opengotha", "read_opengotha_bytes"]


# --- a small tree that remembers where each element starts ------------------------------


@dataclass(slots=True)
class _Node:
    tag: str
    attributes: dict[str, str]
    line: int
    column: int
    children: list[_Node] = field(default_factory=list)


def _parse_tree(data: bytes, path: str) -> _Node:
    parser = xml.parsers.expat.ParserCreate()
    parser.ordered_attributes = False
    stack: list[_Node] = []
    roots: list[_Node] = []

    def start(tag: str, attributes: dict[str, str]) -> None:
        if len(stack) >= MAX_DEPTH:
            raise IngestError(
                path,
                parser.CurrentLineNumber,
                parser.CurrentColumnNumber + 1,
                f"elements nested more than {MAX_DEPTH} deep",
                found=f"<{tag}>",
            )
        node = _Node(tag, attributes, parser.CurrentLineNumber, parser.CurrentColumnNumber + 1)
        (stack[-1].children if stack else roots).append(node)
        stack.append(node)

    def end(_tag: str) -> None:
        stack.pop()

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    try:
        parser.Parse(data, True)
    except xml.parsers.expat.ExpatError as exc:
        raise IngestError(
            path, exc.lineno, exc.offset + 1, f"not well-formed XML: {exc.args[0]}"
        ) from None
    except LookupError as exc:  # expat looks up the declared encoding's codec
        raise IngestError(
            path,
            parser.CurrentLineNumber,
            parser.CurrentColumnNumber + 1,
            f"unknown encoding in the XML declaration: {exc.args[0]}",
        ) from None
    return roots[0]


class _Reader:
    """Turns the element tree into records; every check reports the element's position."""

    def __init__(self, path: str) -> None:
        self.path = path

    def error(
        self, node: _Node, message: str, found: str | None = None, expected: str | None = None
    ) -> IngestError:
        return IngestError(self.path, node.line, node.column, message, found, expected)

    def text(self, node: _Node, name: str, default: str | None = None) -> str:
        value = node.attributes.get(name, default)
        if value is None:
            raise self.error(node, f"<{node.tag}> lacks attribute {name}", expected=f'{name}="..."')
        return value

    def integer(self, node: _Node, name: str, default: int | None = None) -> int:
        value = node.attributes.get(name)
        if value is None:
            if default is None:
                raise self.error(
                    node, f"<{node.tag}> lacks attribute {name}", expected=f'{name}="<integer>"'
                )
            return default
        try:
            number = int(value.strip())
        except ValueError:
            raise self.error(
                node, f"<{node.tag}> {name} is not an integer", value, "an integer"
            ) from None
        # Rounds bound every loop over them: roundNumber="999999999" must not spin.
        high = MAX_ROUNDS if "round" in name.lower() else MAX_INTEGER
        if not -high <= number <= high:
            raise self.error(node, f"<{node.tag}> {name} is out of range", value, f"at most {high}")
        return number

    def boolean(self, node: _Node, name: str, default: bool) -> bool:
        value = node.attributes.get(name)
        if value is None:
            return default
        lowered = value.strip().lower()
        if lowered not in ("true", "false"):
            raise self.error(node, f"<{node.tag}> {name} is not a boolean", value, "true or false")
        return lowered == "true"

    def rank(self, node: _Node, name: str, default: str) -> int:
        value = node.attributes.get(name, default)
        try:
            return parse_rank(value)
        except ValueError:
            raise self.error(
                node, f"<{node.tag}> {name} is not a go rank", value, "30K..1K or 1D..9D"
            ) from None

    # --- sections ---------------------------------------------------------------------

    def tournament(self, root: _Node) -> OGTournament:
        if root.tag != "Tournament":
            raise self.error(root, "not an OpenGotha tournament", f"<{root.tag}>", "<Tournament>")
        sections: dict[str, _Node] = {}
        for child in root.children:
            sections.setdefault(child.tag, child)
        players = tuple(self.player(n) for n in self.items(sections.get("Players"), "Player"))
        keys = self.keys(players, sections.get("Players"))
        games = tuple(self.game(n, keys) for n in self.items(sections.get("Games"), "Game"))
        byes = tuple(self.bye(n, keys) for n in self.bye_nodes(sections.get("ByePlayers")))
        teams = tuple(self.team(n, keys) for n in self.items(sections.get("Teams"), "Team"))
        params = sections.get("TournamentParameterSet")
        parts = {c.tag: c for c in params.children} if params is not None else {}
        general = parts.get("GeneralParameterSet")
        handicap = parts.get("HandicapParameterSet")
        placement = parts.get("PlacementParameterSet")
        pairing = parts.get("PairingParameterSet")
        known = {
            "GeneralParameterSet",
            "HandicapParameterSet",
            "PlacementParameterSet",
            "PairingParameterSet",
        }
        clubs = sections.get("ClubsGroups")
        team_parameters = sections.get("TeamTournamentParameterSet")
        return OGTournament(
            attributes=tuple(root.attributes.items()),
            players=players,
            games=games,
            byes=byes,
            teams=teams,
            general=self.general(general) if general is not None else None,
            handicap=self.handicap(handicap) if handicap is not None else None,
            placement_criteria=self.placement(placement) if placement is not None else None,
            pairing=self.pairing(pairing) if pairing is not None else None,
            other_parameters=tuple(
                _raw(c)
                for c in (params.children if params is not None else ())
                if c.tag not in known
            ),
            team_parameters=_raw(team_parameters) if team_parameters is not None else None,
            clubs_groups=(
                tuple(self.clubs_group(n) for n in self.items(clubs, "ClubsGroup"))
                if clubs is not None
                else None
            ),
        )

    def items(self, section: _Node | None, tag: str) -> list[_Node]:
        if section is None:
            return []
        for child in section.children:
            if child.tag != tag:
                raise self.error(
                    child, f"unexpected element in <{section.tag}>", f"<{child.tag}>", f"<{tag}>"
                )
        return section.children

    def bye_nodes(self, section: _Node | None) -> list[_Node]:
        # pairgoth's exports wrap the byes in <ByePlayer> instead of <ByePlayers>; the
        # section name is taken as found, the entries must be ByePlayer elements.
        if section is None:
            return []
        return self.items(section, "ByePlayer")

    def keys(self, players: tuple[OGPlayer, ...], section: _Node | None) -> dict[str, str]:
        keys: dict[str, str] = {}
        for player, node in zip(players, self.items(section, "Player"), strict=True):
            if player.key in keys:
                raise self.error(
                    node, "duplicate player key", player.key, "a unique name + first name"
                )
            keys[player.key] = player.key
        return keys

    def reference(self, node: _Node, name: str, keys: dict[str, str]) -> str:
        value = self.text(node, name)
        key = value.replace(" ", "").upper()
        if key not in keys:
            raise self.error(
                node,
                f"<{node.tag}> {name} names no registered player",
                value,
                "the key of a <Player>",
            )
        return key

    def player(self, node: _Node) -> OGPlayer:
        name = self.text(node, "name")
        first_name = self.text(node, "firstName", "")
        mask = node.attributes.get("participating", "1" * ROUNDS_IN_MASK)
        if any(c not in "01" for c in mask):
            raise self.error(node, "participating is not a 0/1 mask", mask, "one 0 or 1 per round")
        return OGPlayer(
            key=player_key(name, first_name),
            name=name,
            first_name=first_name,
            rank=self.rank(node, "rank", "30K"),
            rating=self.integer(node, "rating", -2950),
            club=node.attributes.get("club", ""),
            country=node.attributes.get("country", ""),
            egf_pin=node.attributes.get("egfPin", ""),
            ffg_licence=node.attributes.get("ffgLicence", ""),
            ffg_licence_status=node.attributes.get("ffgLicenceStatus", ""),
            aga_id=node.attributes.get("agaId", ""),
            aga_expiration_date=node.attributes.get("agaExpirationDate", ""),
            rating_origin=node.attributes.get("ratingOrigin", ""),
            grade=node.attributes.get("grade", ""),
            smms_correction=self.integer(node, "smmsCorrection", 0),
            participating=tuple(c == "1" for c in mask),
            registering_status=node.attributes.get("registeringStatus", "FIN"),
        )

    def game(self, node: _Node, keys: dict[str, str]) -> OGGame:
        raw = node.attributes.get("result", GoResult.UNKNOWN.value)
        by_default = raw.endswith("_BYDEF")
        try:
            result = GoResult(raw.removesuffix("_BYDEF"))
        except ValueError:
            raise self.error(
                node,
                "unknown game result",
                raw,
                "RESULT_{UNKNOWN,WHITEWINS,BLACKWINS,EQUAL,BOTHWIN,BOTHLOSE}[_BYDEF]",
            ) from None
        round_number = self.integer(node, "roundNumber")
        if round_number < 1:
            raise self.error(node, "roundNumber must be 1 or more", str(round_number))
        return OGGame(
            round=round_number,
            table=self.integer(node, "tableNumber", 0),
            white=self.reference(node, "whitePlayer", keys),
            black=self.reference(node, "blackPlayer", keys),
            known_color=self.boolean(node, "knownColor", True),
            handicap=self.integer(node, "handicap", 0),
            result=result,
            by_default=by_default,
        )

    def bye(self, node: _Node, keys: dict[str, str]) -> OGBye:
        return OGBye(
            round=self.integer(node, "roundNumber"), player=self.reference(node, "player", keys)
        )

    def team(self, node: _Node, keys: dict[str, str]) -> OGTeam:
        boards = tuple(
            OGBoard(
                round=self.integer(b, "roundNumber"),
                board=self.integer(b, "boardNumber"),
                player=self.reference(b, "player", keys),
            )
            for b in self.items(node, "Board")
        )
        return OGTeam(
            number=self.integer(node, "teamNumber"),
            name=node.attributes.get("teamName", ""),
            boards=boards,
        )

    def clubs_group(self, node: _Node) -> ClubsGroup:
        return ClubsGroup(
            name=node.attributes.get("name", ""),
            clubs=tuple(self.text(c, "name") for c in self.items(node, "Club")),
        )

    def general(self, node: _Node) -> GeneralParameters:
        typed = {
            "numberOfRounds",
            "numberOfCategories",
            "genMMFloor",
            "genMMBar",
            "genMMZero",
            "genNBW2ValueAbsent",
            "genNBW2ValueBye",
            "genMMS2ValueAbsent",
            "genMMS2ValueBye",
            "genRoundDownNBWMMS",
            "genCountNotPlayedGamesAsHalfPoint",
        }
        limits: list[int] = []
        for child in node.children:
            if child.tag != "Categories":
                raise self.error(
                    child,
                    "unexpected element in <GeneralParameterSet>",
                    f"<{child.tag}>",
                    "<Categories>",
                )
            ordered = sorted(
                self.items(child, "Category"), key=lambda c: self.integer(c, "number", 1)
            )
            limits = [self.rank(c, "lowerLimit", "30K") for c in ordered]
        return GeneralParameters(
            number_of_rounds=self.integer(node, "numberOfRounds", 5),
            number_of_categories=self.integer(node, "numberOfCategories", 1),
            category_lower_limits=tuple(limits),
            mm_floor=self.rank(node, "genMMFloor", "20K"),
            mm_bar=self.rank(node, "genMMBar", "4D"),
            mm_zero=self.rank(node, "genMMZero", "30K"),
            nbw2_absent=self.integer(node, "genNBW2ValueAbsent", 0),
            nbw2_bye=self.integer(node, "genNBW2ValueBye", 2),
            mms2_absent=self.integer(node, "genMMS2ValueAbsent", 1),
            mms2_bye=self.integer(node, "genMMS2ValueBye", 2),
            round_down_nbw_mms=self.boolean(node, "genRoundDownNBWMMS", True),
            count_not_played_as_half_point=self.boolean(
                node, "genCountNotPlayedGamesAsHalfPoint", False
            ),
            other=tuple((k, v) for k, v in node.attributes.items() if k not in typed),
        )

    def handicap(self, node: _Node) -> HandicapParameters:
        base = node.attributes.get("hdBase")
        return HandicapParameters(
            based_on_mms=self.boolean(node, "hdBasedOnMMS", base != "RANK"),
            base=base,
            no_hd_rank_threshold=self.rank(node, "hdNoHdRankThreshold", "1D"),
            correction=self.integer(node, "hdCorrection", 1),
            ceiling=self.integer(node, "hdCeiling", 9),
        )

    def placement(self, node: _Node) -> tuple[str, ...]:
        criteria: list[tuple[int, str]] = []
        for child in node.children:
            for criterion in self.items(child, "PlacementCriterion"):
                criteria.append((self.integer(criterion, "number"), self.text(criterion, "name")))
        return tuple(name for _, name in sorted(criteria))

    def decimal(self, node: _Node, name: str, default: str) -> Decimal:
        value = node.attributes.get(name, default)
        try:
            return Decimal(value.strip())
        except InvalidOperation:
            raise self.error(
                node, f"<{node.tag}> {name} is not a number", value, "a decimal number"
            ) from None

    def pairing(self, node: _Node) -> PairingParameters:
        d = PairingParameters()
        group = node.attributes.get("paiSePreferMMSDiffRatherThanSameClubsGroup")
        return PairingParameters(
            standard_nx1_factor=self.decimal(node, "paiStandardNX1Factor", "0.5"),
            avoid_duplicate_game=self.integer(node, "paiBaAvoidDuplGame", d.avoid_duplicate_game),
            random=self.integer(node, "paiBaRandom", d.random),
            deterministic=self.boolean(node, "paiBaDeterministic", d.deterministic),
            balance_wb=self.integer(node, "paiBaBalanceWB", d.balance_wb),
            avoid_mixing_categories=self.integer(
                node, "paiMaAvoidMixingCategories", d.avoid_mixing_categories
            ),
            minimize_score_difference=self.integer(
                node, "paiMaMinimizeScoreDifference", d.minimize_score_difference
            ),
            dudd_weight=self.integer(node, "paiMaDUDDWeight", d.dudd_weight),
            compensate_dudd=self.boolean(node, "paiMaCompensateDUDD", d.compensate_dudd),
            dudd_upper_mode=self.choice(node, "paiMaDUDDUpperMode", d.dudd_upper_mode, _DUDD_MODES),
            dudd_lower_mode=self.choice(node, "paiMaDUDDLowerMode", d.dudd_lower_mode, _DUDD_MODES),
            maximize_seeding=self.integer(node, "paiMaMaximizeSeeding", d.maximize_seeding),
            last_round_for_seed_system1=self.integer(
                node, "paiMaLastRoundForSeedSystem1", d.last_round_for_seed_system1
            ),
            seed_system1=self.choice(node, "paiMaSeedSystem1", d.seed_system1, _SEED_SYSTEMS),
            seed_system2=self.choice(node, "paiMaSeedSystem2", d.seed_system2, _SEED_SYSTEMS),
            additional_placement_crit_system1=node.attributes.get(
                "paiMaAdditionalPlacementCritSystem1", d.additional_placement_crit_system1
            ),
            additional_placement_crit_system2=node.attributes.get(
                "paiMaAdditionalPlacementCritSystem2", d.additional_placement_crit_system2
            ),
            bar_threshold_active=self.boolean(
                node, "paiSeBarThresholdActive", d.bar_threshold_active
            ),
            rank_threshold=self.rank(node, "paiSeRankThreshold", "1D"),
            nb_wins_threshold_active=self.boolean(
                node, "paiSeNbWinsThresholdActive", d.nb_wins_threshold_active
            ),
            def_sec_crit=self.integer(node, "paiSeDefSecCrit", d.def_sec_crit),
            minimize_handicap=self.integer(node, "paiSeMinimizeHandicap", d.minimize_handicap),
            avoid_same_geo=self.integer(node, "paiSeAvoidSameGeo", d.avoid_same_geo),
            prefer_mms_diff_rather_than_same_country=self.integer(
                node,
                "paiSePreferMMSDiffRatherThanSameCountry",
                d.prefer_mms_diff_rather_than_same_country,
            ),
            prefer_mms_diff_rather_than_same_club=self.integer(
                node,
                "paiSePreferMMSDiffRatherThanSameClub",
                d.prefer_mms_diff_rather_than_same_club,
            ),
            prefer_mms_diff_rather_than_same_clubs_group=(
                None
                if group is None
                else self.integer(node, "paiSePreferMMSDiffRatherThanSameClubsGroup")
            ),
        )

    def choice(self, node: _Node, name: str, default: str, allowed: frozenset[str]) -> str:
        value = node.attributes.get(name, default)
        if value not in allowed:
            raise self.error(
                node,
                f"<{node.tag}> {name} has an unknown value",
                value,
                " or ".join(sorted(allowed)),
            )
        return value


_DUDD_MODES = frozenset({"TOP", "MID", "BOT"})
_SEED_SYSTEMS = frozenset({"SPLITANDRANDOM", "SPLITANDFOLD", "SPLITANDSLIP"})


def _raw(node: _Node) -> RawElement:
    return RawElement(
        tag=node.tag,
        attributes=tuple(node.attributes.items()),
        children=tuple(_raw(c) for c in node.children),
    )


def read_opengotha_bytes(data: bytes, path: str = "<bytes>") -> OGTournament:
    """Parse OpenGotha XML held in memory; ``path`` only names it in errors."""
    return _Reader(path).tournament(_parse_tree(data, path))


def read_opengotha(path: str | Path) -> OGTournament:
    """Read an OpenGotha ``.xml`` tournament file.

    :raises IngestError: the file is not well-formed XML or not an OpenGotha tournament, or
        an element holds a value OpenGotha would not write (line and column of the element).
    """
    return read_opengotha_bytes(Path(path).read_bytes(), str(path))
