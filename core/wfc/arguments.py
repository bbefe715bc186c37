"""Checks of the solver's arguments: one ``ValueError`` that names the argument, before any allocation."""

from __future__ import annotations

import math
import operator
from collections.abc import Iterable
from typing import Any

import numpy as np

from .. import budget as memory
from .rules import Rules


def whole_number(name: str, value: object, low: int = 0) -> int:
    """``value`` as an int ≥ ``low`` (any integer type; not a bool).

    Parameters
    ----------
    name : str
        The argument's name, for the message.
    value : object
        What the caller gave.
    low : int, default 0
        The least value allowed.
    """
    try:
        number = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise ValueError(f"{name}: expected an int >= {low}, got {value!r}") from None
    if isinstance(value, bool) or number < low:
        raise ValueError(f"{name}: expected an int >= {low}, got {value!r}")
    return number


def seconds(name: str, value: object) -> float:
    """``value`` as a float number of seconds > 0 (not a bool, not NaN).

    Parameters
    ----------
    name : str
        The argument's name, for the message.
    value : object
        What the caller gave.
    """
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise ValueError(f"{name}: expected a number of seconds > 0, got {value!r}")
    if not float(value) > 0:  # also refuses NaN
        raise ValueError(f"{name}: must be > 0 seconds, got {value!r}")
    return float(value)


def grid_shape(rules: Rules, shape: object) -> tuple[int, ...]:
    """``shape`` as one whole number ≥ 1 per axis of ``rules``.

    Parameters
    ----------
    rules : Rules
        The rules the grid is for (2-D or 3-D).
    shape : object
        What the caller gave: a sequence of sizes (or one size).
    """
    sizes: tuple[Any, ...] = tuple(shape) if isinstance(shape, Iterable) else (shape,)
    out = []
    for size in sizes:
        try:
            out.append(operator.index(size))
        except TypeError:
            raise ValueError(f"shape: expected whole numbers of cells, got {shape!r}") from None
    if len(out) != rules.dims:
        raise ValueError(f"shape: these rules are {rules.dims}-D, so give {rules.dims} sizes, got {tuple(out)}")
    if any(s < 1 for s in out):
        raise ValueError(f"shape: size must be ≥ 1 along every axis, got {tuple(out)}")
    return tuple(out)


def check_memory(rules: Rules, shape: tuple[int, ...], budget: int) -> None:
    """Refuse a grid whose arrays would exceed ``budget`` bytes (Python ints: no overflow, no allocation).

    Parameters
    ----------
    rules : Rules
        The rules (their variant count sets the width of a domain).
    shape : tuple of int
        The grid's shape.
    budget : int
        Bytes the grid may take.
    """
    cells = math.prod(shape)
    width = (rules.count + 63) // 64
    estimate = cells * (40 * width + 8 * (len(rules.directions) + 6)) + cells * rules.count
    memory.check_memory(f"shape: {shape} with {rules.count} variants", estimate,
                        "solve a smaller grid (or in boxes with regenerate) or raise memory_budget", budget,
                        "memory_budget")
