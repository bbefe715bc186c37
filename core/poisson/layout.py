"""The background grid's layout and the block-wise runner of per-candidate tests (used by SamplerState)."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any, NamedTuple, Protocol, TypeVar, cast

import numpy as np


class _Blocked(Protocol):
    """What :func:`blockwise` needs of the object whose method it wraps (a ``SamplerState``)."""

    block_rows: int

_Method = TypeVar("_Method", bound=Callable[..., Any])


def blockwise(method: _Method) -> _Method:
    """Run a per-candidate test on blocks of candidates (``SamplerState.block_rows``) and join the results
    (along the last axis; element by element for a tuple). Array arguments are sliced; scalars and
    ``None`` pass through unchanged."""

    @functools.wraps(method)
    def run(self: _Blocked, first: np.ndarray, *rest: object) -> Any:
        n, rows = first.size, self.block_rows
        if n <= rows:
            return method(self, first, *rest)
        parts = [
            method(
                self,
                first[i : i + rows],
                *(a[i : i + rows] if isinstance(a, np.ndarray) else a for a in rest),
            )
            for i in range(0, n, rows)
        ]
        if isinstance(parts[0], tuple):
            return tuple(
                None if part is None else np.concatenate([p[k] for p in parts], axis=-1)
                for k, part in enumerate(parts[0])
            )
        return np.concatenate(parts, axis=-1)

    return cast(_Method, run)


def in_blocks(rows: int, n: int, run: Callable[[slice], np.ndarray]) -> np.ndarray:
    """``run`` on slices of at most ``rows`` of ``n`` queries, the results joined along the last axis."""
    if n <= rows:
        return run(slice(0, n))
    return np.concatenate([run(slice(i, min(i + rows, n))) for i in range(0, n, rows)], axis=-1)


class GridLayout(NamedTuple):
    """The background grid: ``cols x rows`` cells of ``sx x sy``, a neighbour window of ``window`` cells
    (enough to reach ``max_radius``), first boxes of ``coarse x coarse`` cells, and ``pad`` border cells."""

    cols: int
    rows: int
    sx: float
    sy: float
    window: int
    coarse: int
    pad: int


def cell_side(min_radius: float) -> float:
    """The side of a background cell: a cell holds at most one point."""
    return min_radius / math.sqrt(2.0)


def coarse_cells(min_radius: float, max_radius: float, variable: bool, tileable: bool = False) -> int:
    """Cells per side of a variable radius' first boxes (about one max-radius point each); 1 otherwise."""
    return 2 ** max(0, round(math.log2(max_radius / min_radius))) if variable and not tileable else 1


def grid_layout(
    w: float, h: float, min_radius: float, max_radius: float, variable: bool, tileable: bool, anchored: bool = False
) -> GridLayout:
    """Cells no larger than ``min_radius / sqrt(2)`` (one point per cell at most), dividing the rectangle
    exactly (``anchored``: the rectangle is a whole number of cells of :func:`cell_side` on the world grid).
    A variable radius starts on boxes of about one max-radius point each, so the work follows the number of
    points; without wrapping the grid is padded so neighbour lookups never leave the array."""
    side = cell_side(min_radius)
    if anchored:  # the world's cells, of one size in every rectangle (w / cols would differ in the last bits)
        cols, rows, sx, sy = max(1, round(w / side)), max(1, round(h / side)), side, side
    else:
        cols, rows = max(1, math.ceil(w / side)), max(1, math.ceil(h / side))
        sx, sy = w / cols, h / rows
    window = math.ceil(max_radius / min(sx, sy))
    coarse = coarse_cells(min_radius, max_radius, variable, tileable)
    pad = 0 if tileable else window + coarse
    return GridLayout(cols, rows, sx, sy, window, coarse, pad)
