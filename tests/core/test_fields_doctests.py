"""The runnable examples in the docstrings of the terrain, field, mask and hashing modules hold."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["terrain", "fields", "noise", "curves", "masks", "polylines", "polygons", "hashing", "inputs"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"strew.core.{name}")
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0, f"strew.core.{name} has no runnable example"
    assert result.failed == 0
