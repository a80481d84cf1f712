# Quick start: `make run` opens the console on its built-in local sandbox,
# `make test` runs the tests. Both set themselves up on first use.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: run test check bench clean

$(BIN)/.installed: pyproject.toml
	./scripts/system-deps.sh
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[gui,test,dev]'
	touch $@

run: $(BIN)/.installed
	$(BIN)/gateway-console

test: $(BIN)/.installed
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m coverage run -m pytest -q
	$(BIN)/python scripts/check_coverage.py

check: $(BIN)/.installed
	$(BIN)/ruff check console tests
	$(BIN)/ruff format --check console tests
	$(BIN)/mypy
	$(BIN)/lint-imports

bench: $(BIN)/.installed
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q -s tests/bench -o python_files='bench_*.py'

clean:
	rm -rf $(VENV) build dist *.egg-info
