# One-command entry points. Each creates .venv when missing and installs from
# this project's own files; a second run skips what is already done.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export TOKENIZERS_PARALLELISM := false

.PHONY: install install-dev demo test test-fast lint chat studio bench notebooks clean help

help:
	@echo "make demo   - set up and run the two-session memory demo on the embedded models"
	@echo "make test   - set up and run the whole test suite (notebooks and Studio included)"
	@echo "make lint   - ruff over the whole repository"
	@echo "make chat   - talk to the agent (USER=you THREAD=t1)"
	@echo "make studio - run the graph in LangGraph Studio (langgraph dev)"
	@echo "make bench  - run the benchmarks in bench/"
	@echo "make notebooks - rebuild notebooks/*.ipynb from notebooks/src/ (jupytext) and execute them"

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml | $(PY)
	$(PY) -m pip install -q -e .
	@touch $@

$(VENV)/.installed-dev: pyproject.toml $(VENV)/.installed
	$(PY) -m pip install -q -e ".[dev]"
	@touch $@

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

demo: install
	$(VENV)/bin/memory-agent demo

chat: install
	$(VENV)/bin/memory-agent chat --user $${USER_ID:-$${USER:-me}} $${THREAD:+--thread $$THREAD}

test: install-dev
	@$(PY) -m pytest -q; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest collected no tests (exit 5)"; exit 0; fi; exit $$rc

lint: install-dev
	$(VENV)/bin/ruff check .

test-fast: install-dev
	$(PY) -m pytest -q -m "not slow"

studio: install-dev
	@test -f .env || cp .env.example .env
	$(VENV)/bin/langgraph dev --no-browser

bench: install-dev
	$(PY) -m bench.store_bench --quick
	$(PY) -m bench.locomo_recall
	$(PY) -m bench.extraction_eval
	$(PY) -m bench.secrets_eval
	$(PY) -m bench.intents_eval

# Each notebook is built from its percent-format source by jupytext (--update keeps
# cell ids, so diffs show only what changed), then executed in place with outputs.
# NB=03 rebuilds only the notebooks whose name starts with 03.
notebooks: install-dev
	@for src in notebooks/src/$(NB)*.py; do \
	  nb=notebooks/$$(basename $$src .py).ipynb; \
	  $(VENV)/bin/jupytext --quiet --update --to ipynb --output $$nb $$src && $(PY) notebooks/execute.py $$nb || exit 1; \
	done

clean:
	rm -rf $(VENV) data .langgraph_api
