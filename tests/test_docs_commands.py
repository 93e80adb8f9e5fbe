"""Issue 47: every `arbiter ...` command the README and `docs/` show still parses.

Inline commands in the prose (`arbiter norms T --certificate N`) are parsed too; they may
leave out an argument (`arbiter ingest`), never name an option or a command that is not there.

Each command line of a fenced block of README.md and docs/*.md (continuation lines joined,
`;`-separated commands split, comments and `> FILE` redirections left off) goes through the
real command line's parser, in one `arbiter`-like process, without running: the root options,
then each group's subcommand, then the command's own options and arguments (names, arity,
types, choices, required ones). A syntax summary's optional part (`[--force]`) is parsed too,
its first alternative (`text|json` -> `text`) and `N` as a number. The files a command names
(`prizes.toml`, `inbox/`, ...) are made, empty, in the folder the parser runs in.

An option renamed or removed, a subcommand moved, or a value a choice no longer takes fails
here, naming the file and line of the docs."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_FILE = re.compile(r"^[\w./-]+\.(toml|txt|trf|xml|html|csv|h9|tou|elo|ELO|duckdb|pdf)$|/$")


def _commands() -> list[tuple[str, list[str]]]:
    """(where, arguments after `arbiter`) of every command in a fenced block."""
    out: list[tuple[str, list[str]]] = []
    for doc in DOCS:
        lines = doc.read_text(encoding="utf-8").splitlines()
        fenced = False
        i = 0
        while i < len(lines):
            line, where = lines[i], f"{doc.relative_to(ROOT)}:{i + 1}"
            i += 1
            if line.strip().startswith("```"):
                fenced = not fenced
                continue
            if not fenced or not re.match(r"\s*(\$ )?arbiter ", line):
                continue
            while line.rstrip().endswith("\\") and i < len(lines):
                line = line.rstrip()[:-1] + " " + lines[i].strip()
                i += 1
            for part in re.split(r" ; ", line):
                words = shlex.split(part, comments=True)
                if ">" in words:
                    words = words[: words.index(">")]
                if words and words[0] == "$":
                    words = words[1:]
                if words and words[0] == "arbiter":
                    out.append((where, [_plain(w) for w in words[1:]]))
    return out


def _plain(word: str) -> str:
    """A syntax summary's word as a user would type it."""
    word = word.strip("[]")
    if "|" in word and not word.startswith("-"):
        word = word.split("|")[0]
    return "1" if word in ("N", "n", "R", "ROUND") else word


def _spans() -> list[tuple[str, list[str]]]:
    """(where, arguments) of every `arbiter ...` written inline in the prose (outside the fenced
    blocks); `a && b` and `a | b` are two commands."""
    out: list[tuple[str, list[str]]] = []
    for doc in DOCS:
        fenced = False
        for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), start=1):
            if line.strip().startswith("```"):
                fenced = not fenced
            if fenced:
                continue
            for span in re.findall(r"`(arbiter [^`]+)`", line):
                for part in re.split(r" (?:&&|\||;) ", span):
                    words = shlex.split(part)
                    if words and words[0] == "arbiter":
                        where = f"{doc.relative_to(ROOT)}:{number}"
                        out.append((where, [_plain(w) for w in words[1:]]))
    return out


SCRIPT = """
import json, sys
import typer
from typer.core import TyperGroup
from typer import _click
from pipelines.cli import app, dash_results

root = typer.main.get_command(app)
for line in sys.stdin:
    args = dash_results(json.loads(line))
    try:
        ctx = root.make_context("arbiter", list(args))
        command = ctx.command
        while isinstance(command, TyperGroup):
            rest = [*ctx._protected_args, *ctx.args]
            name, sub, rest = command.resolve_command(ctx, rest)
            ctx = sub.make_context(name, rest, parent=ctx)
            command = ctx.command
        print(json.dumps(""))
    except _click.exceptions.UsageError as exc:
        print(json.dumps(exc.format_message()))
"""


def test_every_documented_command_parses(tmp_path: Path) -> None:
    commands = _commands()
    assert len(commands) >= 80  # README and docs/ show that many today
    inline = _spans()
    assert len(inline) >= 40
    commands += inline
    for _, args in commands:  # the files they name, made here
        for word in args:
            if _FILE.search(word) and not word.startswith("-"):
                path = tmp_path / word
                if word.endswith("/"):
                    path.mkdir(parents=True, exist_ok=True)
                else:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.touch()
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        input="".join(json.dumps(args) + "\n" for _, args in commands),
        capture_output=True, text=True, cwd=tmp_path, check=False, timeout=300,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "ARBITER_STORE": ":memory:"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == len(commands)
    failed = [
        f"{where}: arbiter {shlex.join(args)}: {said}"
        for (where, args), said in zip(commands, answers, strict=True)
        if said
        # a command named in the prose may leave out its arguments (`arbiter ingest`)
        and not ((where, args) in inline and said.startswith("Missing argument"))
    ]
    assert not failed, "\n".join(failed)
