"""Live engines of the chess Swiss systems added with issue 14: the Dutch rules edition chosen
per tournament (``--rules 2017``) and the Dubov system. Pure: state in, boards out."""

from __future__ import annotations

from collections.abc import Callable

from events.domain import Board
from events.errors import PairingError
from pairing import dubov, dutch, dutch2017
from pairing.swiss.model import SwissInput, SwissRound
from pipelines import live
from projections.state import TournamentState

__all__ = ["DUTCH_RULES", "dubov_engine", "dutch_engine"]

Explain = Callable[[SwissInput, SwissRound], list[str]]

DUTCH_RULES: dict[str, tuple[Callable[[SwissInput], SwissRound], Explain]] = {
    "2025": (dutch.pair, dutch.explain),
    "2017": (dutch2017.pair, dutch2017.explain),
}
"""The Dutch editions by the tournament's ``rules`` parameter (default 2025)."""


def _run(
    pair: Callable[[SwissInput], SwissRound],
    explain: Explain,
    state: TournamentState,
    round_no: int,
    notes: list[str] | None,
) -> list[Board]:
    swiss, by_number = live.swiss_input(state, round_no)
    result = pair(swiss)
    if notes is not None:
        notes.extend(explain(swiss, result))
    return live.swiss_boards(result, by_number)


def dutch_engine(
    state: TournamentState, round_no: int, notes: list[str] | None = None
) -> list[Board]:
    """The Dutch system in the rules edition the tournament was created with."""
    rules = state.settings.pairing_params.chess.rules or "2025"
    if rules not in DUTCH_RULES:
        known = ", ".join(sorted(DUTCH_RULES))
        raise PairingError(f"unknown Dutch rules edition '{rules}' (known: {known})")
    pair, explain = DUTCH_RULES[rules]
    return _run(pair, explain, state, round_no, notes)


def dubov_engine(
    state: TournamentState, round_no: int, notes: list[str] | None = None
) -> list[Board]:
    """The Dubov system (C.04.4.1, 2026 rules)."""
    return _run(dubov.pair, dubov.explain, state, round_no, notes)
