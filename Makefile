# deepkb — two commands on a fresh clone: `make build` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
DEEPKB := $(BIN)/deepkb

.PHONY: build test lint unit site serve publish refresh bench clean help secret-formats

help:
	@echo "make build   set up $(VENV), research what deepkb.yml lists, build site/"
	@echo "make test    set up $(VENV) with dev tools, run lint, type checks and the test suite"
	@echo "make serve   live preview of the site"

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "deepkb needs Python 3.11 or newer: set PYTHON=python3.11")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e .
	@touch $@

$(VENV)/.installed-dev: $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $@ $(VENV)/.installed

build: $(VENV)/.installed
	$(DEEPKB) build

site: $(VENV)/.installed
	$(DEEPKB) site

serve: $(VENV)/.installed
	$(DEEPKB) serve

publish: $(VENV)/.installed
	$(DEEPKB) publish

refresh: $(VENV)/.installed
	$(DEEPKB) refresh

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check generator tests bench
	$(BIN)/ruff format --check generator tests bench
	$(BIN)/mypy generator
	$(BIN)/actionlint

unit: $(VENV)/.installed-dev
	$(BIN)/pytest

test: lint unit

# after upgrading detect-secrets: keep its patterns for the new version (generator/secret_formats.json)
secret-formats: $(VENV)/.installed
	$(BIN)/python -c 'from generator.secret_formats import write_snapshot; write_snapshot()'

clean:
	rm -rf site .cache .pytest_cache .mypy_cache .ruff_cache
