"""Mutated real files: reading them raises nothing but IngestError, and a rejected file
appends nothing to the store."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ingest.detect import detect_format
from ingest.errors import IngestError
from pipelines.jobs.ingest import convert
from tests.conftest import require_testdata
from tests.ingest._mutation import assert_refused_files_append_nothing

SAMPLES = (
    ("othello", "elo", "2019", "20190506_Kanto_Ladies_Meijin-sen_final.ELO"),
    ("go", "h9", "opengotha351_ioct_20_02.h9"),
    ("go", "other", "ffg_tou_RennesBZH.tou"),
    ("chess", "real", "icu_gonzaga_classic_2008.trf"),
    ("go", "opengotha", "tournamentshortname.xml"),
)

_BYTES = st.sampled_from(
    [
        b"",
        b" ",
        b"0",
        b"9",
        b"-",
        b"+",
        b"=",
        b"?",
        b"/",
        b"|",
        b",",
        b"%",
        b";",
        b"\n",
        b"<",
        b'"',
        b"\xff",
        b"\xc3",
        b"w",
        b"b",
        b"B",
        b"12345",
        b"-1",
        b"99999",
    ]
)


@st.composite
def mutated(draw: st.DrawFn) -> tuple[Path, bytes]:
    parts = draw(st.sampled_from(SAMPLES))
    path = require_testdata(*parts)
    data = bytearray(path.read_bytes())
    for _ in range(draw(st.integers(1, 4))):
        start = draw(st.integers(0, len(data)))
        end = min(len(data), start + draw(st.integers(0, 6)))
        data[start:end] = draw(_BYTES)
    return path, bytes(data)


def test_short_trf_line_is_kept_not_a_crash() -> None:
    # Unknown TRF lines are kept verbatim (formats.md 1.10); a 2-character one must not crash.
    path = require_testdata("chess", "real", "icu_gonzaga_classic_2008.trf")
    data = path.read_bytes() + b"01\n"
    converted = convert(path, data, detect_format(path, data))
    assert converted is not None


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutations_raise_only_ingest_errors(case: tuple[Path, bytes]) -> None:
    path, data = case
    message = ""
    try:
        convert(path, data, detect_format(path, data))
    except IngestError as exc:
        message = str(exc)
    if message:
        assert "\n" not in message
        assert message.startswith(str(path) + ":")


def test_rejected_mutations_append_nothing(tmp_path: Path) -> None:
    assert_refused_files_append_nothing(tmp_path, mutated(), examples=40)
