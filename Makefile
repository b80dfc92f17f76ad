# The two commands of the README: `make play` and `make test`. Both set everything up first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup play test lint bench rules screenshots fast clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/minis play

test: $(STAMP)
	$(BIN)/ruff check minis tests benchmarks tools setup.py
	$(BIN)/mypy
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check minis tests benchmarks tools setup.py
	$(BIN)/ruff format --check minis tests benchmarks tools setup.py
	$(BIN)/mypy

# The compiled fast build (docs/engine.md, "The fast build"): the engine and the computer's playouts
# compiled with mypyc into .fast/ (a C compiler and Python's headers are needed), used by `minis` when
# built from these sources. `make test` never needs it; MINIS_FAST=0 plays without it.
fast: $(STAMP)
	nice -n 5 $(BIN)/python tools/build_fast.py

bench: $(STAMP)
	$(BIN)/python -m pytest benchmarks --benchmark-only -p no:cacheprovider

rules: $(STAMP)
	$(BIN)/minis rules-test tests/rules

# The docs' pictures, on purpose: the UI tests that take them (marked `screenshots`) save them here
# instead of into their tmp_path, and the demo battle comes from `minis play` (docs/ui.md).
screenshots: $(STAMP)
	$(BIN)/python -m pytest -p no:cacheprovider -m screenshots --screenshots docs/screenshots \
		tests/test_ui_*.py tests/test_editor_*.py
	$(BIN)/minis play --demo --screenshot docs/screenshots/demo-battle.png

clean:
	rm -rf $(VENV) .fast build/fast .pytest_cache .ruff_cache .hypothesis .benchmarks
