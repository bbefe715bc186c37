"""Stable per-position hashing: random-looking choices that depend only on where a point stands.

A point's prefab, yaw and scale come from a hash of its (quantised) world position and the seed, not from
a shared random sequence, so editing one radius or one mask does not reshuffle every other instance.
Different purposes use different *streams* so that, say, the prefab and the yaw are not correlated.

Positions are quantised to :data:`QUANTUM` world units (1e-4, a tenth of a millimetre when a unit is a
metre): two positions that round to the same quantum hash alike; a point moved by float noise (1e-9)
keeps its hash unless it sits exactly on a rounding boundary.
"""

from __future__ import annotations

import enum
import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .inputs import as_xy, finite_number, integer

QUANTUM = 1e-4
"""Positions are rounded to multiples of this before hashing (world units)."""

MAX_COORDINATE = 1e12
"""Largest absolute coordinate that can be quantised into 64 bits at :data:`QUANTUM`."""

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_Y_SALT = np.uint64(0xD6E8FEB86659FD93)
_MASK64 = (1 << 64) - 1


class Stream(enum.IntEnum):
    """Independent hash streams, one per purpose."""

    UNIFORM = 0
    PREFAB = 1
    YAW = 2
    SCALE = 3
    KEEP = 4
    TILT = 5
    HEADING = 6
    RANDOM = 7


def mix(h: NDArray[np.uint64]) -> NDArray[np.uint64]:
    """splitmix64 finaliser (wrapping uint64 arithmetic)."""
    with np.errstate(over="ignore"):
        h = h ^ (h >> np.uint64(30))
        h = h * _MIX1
        h = h ^ (h >> np.uint64(27))
        h = h * _MIX2
        return h ^ (h >> np.uint64(31))


def _key(value: int) -> NDArray[np.uint64]:
    """A well-mixed 64-bit key from any Python int (seed or stream), as a 0-d uint64 array."""
    return mix(np.array([(value * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & _MASK64], dtype=np.uint64))


def _seed_int(seed: Any) -> int:
    return integer(seed, "seed")


def hash_positions(xy: Any, seed: int) -> NDArray[np.uint64]:
    """A 64-bit hash of each quantised position and the seed.

    Parameters
    ----------
    xy : (M, 2) array
        World positions (|coordinate| <= 1e12).
    seed : int
        Any integer; different seeds give unrelated hashes.

    Returns
    -------
    (M,) uint64, independent of the other rows and of their order.

    >>> import numpy as np
    >>> a = hash_positions(np.array([[1.0, 2.0], [3.0, 4.0]]), seed=7)
    >>> bool(a[1] == hash_positions(np.array([[3.0, 4.0]]), seed=7)[0])
    True
    """
    pts = as_xy(xy)
    key = _key(_seed_int(seed))
    if len(pts) and np.abs(pts).max() > MAX_COORDINATE:
        raise ValueError(f"xy: coordinates must stay within +-{MAX_COORDINATE:g} to be hashed")
    q = np.rint(pts / QUANTUM).astype(np.int64).view(np.uint64)
    with np.errstate(over="ignore"):
        h = mix(q[:, 0] ^ key)
        return mix(h ^ (q[:, 1] * _Y_SALT + _GOLDEN))


def hash_columns(seed: int, *columns: Any) -> NDArray[np.uint64]:
    """A 64-bit hash per row of integer ``columns`` (equal lengths) and the seed: a random-looking key for a grid
    cell or a box of a refinement level; the same row gives the same key in any array, order or process.

    >>> import numpy as np
    >>> a = hash_columns(5, np.array([1, 2]), np.array([3, 4]))
    >>> bool(a[1] == hash_columns(5, np.array([2]), np.array([4]))[0])
    True
    """
    h = _key(_seed_int(seed))
    with np.errstate(over="ignore"):
        for salt, column in enumerate(columns):
            bits = np.asarray(column, dtype=np.int64).view(np.uint64)
            h = mix(h ^ (bits * _Y_SALT + _GOLDEN * np.uint64(salt + 1)))
    return h


def unit_floats(bits: NDArray[np.uint64]) -> NDArray[np.float64]:
    """Uniform floats in [0, 1) from the top 53 bits of each hash (exact: no rounding on any CPU)."""
    return (bits >> np.uint64(11)).astype(np.float64) * (1.0 / (1 << 53))


def _stream_bits(xy: Any, seed: int, stream: int) -> NDArray[np.uint64]:
    stream_key = _key(integer(stream, "stream") + 0x5EED)
    return mix(hash_positions(xy, seed) ^ stream_key)


def hash_uniform(xy: Any, seed: int, stream: int = Stream.UNIFORM) -> NDArray[np.float64]:
    """A uniform float in [0, 1) per position (53 random bits), from the given stream.

    >>> import numpy as np
    >>> u = hash_uniform(np.random.default_rng(0).uniform(0, 100, (1000, 2)), seed=1)
    >>> bool(0 <= u.min() and u.max() < 1)
    True
    """
    return unit_floats(_stream_bits(xy, seed, stream))


def hash_choice(xy: Any, seed: int, weights: Any, stream: int = Stream.PREFAB) -> NDArray[np.int64]:
    """Pick an index in ``range(len(weights))`` per position with probability proportional to its weight.

    Zero weights are never picked.

    >>> import numpy as np
    >>> hash_choice(np.zeros((3, 2)) + [[0, 0], [1, 0], [2, 0]], seed=3, weights=[0, 1]).tolist()
    [1, 1, 1]
    """
    w = np.asarray(weights, dtype=np.float64)
    if w.ndim != 1 or len(w) == 0:
        raise ValueError(f"weights: expected a non-empty 1-D sequence, got shape {w.shape}")
    if not np.isfinite(w).all() or (w < 0).any():
        raise ValueError("weights: every weight must be finite and >= 0")
    total = w.sum()
    if total <= 0:
        raise ValueError("weights: at least one weight must be > 0")
    cumulative = np.cumsum(w) / total
    cumulative[int(np.flatnonzero(w > 0)[-1]) :] = 1.0
    u = hash_uniform(xy, seed, stream)
    return np.searchsorted(cumulative, u, side="right").astype(np.int64)


def hash_yaw(xy: Any, seed: int, stream: int = Stream.YAW) -> NDArray[np.float64]:
    """A rotation angle in [0, 2 pi) radians per position."""
    return hash_uniform(xy, seed, stream) * (2.0 * math.pi)


def hash_scale(xy: Any, seed: int, lo: float, hi: float, stream: int = Stream.SCALE) -> NDArray[np.float64]:
    """A scale factor uniform in [lo, hi] per position.

    >>> import numpy as np
    >>> s = hash_scale(np.array([[5.0, 5.0]]), seed=0, lo=0.8, hi=1.2)
    >>> bool(0.8 <= s[0] <= 1.2)
    True
    """
    low, high = finite_number(lo, "lo"), finite_number(hi, "hi")
    if low > high:
        raise ValueError(f"lo: must be <= hi, got lo={low}, hi={high}")
    return low + hash_uniform(xy, seed, stream) * (high - low)
