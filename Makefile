# Quick start: `make run` opens the console on its built-in local sandbox,
# `make test` runs the tests. Both set themselves up on first use.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: run test check bench mutate clean

# pip -qq: errors only (a failed install still says why); one line says what is happening.
PIP := $(BIN)/python -m pip install -qq

# `make run` needs the window's packages only; the tests and checks add theirs on first use.
$(BIN)/.installed-run: pyproject.toml setup.py
	@echo "Setting up $(VENV) (first run only)..."
	@./scripts/system-deps.sh
	@$(PYTHON) -m venv $(VENV)
	@$(PIP) --upgrade pip
	@$(PIP) -e '.[gui]'
	@touch $@

$(BIN)/.installed: $(BIN)/.installed-run
	@echo "Adding the test and development tools to $(VENV)..."
	@$(PIP) -e '.[gui,test,dev]'
	@touch $@

run: $(BIN)/.installed-run
	$(BIN)/gateway-console

# Two test processes per core (pytest-xdist: many tests wait on a subprocess, a server or a
# database); pytest-cov gathers the workers' coverage of the money rules, measured in the
# Qt-free tests (the window's tests run untraced: tests/conftest.py).
WORKERS := $(shell $(PYTHON) -c "import os; print(2 * (os.cpu_count() or 1))")

# The tests start the command line in hundreds of processes: its bytecode is written first,
# as an installed package has it. Bytecode is kept during the run even where
# PYTHONDONTWRITEBYTECODE is set: without it every worker rewrites and compiles every test
# module, and every process compiles the helpers it imports, again (a third more time).
test: $(BIN)/.installed
	@$(BIN)/python -m compileall -q console
	QT_QPA_PLATFORM=offscreen PYTHONDONTWRITEBYTECODE= \
		$(BIN)/python -m pytest -q -n $(WORKERS) --cov --cov-report=
	$(BIN)/python scripts/check_coverage.py

check: $(BIN)/.installed
	$(BIN)/ruff check console tests
	$(BIN)/ruff format --check console tests
	$(BIN)/mypy
	$(BIN)/lint-imports

bench: $(BIN)/.installed
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q -s tests/bench -o python_files='bench_*.py'

# Mutation testing of the money rules ([tool.mutation] in pyproject.toml), one module at a
# time, each against its own Qt-free tests; then the score and the survivors, each explained in
# tests/mutation/survivors.toml. Long: `make mutate MODULES="masking pipeline/guard"` runs and
# reports some modules only (docs/developing.md).
MODULES ?=
mutate: $(BIN)/.installed
	$(BIN)/python scripts/mutate.py $(MODULES)
	$(BIN)/python scripts/mutation_report.py $(MODULES)

clean:
	rm -rf $(VENV) build dist *.egg-info mutants
