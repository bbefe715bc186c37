"""Input checks shared by the terrain, field, mask and hashing modules.

Every public entry point converts its arrays once with these helpers, so bad input fails early with a
``ValueError`` that names the argument and says what to change.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray


def as_xy(xy: Any, name: str = "xy") -> NDArray[np.float64]:
    """Return ``xy`` as a C-contiguous float64 array of shape (M, 2), finite.

    >>> as_xy([[0, 1], [2, 3]]).shape
    (2, 2)
    """
    try:
        arr = np.asarray(xy, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name}: expected an (M, 2) array of numbers, got {type(xy).__name__}") from exc
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise ValueError(f"{name}: expected shape (M, 2) (one x, y row per point), got {arr.shape}")
    if not np.isfinite(arr).all():
        bad = int(np.flatnonzero(~np.isfinite(arr).all(axis=1))[0])
        raise ValueError(f"{name}: row {bad} is not finite ({arr[bad].tolist()}); pass finite coordinates")
    return np.ascontiguousarray(arr)


def as_points(
    points: Any, name: str, dims: tuple[int, ...] = (2, 3), min_rows: int = 0
) -> NDArray[np.float64]:
    """Return ``points`` as a finite float64 (K, D) array with D in ``dims``."""
    try:
        arr = np.asarray(points, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name}: expected a (K, {dims[0]}) array of numbers") from exc
    if arr.ndim != 2 or arr.shape[1] not in dims:
        want = " or ".join(f"(K, {d})" for d in dims)
        raise ValueError(f"{name}: expected shape {want}, got {arr.shape}")
    if arr.shape[0] < min_rows:
        raise ValueError(f"{name}: needs at least {min_rows} points, got {arr.shape[0]}")
    if not np.isfinite(arr).all():
        raise ValueError(f"{name}: contains NaN or infinite coordinates; pass finite values")
    return np.ascontiguousarray(arr)


def finite_number(value: Any, name: str) -> float:
    """Return ``value`` as a finite float or raise a ValueError naming ``name``."""
    try:
        number = float(value)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name}: expected a number, got {value!r}") from exc
    if not math.isfinite(number):
        raise ValueError(f"{name}: must be finite, got {number}")
    return number


def positive_number(value: Any, name: str) -> float:
    """Return ``value`` as a finite float > 0 or raise a ValueError naming ``name``."""
    number = finite_number(value, name)
    if number <= 0:
        raise ValueError(f"{name}: must be > 0, got {number}")
    return number


def integer(value: Any, name: str, minimum: int | None = None) -> int:
    """Return ``value`` as a Python int (bools and floats refused)."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise ValueError(f"{name}: expected an integer, got {value!r}")
    number = int(value)
    if minimum is not None and number < minimum:
        raise ValueError(f"{name}: must be >= {minimum}, got {number}")
    return number


def seed(value: Any, name: str = "seed") -> int:
    """A random seed: a whole number ≥ 0 (every seeded choice of Strew takes one).

    >>> seed(3)
    3
    """
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 0:
        raise ValueError(f"{name}: give a whole number ≥ 0, got {value!r}")
    return int(value)


MAX_DISTANCE = 1e9
"""The largest coordinate and distance Strew takes, in metres (a million kilometres).

Sampling grids index cells by ``floor(distance / cell)`` in int64 and float64 still resolves 1e-7 m there;
beyond, a distance (or the 3.4e38 Blender stores for "inf" typed into a field) would wrap around and switch a
rule off in silence. Every length setting declares it as its maximum.
"""

MAX_SEED = 2**31 - 1
"""The largest seed a setting holds (Blender's integer properties are 32-bit)."""


def near_origin(points: NDArray[np.float64], name: str) -> None:
    """Refuse (one-line ValueError naming the row) finite ``points`` (K, D) with a coordinate beyond
    ``MAX_DISTANCE``: a vertex Blender stores at 3.4e38 would otherwise drop its faces in silence."""
    far = np.abs(points) > MAX_DISTANCE
    if far.any():
        bad = int(np.flatnonzero(far.any(axis=1))[0])
        where = ", ".join(f"{c:g}" for c in points[bad])
        raise ValueError(f"{name}: row {bad} is at ({where}), farther than {MAX_DISTANCE:g} m from the origin; "
                         "move it closer or delete it")


def bounded(value: Any, name: str, low: float, high: float, integer: bool = False) -> Any:
    """``value`` when it is a number in ``[low, high]`` (a whole one when ``integer``); else a one-line ValueError
    that names ``name`` and the range.

    The one check of a number setting, whoever set it: a script, a saved file, a preset, the command line.
    NaN, the infinities and numbers beyond the range are refused, never clamped or let through.

    >>> bounded(3, "--seed", 0, MAX_SEED, integer=True)
    3
    >>> bounded(float("nan"), "Margin", 0.0, MAX_DISTANCE)
    Traceback (most recent call last):
    ...
    ValueError: Margin is nan; give a number from 0 to 1e+09
    """
    whole = isinstance(value, int | np.integer) and not isinstance(value, bool)
    number = isinstance(value, float | np.floating) or whole
    if not number or (integer and not whole) or not low <= value <= high:
        raise ValueError(f"{name} is {_shown(value)}; give {_wanted(low, high, integer)}")
    return value


_FLOAT32_MAX = float(np.finfo(np.float32).max)
"""What a Blender float setting without a declared bound takes (it stores float32)."""


def _wanted(low: float, high: float, integer: bool) -> str:
    """The range in words: "a number from 0 to 1e+09", "a number ≥ 0.1", "a finite number"."""
    kind = "a whole number" if integer else "a number"
    low_open, high_open = not integer and low <= -_FLOAT32_MAX, not integer and high >= _FLOAT32_MAX
    if low_open and high_open:
        return f"a finite {kind.removeprefix('a ')}"
    if high_open:
        return f"{kind} ≥ {_shown(low)}"
    if low_open:
        return f"{kind} ≤ {_shown(high)}"
    return f"{kind} from {_shown(low)} to {_shown(high)}"


def _shown(value: Any) -> str:
    """A number as a message shows it: whole numbers in full, others in ``%g``."""
    if isinstance(value, int | np.integer) and not isinstance(value, bool):
        return str(int(value))
    if not isinstance(value, float | np.floating):
        return repr(value)
    number = float(value)
    if math.isfinite(number) and number == int(number) and abs(number) < 1e7:
        return str(int(number))
    return f"{number:g}"
