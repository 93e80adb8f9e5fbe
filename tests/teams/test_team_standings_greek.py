"""Team standings of a real team Swiss against its published standings.

Διασυλλογικό Κύπελλο Κρητικής Φιλίας 2024 (chess/real/heltour_friendship_cup_2024_…): the
official results as transcribed in Lichess4545/heltour @cfa4f51
``heltour/tournament_core/tests/test_friendship_cup_standings.py`` (SOURCES.md #15): rank
order, won/drawn/lost, match points, game points, EGGSB, BH:MP.

The file's games give Α.Σ.ΗΡΟΔΟΤΟΣ 13½ game points where the published table has 14½; every
other figure agrees, and the only EGGSB values that differ are those of Α.Σ.ΗΡΟΔΟΤΟΣ and its
opponents, each by exactly its own game points against Α.Σ.ΗΡΟΔΟΤΟΣ (the product of the one
missing game point). The test checks that too, so any other difference fails.
"""

from __future__ import annotations

from decimal import Decimal

from ingest.trf import parse_trf
from ingest.trf.teams import team_tournament_from_trf
from projections.team_standings import team_standings
from tests.conftest import require_testdata

# (team, won, drawn, lost, match points, game points, EGGSB, BH:MP), published rank order
PUBLISHED = [
    ("ΟΑΑΗ", 4, 3, 0, 11, "24.5", "547.75", 56),
    ("ΟΑΧ", 5, 0, 2, 10, "23.5", "486", 53),
    ("ΣΟΗ", 3, 3, 1, 9, "25.5", "536.5", 58),
    ("ΓΑΖΙ 1", 4, 1, 2, 9, "25", "449.5", 39),
    ("ΟΦΗ 1", 4, 1, 2, 9, "24.5", "513.75", 53),
    ("ΟΦΗ 2", 3, 2, 2, 8, "22", "455.25", 51),
    ("ΣΑΧ", 3, 1, 2, 8, "20", "453", 58),
    ("ΛΕΩΝ ΚΑΝΤΙΑ 2", 3, 1, 3, 7, "23", "510.75", 55),
    ("Σ.A.ΧΕΡΣΟΝΗΣΟΥ", 2, 1, 3, 6, "22", "409", 39),
    ("ΓΑΖΙ 3", 2, 2, 3, 6, "18.5", "384.25", 50),
    ("ΛΕΩΝ ΚΑΝΤΙΑ 1", 2, 0, 4, 5, "19", "359.75", 48),
    ("Α.Π.Ο. ΜΙΚΗΣ ΘΕΟΔΩΡΑΚΗΣ", 1, 2, 3, 5, "18.5", "377.25", 47),
    ("ΓΑΖΙ 2", 2, 0, 4, 5, "15.5", "292.25", 48),
    ("ΚΥΔΩΝ", 1, 1, 4, 4, "18", "327.25", 36),
    ("Α.Σ.ΗΡΟΔΟΤΟΣ", 1, 0, 5, 3, "14.5", "308.25", 44),
]
ODD = "Α.Σ.ΗΡΟΔΟΤΟΣ"


def test_friendship_cup_standings_equal_the_published_ones() -> None:
    path = require_testdata("chess", "real", "heltour_friendship_cup_2024_heraklion_team.trf")
    tournament = team_tournament_from_trf(parse_trf(path))
    rows = team_standings(tournament.teams)
    assert [r.name for r in rows] == [p[0] for p in PUBLISHED]
    assert [r.rank for r in rows] == list(range(1, 16))
    by_name = {t.name: t for t in tournament.teams}
    odd = by_name[ODD].number
    for row, (name, won, drawn, lost, mp, gp, eggsb, bh) in zip(rows, PUBLISHED, strict=True):
        assert (row.won, row.drawn, row.lost) == (won, drawn, lost), name
        assert row.match_points == mp, name
        assert row.tiebreaks["BH:MP"] == bh, name
        if name == ODD:
            assert row.game_points == Decimal(gp) - 1
            continue
        assert row.game_points == Decimal(gp), name
        against_odd = sum(
            (h.game_points for h in by_name[name].history if h.opponent == odd), Decimal(0)
        )
        assert row.tiebreaks["EGGSB"] + against_odd == Decimal(eggsb), name


def test_team_byes_of_a_trf16_file_are_the_pab() -> None:
    path = require_testdata("chess", "real", "heltour_friendship_cup_2024_heraklion_team.trf")
    tournament = team_tournament_from_trf(parse_trf(path))
    pabs = [t.name for t in tournament.teams for h in t.history if h.kind.value == "U"]
    assert len(pabs) == 7 == len(set(pabs))  # 15 teams: one PAB a round, nobody twice
    assert tournament.boards == 6
