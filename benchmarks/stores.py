"""One measurement on both stores: a DuckDB file, then a throwaway PostgreSQL cluster."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["on_both_stores"]


def on_both_stores(
    measure: Callable[[str, Path], Any], prefix: str, *, bulk_load: bool = False
) -> dict[str, Any]:
    """``measure(store, folder)`` on a DuckDB file and on PostgreSQL (skipped, and said so,
    without its server binaries), each with a folder of its own; the load averages before and
    after, since the machine may be shared."""
    from tests.postgres import bench_database

    figures: dict[str, Any] = {"load_average_before": os.getloadavg()}
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        folder = Path(tmp)
        (folder / "duck").mkdir()
        figures["duckdb"] = measure(str(folder / "duck" / "store.duckdb"), folder / "duck")
        with bench_database(bulk_load=bulk_load) as url:
            if url is None:
                figures["postgresql"] = "skipped: no PostgreSQL server binaries"
            else:
                (folder / "pg").mkdir()
                figures["postgresql"] = measure(url, folder / "pg")
    figures["load_average_after"] = os.getloadavg()
    return figures
