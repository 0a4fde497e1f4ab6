# Two commands for a newcomer: `make eval` runs the evaluation, `make test` runs the tests.
# Each creates the virtual environment .venv on first use (Python 3.11).

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# A .venv made by another Python (another version, or one since removed) is rebuilt, not reused.
WANTED := $(shell $(PYTHON) -c 'import sys; print(sys.version.split()[0])' 2>/dev/null)
FOUND := $(shell test -x $(BIN)/python && $(BIN)/python -c 'import sys; print(sys.version.split()[0])' 2>/dev/null)
ifneq ($(FOUND),$(WANTED))
$(shell rm -rf $(VENV))
endif

.PHONY: eval test dev bench clean

$(STAMP): pyproject.toml setup.cfg
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test,deploy]"
	touch $(STAMP)

## Run the evaluation of the shipped cases with the embedded agent; reports in evaluation/results.
eval: $(STAMP)
	$(BIN)/nabahan eval $(ARGS)

## Run the test suite.
test: $(STAMP)
	$(BIN)/python -m pytest -n 2 -q $(ARGS)

## The Dagster UI on the home's history (~/.nabahan, or $NABAHAN_HOME), with the sensor and the
## nightly schedule: `nabahan ui` (http://127.0.0.1:3000; ARGS="--port 3001" for another port).
dev: $(STAMP)
	$(BIN)/nabahan ui $(ARGS)

## Benchmarks: they print their figures.
bench: $(STAMP)
	for b in bench/bench_*.py; do $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) .nabahan evaluation .pytest_cache
