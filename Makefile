# Everything a fresh machine needs, from two commands: `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

ENGINE_SRC  := $(wildcard referee/engine/*.py referee/engine/*/*.py bots/expert/*.py) referee/build_engine.py
ENGINE_MARK := $(VENV)/.engine-built

.PHONY: install demo test test-slow lint bench docs clean

install: $(STAMP) $(ENGINE_MARK)

# pip's own lines are many; `make install PIP_QUIET=` shows them.
PIP_QUIET ?= --quiet
# The compat editable install puts a plain path in site-packages, so a bot's start-up skips the
# import-hook finder; setuptools prints a deprecation banner for it on every install, hidden here.
COMPAT_QUIET := PYTHONWARNINGS=ignore:::setuptools.command.editable_wheel

# Re-install only when the project's dependencies change.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@echo "install: pip installs Azul Arena and its dependencies into $(VENV) (a first install takes about 2 minutes)"
	$(BIN)/python -m pip install $(PIP_QUIET) --upgrade pip
	$(COMPAT_QUIET) $(BIN)/python -m pip install $(PIP_QUIET) -e '.[dev,server,cluster,rl,docs]' --config-settings editable_mode=compat
	touch $(STAMP)

# Compile the engine's core with mypyc (about twice as fast); on failure it stays plain Python.
# Rebuilt when an engine source changes; referee.engine ignores a build older than its sources.
$(ENGINE_MARK): $(STAMP) $(ENGINE_SRC)
	$(BIN)/python -m referee.build_engine
	touch $@

demo: install
	$(BIN)/azul-arena demo

test: install
	$(BIN)/python -m pytest -q

# The suites marked slow (a term on PostgreSQL, a whole term through the CLI, the engine against
# its oracle on many seeds, ...): CI runs them after `make test`.
test-slow: install
	$(BIN)/python -m pytest -q -m slow

# The tournament domain typed all the way down (tests/test_lint.py has the same list; the Dask
# cluster's modules are not in it: Dask ships no types).
STRICT_DOMAIN = $(addprefix tournaments/domain/,tournament.py progress.py rounds.py schedule.py \
	pairing.py ratings.py store.py entries.py report.py rerun.py compliance.py bundles.py \
	sprt.py compare.py settings.py analysis)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy referee sdk bots tournaments
	$(BIN)/mypy --strict referee sdk
	$(BIN)/mypy --strict $(STRICT_DOMAIN)
	$(BIN)/lint-imports

bench: install
	$(BIN)/azul-arena bench engine

# The manual as a site, in docs/_build/html. Warnings are errors (-W, all of them listed first:
# --keep-going) and every reference must resolve (-n): MyST warns about a link to a page or a
# heading anchor that is not there. Links out of the site are not fetched: CI reaches no network
# but the package registries. The CLI and protocol references are written from the code
# (docs/_ext/generated_pages.py).
docs: install
	$(BIN)/sphinx-build -W --keep-going -n -q -b html docs docs/_build/html

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build docs/_build
	rm -f referee/engine/*.so referee/engine/*/*.so bots/expert/*.so *__mypyc*.so referee/engine/compiled.sha256
