"""OpenGotha's cost of pairing two players (``costValue``, pairing.md §4.4-4.9), in integers.

OpenGotha evaluates the concave terms in ``double`` and truncates to ``long``; here they are
exact rationals truncated the same way, so a total can differ from OpenGotha's by a unit or
two where the double rounding crossed an integer, never by more.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from pairing.macmahon.groups import PLACEMENT_CORRECTION_MAX, PLACEMENT_CORRECTION_MIN, GroupInfo
from pairing.macmahon.model import GoPlayer
from pairing.macmahon.params import (
    DuddMode,
    Edition,
    HandicapBase,
    MacMahonParams,
    SeedSystem,
    SystemKind,
)
from pairing.macmahon.scoring import ScoreTable

__all__ = ["CostBreakdown", "PairContext", "det_random", "java_div", "nx1"]


def java_div(a: int, b: int) -> int:
    """Integer division truncating toward zero, as Java's ``long`` division does."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def nx1(weight: int, x: Fraction, k: Fraction) -> int:
    """``(long)(weight * (1 - x) * (1 + k x))``: the concavity function, truncated to zero."""
    return int(weight * (1 - x) * (1 + k * x))


def _utf16_units(text: str) -> list[int]:
    data = text.encode("utf-16-le")
    return [data[i] | data[i + 1] << 8 for i in range(0, len(data), 2)]


def det_random(maximum: int, p1: GoPlayer, p2: GoPlayer) -> int:
    """OpenGotha's deterministic random in ``[0, maximum]``; swapping p1, p2 mirrors it."""
    s1 = p1.name + p1.first_name
    s2 = p2.name + p2.first_name
    swapped = s1 > s2
    text = s2 + s1 if swapped else s1 + s2
    total = sum(code * (i + 1) for i, code in enumerate(_utf16_units(text)))
    value = (total * 1234567) % (maximum + 1)
    return maximum - value if swapped else value


@dataclass(frozen=True, slots=True)
class CostBreakdown:
    """Each component of one pair's cost; ``total`` = 1 + their sum."""

    duplicate: int
    random: int
    colour_balance: int
    category: int
    score_difference: int
    dudd: int
    seeding: int
    handicap: int
    geography: int

    @property
    def total(self) -> int:
        return 1 + (
            self.duplicate
            + self.random
            + self.colour_balance
            + self.category
            + self.score_difference
            + self.dudd
            + self.seeding
            + self.handicap
            + self.geography
        )

    def describe(self) -> str:
        """The cost as ``arbiter pair --explain`` shows it: the total and its non-zero parts.

        >>> CostBreakdown(5, 0, 0, 0, 7, 0, 2, 0, 0).describe()
        'cost 15 = 1 + no rematch 5, score difference 7, seeding 2'
        """
        parts = ", ".join(
            f"{label} {value}"
            for label, value in (
                ("no rematch", self.duplicate),
                ("score difference", self.score_difference),
                ("draw-up/down", self.dudd),
                ("seeding", self.seeding),
                ("colour balance", self.colour_balance),
                ("handicap", self.handicap),
                ("geography", self.geography),
                ("category", self.category),
                ("random", self.random),
            )
            if value
        )
        return f"cost {self.total} = 1 + {parts}"


@dataclass(frozen=True, slots=True)
class Handicap:
    white: str
    black: str
    stones: int


