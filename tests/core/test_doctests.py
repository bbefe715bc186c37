"""The runnable examples in the docstrings of every strew.core module hold."""

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
                 "orient", "_grid", "steps", "surface", "surface.layer", "camera", "brush", "variety", "proximity")
}


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    assert result.failed == 0
    if name in WITH_EXAMPLES:
        assert result.attempted > 0, f"{name} has no runnable example"
