"""The one table of pairing engines: (game, system, rules edition) -> engine and adapters.

``arbiter pair`` (`pipelines.engines.pair.pair_next_round`), ``arbiter-pairings`` (its system
flags) and the ``--rules`` check of ``tournament create`` (`pipelines.engines.chess_rules`)
all read `REGISTRY`. A line names the game (`ANY`: every game without a line of its own for
the system), the system, the rules edition (None for a system with one; where a system has
several, its first line is the default: the rules in force), the engine with its adapters
(`EngineEntry`), and the ``arbiter-pairings`` flag that chooses it (listed in this order).

A new engine: the engine in ``pairing/<system>/`` with its ``pair_round`` (pairing.contract),
its adapters here (`live`, `live_go`, `live_carrom` from the tournament state; `swiss_from_trf`,
`team_from_trf` from a file), and one line below.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from events.domain import Game, System
from events.errors import PairingError
from pairing import (
    burstein,
    dubov,
    dutch,
    dutch2017,
    gopair,
    knockout,
    macmahon,
    othello,
    roundrobin,
    sol,
    team,
)
from pairing.swiss.model import SwissInput
from pipelines.engines import live, live_carrom, live_go
from pipelines.engines.adapters import EngineEntry, PairingUnavailable, TrfReader
from pipelines.engines.swiss_from_trf import (
    only_present,
    swiss_input_from_trf,
    swiss_input_with_absent,
)
from pipelines.engines.team_from_trf import team_input_from_trf

__all__ = ["ANY", "REGISTRY", "Row", "editions", "find", "flagged"]

ANY: Final = None
"""A line for every game that has no line of its own for the system."""


def _swiss_trf(code: str) -> TrfReader[SwissInput, None]:
    return TrfReader(code, swiss_input_from_trf, None, present=only_present)


DUTCH_2025 = EngineEntry(
    "Dutch", "FIDE Dutch system (2025 rules)", dutch.pair_round, live.swiss,
    trf=_swiss_trf("FIDE_DUTCH"),
)  # fmt: skip
DUTCH_2017 = EngineEntry(
    "Dutch", "FIDE Dutch system, 2017 rules (2017-2025)", dutch2017.pair_round, live.swiss,
    trf=_swiss_trf("FIDE_DUTCH"),
)  # fmt: skip
BURSTEIN = EngineEntry(
    "Burstein", "Burstein (bbpPairings' rules)", burstein.pair_round, live.swiss,
    trf=_swiss_trf("FIDE_BURSTEIN"),
)  # fmt: skip
DUBOV = EngineEntry(
    "Dubov", "FIDE Dubov system (2026 rules)", dubov.pair_round, live.swiss,
    trf=TrfReader("FIDE_DUBOV", swiss_input_with_absent, None, present=only_present),
)  # fmt: skip
TEAM_SWISS = EngineEntry(
    # ``arbiter pair`` pairs teams in pipelines.commands.teams (the boards follow the line-ups)
    "Team Swiss", "FIDE Team Swiss (C.04.6): pairs teams, not players", team.pair_round,
    trf=TrfReader("FIDE_TEAM", team_input_from_trf, None, keyword="TEAM"),
)  # fmt: skip
MACMAHON = EngineEntry(
    "Mac-Mahon", "Mac-Mahon as OpenGotha pairs it", macmahon.pair_round, live_go.macmahon
)
GO_SWISS = EngineEntry(
    "Swiss", "OpenGotha's Swiss (its Mac-Mahon engine)", macmahon.pair_round, live_go.go_swiss
)
GOPAIR = EngineEntry(
    "gopair", "AGA pairing as gopair computes it", gopair.pair_round, live_go.gopair,
    live_bye=live_go.gopair_with_bye,
)  # fmt: skip
SOL = EngineEntry("SoL", "carrom as SoL pairs it", sol.pair_round, live_carrom.sol)
OTHELLO = EngineEntry(
    "othello Swiss", "by points, then disc count", othello.pair_round, live.othello
)
ROUND_ROBIN = EngineEntry(
    "round robin", "FIDE Berger tables", roundrobin.pair_round, live.round_robin
)
KNOCKOUT = EngineEntry(
    "knockout", "standard seeding, winners advance", knockout.pair_round, live.knockout
)


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the registry."""

    game: Game | None
    system: System
    edition: str | None
    engine: EngineEntry[Any, Any]
    flag: str | None = None
    """The ``arbiter-pairings`` option that chooses this engine; None: not offered there."""


REGISTRY: Final = (
    # game            system             edition engine       arbiter-pairings (its default first)
    Row(ANY,          System.DUTCH,      "2025", DUTCH_2025,  "--dutch"),
    Row(ANY,          System.BURSTEIN,   None,   BURSTEIN,    "--burstein"),
    Row(ANY,          System.DUTCH,      "2017", DUTCH_2017,  "--dutch-2017"),
    Row(ANY,          System.DUBOV,      None,   DUBOV,       "--dubov"),
    Row(Game.CHESS,   System.TEAM_SWISS, None,   TEAM_SWISS,  "--team"),
    Row(Game.CHESS,   System.SWISS,      "2025", DUTCH_2025),
    Row(Game.CHESS,   System.SWISS,      "2017", DUTCH_2017),
    Row(Game.GO,      System.SWISS,      None,   GO_SWISS),
    Row(ANY,          System.MACMAHON,   None,   MACMAHON),
    Row(ANY,          System.GOPAIR,     None,   GOPAIR),
    Row(Game.CARROM,  System.SWISS,      None,   SOL),
    Row(Game.CARROM,  System.ROUNDROBIN, None,   SOL),
    Row(Game.CARROM,  System.KNOCKOUT,   None,   SOL),
    Row(Game.OTHELLO, System.SWISS,      None,   OTHELLO),
    Row(ANY,          System.ROUNDROBIN, None,   ROUND_ROBIN),
    Row(ANY,          System.KNOCKOUT,   None,   KNOCKOUT),
)  # fmt: skip


def _rows(game: Game, system: System) -> list[Row]:
    """The lines of ``system`` for ``game``: its own, else those for any game."""
    own = [r for r in REGISTRY if r.system is system and r.game is game]
    return own or [r for r in REGISTRY if r.system is system and r.game is ANY]


def editions(game: Game, system: System) -> list[str]:
    """The rules editions of the system for the game, the default first (none: one edition)."""
    return [r.edition for r in _rows(game, system) if r.edition is not None]


def find(game: Game, system: System, edition: str | None = None) -> EngineEntry[Any, Any]:
    """The engine of ``system`` for ``game`` in ``edition`` (None: the default edition).

    :raises PairingUnavailable: no engine for the system (for this game).
    :raises PairingError: an edition the system does not have.
    """
    rows = _rows(game, system)
    if not rows:
        raise PairingUnavailable(f"no pairing engine for system '{system.value}' yet")
    if edition is None or rows[0].edition is None:
        return rows[0].engine
    for row in rows:
        if row.edition == edition:
            return row.engine
    known = ", ".join(sorted(editions(game, system)))
    raise PairingError(f"unknown {rows[0].engine.name} rules edition '{edition}' (known: {known})")


def flagged() -> list[Row]:
    """The lines ``arbiter-pairings`` offers, by its flags, in their order."""
    return [r for r in REGISTRY if r.flag is not None]
