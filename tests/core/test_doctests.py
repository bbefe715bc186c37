"""The runnable examples in the docstrings of strew.core hold; one test per module that has examples, and the
public modules that must have some do."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import strew.core

MODULES = sorted(info.name for info in pkgutil.walk_packages(strew.core.__path__, "strew.core."))
# Public modules whose docstrings must carry at least one runnable example.
WITH_EXAMPLES = {
    f"strew.core.{name}"
    for name in ("terrain", "fields", "fields.field", "fields.mask", "fields.masks", "fields.noise", "fields.curves",
                 "fields.polylines", "fields.polygons", "fields.radius", "hashing", "inputs", "poisson", "scatter",
                 "orient", "_grid", "steps", "surface", "surface.layer", "surface.settings", "camera", "brush",
                 "variety", "proximity", "fpmath")
}




def examples(name: str) -> int:
    """How many runnable examples the docstrings of module ``name`` hold."""
    tests = doctest.DocTestFinder().find(importlib.import_module(name))
    return sum(len(test.examples) for test in tests)


WITH_ANY = [name for name in MODULES if examples(name)]


@pytest.mark.parametrize("name", WITH_ANY)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted == examples(name)


def test_public_modules_have_examples() -> None:
    assert not WITH_EXAMPLES - set(WITH_ANY), f"no runnable example in {sorted(WITH_EXAMPLES - set(WITH_ANY))}"
