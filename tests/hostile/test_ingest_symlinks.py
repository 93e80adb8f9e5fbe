"""Folder ingest never leaves the folder (issue 34, item 8: as root it opened /etc/shadow).

`arbiter ingest FOLDER` in a subprocess over a folder holding one result file, a link to a
result file outside it and a link to a folder outside it: the file lands, neither link is
followed and each is named on stderr (before: the outside file was ingested, the linked folder
skipped without a word). A link given by name is read: the user chose it.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.elo_text import small_elo
from tests.process import arbiter_run


def _ingest(store: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return arbiter_run(store, "ingest", "-f", "json", *args)


def test_links_in_a_folder_are_named_not_followed(tmp_path: Path) -> None:
    folder, outside = tmp_path / "inbox", tmp_path / "outside"
    (outside / "deep").mkdir(parents=True)
    folder.mkdir()
    (folder / "own.ELO").write_text(small_elo("Own"), encoding="utf-8")
    (outside / "secret.ELO").write_text(small_elo("Secret"), encoding="utf-8")
    (outside / "deep" / "other.ELO").write_text(small_elo("Other"), encoding="utf-8")
    (folder / "link.ELO").symlink_to(outside / "secret.ELO")
    (folder / "dir").symlink_to(outside / "deep", target_is_directory=True)
    store = tmp_path / "s.duckdb"
    done = _ingest(store, str(folder))
    assert done.returncode == 0, done.stderr
    files = json.loads(done.stdout)["files"]
    assert [(Path(f["path"]).name, f["status"]) for f in files] == [("own.ELO", "ingested")]
    said = sorted(done.stderr.splitlines())
    assert said == [
        f"{folder / 'dir'}: a symbolic link inside a folder, not followed (name its target to "
        "ingest it)",
        f"{folder / 'link.ELO'}: a symbolic link inside a folder, not followed (name its "
        "target to ingest it)",
    ]
    named = _ingest(store, str(folder / "link.ELO"))
    assert named.returncode == 0, named.stderr
    assert json.loads(named.stdout)["files"][0]["status"] == "ingested"
