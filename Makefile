PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: venv bytecode test lint demo bench compare clean

# Every test runs, the large reference files too, on every core (pytest-xdist; TEST_JOBS=1
# for one process); for a quick local loop: make test PYTEST_ARGS='-m "not slow"'.
PYTEST_ARGS ?=
TEST_JOBS ?= auto

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# The suite starts `arbiter` in thousands of subprocesses. With PYTHONDONTWRITEBYTECODE set
# (as on CI) Python never caches the project's bytecode and each process would compile every
# module it imports again; compileall writes it once (py_compile ignores that variable) and
# rewrites only what changed. (The benchmarks compile for themselves: benchmarks/.)
PACKAGES := events decide ingest pairing pipelines projections ratings

bytecode: $(STAMP)
	$(BIN)/python -m compileall -q $(PACKAGES) >/dev/null

test: bytecode
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/python -m pytest -q -p no:cacheprovider -n $(TEST_JOBS) $(PYTEST_ARGS)

demo: $(STAMP)
	rm -rf demo-output && mkdir -p demo-output
	ARBITER_STORE=demo-output/demo.duckdb $(BIN)/arbiter demo --out demo-output

bench: $(STAMP)
	$(BIN)/python -m benchmarks.run $(BENCH_ARGS)

# Agreement with the reference engines (docs/generator.md); not in `make test`: it needs
# $BBP_PAIRINGS (bbpPairings v6), $BBP_PAIRINGS_V5, $DUBOV_REFERENCE (py4swiss) and/or
# $BBP_TEAM_PAIRINGS, runs for COMPARE_ARGS' --budget and prints a table of the systems'
# tournaments and rounds compared and identical.
COMPARE_ARGS ?= -n 200 --players 8-200
compare: $(STAMP)
	nice -n 10 $(BIN)/python -m benchmarks.compare $(COMPARE_ARGS)

clean:
	rm -rf $(VENV) demo-output .pytest_cache .mypy_cache .ruff_cache
