"""Engine inputs from an OpenGotha file's records (``ingest.opengotha``); no I/O here."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

from decide.state import TournamentState, project
from events.domain import Game, System
from events.store import RecordedEvent
from ingest.opengotha import (
    GeneralParameters,
    HandicapParameters,
    OGTournament,
    PairingParameters,
)
from pairing.macmahon.params import (
    Criterion,
    DuddMode,
    Edition,
    HandicapBase,
    MacMahonParams,
    SeedSystem,
)
from pipelines.engines.live_go import go_params

__all__ = [
    "go_sets",
    "live_parameter_sets",
    "opengotha_parameter_sets",
    "params_from_opengotha",
]


def params_from_opengotha(source: OGTournament, edition: Edition = Edition.V2024) -> MacMahonParams:
    """The file's parameter sets; missing sets keep OpenGotha's Mac-Mahon defaults."""
    values: dict[str, object] = {"edition": edition}
    general = source.general
    if general is not None:
        values.update(
            number_of_rounds=general.number_of_rounds,
            mm_floor=general.mm_floor,
            mm_bar=general.mm_bar,
            mm_zero=general.mm_zero,
            category_lower_limits=general.category_lower_limits[
                : max(general.number_of_categories - 1, 0)
            ],
            nbw2_absent=general.nbw2_absent,
            nbw2_bye=general.nbw2_bye,
            mms2_absent=general.mms2_absent,
            mms2_bye=general.mms2_bye,
            round_down_nbw_mms=general.round_down_nbw_mms,
            count_not_played_as_half_point=general.count_not_played_as_half_point,
        )
    if source.placement_criteria is not None:
        criteria = tuple(Criterion.parse(n) for n in source.placement_criteria)
        values["placement_criteria"] = tuple(c for c in criteria if c is not Criterion.NUL) or (
            Criterion.NUL,
        )
    handicap = source.handicap
    if handicap is not None:
        base = handicap.base or ("MMS" if handicap.based_on_mms else "RANK")
        values.update(
            handicap_base=HandicapBase(base) if base in ("MMS", "RANK") else HandicapBase.MMS,
            no_handicap_rank_threshold=handicap.no_hd_rank_threshold,
            handicap_correction=handicap.correction,
            handicap_ceiling=handicap.ceiling,
        )
    pairing = source.pairing
    if pairing is not None:
        values.update(
            avoid_duplicate_game=pairing.avoid_duplicate_game,
            random=pairing.random,
            balance_wb=pairing.balance_wb,
            nx1_factor=Fraction(pairing.standard_nx1_factor),
            avoid_mixing_categories=pairing.avoid_mixing_categories,
            minimize_score_difference=pairing.minimize_score_difference,
            dudd_weight=pairing.dudd_weight,
            compensate_dudd=pairing.compensate_dudd,
            dudd_upper_mode=DuddMode(pairing.dudd_upper_mode),
            dudd_lower_mode=DuddMode(pairing.dudd_lower_mode),
            maximize_seeding=pairing.maximize_seeding,
            last_round_for_seed_system1=pairing.last_round_for_seed_system1,
            seed_system1=SeedSystem(pairing.seed_system1),
            seed_system2=SeedSystem(pairing.seed_system2),
            additional_criterion1=Criterion.parse(pairing.additional_placement_crit_system1),
            additional_criterion2=Criterion.parse(pairing.additional_placement_crit_system2),
            bar_threshold_active=pairing.bar_threshold_active,
            rank_threshold=pairing.rank_threshold,
            nb_wins_threshold_active=pairing.nb_wins_threshold_active,
            minimize_handicap=pairing.minimize_handicap,
            avoid_same_geo=pairing.avoid_same_geo,
            prefer_mms_diff_rather_than_same_country=(
                pairing.prefer_mms_diff_rather_than_same_country
            ),
            prefer_mms_diff_rather_than_same_club=pairing.prefer_mms_diff_rather_than_same_club,
        )
    return MacMahonParams.model_validate(values)


PLACEMENT_SLOTS = 6
"""OpenGotha writes six placement criteria, ``NULL`` after the last one in use."""


def opengotha_parameter_sets(
    params: MacMahonParams, criteria: tuple[str, ...] = ()
) -> dict[str, Any]:
    """The parameter sets of an OpenGotha file that pairs as ``params`` does: the inverse of
    `params_from_opengotha`. ``criteria``: the placement criteria by OpenGotha's names (the
    tournament's chain), default the engine's own."""
    names = list(criteria or (c.value for c in params.placement_criteria))
    return {
        "general": GeneralParameters(
            number_of_rounds=params.number_of_rounds,
            number_of_categories=params.number_of_categories,
            category_lower_limits=params.category_lower_limits,
            mm_floor=params.mm_floor,
            mm_bar=params.mm_bar,
            mm_zero=params.mm_zero,
            nbw2_absent=params.nbw2_absent,
            nbw2_bye=params.nbw2_bye,
            mms2_absent=params.mms2_absent,
            mms2_bye=params.mms2_bye,
            round_down_nbw_mms=params.round_down_nbw_mms,
            count_not_played_as_half_point=params.count_not_played_as_half_point,
        ),
        "handicap": HandicapParameters(
            based_on_mms=params.handicap_base is HandicapBase.MMS,
            no_hd_rank_threshold=params.no_handicap_rank_threshold,
            correction=params.handicap_correction,
            ceiling=params.handicap_ceiling,
        ),
        "placement_criteria": tuple(
            (names + ["NULL"] * PLACEMENT_SLOTS)[: max(PLACEMENT_SLOTS, len(names))]
        ),
        "pairing": PairingParameters(
            standard_nx1_factor=Decimal(params.nx1_factor.numerator)
            / Decimal(params.nx1_factor.denominator),
            avoid_duplicate_game=params.avoid_duplicate_game,
            random=params.random,
            balance_wb=params.balance_wb,
            avoid_mixing_categories=params.avoid_mixing_categories,
            minimize_score_difference=params.minimize_score_difference,
            dudd_weight=params.dudd_weight,
            compensate_dudd=params.compensate_dudd,
            dudd_upper_mode=params.dudd_upper_mode.value,
            dudd_lower_mode=params.dudd_lower_mode.value,
            maximize_seeding=params.maximize_seeding,
            last_round_for_seed_system1=params.last_round_for_seed_system1,
            seed_system1=params.seed_system1.value,
            seed_system2=params.seed_system2.value,
            additional_placement_crit_system1=params.additional_criterion1.value,
            additional_placement_crit_system2=params.additional_criterion2.value,
            bar_threshold_active=params.bar_threshold_active,
            rank_threshold=params.rank_threshold,
            nb_wins_threshold_active=params.nb_wins_threshold_active,
            minimize_handicap=params.minimize_handicap,
            avoid_same_geo=params.avoid_same_geo,
            prefer_mms_diff_rather_than_same_country=(
                params.prefer_mms_diff_rather_than_same_country
            ),
            prefer_mms_diff_rather_than_same_club=params.prefer_mms_diff_rather_than_same_club,
        ),
    }


def live_parameter_sets(state: TournamentState) -> dict[str, Any]:
    """The parameter sets of a go Mac-Mahon or Swiss event as its engine pairs it (empty for
    another system); the placement criteria are the tournament's chain where OpenGotha has
    them.

    :raises UserError: go settings the engine refuses.
    """
    if state.game is not Game.GO or state.system not in (System.MACMAHON, System.SWISS):
        return {}
    params = go_params(state, swiss=state.system is System.SWISS)
    by_code = {c.value.upper(): c.value for c in Criterion if c is not Criterion.NUL}
    chain = tuple(by_code[c] for c in state.tiebreaks if c in by_code)
    return opengotha_parameter_sets(params, chain)


def go_sets(events: Sequence[RecordedEvent]) -> dict[str, Any]:
    """`live_parameter_sets` of a tournament stream."""
    return live_parameter_sets(project(e.event for e in events))
