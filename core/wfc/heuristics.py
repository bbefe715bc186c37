"""Which undecided cell to collapse next: a key per cell, the smallest key wins.

- ``"entropy"``: Shannon entropy of the weighted domain, ``log(sum w) - sum(w log w) / sum w``, plus a tiny
  per-cell noise from the seeded generator that breaks ties;
- ``"mrv"``: the number of variants left (minimum remaining values), ties broken by noise;
- ``"scanline"``: the first undecided cell in row order (x fastest, then y, then z);
- ``"grow"``: cells next to a cell that is surely walkable first, then fewest variants left, ties broken by
  row order: the walkable region grows from where it is, as a flood, and the front (as with scanline) meets
  forced cells first (as with mrv). With connectivity this keeps one region growing instead of many
  pockets that must all be joined later.

Decided cells (one variant left) get ``inf``; the search is over when the smallest key is ``inf``.
"""

from __future__ import annotations

import numpy as np

from .. import fpmath
from .bitset import ChunkTables

NEAR_FIRST = 1 << 20
"""What a surely-walkable neighbour takes off a ``grow`` key (more than any count of variants)."""


def cell_keys(heuristic: str, tables: ChunkTables, rows: np.ndarray, cells: np.ndarray,
              noise: np.ndarray, rank: np.ndarray, near: np.ndarray) -> np.ndarray:
    """Keys of the cells ``cells`` whose domains are ``rows`` ((k, W) uint64, contiguous); ``near``: per cell,
    how many neighbours are surely walkable (``grow`` only)."""
    chunks = rows.view(tables.chunk_dtype)[:, : tables.chunks] + tables.chunk_offsets
    count = tables.popcount[chunks].sum(axis=1)
    if heuristic == "entropy":
        total = np.maximum(tables.weight_sum[chunks].sum(axis=1), 1e-300)  # 0 only for an empty domain
        key = fpmath.log(total) - tables.weight_log_sum[chunks].sum(axis=1) / total
        key += noise[cells]
    elif heuristic == "mrv":
        key = count + noise[cells]
    elif heuristic == "grow":
        key = count + rank[cells] / rank.size - NEAR_FIRST * (near[cells] > 0)
    else:
        key = rank[cells].astype(np.float64)
    key[count <= 1] = np.inf
    return key
