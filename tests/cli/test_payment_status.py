"""Payment status (issue 36, the players' list "with payment status"): `paid` is a field of a
registration, so every door takes it with one rule: `player add --paid`, `player edit
--no-paid`, a CSV's `paid` column (`player import`), the API's `paid`; `player list` and the
printed players' list (`arbiter print T players`, a Paid column) show it; unset, it is blank."""

from __future__ import annotations

import json
from pathlib import Path

import httpx

from tests.process import arbiter_run
from tests.web.serving import add_user, serve


def _ok(store: str, *args: str) -> str:
    done = arbiter_run(store, *args)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_paid_at_every_door(tmp_path: Path) -> None:
    import pypdfium2 as pdfium

    store = str(tmp_path / "s.duckdb")
    _ok(store, "tournament", "create", "--name", "Pay Open", "--id", "pay", "--system",
        "dutch", "--rounds", "3")  # fmt: skip
    _ok(store, "player", "add", "pay", "--name", "Berg, Anna", "--rating", "2100", "--paid")
    _ok(store, "player", "add", "pay", "--name", "Dahl, Ivar", "--rating", "2000")
    csv = tmp_path / "players.csv"
    csv.write_text("name,rating,paid\nLie, Per,1900,no\nMoe, Kai,1800,yes\n".replace(
        "Lie, Per", '"Lie, Per"').replace("Moe, Kai", '"Moe, Kai"'), encoding="utf-8")  # fmt: skip
    _ok(store, "player", "import", "pay", str(csv))
    bad = tmp_path / "bad.csv"
    bad.write_text('name,paid\n"Nes, Siv",maybe\n', encoding="utf-8")
    done = arbiter_run(store, "player", "import", "pay", str(bad))
    assert done.returncode == 1
    assert done.stderr.strip() == f"error: {bad}:2:2: paid: 'maybe' is not yes or no"

    token = add_user(store, "td", "director", "pay")
    served = serve(store, tmp_path)
    try:
        auth = {"authorization": f"Bearer {token}"}
        r = httpx.post(served.url + "/api/tournaments/pay/players", headers=auth, timeout=60,
                       json={"name": "Nes, Siv", "rating": 1700, "paid": True})  # fmt: skip
        assert r.status_code == 201, r.text
        r = httpx.patch(served.url + "/api/tournaments/pay/players/2", headers=auth, timeout=60,
                        json={"paid": True})  # fmt: skip
        assert r.status_code == 200, r.text
    finally:
        served.stop()
    _ok(store, "player", "edit", "pay", "4", "--no-paid")

    rows = json.loads(_ok(store, "player", "list", "pay", "--format", "json"))
    assert {p["name"]: p["paid"] for p in rows} == {
        "Berg, Anna": True, "Dahl, Ivar": True, "Lie, Per": False, "Moe, Kai": False,
        "Nes, Siv": True,
    }  # fmt: skip
    pdf_path = tmp_path / "players.pdf"
    _ok(store, "print", "pay", "players", "-o", str(pdf_path))
    pdf = pdfium.PdfDocument(str(pdf_path))
    try:
        text = pdf[0].get_textpage().get_text_range()
    finally:
        pdf.close()
    assert "Paid" in text
    assert "Berg, Anna 2100 yes" in text
    assert "Lie, Per 1900 no" in text
