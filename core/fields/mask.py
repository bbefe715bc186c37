"""Masks: where a point may stand. Vectorised ``__call__(xy (M, 2)) -> (M,) bool``, combined with & | ~.

>>> import numpy as np
>>> inside = FunctionMask(lambda xy: xy[:, 0] < 1.0)
>>> (inside & ~FunctionMask(lambda xy: xy[:, 1] < 0.5))(np.array([[0.5, 0.2], [0.5, 0.9], [2.0, 0.9]])).tolist()
[False, True, False]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..inputs import as_xy


class Mask:
    """Base class: subclasses implement :meth:`evaluate` on validated (M, 2) float64 arrays."""

    def __call__(self, xy: Any) -> NDArray[np.bool_]:
        return self.evaluate(as_xy(xy))

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.bool_]:  # pragma: no cover - abstract
        raise NotImplementedError

    def empty_in(self, low: NDArray[np.float64], high: NDArray[np.float64]) -> bool:
        """Whether the mask is False everywhere in the rectangle ``[low, high]`` (False: not known), so a sampler
        may skip it."""
        return False

    def __and__(self, other: Any) -> Mask:
        return AllOf(self, other)

    def __or__(self, other: Any) -> Mask:
        return AnyOf(self, other)

    def __invert__(self) -> Mask:
        return Not(self)


def as_mask(value: Any) -> Mask:
    """A Mask from a Mask, a bool (everywhere / nowhere) or a plain function ``g(xy) -> (M,) bool``."""
    if isinstance(value, Mask):
        return value
    if isinstance(value, bool | np.bool_):
        return Everywhere() if value else ~Everywhere()
    if callable(value):
        return FunctionMask(value)
    raise ValueError(f"mask: expected a Mask, a bool or g(xy) -> (M,) bool, not {type(value).__name__}")


class Everywhere(Mask):
    """True everywhere."""

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.bool_]:
        return np.ones(len(xy), dtype=bool)


class FunctionMask(Mask):
    """Wraps a plain array function ``g(xy (M, 2)) -> (M,) bool`` and checks what it returns."""

    def __init__(self, function: Callable[[NDArray[np.float64]], Any], name: str = "function") -> None:
        if not callable(function):
            raise ValueError(f"{name}: expected a callable g(xy) -> (M,) bool")
        self.function, self.name = function, name

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.bool_]:
        out = np.asarray(self.function(xy))
        if out.shape != (len(xy),):
            raise ValueError(f"{self.name}: returned shape {out.shape}, expected ({len(xy)},)")
        return out.astype(bool)


class AllOf(Mask):
    """True where every part is True (``a & b``). Every part sees all points (terrain masks share a cache)."""

    def __init__(self, *parts: Any) -> None:
        flat: list[Mask] = []
        for part in (as_mask(p) for p in parts):
            flat.extend(part.parts if isinstance(part, AllOf) else [part])
        self.parts: list[Mask] = flat

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.bool_]:
        out = np.ones(len(xy), dtype=bool)
        for part in self.parts:
            out &= part.evaluate(xy)
        return out

    def empty_in(self, low: NDArray[np.float64], high: NDArray[np.float64]) -> bool:
        return any(part.empty_in(low, high) for part in self.parts)


class AnyOf(Mask):
    """True where any part is True (``a | b``)."""

    def __init__(self, *parts: Any) -> None:
        flat: list[Mask] = []
        for part in (as_mask(p) for p in parts):
            flat.extend(part.parts if isinstance(part, AnyOf) else [part])
        self.parts: list[Mask] = flat

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.bool_]:
        out = np.zeros(len(xy), dtype=bool)
        for part in self.parts:
            out |= part.evaluate(xy)
        return out


class Not(Mask):
    """True where the inner mask is False (``~a``)."""

    def __init__(self, inner: Any) -> None:
        self.inner = as_mask(inner)

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.bool_]:
        return ~self.inner.evaluate(xy)

