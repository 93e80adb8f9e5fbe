"""Every command that appends decides again when it loses a race (`decided_again`).

A guard for new commands: a top-level function of `pipelines/commands/` that appends to the
store (``append(...)`` or ``store.append(...)``) must carry the decorator, or a concurrent
writer would end it in `WrongExpectedVersion` (tests/cli/test_concurrent_writers.py drives it).
"""

from __future__ import annotations

import ast
from pathlib import Path

COMMANDS = Path(__file__).resolve().parents[2] / "pipelines" / "commands"


def _appends(fn: ast.FunctionDef) -> bool:
    for node in ast.walk(fn):
        if isinstance(node, ast.Call):
            f = node.func
            if (isinstance(f, ast.Name) and f.id == "append") or (
                isinstance(f, ast.Attribute) and f.attr == "append"
                and isinstance(f.value, ast.Name) and f.value.id == "store"
            ):  # fmt: skip
                return True
    return False


def test_every_appending_command_decides_again() -> None:
    missing = []
    for path in sorted(COMMANDS.glob("*.py")):
        if path.name == "base.py":
            continue
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef) and _appends(node):
                names = {d.id for d in node.decorator_list if isinstance(d, ast.Name)}
                if "decided_again" not in names:
                    missing.append(f"{path.name}:{node.lineno} {node.name}")
    assert missing == []
