# The two commands of the README: `make play` and `make test`. Both set everything up first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup play test lint bench rules clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/minis play

test: $(STAMP)
	$(BIN)/ruff check minis tests benchmarks tools
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check minis tests benchmarks tools
	$(BIN)/ruff format --check minis tests benchmarks tools

bench: $(STAMP)
	$(BIN)/python -m pytest benchmarks --benchmark-only -p no:cacheprovider

rules: $(STAMP)
	$(BIN)/minis rules-test tests/rules

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis .benchmarks
