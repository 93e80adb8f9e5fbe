"""Pair one round the way OpenGotha does (``makeAutomaticPairing``, pairing.md §4.2-4.9)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pairing.macmahon.cost import CostBreakdown, PairContext
from pairing.macmahon.groups import fill_groups, main_score, main_score_range, placement_key
from pairing.macmahon.matching import max_weight_perfect_matching
from pairing.macmahon.model import GoTournament, MacMahonError, PairedGame, Pairing
from pairing.macmahon.params import Edition, MacMahonParams, SystemKind
from pairing.macmahon.scoring import ScoreTable, build_scores

__all__ = [
    "CHUNK_MAX",
    "CHUNK_MIN",
    "Explain",
    "RoundSetup",
    "choose_bye",
    "pair",
    "prepare_round",
]

CHUNK_MIN = 200
"""OpenGotha's ``PAIRING_GROUP_MIN_SIZE`` since V3.46.01."""
CHUNK_MAX = 3 * CHUNK_MIN

Explain = Callable[[str, str, CostBreakdown], None]
"""Called with (player 1, player 2, cost components) for every pair the engine weighs."""


@dataclass(frozen=True, slots=True)
class RoundSetup:
    """Everything computed before matching: scores, groups, and the players to pair."""

    round_number: int
    table: ScoreTable
    context: PairContext
    pairable: tuple[str, ...]
    """Players to pair in OpenGotha's default pairing-panel order (standings at r-1)."""


def prepare_round(
    tournament: GoTournament, params: MacMahonParams, round_number: int
) -> RoundSetup:
    """Scores and groups for pairing ``round_number`` (1-based), from earlier rounds only."""
    if not 1 <= round_number <= params.number_of_rounds:
        raise MacMahonError(f"round {round_number} outside 1..{params.number_of_rounds}")
    past = tournament.before(round_number)
    r = round_number - 1
    table = build_scores(past, params, r)
    groups, number_of_groups = fill_groups(table, r)
    context = PairContext(table, groups, number_of_groups, r, tournament.clubs_groups)
    players = [p.key for p in past.players if p.final_registration and p.plays_in(round_number)]
    players.sort(key=lambda k: placement_key(table, params.placement_criteria, r - 1, k))
    return RoundSetup(round_number, table, context, tuple(players))


def choose_bye(setup: RoundSetup, byes_so_far: dict[str, int]) -> str:
    """OpenGotha's ``chooseAByePlayer``: the smallest weight, ties to the last in the list."""
    table = setup.table
    params = table.params
    r = setup.round_number - 1
    swiss_by_wins = params.edition is Edition.V2024 and params.kind is SystemKind.SWISS
    best: str | None = None
    best_weight = 0
    for key in setup.pairable:
        rank = table.players[key].rank
        if swiss_by_wins:
            weight = rank + 40 * (table.nbw2(key, r - 1) // 2)
        else:
            weight = rank + table.mms2(key, r - 1)
        weight += 1000 * byes_so_far.get(key, 0)
        if best is None or weight <= best_weight:
            best, best_weight = key, weight
    if best is None:
        raise MacMahonError("no player to give the bye to")
    return best


def _chunks(setup: RoundSetup) -> list[list[str]]:
    """Split more than ``CHUNK_MAX`` players into score-ordered chunks, as OpenGotha does."""
    table = setup.table
    params = table.params
    r = setup.round_number - 1
    low, high = main_score_range(table, r)
    remaining = list(setup.pairable)
    chunks: list[list[str]] = []
    while len(remaining) > CHUNK_MAX:
        chunk: list[str] = []
        ready = False
        for cat in range(params.number_of_categories):
            for score in range(high, low - 1, -1):
                kept: list[str] = []
                for index, key in enumerate(remaining):
                    if ready or table.category[key] > cat or main_score(table, key, r - 1) < score:
                        kept.append(key)
                        continue
                    chunk.append(key)
                    if (
                        len(chunk) >= CHUNK_MAX
                        or len(remaining) - index - 1 + len(kept) <= CHUNK_MIN
                    ):
                        ready = True
                remaining = kept
                if len(chunk) >= CHUNK_MIN and len(chunk) % 2 == 0:
                    ready = True
                if ready:
                    break
            if ready:
                break
        chunks.append(chunk)
    chunks.append(remaining)
    return chunks


def _pair_chunk(
    setup: RoundSetup, chunk: list[str], explain: Explain | None, matcher: str
) -> list[PairedGame]:
    context = setup.context
    # Among equal-weight matchings the choice depends on the algorithm and the vertex order.
    # The "opengotha" matcher takes the players in OpenGotha's order, the pairing panel's;
    # the blossom matchers do best bottom-up (26 of 27 reference rounds with networkx).
    keys = chunk if matcher == "opengotha" else chunk[::-1]
    n = len(keys)
    weights = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            cost = context.cost(keys[i], keys[j])
            if explain is not None:
                explain(keys[i], keys[j], cost)
            weights[i][j] = weights[j][i] = cost.total
    games = []
    for i, j in max_weight_perfect_matching(weights, engine=matcher):
        game = context.game_between(keys[i], keys[j])
        games.append(PairedGame(white=game.white, black=game.black, handicap=game.stones))
    return games


def pair(
    tournament: GoTournament,
    params: MacMahonParams,
    round_number: int,
    *,
    explain: Explain | None = None,
    matcher: str = "opengotha",
) -> Pairing:
    """Pair round ``round_number`` (1-based) from the games and byes of earlier rounds.

    Players take part when finally registered and marked as participating in the round. With
    an odd count the bye is chosen first; more than 600 players are paired in chunks.
    ``explain`` receives every weighed pair's cost components. ``matcher`` is
    ``"opengotha"`` (Gabow's algorithm in OpenGotha's order: ties resolve as in OpenGotha),
    ``"rustworkx"`` or ``"networkx"``; all three find a maximum-weight matching, but the
    blossom matchers may pick another one among equal-weight matchings.
    """
    setup = prepare_round(tournament, params, round_number)
    bye: str | None = None
    if len(setup.pairable) % 2:
        counts: dict[str, int] = {}
        for past in tournament.byes:
            if past.round < round_number:
                counts[past.player] = counts.get(past.player, 0) + 1
        bye = choose_bye(setup, counts)
        setup = RoundSetup(
            setup.round_number,
            setup.table,
            setup.context,
            tuple(k for k in setup.pairable if k != bye),
        )
    games: list[PairedGame] = []
    for chunk in _chunks(setup):
        games.extend(_pair_chunk(setup, chunk, explain, matcher))
    order = {key: index for index, key in enumerate(setup.pairable)}
    games.sort(key=lambda g: min(order[g.white], order[g.black]))
    return Pairing(round=round_number, games=tuple(games), bye=bye)
