# Strew developer commands. Every target first makes sure .venv (Python 3.11) has everything.
PYTHON ?= python3.11
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.strew-installed
BPY_DIR = $(shell $(PY) -c "import importlib.util, os; print(os.path.dirname(importlib.util.find_spec('bpy').origin))")
BLENDER_EXT = $(PY) $(BPY_DIR)/5.0/scripts/addons_core/bl_pkg/cli/blender_ext.py
TAGS = $(BPY_DIR)/5.0/scripts/modules/_bpy_internal/extensions/tags.py

.PHONY: test test-core test-blender lint typecheck validate bench build demo docs venv clean test-gui test-compat

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

docs: build
	$(PY) docs/generate.py --out docs/images

# -- the real window and every supported Blender (not part of `make test`) -----------------------------------
# A windowed Blender driven with xdotool (tests/gui/README.md); skips with one line when there is none.
test-gui: build
	$(PY) -m pytest tests/gui -q -rs

# tests/blender under the bpy wheel of each supported Blender, each in its own venv (.venv-bpyXY, made on
# first use, ~375 MB each, with the test extra and bpy's own numpy kept).
BPY_COMPAT := 42=4.2.23 45=4.5.15 50=5.0.1

test-compat:
	@failed=""; for pair in $(BPY_COMPAT); do \
	  tag=$${pair%%=*}; version=$${pair#*=}; venv=.venv-bpy$$tag; \
	  if [ ! -f $$venv/.strew-installed ]; then \
	    echo "== creating $$venv (bpy $$version)"; \
	    $(PYTHON) -m venv $$venv && $$venv/bin/pip install --quiet "bpy==$$version" \
	    && $$venv/bin/python -c "import numpy; print('numpy==' + numpy.__version__)" > $$venv/keep-numpy.txt \
	    && $$venv/bin/pip install --quiet -c $$venv/keep-numpy.txt -e '.[test]' \
	    && touch $$venv/.strew-installed || exit 1; \
	  fi; \
	  echo "== Blender $$version (bpy wheel in $$venv)"; \
	  $$venv/bin/python -m pytest tests/blender -q -p no:cacheprovider || failed="$$failed $$version"; \
	done; \
	if [ -n "$$failed" ]; then echo "test-compat: failed on$$failed"; exit 1; fi; echo "test-compat: passed with every bpy in BPY_COMPAT"

clean:
	rm -rf $(VENV) .venv-bpy* dist build .pytest_cache .ruff_cache .mypy_cache
