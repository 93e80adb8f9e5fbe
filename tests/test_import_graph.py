"""The layers import one way (docs/architecture.md), read from every module's import statements.

    events        the log and the domain values: imports no other layer
    decide        the write side: the tournament state's fold, the command inputs, one pure
                  decider per command (state, command, lists, clock → events or a refusal):
                  events only
    pairing       pure engines: events only
    ratings       pure rating lists: events only
    ingest        files in → records → events: events, decide
    projections   events → standings, exports (the writers read ingest's records), the games
                  table (ratings' schema): events, decide, ingest, ratings
    pipelines     composition (CLI, jobs, engine adapters): anything; nobody imports it
                  but the tests and the benchmarks

An import cycle (``a`` imports ``b`` imports ``a``, packages' ``__init__`` included) fails
too, counting the imports inside functions: a lazy import keeps a heavy library off the start-up
path, it may not hide a cycle (at module level such a module cannot be imported on its own; in
a function the two modules still depend on each other).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import networkx as nx
import pytest

REPO = Path(__file__).resolve().parent.parent
PRODUCT = ("events", "decide", "pairing", "ratings", "ingest", "projections", "pipelines")
DRIVERS = ("tests", "benchmarks")

MAY_IMPORT: dict[str, frozenset[str]] = {
    "events": frozenset({"events"}),
    "decide": frozenset({"events", "decide"}),
    "pairing": frozenset({"events", "pairing"}),
    "ratings": frozenset({"events", "ratings"}),
    "ingest": frozenset({"events", "decide", "ingest"}),
    "projections": frozenset({"events", "decide", "ingest", "ratings", "projections"}),
    "pipelines": frozenset(PRODUCT),
    "tests": frozenset(PRODUCT + DRIVERS),
    "benchmarks": frozenset(PRODUCT + DRIVERS),
}


def module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    found = {}
    for top in PRODUCT + DRIVERS:
        for path in sorted((REPO / top).rglob("*.py")):
            found[module_name(path)] = path
    return found


def imports(path: Path, *, module_level: bool) -> Iterator[tuple[int, str]]:
    """(line, imported module) of every import; ``module_level``: only what runs on import.

    Imports inside functions and under ``if TYPE_CHECKING:`` do not run when the module is
    imported; a layer rule still counts them (a lazy import is still a dependency).
    """
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    dormant: set[int] = set()
    if module_level:
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                dormant.update(id(child) for child in ast.walk(node) if child is not node)
            elif isinstance(node, ast.If) and _is_type_checking(node.test):
                dormant.update(id(child) for stmt in node.body for child in ast.walk(stmt))
    for node in ast.walk(tree):
        if id(node) in dormant:
            continue
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join([*package[: len(package) - node.level + 1], base]).strip(".")
            yield node.lineno, base
            # ``from pkg import mod`` imports the submodule ``pkg.mod`` when there is one
            yield from ((node.lineno, f"{base}.{alias.name}") for alias in node.names)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def layer_violations() -> list[str]:
    found = []
    for name, path in modules().items():
        layer = name.split(".")[0]
        for line, target in imports(path, module_level=False):
            top = target.split(".")[0]
            if top in MAY_IMPORT and top not in MAY_IMPORT[layer]:
                found.append(f"{path.relative_to(REPO)}:{line}: {layer} imports {target}")
    return sorted(set(found))


def import_cycles() -> list[list[str]]:
    known = modules()
    graph: nx.DiGraph[str] = nx.DiGraph()
    for name, path in known.items():
        if name.split(".")[0] in DRIVERS:
            continue
        graph.add_node(name)
        for _, target in imports(path, module_level=False):
            parts = target.split(".")
            # importing a.b.c runs a/__init__, a/b/__init__ and a/b/c
            for depth in range(1, len(parts) + 1):
                prefix = ".".join(parts[:depth])
                if prefix in known and prefix != name and not name.startswith(prefix + "."):
                    graph.add_edge(name, prefix)
    return [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]


def test_layers_import_one_way() -> None:
    assert layer_violations() == []


def test_no_import_cycles_not_even_inside_functions() -> None:
    assert import_cycles() == []


@pytest.mark.parametrize(
    ("layer", "source", "flagged"),
    [
        ("pairing", "from decide.state import TournamentState\n", True),
        ("pairing", "def f():\n    from ingest.trf import parse_trf\n", True),
        ("ingest", "from projections.standings import standings\n", True),
        ("projections", "from pipelines.commands import load\n", True),
        ("events", "if TYPE_CHECKING:\n    from ratings.games import Color\n", True),
        ("projections", "from ingest.trf.records import TrfFile\n", False),
        ("pipelines", "from decide.state import project\n", False),
    ],
)
def test_the_rule_catches_an_upward_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, layer: str, source: str, flagged: bool
) -> None:
    """The checker itself: a planted module in a copy of the layout is (or is not) reported."""
    for top in PRODUCT:
        (tmp_path / top).mkdir()
        (tmp_path / top / "__init__.py").write_text("")
    (tmp_path / layer / "planted.py").write_text(source)
    monkeypatch.setattr(f"{__name__}.REPO", tmp_path)
    monkeypatch.setattr(f"{__name__}.DRIVERS", ())
    assert bool(layer_violations()) is flagged


def test_the_cycle_check_catches_a_package_cycle(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Like h9 importing the shared go table that imported h9's records: ``ingest.fmt``'s
    ``__init__`` runs ``ingest.fmt.convert``, which needs ``ingest.shared``, which imports
    ``ingest.fmt.records``, so ``ingest.fmt`` again."""
    for top in PRODUCT:
        (tmp_path / top).mkdir()
        (tmp_path / top / "__init__.py").write_text("")
    package = tmp_path / "ingest" / "fmt"
    package.mkdir()
    (package / "__init__.py").write_text("from ingest.fmt.convert import convert\n")
    (package / "convert.py").write_text("from ingest.shared import Row\n")
    (package / "records.py").write_text("")
    (tmp_path / "ingest" / "shared.py").write_text("from ingest.fmt.records import Cell\n")
    monkeypatch.setattr(f"{__name__}.REPO", tmp_path)
    monkeypatch.setattr(f"{__name__}.DRIVERS", ())
    assert import_cycles() == [["ingest.fmt", "ingest.fmt.convert", "ingest.shared"]]


def test_the_cycle_check_sees_an_import_inside_a_function(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As ``commands`` importing ``team_commands`` inside a function, which imported
    ``commands`` at its top."""
    for top in PRODUCT:
        (tmp_path / top).mkdir()
        (tmp_path / top / "__init__.py").write_text("")
    (tmp_path / "pipelines" / "a.py").write_text("def f():\n    from pipelines import b\n")
    (tmp_path / "pipelines" / "b.py").write_text("from pipelines.a import f\n")
    monkeypatch.setattr(f"{__name__}.REPO", tmp_path)
    monkeypatch.setattr(f"{__name__}.DRIVERS", ())
    assert import_cycles() == [["pipelines.a", "pipelines.b"]]
