"""``BRD`` records (a round in play): read, written back, and refused with line and column."""

from __future__ import annotations

from pathlib import Path

import pytest

from events.result_codes import ResultCode
from events.schema import ResultRecorded, RoundPaired
from ingest.errors import IngestError
from ingest.trf import InPlayRecord, parse_trf, trf_to_events
from projections.exports.trf import write_trf

FILE = """012 Three
XXR 2
001    1      A, One                            2400                             1.0    1     3 w 1
001    2      B, Two                            2300                             1.0    2  0000 - U
001    3      C, Three                          2200                             0.0    3     1 b 0
BRD   2    1    2    1 - -
BRD   2    2    3 0000
"""


def test_boards_in_play_read_and_write_back() -> None:
    trf = parse_trf(Path("three.trf"), FILE.encode())
    boards = [r for r in trf.records if isinstance(r, InPlayRecord)]
    assert boards == [
        InPlayRecord(2, 1, 2, 1, ResultCode.FORFEIT_LOSS, ResultCode.FORFEIT_LOSS),
        InPlayRecord(2, 2, 3, None),
    ]
    assert write_trf(trf) == FILE
    events = trf_to_events(trf)
    paired = [e for e in events if isinstance(e, RoundPaired) and e.round == 2]
    assert [(b.white, b.black) for b in paired[0].boards] == [(2, 1), (3, None)]
    results = [e for e in events if isinstance(e, ResultRecorded) and e.round == 2]
    assert [(e.board, e.outcome.value) for e in results] == [(1, "--")]


@pytest.mark.parametrize(
    ("line", "where"),
    [
        ("BRD   2    1    2    9", "three.trf:6:19"),  # no player 9
        ("BRD   2    1    2    1 x", "three.trf:6:24"),  # no result code x
        ("BRD   2         2    1", "three.trf:6:5"),  # no board number
    ],
)
def test_a_bad_board_names_its_line_and_column(line: str, where: str) -> None:
    text = FILE.replace("BRD   2    1    2    1 - -", line)
    with pytest.raises(IngestError) as caught:
        trf_to_events(parse_trf(Path("three.trf"), text.encode()))
    assert str(caught.value).startswith(where)
