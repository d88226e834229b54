# Everything a fresh machine needs, from two commands: `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: install demo test lint bench clean

install: $(STAMP)

# Re-install only when the project's dependencies change.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]' --config-settings editable_mode=compat
	touch $(STAMP)

demo: install
	$(BIN)/azul-arena demo

test: install
	$(BIN)/python -m pytest -q

lint: install
	$(BIN)/ruff check .
	$(BIN)/mypy referee sdk bots tournaments

bench: install
	$(BIN)/azul-arena bench engine

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
