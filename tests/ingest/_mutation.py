"""Byte-level mutations of a real file, and the ingest check every fuzz test makes, shared by
the readers' and the hostile-file fuzz tests."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events.duckdb_store import DuckDBStore
from pipelines.jobs.ingest import Status, ingest

Mutation = tuple[str, float, bytes]


def mutation(max_size: int, specials: list[bytes]) -> st.SearchStrategy[Mutation]:
    """One edit: its kind, where (a fraction of the length), and the bytes it uses."""
    return st.tuples(
        st.sampled_from(["replace", "insert", "delete", "truncate"]),
        st.floats(min_value=0, max_value=1),
        st.binary(min_size=1, max_size=max_size) | st.sampled_from(specials),
    )


def mutate(data: bytes, mutations: list[Mutation]) -> bytes:
    for kind, where, payload in mutations:
        at = int(where * len(data))
        if kind == "replace":
            data = data[:at] + payload + data[at + len(payload) :]
        elif kind == "insert":
            data = data[:at] + payload + data[at:]
        elif kind == "delete":
            data = data[:at] + data[at + len(payload) :]
        else:
            data = data[:at]
    return data


def assert_refused_files_append_nothing(
    tmp_path: Path, files: st.SearchStrategy[tuple[Path, bytes]], examples: int
) -> None:
    """Ingest each generated file (its name, its bytes) into one store: a file that is not
    ingested leaves the log as it was; one that is adds to it."""
    store = DuckDBStore(":memory:")

    @settings(deadline=None, max_examples=examples, suppress_health_check=[HealthCheck.too_slow])
    @given(files)
    def check(case: tuple[Path, bytes]) -> None:
        path, data = case
        target = tmp_path / path.name
        target.write_bytes(data)
        before = store.read_frame().height
        (result,) = ingest(store, [target]).files
        after = store.read_frame().height
        if result.status is Status.INGESTED:
            assert after > before
        else:
            assert after == before, result

    check()
    store.close()
