"""Which undecided cell to collapse next: a key per cell, the smallest key wins (:class:`~.vocab.Heuristic`).

- ``Heuristic.ENTROPY``: Shannon entropy of the weighted domain, ``log(sum w) - sum(w log w) / sum w``, plus a
  tiny per-cell noise from the seeded generator that breaks ties;
- ``Heuristic.MRV``: the number of variants left (minimum remaining values), ties broken by noise;
- ``Heuristic.SCANLINE``: the first undecided cell in row order (x fastest, then y, then z);
- ``Heuristic.GROW``: cells next to a cell that is surely walkable first, then fewest variants left, ties
  broken by row order: the walkable region grows from where it is, as a flood, and the front (as with
  scanline) meets forced cells first (as with mrv). With connectivity this keeps one region growing instead of
  many pockets that must all be joined later.

Decided cells (one variant left) get ``inf``; the search is over when the smallest key is ``inf``.
"""

from __future__ import annotations

import numpy as np

from .. import fpmath
from .bitset import ChunkTables
from .vocab import Heuristic

NEAR_FIRST = 1 << 20
"""What a surely-walkable neighbour takes off a ``GROW`` key (more than any count of variants)."""


def cell_keys(heuristic: Heuristic, tables: ChunkTables, rows: np.ndarray, cells: np.ndarray,
              noise: np.ndarray, rank: np.ndarray, near: np.ndarray) -> np.ndarray:
    """The key of each of ``cells`` under ``heuristic``: the smallest is decided next.

    Parameters
    ----------
    heuristic : Heuristic
        Any but ``Heuristic.AUTO`` (the solver picks one for each attempt); ``SCANLINE`` is the fallback.
    tables : ChunkTables
        The rules' lookup tables (popcounts and weight sums per chunk value).
    rows : numpy.ndarray
        (k, W) uint64, contiguous: the domains of ``cells``.
    cells : numpy.ndarray
        (k,) int, flat cell indices.
    noise : numpy.ndarray
        (N + 1,) float64, the attempt's tie-breaking noise per cell.
    rank : numpy.ndarray
        (N + 1,) int64, each cell's place in row order.
    near : numpy.ndarray
        (N + 1,) int, how many neighbours of each cell are surely walkable (read by ``GROW`` only).

    Returns
    -------
    numpy.ndarray
        (k,) float64 keys, ``inf`` for decided cells.
    """
    chunks = rows.view(tables.chunk_dtype)[:, : tables.chunks] + tables.chunk_offsets
    count = tables.popcount[chunks].sum(axis=1)
    if heuristic == Heuristic.ENTROPY:
        total = np.maximum(tables.weight_sum[chunks].sum(axis=1), 1e-300)  # 0 only for an empty domain
        key = fpmath.log(total) - tables.weight_log_sum[chunks].sum(axis=1) / total
        key += noise[cells]
    elif heuristic == Heuristic.MRV:
        key = count + noise[cells]
    elif heuristic == Heuristic.GROW:
        key = count + rank[cells] / rank.size - NEAR_FIRST * (near[cells] > 0)
    else:
        key = rank[cells].astype(np.float64)
    key[count <= 1] = np.inf
    return key
