"""A NUL in a rating-list file name (``/ratings/wof/1979-01-01/a%00b``) answered 500 with a
traceback in the log (issue 34, item 8): now 404, over HTTP against a real `arbiter serve`."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import require_testdata
from tests.web.serving import Served, cli, serve

WOC_1978 = ("othello", "elo", "1978", "19781104_WOC_1978.ELO")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, Path]]:
    folder = tmp_path_factory.mktemp("serve-paths")
    store = str(folder / "store.duckdb")
    cli(store, "ingest", str(require_testdata(*WOC_1978)))
    cli(store, "ratings", "run", "--method", "wof", "--as-of", "1979-01-01",
        "-o", str(folder / "lists" / "wof"))  # fmt: skip
    served = serve(store, folder)
    yield served, folder
    served.stop()


@pytest.mark.parametrize(
    "path",
    ["/ratings/wof/1979-01-01/a%00b", "/ratings/wof/1979-01-01/%00", "/ratings/a%00b",
     "/ratings/wof/1979-01-01/a%0Ab", "/ratings/wof/1979-01-01/..%2F..%2Fx"],
)  # fmt: skip
def test_a_nul_in_a_list_file_name_is_404(site: tuple[Served, Path], path: str) -> None:
    served, folder = site
    assert (
        httpx.get(served.url + "/ratings/wof/1979-01-01/index.html", timeout=60).status_code == 200
    )
    r = httpx.get(served.url + path, timeout=60)
    assert r.status_code == 404, r.text
    logs = "".join(p.read_text(errors="replace") for p in folder.glob("serve-*.log"))
    assert "Traceback" not in logs
