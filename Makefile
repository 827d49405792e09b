# The two commands: `make run` starts the app, `make test` runs the whole suite.
# Both create the virtual environment and install what they need the first time.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp

.PHONY: run serve serve-class class-load-check spool-fault-check deploy-smoke-check test test-postgres lint bench load load-check browser clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(PY) -m server_tuning

# N app processes behind HAProxy (cookie session affinity) on http://127.0.0.1:8501; docs/server.md, "Two cores, two processes".
N ?= 2
serve: $(STAMP)
	bash scripts/serve.sh $(N)

# The class deployment: PostgreSQL, N replicas and HAProxy (deploy/); docs/class.md.
serve-class: $(STAMP)
	bash scripts/serve_class.sh $(N)

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

# Simulated learners on a `make run` server: the standard matrix (about 25 minutes) ...
load: $(STAMP)
	$(PY) bench/load_matrix.py

# ... and the short check CI runs: 25 learners for 20 s, fails on any error or lost attempt.
load-check: $(STAMP)
	$(PY) bench/load.py --check --learners 25 --think 0.5 --ramp 5 --answers 1000 --duration 20 --settle 5

# The class deployment under load through HAProxy, one replica killed mid-run (docs/benchmarks.md).
class-load-check: $(STAMP)
	$(PY) bench/class_load.py --check --replicas 2 --learners 30 --think 1 --ramp 5 --duration 30 --kill-at 10

# Issue 23's fault test: PostgreSQL down -> learners submit -> the replica SIGKILLed -> PostgreSQL
# back -> the replica restarted; fails if an answer the page called saved is lost or doubled.
spool-fault-check: $(STAMP)
	$(PY) bench/spool_fault.py --check

# Issue 28's smoke test of `make serve-class` as a school runs it (as root: docs/deploying.md).
deploy-smoke-check: $(STAMP)
	$(PY) bench/deploy_smoke.py --check

# Tests and checks may start the class deployment on a machine whose checkout or Python sits
# where only root can pass (scripts/serve_class.sh, TUTOR_OPEN_PATHS).
test class-load-check deploy-smoke-check: export TUTOR_OPEN_PATHS = 1

clean:
	rm -rf $(VENV) artifacts .pytest_cache
