"""Issue 47: `--help` reads cleanly at 80 columns. Every command's help, rendered by the real
`arbiter` in a subprocess with COLUMNS=80, names value types as words (TEXT, INTEGER, FLOAT,
PATH, or nothing for a flag), never Python internals; no option name is cut; and a paragraph of
the command's docstring is wrapped by the terminal, not at the source's line ends.

The expected option names are read from the command's own parameters (what a user can type),
the expected words from the list of words a help may show."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from pipelines.cli import COMMANDS, command_of
from tests.process import ARBITER

INTERNALS = ("typing.", "Annotated", "<bool>", "<str>", "<int", "<float", "BeforeValidator")
WORDS = {"", "TEXT", "INTEGER", "FLOAT", "PATH", "DATE"}


def _paths() -> list[tuple[str, ...]]:
    """Every command as typed: ``("player", "add")``, ``("pair",)``, ..."""
    out: list[tuple[str, ...]] = []
    for name in COMMANDS:
        command = command_of(name)
        subs = getattr(command, "commands", None)
        if subs:
            out += [(name, sub) for sub in subs]
        else:
            out.append((name,))
    return out


def _help(*words: str) -> str:
    env = {**os.environ, "COLUMNS": "80", "TERM": "dumb", "NO_COLOR": "1"}
    done = subprocess.run(
        [ARBITER, *words, "--help"], capture_output=True, text=True, env=env, check=False,
        timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, (words, done.stderr)
    return done.stdout


def _check(words: tuple[str, ...], text: str) -> None:
    for bad in INTERNALS:
        assert bad not in text, (words, bad)
    assert all(len(line) <= 80 for line in text.splitlines()), words
    command = command_of(words[0])
    for word in words[1:]:
        command = command.commands[word]  # type: ignore[attr-defined]
    for param in command.params:
        if getattr(param, "hidden", False):
            continue
        for opt in (*param.opts, *param.secondary_opts):
            if opt.startswith("--"):  # a long name whole, followed by a space or the border
                assert re.search(rf"{re.escape(opt)}(\s|,|$)", text, re.M), (words, opt)
    assert not re.search(r"--[\w-]*…", text), words
    options = text.partition("\nOptions:\n")[2]
    for match in re.finditer(
        r"^  (-[-\w]+(?:, -[-\w]+)*(?: / --[\w-]+)?)(?: (\S+))?", options, re.M
    ):
        word = match.group(2) or ""  # a type word, or a metavar a command names (PLAYER)
        assert word in WORDS or re.fullmatch(r"[A-Z][A-Z_=:|-]*(\.\.\.)?", word), match.group(0)


@pytest.mark.parametrize(
    "words", [("player", "add"), ("tournament", "create"), ("ingest",)], ids=" ".join
)
def test_named_commands(words: tuple[str, ...]) -> None:
    """The three commands issue 47 names, each in its own `arbiter ... --help`."""
    text = _help(*words)
    _check(words, text)
    types = re.findall(r"^  (?:-\w, )?--[\w-]+ ([A-Z]+)\s", text, re.M)
    assert types  # the options' rows were read
    assert set(types) <= WORDS, types


def test_docstring_paragraphs_follow_the_terminal() -> None:
    """`player add`'s second paragraph is one sentence run across the source's lines: at 80
    columns each line of it is filled (no line ends at the source's break, as "from the")."""
    text = _help("player", "add")
    assert "latest imported FIDE list" in " ".join(text.split())
    lines = [line.strip() for line in text.splitlines()]
    start = next(i for i, line in enumerate(lines) if line.startswith("With --fide-id"))
    paragraph = lines[start : lines.index("", start)]
    assert len(paragraph) >= 3
    assert all(len(line) >= 60 for line in paragraph[:-1]), paragraph


def test_every_command() -> None:
    """Every command and subcommand's help: one process renders them all (as `arbiter` does,
    COLUMNS=80), each checked as above."""
    paths = _paths()
    script = (
        "import sys, contextlib, io\n"
        "from pipelines.cli import app\n"
        "for line in sys.stdin.read().splitlines():\n"
        "    out = io.StringIO()\n"
        "    with contextlib.redirect_stdout(out):\n"
        "        try:\n"
        "            app(args=[*line.split(), '--help'], prog_name='arbiter')\n"
        "        except SystemExit:\n"
        "            pass\n"
        "    sys.stdout.write(out.getvalue() + '\\x00')\n"
    )
    env = {**os.environ, "COLUMNS": "80", "TERM": "dumb", "NO_COLOR": "1"}
    done = subprocess.run(
        [sys.executable, "-c", script], input="\n".join(" ".join(p) for p in paths),
        capture_output=True, text=True, env=env, check=False, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    texts = done.stdout.split("\x00")[:-1]
    assert len(texts) == len(paths)
    for words, text in zip(paths, texts, strict=True):
        assert "Usage: " in text, words
        _check(words, text)
