"""The chains of a bulk append hashed in parts: the same hashes as in one piece."""

from __future__ import annotations

import datetime as dt

import polars as pl

from events import chain

WHEN = dt.datetime(2026, 11, 24, 10, 0, 0, 123456, tzinfo=dt.UTC).replace(tzinfo=None)


def _frame(n: int) -> pl.DataFrame:
    # Three streams interleaved, each continuing its stored versions (2 and 5) or new.
    streams = ["tournament-a", "tournament-b", "player-x"]
    start = {"tournament-a": 3, "tournament-b": 6, "player-x": 0}
    seen = dict.fromkeys(streams, 0)
    rows = []
    for i in range(n):
        stream = streams[(i * 7) % 3]
        rows.append(
            {
                "global_position": 40 + i,
                "stream_id": stream,
                "stream_version": start[stream] + seen[stream],
                "event_id": f"e{i}",
                "event_type": "ResultRecorded",
                "schema_version": 1,
                "payload": f'{{"board":{i}}}',
                "metadata": '{"actor":"x"}',
                "recorded_at": WHEN,
            }
        )
        seen[stream] += 1
    return pl.DataFrame(rows)


def test_parts_hash_as_the_whole() -> None:
    frame = _frame(50)
    heads = {"tournament-a": "a" * 64, "tournament-b": "b" * 64}
    whole = chain.chain_rows(frame, heads, "c" * 64)
    for size in (1, 7, 50, 64):
        parts = list(chain.chained_parts(frame, heads, "c" * 64, size))
        assert [p.height for p in parts] == [min(size, 50 - s) for s in range(0, 50, size)]
        assert pl.concat(parts).equals(whole)
    assert heads == {"tournament-a": "a" * 64, "tournament-b": "b" * 64}  # left as given


def test_a_history_not_in_stream_order_comes_whole() -> None:
    frame = _frame(20)
    versions = frame.get_column("stream_version").to_list()
    assert frame.item(0, "stream_id") == frame.item(3, "stream_id")
    versions[0], versions[3] = versions[3], versions[0]  # a stream's versions out of order
    swapped = frame.with_columns(pl.Series("stream_version", versions))
    parts = list(chain.chained_parts(swapped, {}, chain.GENESIS, 5))
    assert len(parts) == 1
    assert parts[0].equals(chain.chain_rows(swapped, {}, chain.GENESIS))
