"""The README's error table is the error tree: every `ArbiterError` class, its parent, its code."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

from events.errors import ArbiterError, PairingError, RetryableError, UserError

README = Path(__file__).resolve().parent.parent / "README.md"
ROW = re.compile(
    r"^\| `(?P<tree>[│├└ ]*)(?P<path>[a-z0-9_.]+\.[A-Za-z0-9]+)`[^|]*\| (?P<code>\d+) \|"
)
PRODUCT = ("events", "decide", "ingest", "pairing", "projections", "ratings", "pipelines")


def documented() -> dict[type[ArbiterError], tuple[int, int]]:
    """Class → (depth in the drawn tree, exit code) of every table row."""
    rows = {}
    for line in README.read_text(encoding="utf-8").splitlines():
        match = ROW.match(line)
        if match is None:
            continue
        module, _, name = match["path"].rpartition(".")
        cls = getattr(importlib.import_module(module), name)
        rows[cls] = (len(match["tree"]) // 2, int(match["code"]))
    return rows


def defined() -> set[type[ArbiterError]]:
    for top in PRODUCT:
        package = importlib.import_module(top)
        for info in pkgutil.walk_packages(package.__path__, f"{top}."):
            if not info.name.endswith("__main__"):
                importlib.import_module(info.name)
    found: set[type[ArbiterError]] = set()
    todo: list[type[ArbiterError]] = [ArbiterError]
    while todo:
        cls = todo.pop()
        if cls not in found:
            found.add(cls)
            todo.extend(cls.__subclasses__())
    return found


def test_every_error_class_is_in_the_readme_with_its_exit_code() -> None:
    rows = documented()
    assert set(rows) == defined()
    for cls, (_, code) in rows.items():
        assert cls.exit_code == code, cls


def test_the_drawn_tree_follows_the_classes() -> None:
    """A row sits under the nearest row above it one level up, and that is one of its bases."""
    parents: list[type[ArbiterError]] = []
    for cls, (depth, _) in documented().items():
        del parents[depth:]
        if parents:
            assert issubclass(cls, parents[-1]), (cls, parents[-1])
        parents.append(cls)


def test_the_branches_keep_their_promises() -> None:
    assert UserError.exit_code == PairingError.exit_code == 1
    assert RetryableError.exit_code == 3
    assert issubclass(UserError, ValueError)
    assert issubclass(PairingError, ValueError)
