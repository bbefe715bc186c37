"""Scalar fields over the xy plane: the base class and its algebra.

A field is any object with a vectorised ``__call__(xy: (M, 2)) -> (M,) float64``. Fields combine with
``*``, ``+``, ``-`` (numbers become constant fields), ``.remap(curve)``, ``.clip(lo, hi)``, and turn into
masks with ``.above(threshold)`` / ``.below(threshold)``.

>>> import numpy as np
>>> density = (ConstantField(0.5) * 2 - 0.25).clip(0.0, 1.0)
>>> density(np.zeros((1, 2))).tolist(), density.above(0.7)(np.zeros((1, 2))).tolist()
([0.75], [True])
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..inputs import as_xy, finite_number
from .curves import CurveRemap
from .mask import Mask


class Field:
    """Base class: subclasses implement :meth:`evaluate` on validated (M, 2) float64 arrays."""

    def __call__(self, xy: Any) -> NDArray[np.float64]:
        return self.evaluate(as_xy(xy))

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.float64]:  # pragma: no cover - abstract
        raise NotImplementedError

    # composition -------------------------------------------------------------------------------
    def __mul__(self, other: Any) -> Field:
        return _Binary(operator.mul, "*", self, as_field(other))

    def __rmul__(self, other: Any) -> Field:
        return _Binary(operator.mul, "*", as_field(other), self)

    def __add__(self, other: Any) -> Field:
        return _Binary(operator.add, "+", self, as_field(other))

    def __radd__(self, other: Any) -> Field:
        return _Binary(operator.add, "+", as_field(other), self)

    def __sub__(self, other: Any) -> Field:
        return _Binary(operator.sub, "-", self, as_field(other))

    def __rsub__(self, other: Any) -> Field:
        return _Binary(operator.sub, "-", as_field(other), self)

    def remap(self, curve: CurveRemap) -> Field:
        """This field's values passed through ``curve`` (a :class:`~strew.core.fields.CurveRemap`)."""
        return RemappedField(self, curve)

    def clip(self, lo: float = 0.0, hi: float = 1.0) -> Field:
        """This field clamped to [lo, hi]."""
        return ClippedField(self, lo, hi)

    def above(self, threshold: float) -> Mask:
        """A mask, True where this field is >= ``threshold``."""
        return ThresholdMask(self, threshold, above=True)

    def below(self, threshold: float) -> Mask:
        """A mask, True where this field is < ``threshold``."""
        return ThresholdMask(self, threshold, above=False)



def as_field(value: Any) -> Field:
    """A Field from a Field, a number (constant) or a plain array function ``f(xy) -> (M,)``."""
    if isinstance(value, Field):
        return value
    if isinstance(value, int | float | np.number) and not isinstance(value, bool):
        return ConstantField(float(value))
    if callable(value):
        return FunctionField(value)
    raise ValueError(f"field: expected a Field, a number or f(xy) -> (M,), not {type(value).__name__}")


class ConstantField(Field):
    """The same value everywhere.

    >>> import numpy as np
    >>> ConstantField(0.5)(np.zeros((2, 2))).tolist()
    [0.5, 0.5]
    """

    def __init__(self, value: float) -> None:
        self.value = finite_number(value, "value")

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.float64]:
        return np.full(len(xy), self.value)

    def __repr__(self) -> str:
        return f"ConstantField({self.value})"


class FunctionField(Field):
    """Wraps a plain array function ``f(xy (M, 2)) -> (M,)`` and checks what it returns."""

    def __init__(self, function: Callable[[NDArray[np.float64]], Any], name: str = "function") -> None:
        if not callable(function):
            raise ValueError(f"{name}: expected a callable f(xy) -> (M,)")
        self.function, self.name = function, name

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.float64]:
        out = np.asarray(self.function(xy), dtype=np.float64)
        if out.shape != (len(xy),):
            raise ValueError(f"{self.name}: returned shape {out.shape}, expected ({len(xy)},)")
        return out


class _Binary(Field):
    def __init__(self, op: Callable, symbol: str, left: Field, right: Field) -> None:
        self.op, self.symbol, self.left, self.right = op, symbol, left, right

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.float64]:
        return self.op(self.left.evaluate(xy), self.right.evaluate(xy))

    def __repr__(self) -> str:
        return f"({self.left!r} {self.symbol} {self.right!r})"


class RemappedField(Field):
    """A field passed through a curve."""

    def __init__(self, field: Any, curve: CurveRemap) -> None:
        if not callable(curve):
            raise ValueError("curve: expected a CurveRemap (or any vectorised function of values)")
        self.field, self.curve = as_field(field), curve

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.float64]:
        return np.asarray(self.curve(self.field.evaluate(xy)), dtype=np.float64)


class ClippedField(Field):
    """A field clamped to [lo, hi]."""

    def __init__(self, field: Any, lo: float, hi: float) -> None:
        self.field = as_field(field)
        self.lo, self.hi = finite_number(lo, "lo"), finite_number(hi, "hi")
        if self.lo > self.hi:
            raise ValueError(f"lo: must be <= hi, got lo={self.lo}, hi={self.hi}")

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.float64]:
        return np.clip(self.field.evaluate(xy), self.lo, self.hi)


class ThresholdMask(Mask):
    """True where ``field(xy) >= threshold`` (``above=True``) or ``< threshold`` (``above=False``)."""

    def __init__(self, field: Field | Any, threshold: float, above: bool = True) -> None:
        self.field = as_field(field)
        self.threshold = finite_number(threshold, "threshold")
        self.above = bool(above)

    def evaluate(self, xy: NDArray[np.float64]) -> NDArray[np.bool_]:
        values = self.field.evaluate(xy)
        with np.errstate(invalid="ignore"):
            return values >= self.threshold if self.above else values < self.threshold

