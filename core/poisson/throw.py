"""The darts of one round, drawn from hashes of where the boxes lie in the world, in a hashed time order.

Every random number of the maximal sampler comes from a hash of the seed, the round and a box's world grid
coordinates (never from a shared generator). A box therefore receives the same darts whatever else is in the
rectangle, whichever chunk it falls in and whatever was edited elsewhere: only a change near a box can change
what happens there (the points placed before the round, the mask, the radius). That is what keeps an edit's
effect local (docs/poisson.md, *Locality*).
"""

from __future__ import annotations

import functools
import math

import numpy as np

from ..hashing import hash_columns, mix
from .state import SamplerState

_STEP = np.uint64(0x9E3779B97F4A7C15)  # the n-th dart of a box: the box's key plus n steps of the golden ratio
_LOW32 = np.uint64(0xFFFFFFFF)


@functools.cache
def _poisson_table(rate: float) -> np.ndarray:
    """Thresholds on a 64-bit hash for a Poisson count with mean ``rate``: the count is how many thresholds the
    hash reaches (each is a cumulative probability times 2^64, until the tail is below 2^-60)."""
    term, total, table = math.exp(-rate), 0.0, []
    k = 0
    while total < 1.0 - 2.0**-60 and k < 200:
        total += term
        table.append(min(int(total * 2.0**64), 2**64 - 1))
        k += 1
        term *= rate / k
    return np.array(table, dtype=np.uint64)


def box_keys(st: SamplerState, boxes: tuple[np.ndarray, np.ndarray, np.ndarray], bw: float, bh: float,
             cells: int, round_no: int) -> np.ndarray:
    """A hash per box from the seed, the round and its world position: the lower-left cell in world cell
    coordinates (``settings.anchor`` + the cell in the rectangle) and, for a box smaller than a cell, which
    part of the cell it is (all boxes of a round have one size)."""
    x0, y0, ids = boxes
    ix, iy = st.cell_xy(ids)
    ax, ay = st.anchor
    seed = (int(st.settings.seed) << 8) ^ round_no  # one key per seed and round (rounds < 2^8)
    if cells == 1 and bw < st.sx:
        sub_x = np.rint((x0 - ix * st.sx) / bw).astype(np.int64)
        sub_y = np.rint((y0 - iy * st.sy) / bh).astype(np.int64)
        with np.errstate(over="ignore"):
            return hash_columns(seed, ix + ax, iy + ay, sub_x * _STEP.view(np.int64) + sub_y)
    return hash_columns(seed, ix + ax, iy + ay)


def throw(st: SamplerState, boxes: tuple[np.ndarray, np.ndarray, np.ndarray], bw: float, bh: float, cells: int,
          rate: float, round_no: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Darts for the boxes: a Poisson number with mean ``rate`` per box, each uniform in its box.

    Returns ``(x, y, box, time)``: each dart's place, its box, and its time, the order a sequential sampler
    would throw them in (a 64-bit hash; ``darts.resolve_in_time_order`` reads it).
    """
    keys = box_keys(st, boxes, bw, bh, cells, round_no)
    counts = np.searchsorted(_poisson_table(rate), keys, side="right")
    box = np.repeat(np.arange(keys.size), counts)
    nth = (np.arange(box.size) - np.repeat(np.cumsum(counts) - counts, counts) + 1).astype(np.uint64)
    with np.errstate(over="ignore"):
        time = mix(keys[box] + nth * _STEP)
    place = mix(time)
    # 32 bits per coordinate: a dart lands on one of 2^32 places across its box, at every level.
    x = boxes[0][box] + (place >> np.uint64(32)).astype(np.float64) * (bw / 2.0**32)
    y = boxes[1][box] + (place & _LOW32).astype(np.float64) * (bh / 2.0**32)
    return x, y, box, time
