"""The `arbiter` command line in a subprocess, as a director runs it (shared by the game tests)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ARBITER = Path(sys.executable).with_name("arbiter")


@dataclass(frozen=True)
class Done:
    code: int
    out: str
    err: str


class Cli:
    """`arbiter --store STORE ...` in a subprocess."""

    def __init__(self, store: Path) -> None:
        self.store = str(store)
        self.env = {**os.environ, "COLUMNS": "200"}
        self.env.pop("ARBITER_DEBUG", None)

    def run(self, *args: str) -> Done:
        proc = subprocess.run(
            [str(ARBITER), "--store", self.store, *args],
            capture_output=True,
            text=True,
            env=self.env,
            check=False,
            timeout=120,
        )
        return Done(proc.returncode, proc.stdout, proc.stderr)

    def __call__(self, *args: str) -> str:
        done = self.run(*args)
        assert done.code == 0, (args, done.code, done.err)
        return done.out

    def json(self, *args: str) -> Any:
        return json.loads(self(*args, "--format", "json"))

    def batch(self, script: Path, lines: list[str]) -> list[Any]:
        """``arbiter batch SCRIPT`` of ``lines`` (written to ``script``), which must succeed: the
        JSON documents it printed."""
        script.write_text("\n".join(lines) + "\n")
        return json_outputs(self("batch", str(script)))

    def refused(self, *args: str) -> str:
        """The one line a refused command prints (exit 1, nothing on stdout)."""
        done = self.run(*args)
        assert done.code == 1, (args, done.code, done.out, done.err)
        lines = done.err.strip().splitlines()
        assert len(lines) == 1, done.err
        return lines[0]


def json_outputs(out: str) -> list[Any]:
    """The JSON documents a batch printed (each `--format json` output starts a line with '['),
    in order; other lines (ids, names) are skipped."""
    decoder = json.JSONDecoder()
    docs: list[Any] = []
    pos = 0
    while pos < len(out):
        end = out.find("\n", pos)
        end = len(out) if end < 0 else end
        if out.startswith("[", pos):
            doc, pos = decoder.raw_decode(out, pos)
            docs.append(doc)
            pos = out.find("\n", pos) + 1 or len(out)
        else:
            pos = end + 1
    return docs
