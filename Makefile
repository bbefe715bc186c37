# Strew developer commands. Every target first makes sure .venv has everything: the current LTS, the bpy 5.2.3
# wheel on Python 3.13 (found by tools/find-python; PYTHON=/path/to/python3.13 overrides).
PYTHON ?= $(shell tools/find-python 3.13)
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.strew-installed
BPY_DIR = $(shell $(PY) -c "import importlib.util, os; print(os.path.dirname(importlib.util.find_spec('bpy').origin))")
# Blender's scripts live in a folder named after the version (5.2/): found, not written here.
BPY_SCRIPTS = $(firstword $(wildcard $(BPY_DIR)/[0-9]*.[0-9]*/scripts))
BLENDER_EXT = $(PY) $(BPY_SCRIPTS)/addons_core/bl_pkg/cli/blender_ext.py
TAGS = $(BPY_SCRIPTS)/modules/_bpy_internal/extensions/tags.py

.PHONY: gltf-validator test test-core test-blender lint typecheck validate bench build demo docs venv clean test-gui test-compat test-hostile

venv: $(STAMP)

$(STAMP): pyproject.toml
	@test -n "$(PYTHON)" || { echo "make: no Python 3.13 for .venv (see the line above)"; exit 1; }
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[blender,dev]'
	$(MAKE) --no-print-directory gltf-validator
	touch $(STAMP)

# The Khronos glTF validator (npm) for the export tests, in .venv/node; without Node the tests say so in one line.
GLTF_VALIDATOR := 2.0.0-dev.3.10
gltf-validator:
	@if command -v npm >/dev/null 2>&1; then \
	  npm install --silent --no-audit --no-fund --prefix $(VENV)/node gltf-validator@$(GLTF_VALIDATOR); \
	else echo "gltf-validator: no npm here; the export tests skip the Khronos validator"; fi

lint: $(STAMP)
	$(VENV)/bin/ruff check .

# mypy needs the checkout under its package name: link it as .venv/mypy-src/strew (config in pyproject.toml).
typecheck: $(STAMP)
	mkdir -p $(VENV)/mypy-src
	ln -sfn $(CURDIR) $(VENV)/mypy-src/strew
	$(VENV)/bin/mypy -p strew

# A second interpreter for tests/core/test_same_bytes.py: Python 3.11 with numpy 1.26 (Blender 4.2-5.0's pair).
NUMPY126 := .venv-numpy126
$(NUMPY126)/.strew-installed:
	interpreter=$$(tools/find-python 3.11) && $$interpreter -m venv $(NUMPY126)
	$(NUMPY126)/bin/pip install --quiet "numpy==1.26.4"
	touch $@

test-core: $(STAMP) $(NUMPY126)/.strew-installed
	STREW_SAME_BYTES_PYTHONS=$(CURDIR)/$(NUMPY126)/bin/python $(PY) -m pytest tests/core -q

test-blender: $(STAMP)
	$(PY) -m pytest tests/blender -q

validate: $(STAMP)
	$(BLENDER_EXT) validate --valid-tags $(TAGS) .

# The two suites share nothing but the venv: they run side by side, one per core, each printing when it ends.
test: lint typecheck validate
	$(MAKE) --no-print-directory -j2 --output-sync=target test-core test-blender

# The hostile pass (tests/hostile/README.md): ~490 trials, each in its own capped process; not part of `make test`.
test-hostile: $(STAMP)
	nice -n 19 $(PY) tests/hostile/run.py --jobs 2 $(HOSTILE_ARGS)

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
# A windowed Blender driven with xdotool (tests/gui/README.md), once per blender-gui Blender: Debian 13's 4.3
# (trixie) and Debian sid's 5.2 LTS (sid); screenshots in tests/gui/out/<major.minor>/. Skips with one line per
# Blender when there is none. GUI_SUITES=sid runs one.
GUI_SUITES ?= trixie sid

test-gui: build
	@failed=""; for suite in $(GUI_SUITES); do \
	  echo "== GUI session in blender-gui's $$suite Blender"; \
	  BLENDER_GUI_SUITE=$$suite $(PY) -m pytest tests/gui -q -rs -p no:cacheprovider || failed="$$failed $$suite"; \
	done; \
	if [ -n "$$failed" ]; then echo "test-gui: failed in$$failed"; exit 1; fi

# tests/blender under the bpy wheel of each other supported Blender, each in its own venv (.venv-bpyXY, made on
# first use, ~375 MB each, with the test extra and bpy's own numpy kept). tag=bpy version=Python version.
BPY_COMPAT := 42=4.2.23=3.11 45=4.5.15=3.11 50=5.0.1=3.11 53=5.3.0=3.13

test-compat: $(STAMP)
	@failed=""; for entry in $(BPY_COMPAT); do \
	  tag=$${entry%%=*}; rest=$${entry#*=}; version=$${rest%%=*}; python=$${rest#*=}; venv=.venv-bpy$$tag; \
	  if [ ! -f $$venv/.strew-installed ]; then \
	    echo "== creating $$venv (bpy $$version, Python $$python)"; \
	    interpreter=$$(tools/find-python $$python) || exit 1; \
	    $$interpreter -m venv $$venv && $$venv/bin/pip install --quiet "bpy==$$version" \
	    && $$venv/bin/python -c "import numpy; print('numpy==' + numpy.__version__)" > $$venv/keep-numpy.txt \
	    && $$venv/bin/pip install --quiet -c $$venv/keep-numpy.txt -e '.[test]' \
	    && touch $$venv/.strew-installed || exit 1; \
	  fi; \
	  echo "== Blender $$version (bpy wheel in $$venv)"; \
	  STREW_SAME_BYTES_PYTHONS=$(CURDIR)/$(PY) $$venv/bin/python -m pytest tests/blender tests/core/test_same_bytes.py \
	    -q -p no:cacheprovider || failed="$$failed $$version"; \
	done; \
	if [ -n "$$failed" ]; then echo "test-compat: failed on$$failed"; exit 1; fi; echo "test-compat: passed with every bpy in BPY_COMPAT"

clean:
	rm -rf $(VENV) .venv-* dist build .pytest_cache .ruff_cache .mypy_cache
