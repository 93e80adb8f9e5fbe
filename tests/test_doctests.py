"""The examples in the docstrings run: every product module's doctests, one test per module."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from types import ModuleType

import pytest

PACKAGES = ("events", "decide", "ingest", "pairing", "projections", "ratings", "pipelines")
SKIP = {"pipelines.__main__"}  # importing it runs the command line


def modules() -> list[str]:
    names = []
    for top in PACKAGES:
        package = importlib.import_module(top)
        names.append(top)
        names.extend(
            info.name
            for info in pkgutil.walk_packages(package.__path__, f"{top}.")
            if info.name not in SKIP
        )
    return sorted(names)


def examples(module: ModuleType) -> list[doctest.DocTest]:
    tests = doctest.DocTestFinder(exclude_empty=True).find(module, module.__name__)
    # Only the module's own objects, not what it imports.
    return [t for t in tests if t.examples and _defined_in(t, module)]


def _defined_in(test: doctest.DocTest, module: ModuleType) -> bool:
    return test.filename is None or test.filename == module.__file__


WITH_EXAMPLES = [name for name in modules() if examples(importlib.import_module(name))]


@pytest.mark.parametrize("name", WITH_EXAMPLES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    for test in examples(module):
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"


def test_the_small_pure_functions_show_examples() -> None:
    """Parse constructors and value helpers carry runnable examples (python-chess style)."""
    for name in ("events.go", "events.domain", "events.results", "events.result_codes"):
        assert name in WITH_EXAMPLES
