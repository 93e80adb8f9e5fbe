"""The pairing engines as the commands use them: one registry and the adapters that feed it.

`registry` holds the one table of (game, system, rules edition) -> engine that ``arbiter
pair`` (`pair.pair_next_round`), ``arbiter-pairings`` (`cli`) and ``tournament create
--rules`` (`chess_rules`) read. Engines are pure (``pairing/``, one calling convention:
:mod:`pairing.contract`); the adapters here build their inputs from the live tournament state
(`live`, `live_go`, `live_carrom`) or from a file (`swiss_from_trf`, `team_from_trf`,
`macmahon_from_opengotha`), and read their boards back.

A new engine goes in three places: the engine in ``pairing/<system>/`` with its
``pair_round``; its adapters in this package; one line in `registry.REGISTRY`.

This module imports nothing: importing one adapter (the ingest job reads `live`) must not
load every engine.
"""
