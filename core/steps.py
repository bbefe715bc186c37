"""Stepped jobs: a generator yields progress between steps and returns its result (``solve_steps``,
``scatter_layer_steps``, ``sample_surface_steps``). :func:`run_to_end` is what a blocking caller does with one.

>>> def count(n):
...     for i in range(n):
...         yield i / n
...     return n
>>> seen = []
>>> run_to_end(count(3), seen.append), seen
(3, [0.0, 0.3333333333333333, 0.6666666666666666])
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any, TypeVar

Result = TypeVar("Result")


def run_to_end(steps: Generator[Any, None, Result], on_step: Callable[[Any], object] | None = None) -> Result:
    """Drive ``steps`` to its end and return its value; ``on_step`` sees every yielded value first.

    When ``on_step`` raises (a cancel), the generator is closed (its ``finally`` blocks run) and the error
    propagates.
    """
    try:
        while True:
            try:
                value = next(steps)
            except StopIteration as done:
                return done.value
            if on_step is not None:
                on_step(value)
    finally:
        steps.close()
