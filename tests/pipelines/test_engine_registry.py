"""The engine registry: one table that arbiter pair, arbiter-pairings and --rules read."""

from __future__ import annotations

import pytest

from events.domain import Game, System
from events.errors import PairingError, UserError
from pipelines.engines import registry
from pipelines.engines.adapters import PairingUnavailable
from pipelines.engines.chess_rules import dutch_rules


def test_each_line_is_one_key() -> None:
    keys = [(r.game, r.system, r.edition) for r in registry.REGISTRY]
    assert len(keys) == len(set(keys))


def test_a_game_line_wins_over_the_line_for_any_game() -> None:
    assert registry.find(Game.CARROM, System.ROUNDROBIN) is registry.SOL
    assert registry.find(Game.CHESS, System.ROUNDROBIN) is registry.ROUND_ROBIN
    assert registry.find(Game.GO, System.SWISS) is registry.GO_SWISS
    assert registry.find(Game.GO, System.DUTCH) is registry.DUTCH_2025


def test_the_dutch_editions_default_to_the_rules_in_force() -> None:
    for system in (System.DUTCH, System.SWISS):
        assert registry.editions(Game.CHESS, system) == ["2025", "2017"]
        assert registry.find(Game.CHESS, system) is registry.DUTCH_2025
        assert registry.find(Game.CHESS, system, "2017") is registry.DUTCH_2017
    assert registry.editions(Game.CHESS, System.BURSTEIN) == []
    with pytest.raises(
        PairingError, match=r"unknown Dutch rules edition '1992' \(known: 2017, 2025\)"
    ):
        registry.find(Game.CHESS, System.SWISS, "1992")


def test_systems_without_an_engine_are_unavailable() -> None:
    with pytest.raises(PairingUnavailable, match="no pairing engine for system 'imported' yet"):
        registry.find(Game.CHESS, System.IMPORTED)
    with pytest.raises(PairingUnavailable, match="team-swiss"):
        registry.find(Game.GO, System.TEAM_SWISS)


def test_arbiter_pairings_offers_the_flagged_lines_each_with_a_trf_reader() -> None:
    rows = registry.flagged()
    assert [r.flag for r in rows] == ["--dutch", "--burstein", "--dutch-2017", "--dubov", "--team"]
    assert all(r.engine.trf is not None for r in rows)
    checkable = [r.flag for r in rows if r.engine.trf is not None and r.engine.trf.present]
    assert checkable == ["--dutch", "--burstein", "--dutch-2017", "--dubov"]


def test_rules_are_the_registry_editions_of_the_chess_dutch_system() -> None:
    assert dutch_rules(" 2017 ", Game.CHESS, System.SWISS) == "2017"
    with pytest.raises(UserError, match="known editions: 2017, 2025"):
        dutch_rules("2030", Game.CHESS, System.DUTCH)
    with pytest.raises(UserError, match="not to go dutch"):
        dutch_rules("2017", Game.GO, System.DUTCH)
    with pytest.raises(UserError, match="not to chess burstein"):
        dutch_rules("2017", Game.CHESS, System.BURSTEIN)
