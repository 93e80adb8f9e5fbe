"""A registry line's engine with the adapters that feed it, typed together.

`EngineEntry` binds an engine (:class:`pairing.contract.Engine`) to the adapters that build
its input: from the live tournament state (``arbiter pair``), and from a TRF file
(``arbiter-pairings``). An adapter hands the engine a `Prepared` request; the entry's two
methods run the engine on it, so that the registry can hold engines of every input type.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, TypeVar

from events.domain import Board
from events.errors import PairingError

if TYPE_CHECKING:
    from decide.state import TournamentState
    from events.params import GoSettings
    from ingest.trf import TrfFile
    from pairing.contract import Engine, PairedRound

__all__ = ["EngineEntry", "Lazy", "PairingUnavailable", "Prepared", "Replayed", "TrfReader"]

InputT = TypeVar("InputT")
ParamsT = TypeVar("ParamsT")


@dataclass(frozen=True, slots=True)
class Lazy:
    """The function ``module:name``, imported when first called: the registry names every
    engine and adapter, and a command loads only the one it runs (start-up, issue 31).

    The other classes here are typed NamedTuples, immutable as frozen dataclasses and a few
    times cheaper to define (every ``arbiter-pairings`` run defines them: start-up); this one
    stays a dataclass, which mypy reads as a `Callable` where a NamedTuple is not."""

    target: str

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        module, _, name = self.target.partition(":")
        return getattr(importlib.import_module(module), name)(*args, **kwargs)


class PairingUnavailable(PairingError):
    """The tournament's system has no engine (yet), or its rounds come from a result file."""


class Prepared(NamedTuple, Generic[InputT, ParamsT]):
    """An engine's request and params, and how its boards read back as the tournament's."""

    request: InputT
    params: ParamsT
    players: Mapping[int, int] | None = None
    """The engine's player numbers -> player ids; None: the engine names players by id."""
    go: GoSettings | None = None
    """Go: the tournament's komi rule (`GoSettings.komi_for`), written on each game the engine
    gives no komi."""

    def _komi(self, handicap: int | None) -> float | None:
        return None if self.go is None else self.go.komi_for(handicap)

    def boards(self, paired: PairedRound) -> list[Board]:
        """The engine's boards with player ids, and the komi on the games."""
        ids = self.players
        return [
            Board(
                board=b.board,
                white=b.white if ids is None else ids[b.white],
                black=b.black if ids is None or b.black is None else ids[b.black],
                handicap=b.handicap,
                komi=self._komi(b.handicap) if b.komi is None and b.black is not None else b.komi,
            )
            for b in paired.boards
        ]


class Replayed(NamedTuple, Generic[InputT]):
    """A round the file pairs, as the checker (``-c``) re-pairs it: the request the file stood
    at before the round, and the file's own pairing of it."""

    round: int
    request: InputT
    played: PairedRound
    colourless: frozenset[frozenset[int]]
    """Pairs whose colours the file leaves out (forfeits): either way round matches."""


class TrfReader(NamedTuple, Generic[InputT, ParamsT]):
    """How ``arbiter-pairings`` reads an engine's request from a TRF file."""

    read: Callable[[TrfFile], InputT]
    params: ParamsT
    """The params every file is paired with."""
    present: Callable[[InputT, AbstractSet[int]], InputT] | None = None
    """The request with only these players present, for the checker (``-c``) of a file of
    players; None: no such checker for this system."""
    replay: Callable[[TrfFile], Sequence[Replayed[InputT]]] | None = None
    """The checker's rounds, for a system whose file is not cut back player by player (the
    team Swiss); None: the checker cuts the file (`present`)."""


LiveAdapter = Callable[["TournamentState", int], Prepared[InputT, ParamsT]]
"""The request to pair round ``round_no`` of the tournament."""
ByeAdapter = Callable[["TournamentState", int, int], Prepared[InputT, ParamsT]]
"""The same, with the player the director gives the bye."""


class EngineEntry(NamedTuple, Generic[InputT, ParamsT]):
    """What a registry line names: an engine and its adapters."""

    name: str
    """The system's name in messages (``unknown Dutch rules edition``)."""
    title: str
    """One line on what it pairs, by which rules (``arbiter-pairings --help``)."""
    engine: Engine[InputT, ParamsT]
    live: LiveAdapter[InputT, ParamsT] | None = None
    """None: ``arbiter pair`` does not pair this system through the registry."""
    live_bye: ByeAdapter[InputT, ParamsT] | None = None
    """None: the system chooses the bye by its rules (``arbiter pair --bye`` is refused)."""
    trf: TrfReader[InputT, ParamsT] | None = None
    """None: ``arbiter-pairings`` does not offer this system."""

    def pair_live(
        self, state: TournamentState, round_no: int, *, bye: int | None = None, explain: bool
    ) -> tuple[list[Board], tuple[str, ...]]:
        """The boards of round ``round_no`` (player ids) and, with ``explain``, the notes.

        :raises PairingUnavailable: no live adapter, or a ``bye`` the system does not take.
        """
        if self.live is None:
            raise PairingUnavailable(f"no pairing engine for system '{state.system.value}' yet")
        if bye is None:
            prepared = self.live(state, round_no)
        elif self.live_bye is None:
            raise PairingUnavailable.naming(
                "{0} chooses the bye of a gopair round; other systems choose it by their rules",
                "bye",
            )
        else:
            prepared = self.live_bye(state, round_no, bye)
        paired = self.engine(prepared.request, prepared.params, explain=explain)
        return prepared.boards(paired), paired.notes

    def pair_file(self, trf: TrfFile, present: AbstractSet[int] | None = None) -> PairedRound:
        """The next round of a TRF file, in its pairing numbers; ``present``: only these
        players are paired (the checker's re-pairing of a played round).

        :raises PairingUnavailable: the system has no TRF reader, or no checker.
        """
        reader = self.trf
        if reader is None:
            raise PairingUnavailable(f"{self.name}: no TRF input")
        request = reader.read(trf)
        if present is not None:
            if reader.present is None:
                raise PairingUnavailable(f"{self.name}: no checker")
            request = reader.present(request, present)
        return self.engine(request, reader.params)
