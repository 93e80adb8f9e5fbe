"""Values a reader cannot take are refused FILE:LINE:COL, never dropped or rewritten (issue 34,
item 7): an h9 cell with a three-digit handicap, an .ELO rating of ``1e308``, a U+2028 in an
.ELO name. Each through the installed ``arbiter ingest`` in a subprocess; nothing appended.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.process import arbiter_run as run

H9 = """\
; EV[Test]
; DT[2006-07-20,2006-07-21]
; HA[h9]
; KM[6.5]
  1 Alpha Ann          2d PL Kedz   2+/b12345 |13513786
  2 Beta Bob           1k PL Wars   1-/w12345 |13586947
"""

ELO = """\
%%Tournament: T
%%Country: World
%%Date: 04/11/1978
%%Sender: me

%_%  11139, MARUOKA, hidenori, JPN, 1.0, 40, {rating}
%_%   8011, JACOBS, {first}, USA, 0.0, 24, 1500

  11139 (40)>(24)    8011
"""


def tournaments(store: Path) -> list[object]:
    done = run(store, "tournament", "list", "--format", "json")
    assert done.returncode == 0, done.stderr
    return list(json.loads(done.stdout))


@pytest.mark.parametrize(
    ("name", "text", "error"),
    [
        (
            "t.h9",
            H9,
            "t.h9:5:37: bad result cell (found '2+/b12345', expected e.g. '12+/w3' "
            "(handicap 0-99))",
        ),
        (
            "19781104_A.ELO",
            ELO.format(rating="1e308", first="carol"),
            "19781104_A.ELO:6:46: bad rating (7th field) (found '1e308', expected a whole "
            "number up to 5000, or '-' for none)",
        ),
        (
            "19781104_A.ELO",
            ELO.format(rating="1600", first="car\u2028ol"),
            "19781104_A.ELO:7:21: first name holds a control character (U+2028) at 4 "
            "(found 'car\\u2028ol', expected a name without control characters or line "
            "separators)",
        ),
    ],
    ids=["h9-handicap", "elo-rating", "elo-u2028"],
)
@pytest.mark.parametrize("skip", [False, True], ids=["plain", "skip-bad-lines"])
def test_refused_in_one_line_nothing_appended(
    tmp_path: Path, name: str, text: str, error: str, skip: bool
) -> None:
    (tmp_path / name).write_text(text, encoding="utf-8")
    store = tmp_path / "store.duckdb"
    done = run(store, "ingest", *(["--skip-bad-lines"] if skip else []), str(tmp_path / name))
    assert done.returncode == 1, (done.stdout, done.stderr)
    # The ingest report (stdout) lists each failed file's error in one line, then the count.
    lines = done.stdout.strip().splitlines()
    assert lines[0] == error.replace(name, str(tmp_path / name))
    assert lines[1].startswith("0 file(s) ingested, 0 already ingested, 1 failed")
    assert "Traceback" not in done.stderr
    assert tournaments(store) == []


def test_a_negative_wof_rating_is_said_not_dropped(tmp_path: Path) -> None:
    """WOF ratings go below 0 (95 archive files list one): the file lands, with a warning that
    names the line, since the store holds ratings 0 .. 5000."""
    path = tmp_path / "19781104_A.ELO"
    path.write_text(ELO.format(rating="-5", first="carol"), encoding="utf-8")
    done = run(tmp_path / "store.duckdb", "ingest", "--format", "json", str(path))
    assert done.returncode == 0, done.stderr
    (report,) = json.loads(done.stdout)["files"]
    assert f"{path}:6:1: negative WOF rating -5 registered as unrated" in " ".join(
        report["warnings"]
    )
