"""The WFC docstrings: their examples run and print what they claim, and every public function documents each
of its parameters in a numpydoc ``Parameters`` section."""

from __future__ import annotations

import doctest
import importlib
import inspect
import pkgutil
import re
from collections.abc import Callable

import pytest

import strew.core.wfc

MODULES = ["rules", "sockets", "mxgmn", "solver", "checks", "counts", "room", "room_fit", "room_regions"]
WFC_MODULES = sorted(info.name for info in pkgutil.iter_modules(strew.core.wfc.__path__, "strew.core.wfc."))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(f"strew.core.wfc.{name}")
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0
    assert tried > 0


def public_functions() -> dict[str, Callable[..., object]]:
    """Every function of ``strew.core.wfc`` without a leading underscore that takes a parameter, by its name
    (``module.function``)."""
    found = {}
    for name in WFC_MODULES:
        module = importlib.import_module(name)
        for attribute, value in sorted(vars(module).items()):
            if (inspect.isfunction(value) and value.__module__ == name and not attribute.startswith("_")
                    and inspect.signature(value).parameters):
                found[f"{name.rpartition('.')[2]}.{attribute}"] = value
    return found


FUNCTIONS = public_functions()


def documented(doc: str) -> set[str]:
    """The parameter names a numpydoc ``Parameters`` section lists (``name : type`` or ``a, b`` lines)."""
    match = re.search(r"^Parameters\n-{10,}\n(.*?)(?=^\w[\w ]*\n-{3,}\n|\Z)", doc, re.S | re.M)
    if match is None:
        return set()
    names = set()
    for line in match.group(1).splitlines():
        if line and not line[0].isspace():
            names.update(part.strip() for part in line.split(" : ")[0].split(","))
    return names


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_public_functions_document_every_parameter(name):
    function = FUNCTIONS[name]
    parameters = set(inspect.signature(function).parameters)
    assert not parameters - documented(inspect.getdoc(function) or ""), f"{name}: undocumented parameters"


@pytest.mark.parametrize("name", ["solve", "solve_detailed", "solve_steps", "regenerate"])
def test_solver_options_are_explicit_keywords(name):
    """Every option is listed with its type and default after ``*``: a misspelt one is Python's TypeError."""
    signature = inspect.signature(getattr(strew.core.wfc, name))
    kinds = {p.name: p.kind for p in signature.parameters.values()}
    assert inspect.Parameter.VAR_KEYWORD not in kinds.values()
    options = [n for n, kind in kinds.items() if kind is inspect.Parameter.KEYWORD_ONLY]
    assert {"periodic", "heuristic", "border", "connected", "max_backtracks", "time_limit"} <= set(options)
    for option in options:
        parameter = signature.parameters[option]
        assert parameter.annotation is not inspect.Parameter.empty and parameter.default is not inspect.Parameter.empty
