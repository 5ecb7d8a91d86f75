# Quick start: `make run` starts the bot, `make test` runs the whole test suite.
# Both create the virtual environment in .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@ $(VENV)/.installed

run: $(VENV)/.installed
	$(BIN)/python -m bot

test: $(VENV)/.installed-dev
	$(BIN)/python -m pytest

bench: $(VENV)/.installed-dev
	$(BIN)/python -m bot.engine bench

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
