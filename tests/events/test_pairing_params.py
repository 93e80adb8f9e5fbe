"""`TournamentCreated.pairing_params` payloads written before the typed settings still decode.

Until the per-system models, the parameters were a flat JSON object read by string keys; the
payloads below are that shape, as the CLI, the TRF and OpenGotha imports and the rating tests
wrote it. They decode into the typed parts and encode back to the same object.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from events.domain import Colour
from events.schema import TournamentCreated, decode, encode
from pairing.macmahon import MacMahonParams

BASE = {
    "type": "TournamentCreated",
    "tournament_id": "t",
    "name": "T",
    "game": "go",
    "system": "macmahon",
    "rounds": 5,
}

OPENGOTHA_DUMP = MacMahonParams().model_dump(mode="json", exclude={"number_of_rounds"})
"""What ingest_job.with_go_pairing stored for an imported OpenGotha file."""


def stored(params: dict[str, Any]) -> TournamentCreated:
    event = decode("TournamentCreated", 1, json.dumps({**BASE, "pairing_params": params}))
    assert isinstance(event, TournamentCreated)
    return event


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"mm_bar": 3, "mm_floor": -20, "komi": 7.5},
        {"initial_colour": "black"},
        {
            "couplings": "dazed",
            "delaytoppairing": 1,
            "delaycompatriotpairing": 2,
            "phantomscore": 25,
        },
        {"egf_class": "A"},
        {"rating_class": "B", "rating_weight": 0.5},
        OPENGOTHA_DUMP,
    ],
    ids=["none", "cli-go", "trf-colour", "cli-carrom", "egf-class", "rating-class", "opengotha"],
)
def test_todays_payloads_decode_and_encode_back_unchanged(params: dict[str, Any]) -> None:
    event = stored(params)
    assert json.loads(encode(event))["pairing_params"] == params


def test_the_parts_read_by_attribute() -> None:
    go = stored({"mm_bar": 3, "mm_floor": -20, "komi": 7.5}).pairing_params.go
    assert (go.mm_bar, go.mm_floor, go.komi, go.opengotha) == (3, -20, 7.5, {})
    carrom = stored({"couplings": "dazed", "phantomscore": 20}).pairing_params.carrom
    assert (carrom.couplings, carrom.phantomscore, carrom.delaytoppairing) == ("dazed", 20, None)
    assert stored({"egf_class": "A"}).pairing_params.rating.egf_class == "A"
    imported = stored(OPENGOTHA_DUMP).pairing_params.go
    assert (imported.mm_bar, imported.mm_floor) == (
        OPENGOTHA_DUMP["mm_bar"],
        OPENGOTHA_DUMP["mm_floor"],
    )
    assert imported.opengotha["placement_criteria"] == OPENGOTHA_DUMP["placement_criteria"]
    assert MacMahonParams.model_validate({**imported.macmahon(), "number_of_rounds": 5}) == (
        MacMahonParams(number_of_rounds=5)
    )


@pytest.mark.parametrize(
    ("text", "colour"),
    [
        ("black", Colour.BLACK),
        ("white", Colour.WHITE),
        ("Black", Colour.BLACK),
        ("b", Colour.BLACK),
    ],
)
def test_an_initial_colour_reads_as_the_pairing_always_read_it(text: str, colour: Colour) -> None:
    """Older events kept ``--initial-colour`` as typed; the pairing read "b..." as black."""
    assert stored({"initial_colour": text}).pairing_params.chess.initial_colour is colour
