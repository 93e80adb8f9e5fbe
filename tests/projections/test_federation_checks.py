"""`projections.federation_checks` on states the CLI cannot make: a federation code FIDE does
not know (an imported file keeps what it says), and names spelled with other spaces or case."""

from __future__ import annotations

import datetime as dt

from decide.state import project
from events.domain import Game, System
from events.imported_lists import Kind, ListedPlayer
from events.params import PairingParams
from events.schema import PlayerRegistered, TournamentCreated
from projections.federation_checks import Finding, fide_findings


def test_an_unknown_federation_and_names_that_differ_only_in_spacing() -> None:
    state = project(
        [
            TournamentCreated(
                tournament_id="t",
                name="T",
                game=Game.CHESS,
                system=System.IMPORTED,
                rounds=1,
                start_date=dt.date(2025, 11, 20),
                pairing_params=PairingParams.model_validate({"rating": {"rating_type": "blitz"}}),
            ),
            PlayerRegistered(
                player=1,
                name="carlsen,magnus",
                federation="XYZ",
                sex="m",
                birth="1990",
                fide_id="1503014",
                rating=2886,
            ),
        ]
    )
    row = ListedPlayer(
        "fide-blitz", dt.date(2025, 11, 1), Kind.FIDE, "1503014", "Carlsen, Magnus", rating=2886
    )
    found = fide_findings(state, {"1503014": row}, list_label="fide-blitz list of 2025-11-01")
    assert found == [
        Finding(1, "carlsen,magnus", "federation", "'XYZ' is not a FIDE federation code")
    ]
