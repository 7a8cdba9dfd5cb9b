# deepkb — two commands on a fresh clone: `make build` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
DEEPKB := $(BIN)/deepkb

.PHONY: build test lint unit browser site serve publish refresh bench clean help secret-formats

help:
	@echo "make build   set up $(VENV), research what deepkb.yml lists, build site/"
	@echo "make test    set up $(VENV) with dev tools, run lint, type checks and the test suite"
	@echo "make serve   live preview of the site"

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "deepkb needs Python 3.11 or newer: set PYTHON=python3.11")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: $(BIN)/python pyproject.toml
	@echo "installing deepkb and its dependencies into $(VENV) with pip (a few minutes the first time)"
	$(BIN)/python -m pip install --quiet -e .
	@touch $@

$(VENV)/.installed-dev: $(BIN)/python pyproject.toml
	@echo "installing deepkb, its dependencies and the dev tools into $(VENV) with pip (a few minutes the first time)"
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

# one worker per core, at most four: each worker builds the shared test sites once
unit: $(VENV)/.installed-dev
	$(BIN)/pytest --numprocesses=auto --maxprocesses=4

# tests/test_browser_*.py drive Debian's Chromium (Playwright's own browser download does not work offline) and
# fonts-noto-cjk draws the Chinese pages: installed when missing and we may (root, apt-get, no prompt);
# otherwise one line says how, and the test run reports the skipped browser tests in a banner.
CHROMIUM ?= $(or $(DEEPKB_CHROMIUM),/usr/bin/chromium)
browser:
	@if [ -x "$(CHROMIUM)" ] && { ! command -v dpkg >/dev/null || dpkg -s fonts-noto-cjk >/dev/null 2>&1; }; then \
		:; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "installing chromium and fonts-noto-cjk for the browser tests (apt-get)"; \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk >/dev/null; } \
			|| echo "could not install chromium fonts-noto-cjk: the browser tests will be skipped"; \
	else \
		echo "browser tests will be skipped: install Chromium first (Debian/Ubuntu: sudo apt-get install chromium fonts-noto-cjk)"; \
	fi

test: browser lint unit

# after upgrading detect-secrets: keep its patterns for the new version (generator/secret_formats.json)
secret-formats: $(VENV)/.installed
	$(BIN)/python -c 'from generator.secret_formats import write_snapshot; write_snapshot()'

clean:
	rm -rf site .cache .pytest_cache .mypy_cache .ruff_cache
