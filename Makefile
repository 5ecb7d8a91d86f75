# Quick start: `make run` starts the bot, `make test` runs the whole test suite.
# Both create the virtual environment in .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# setuptools' notice about editable installs is not for our users: keep the install quiet.
# The install builds the compiled core (bot/engine/_core.c): a change to it installs again.
PIP_INSTALL := PYTHONWARNINGS=ignore $(BIN)/python -m pip install --quiet

.PHONY: run test docs bench sandbox screenshots translations clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml bot/engine/_core.c | $(BIN)/python
	$(PIP_INSTALL) -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml bot/engine/_core.c | $(BIN)/python
	$(PIP_INSTALL) -e '.[dev]'
	touch $@ $(VENV)/.installed

$(VENV)/.installed-sandbox: pyproject.toml bot/engine/_core.c | $(BIN)/python
	$(PIP_INSTALL) -e '.[sandbox]'
	touch $@ $(VENV)/.installed

run: $(VENV)/.installed
	$(BIN)/python -m bot

# Lint, format and type checks first (fast), then the documentation site (into site/, git-ignored:
# --strict fails on a broken link or anchor; not --quiet, which hides the warnings --strict counts;
# NO_MKDOCS_2_WARNING quiets Material's banner about its end of life), then the whole suite.
test: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict
	$(BIN)/python -m pytest

# The documentation site (docs/, mkdocs.yml), served at http://127.0.0.1:8000; it reloads as pages change.
docs: $(VENV)/.installed-dev
	$(BIN)/mkdocs serve

sandbox: $(VENV)/.installed-sandbox
	$(BIN)/python -m bot.sandbox

# The documentation's pictures of the sandbox, taken by its real-browser tests (needs Debian's chromium):
# docs/sandbox-desktop.png and docs/sandbox-phone.png (the README's), and at a small phone's width (360 px)
# docs/phone-standings.png, docs/phone-podium.png, docs/phone-recap.png and docs/phone-analysis.png.
screenshots: $(VENV)/.installed-dev
	WARI_SANDBOX_SCREENSHOT=docs $(BIN)/python -m pytest -q \
		tests/bot/test_sandbox.py::test_a_person_plays_in_the_page_in_a_real_browser \
		tests/bot/test_sandbox_dm.py::test_ama_opens_her_dm_with_the_bot_from_the_page_and_plays_it_on_a_small_phone \
		tests/bot/test_sandbox_tournament.py::test_a_tournaments_standings_and_podium_read_on_a_small_phone \
		tests/bot/test_sandbox_battle.py::test_a_team_battles_standings_and_podium_read_on_a_phone_teams_first \
		tests/bot/test_sandbox_recap.py::test_a_season_recap_picture_fits_a_small_phone_and_its_smallest_print_reads \
		tests/bot/test_sandbox_analysis.py::test_a_long_analysis_shows_its_progress_and_its_result_in_the_page

# After changing a text the bot shows: collect the texts, add the new ones to each language's
# catalogue (bot/locales/LANG.po), then translate what is empty (tests/cogs/test_languages.py says what).
translations: $(VENV)/.installed-dev
	$(BIN)/pybabel extract -F babel.cfg -k n_:1,2 -k N_ -k Variant:2 --no-location --sort-output --omit-header \
		-o bot/locales/messages.pot .
	for lang in fr pt; do \
		$(BIN)/pybabel update -i bot/locales/messages.pot -o bot/locales/$$lang.po -l $$lang \
			--no-fuzzy-matching --ignore-obsolete || exit 1; \
	done

bench: $(VENV)/.installed-dev
	$(BIN)/python -m bot.engine bench

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .mypy_cache .ruff_cache
