"""Which undecided cell to collapse next: a key per cell, the smallest key wins.

- ``"entropy"``: Shannon entropy of the weighted domain, ``log(sum w) - sum(w log w) / sum w``, plus a tiny
  per-cell noise from the seeded generator that breaks ties;
- ``"mrv"``: the number of variants left (minimum remaining values), ties broken by noise;
- ``"scanline"``: the first undecided cell in row order (x fastest, then y, then z).

Decided cells (one variant left) get ``inf``; the search is over when the smallest key is ``inf``.
"""

from __future__ import annotations

import numpy as np

from .. import fpmath
from .bitset import ChunkTables


def cell_keys(heuristic: str, tables: ChunkTables, rows: np.ndarray, cells: np.ndarray,
              noise: np.ndarray, rank: np.ndarray) -> np.ndarray:
    """Keys of the cells ``cells`` whose domains are ``rows`` ((k, W) uint64, contiguous)."""
    chunks = rows.view(tables.chunk_dtype)[:, : tables.chunks] + tables.chunk_offsets
    count = tables.popcount[chunks].sum(axis=1)
    if heuristic == "entropy":
        total = np.maximum(tables.weight_sum[chunks].sum(axis=1), 1e-300)  # 0 only for an empty domain
        key = fpmath.log(total) - tables.weight_log_sum[chunks].sum(axis=1) / total
        key += noise[cells]
    elif heuristic == "mrv":
        key = count + noise[cells]
    else:
        key = rank[cells].astype(np.float64)
    key[count <= 1] = np.inf
    return key
