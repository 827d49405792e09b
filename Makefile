# The two commands: `make run` starts the app, `make test` runs the whole suite.
# Both create the virtual environment and install what they need the first time.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp

.PHONY: run test test-postgres lint bench browser clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/streamlit run streamlit_app.py

# Debian's Chromium for the browser tests (Playwright cannot download browsers here).
browser:
	bash scripts/install_chromium.sh

lint: $(STAMP)
	$(VENV)/bin/ruff check .

test: $(STAMP) browser lint
	$(PY) -m pytest

# The progress-store tests against a local PostgreSQL (installed and started by the script).
test-postgres: $(STAMP)
	TUTOR_TEST_DATABASE_URL="$$(bash scripts/start_postgres.sh | tail -n 1)" $(PY) -m pytest -m postgres tests/tutor

bench: $(STAMP)
	for b in bench/bench_*.py; do $(PY) $$b || exit 1; done

clean:
	rm -rf $(VENV) artifacts .pytest_cache