class PairContext:
    """What ``costValue`` reads for round ``r`` (0-based): scores, groups, past games."""

    def __init__(
        self,
        table: ScoreTable,
        groups: dict[str, GroupInfo],
        number_of_groups: int,
        r: int,
        clubs_groups: tuple[tuple[str, ...], ...] = (),
    ) -> None:
        self.table = table
        self.params: MacMahonParams = table.params
        self.groups = groups
        self.number_of_groups = number_of_groups
        self.r = r
        self.met: set[frozenset[str]] = set()
        for key in table.players:
            for rr in range(r):
                game = table.game(key, rr)
                if game is not None:
                    self.met.add(frozenset((game.white, game.black)))
        self.club_group: dict[str, set[int]] = {}
        for index, clubs in enumerate(clubs_groups):
            for club in clubs:
                self.club_group.setdefault(club, set()).add(index)
        self._mms = {k: table.mms2(k, r - 1) // 2 for k in table.players}
        self._nbw2 = {k: table.nbw2(k, r - 1) for k in table.players}
        self._wb = {k: table.wb_balance(k, r - 1) for k in table.players}
        self._above = {k: self._above_thresholds(k) for k in table.players}
        p = self.params
        if p.handicap_base is HandicapBase.MMS:
            pseudo = {k: self._mms[k] + p.mm_zero for k in table.players}
        else:
            pseudo = {k: player.rank for k, player in table.players.items()}
        self._pseudo_rank = {k: min(v, p.no_handicap_rank_threshold) for k, v in pseudo.items()}
        self._concave_cache: dict[tuple[int, int, int], int] = {}
        self._geo_cache: dict[tuple[int, bool, bool, bool], int] = {}

    # --- handicap and colour (gameBetween) ------------------------------------------------

    def _stones(self, k1: str, k2: str) -> int:
        """Signed handicap: > 0 means k1 takes White and gives that many stones."""
        p = self.params
        hd = self._pseudo_rank[k1] - self._pseudo_rank[k2]
        if hd > 0:
            hd = max(hd - p.handicap_correction, 0)
        elif hd < 0:
            hd = min(hd + p.handicap_correction, 0)
        return max(min(hd, p.handicap_ceiling), -p.handicap_ceiling)

    def game_between(self, k1: str, k2: str) -> Handicap:
        hd = self._stones(k1, k2)
        if hd > 0:
            return Handicap(k1, k2, hd)
        if hd < 0:
            return Handicap(k2, k1, -hd)
        wb1, wb2 = self._wb[k1], self._wb[k2]
        if wb1 > wb2:
            return Handicap(k2, k1, 0)
        if wb1 < wb2:
            return Handicap(k1, k2, 0)
        players = self.table.players
        if det_random(1, players[k1], players[k2]) == 0:
            return Handicap(k1, k2, 0)
        return Handicap(k2, k1, 0)

    # --- the cost ------------------------------------------------------------------------

    def cost(self, k1: str, k2: str) -> CostBreakdown:
        p = self.params
        g1, g2 = self.groups[k1], self.groups[k2]
        category = self.table.category
        cat1, cat2 = category[k1], category[k2]

        duplicate = 0 if frozenset((k1, k2)) in self.met else p.avoid_duplicate_game
        random = 0
        if p.random:
            random = det_random(p.random, self.table.players[k1], self.table.players[k2])

        colour = 0
        if self._stones(k1, k2) == 0:
            wb1, wb2 = self._wb[k1], self._wb[k2]
            if wb1 * wb2 < 0:
                colour = p.balance_wb
            elif (wb1 == 0 and abs(wb2) >= 2) or (wb2 == 0 and abs(wb1) >= 2):
                colour = p.balance_wb // 2

        categories = 0
        if p.number_of_categories > 1:
            categories = self._concave(
                p.avoid_mixing_categories, abs(cat1 - cat2), p.number_of_categories
            )
        score = 0
        if cat1 == cat2:
            score = self._concave(
                p.minimize_score_difference, abs(g1.group - g2.group), self.number_of_groups
            )

        dudd = self._dudd(g1, g2)
        gap = abs(cat1 - cat2) + 1
        dudd = dudd // gap // gap // gap // gap

        seeding = self._seeding(k1, k2, g1, g2)
        handicap, geography = self._secondary(k1, k2)
        return CostBreakdown(
            duplicate, random, colour, categories, score, dudd, seeding, handicap, geography
        )

    def _concave(self, weight: int, numerator: int, denominator: int) -> int:
        key = (weight, numerator, denominator)
        value = self._concave_cache.get(key)
        if value is None:
            value = nx1(weight, Fraction(numerator, denominator), self.params.nx1_factor)
            self._concave_cache[key] = value
        return value

    def _dudd(self, g1: GroupInfo, g2: GroupInfo) -> int:
        p = self.params
        if g1.group == g2.group:
            return 0
        if p.edition is Edition.V3_51 and abs(g1.group - g2.group) >= 4:
            return 0
        scenario = 2
        if g1.draw_ups > 0 and g1.group > g2.group:
            scenario -= 1
        if g1.draw_downs > 0 and g1.group < g2.group:
            scenario -= 1
        if g2.draw_ups > 0 and g2.group > g1.group:
            scenario -= 1
        if g2.draw_downs > 0 and g2.group < g1.group:
            scenario -= 1
        if scenario != 0:
            for me, other in ((g1, g2), (g2, g1)):
                if me.draw_ups > 0 and me.draw_downs < me.draw_ups and me.group < other.group:
                    scenario += 1
                if me.draw_downs > 0 and me.draw_ups < me.draw_downs and me.group > other.group:
                    scenario += 1
        weight = p.dudd_weight // 5
        upper, lower = (g1, g2) if g1.group < g2.group else (g2, g1)
        cost = _placement_part(weight, upper, p.dudd_upper_mode)
        cost += _placement_part(weight, lower, p.dudd_lower_mode)
        if scenario > 2 and not p.compensate_dudd:
            scenario = 2
        return cost + scenario * weight

    def _seeding(self, k1: str, k2: str, g1: GroupInfo, g2: GroupInfo) -> int:
        if g1.group != g2.group:
            return 0
        p = self.params
        n, c1, c2 = g1.size, g1.inner, g2.inner
        weight = p.maximize_seeding
        system = p.seed_system1 if p.uses_system1(self.r + 1) else p.seed_system2
        if system is SeedSystem.SPLIT_AND_RANDOM:
            if (2 * c1 < n) != (2 * c2 < n):
                players = self.table.players
                return weight - det_random(weight // 5, players[k1], players[k2])
            return 0
        if system is SeedSystem.SPLIT_AND_FOLD:
            x = c1 + c2 - (n - 1)
            return weight - java_div(java_div(weight * x, n - 1) * x, n - 1)
        x = 2 * abs(c1 - c2) - n
        return weight - java_div(java_div(weight * x, n) * x, n)

    def _above_thresholds(self, key: str) -> bool:
        p = self.params
        player = self.table.players[key]
        nbw2 = self._nbw2[key]
        threshold = p.number_of_rounds if p.nb_wins_threshold_active else 2 * p.number_of_rounds
        strong = 2 * player.rank + nbw2 >= 2 * p.rank_threshold
        above_bar = self.table.smms[key] >= p.mm_bar - p.mm_zero and p.bar_threshold_active
        return nbw2 >= threshold or strong or above_bar

    def _secondary(self, k1: str, k2: str) -> tuple[int, int]:
        p = self.params
        top = p.mm_bar + PLACEMENT_CORRECTION_MAX - p.mm_zero + self.r
        above1, above2 = self._above[k1], self._above[k2]
        pseudo1 = top if above1 else self._mms[k1]
        pseudo2 = top if above2 else self._mms[k2]
        if p.kind is SystemKind.MCMAHON:
            sec_range = self.number_of_groups
        else:
            sec_range = (
                p.mm_bar - p.mm_floor + PLACEMENT_CORRECTION_MAX - PLACEMENT_CORRECTION_MIN + self.r
            )
        handicap = self._concave(p.minimize_handicap, abs(pseudo1 - pseudo2), sec_range)

        one, two = self.table.players[k1], self.table.players[k2]
        same_club = one.club == two.club
        same_group = not same_club and bool(
            self.club_group.get(one.club, set()) & self.club_group.get(two.club, set())
        )
        flags = (above1 + above2, one.country == two.country, same_club, same_group)
        geography = self._geo_cache.get(flags)
        if geography is None:
            geography = self._geography(*flags)
            self._geo_cache[flags] = geography
        return handicap, geography

    def _geography(self, case: int, same_country: bool, same_club: bool, same_group: bool) -> int:
        p = self.params
        k = p.nx1_factor
        score_range = self.number_of_groups
        geo_max = p.avoid_same_geo
        country_factor = p.prefer_mms_diff_rather_than_same_country
        club_factor = p.prefer_mms_diff_rather_than_same_club
        country_ratio = Fraction(0)
        if not same_country and country_factor:
            country_ratio = min(Fraction(country_factor, score_range), Fraction(1))
        club_ratio = Fraction(0)
        if club_factor and not same_club:
            if same_group:
                club_ratio = Fraction(club_factor, 2 * score_range)
            else:
                club_ratio = Fraction(club_factor * 6, 5 * score_range)
        club_ratio = min(club_ratio, Fraction(1))
        ratio = max(country_ratio, club_ratio) + min(country_ratio, club_ratio) / 2
        if ratio > 0:
            ratio += Fraction(1, 2 * score_range)
        geo = min(p.minimize_score_difference - nx1(geo_max, ratio, k), geo_max)
        if p.edition is Edition.V2024:
            if case == 2:
                geo = geo_max
            elif case == 1:
                geo = (geo + geo_max) // 2
        return geo


def _placement_part(weight: int, info: GroupInfo, mode: DuddMode) -> int:
    half = weight // 2
    if mode is DuddMode.TOP:
        return half * (info.size - 1 - info.inner) // info.size
    if mode is DuddMode.MID:
        return half * (info.size - 1 - abs(2 * info.inner - info.size + 1)) // info.size
    return half * info.inner // info.size


# Names for the explain hook and the weight dumps, in OpenGotha's dump order.
COMPONENT_NAMES = (
    ("duplicate", "baseDuplicateGameCost"),
    ("random", "baseRandomCost"),
    ("colour_balance", "baseBWBalanceCost"),
    ("category", "mainCategoryCost"),
    ("score_difference", "mainScoreDiffCost"),
    ("dudd", "mainDUDDCost"),
    ("seeding", "mainSeedCost"),
    ("handicap", "secHandiCost"),
    ("geography", "secGeoCost"),
)
