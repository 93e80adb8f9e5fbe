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

from typing import Any, Final, NamedTuple

from events.domain import Game, System
from events.errors import PairingError
from pipelines.engines.adapters import EngineEntry, Lazy, PairingUnavailable, TrfReader

__all__ = ["ANY", "REGISTRY", "Row", "editions", "find", "flagged"]

ANY: Final = None
"""A line for every game that has no line of its own for the system."""


_FROM_TRF = "pipelines.engines.swiss_from_trf"
_PRESENT = Lazy(f"{_FROM_TRF}:only_present")
_LIVE = "pipelines.engines.live"
_LIVE_GO = "pipelines.engines.live_go"
_TEAM_TRF = "pipelines.engines.team_from_trf"


_SWISS_TRF: Final = TrfReader(Lazy(f"{_FROM_TRF}:swiss_input_from_trf"), None, present=_PRESENT)
"""A file read for an individual Swiss engine; the flag, not the file's 092/192, chooses it."""


DUTCH_2025 = EngineEntry(
    "Dutch", "FIDE Dutch system (2025 rules)",
    Lazy("pairing.dutch:pair_round"), Lazy(f"{_LIVE}:swiss"),
    trf=_SWISS_TRF,
)  # fmt: skip
DUTCH_2017 = EngineEntry(
    "Dutch", "FIDE Dutch system, 2017 rules (2017-2025)", Lazy("pairing.dutch2017:pair_round"),
    Lazy(f"{_LIVE}:swiss"),
    trf=_SWISS_TRF,
)  # fmt: skip
BURSTEIN = EngineEntry(
    "Burstein", "Burstein (bbpPairings' rules)",
    Lazy("pairing.burstein:pair_round"), Lazy(f"{_LIVE}:swiss"),
    trf=_SWISS_TRF,
)  # fmt: skip
DUBOV = EngineEntry(
    "Dubov", "FIDE Dubov system (2026 rules)",
    Lazy("pairing.dubov:pair_round"), Lazy(f"{_LIVE}:swiss"),
    trf=TrfReader(Lazy(f"{_FROM_TRF}:swiss_input_with_absent"), None, present=_PRESENT),
)  # fmt: skip
TEAM_SWISS = EngineEntry(
    # ``arbiter pair`` pairs teams by decide.teams.pair_round (the boards follow the line-ups)
    "Team Swiss", "FIDE Team Swiss (C.04.6): pairs teams, not players",
    Lazy("pairing.team:pair_round"),
    trf=TrfReader(
        Lazy(f"{_TEAM_TRF}:team_input_from_trf"), None, replay=Lazy(f"{_TEAM_TRF}:replay")
    ),
)  # fmt: skip
MACMAHON = EngineEntry(
    "Mac-Mahon",
    "Mac-Mahon as OpenGotha pairs it",
    Lazy("pairing.macmahon:pair_round"),
    Lazy(f"{_LIVE_GO}:macmahon"),
)
GO_SWISS = EngineEntry(
    "Swiss",
    "OpenGotha's Swiss (its Mac-Mahon engine)",
    Lazy("pairing.macmahon:pair_round"),
    Lazy(f"{_LIVE_GO}:go_swiss"),
)
GOPAIR = EngineEntry(
    "gopair", "AGA pairing as gopair computes it", Lazy("pairing.gopair:pair_round"),
    Lazy(f"{_LIVE_GO}:gopair"), live_bye=Lazy(f"{_LIVE_GO}:gopair_with_bye"),
)  # fmt: skip
SOL = EngineEntry(
    "SoL",
    "carrom as SoL pairs it",
    Lazy("pairing.sol:pair_round"),
    Lazy("pipelines.engines.live_carrom:sol"),
)
OTHELLO = EngineEntry(
    "othello Swiss",
    "by points, then disc count",
    Lazy("pairing.othello:pair_round"),
    Lazy(f"{_LIVE}:othello"),
)
ROUND_ROBIN = EngineEntry(
    "round robin",
    "FIDE Berger tables",
    Lazy("pairing.roundrobin:pair_round"),
    Lazy(f"{_LIVE}:round_robin"),
)
KNOCKOUT = EngineEntry(
    "knockout",
    "standard seeding, winners advance",
    Lazy("pairing.knockout:pair_round"),
    Lazy(f"{_LIVE}:knockout"),
)


class Row(NamedTuple):
    """One line of the registry (a NamedTuple, as `adapters`' classes: start-up)."""

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
