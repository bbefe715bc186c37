# Strew developer commands. Every target first makes sure .venv (Python 3.11) has everything.
PYTHON ?= python3.11
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.strew-installed
BPY_DIR = $(shell $(PY) -c "import importlib.util, os; print(os.path.dirname(importlib.util.find_spec('bpy').origin))")
BLENDER_EXT = $(PY) $(BPY_DIR)/5.0/scripts/addons_core/bl_pkg/cli/blender_ext.py
TAGS = $(BPY_DIR)/5.0/scripts/modules/_bpy_internal/extensions/tags.py

.PHONY: test test-core test-blender lint typecheck validate bench build demo docs venv clean

venv: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[blender,dev]'
	touch $(STAMP)

lint: $(STAMP)
	$(VENV)/bin/ruff check .

# mypy needs the checkout under its package name: link it as .venv/mypy-src/strew (config in pyproject.toml).
typecheck: $(STAMP)
	mkdir -p $(VENV)/mypy-src
	ln -sfn $(CURDIR) $(VENV)/mypy-src/strew
	$(VENV)/bin/mypy -p strew

test-core: $(STAMP)
	$(PY) -m pytest tests/core -q

test-blender: $(STAMP)
	$(PY) -m pytest tests/blender -q

validate: $(STAMP)
	$(BLENDER_EXT) validate --valid-tags $(TAGS) .

test: lint typecheck test-core test-blender validate

bench: $(STAMP)
	$(PY) -m bench.run

build: $(STAMP)
	mkdir -p dist
	$(BLENDER_EXT) build --valid-tags $(TAGS) --source-dir . --output-dir dist

demo: $(STAMP)
	$(PY) -m strew demo --out demo

docs: $(STAMP)
	$(PY) docs/generate.py --out docs/images

clean:
	rm -rf $(VENV) dist build .pytest_cache .ruff_cache .mypy_cache
