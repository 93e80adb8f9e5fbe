PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: venv test test-all lint demo bench clean

# Tests marked slow (large reference files that take minutes) run with `make test-all`.
PYTEST_ARGS ?= -m "not slow"

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

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/python -m pytest -q -p no:cacheprovider $(PYTEST_ARGS)

test-all: $(STAMP)
	$(BIN)/python -m pytest -q -p no:cacheprovider

demo: $(STAMP)
	rm -rf demo-output && mkdir -p demo-output
	ARBITER_STORE=demo-output/demo.duckdb $(BIN)/arbiter demo --out demo-output

bench: $(STAMP)
	$(BIN)/python -m benchmarks.run $(BENCH_ARGS)

clean:
	rm -rf $(VENV) demo-output .pytest_cache .mypy_cache .ruff_cache
