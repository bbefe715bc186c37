"""Bridson's Poisson-disk growth (2007), as the seed describes it, vectorised over batches.

Bridson's rules: an active point proposes ``attempts`` candidates uniform by area in the ring ``r..2r``
around it (``r`` is its own radius); its first candidate that passes every test becomes a new active
point; an active point whose candidates all fail retires. Several random start points are tried first so
islands cut off by a mask are reached.

Vectorised: each round takes a random batch of active points (a fraction of the active list) and tests all
their candidates in one numpy pass (the mask and radius callables see arrays). The batch's new points
are then checked against each other in the batch's random order, and a point that conflicts with an
earlier one is dropped (its active point stays active and tries again later).
"""

from __future__ import annotations

import math

import numpy as np

from .. import fpmath
from .state import SamplerState

# Share of the active list processed per round (1 = every active point at once).
BATCH_SHARE = 0.25


def _wrap(v: np.ndarray, size: float) -> np.ndarray:
    """``v`` modulo ``size`` inside ``[0, size)`` (a tiny negative value must not round up to ``size``)."""
    v = v % size
    v[v >= size] = 0.0
    return v


def _fits(st: SamplerState, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Which candidates (inside the rectangle, or already wrapped on a torus) pass every test against the
    points already placed; their radii and cells."""
    n = x.size
    valid = np.zeros(n, dtype=bool)
    radius = np.full(n, st.min_radius)
    cell = np.zeros(n, dtype=np.int64)
    if st.tileable:
        idx = np.arange(n)
    else:
        idx = np.flatnonzero((x >= 0.0) & (y >= 0.0) & (x < st.w) & (y < st.h))
        x, y = x[idx], y[idx]
    ids = st.cell_of(x, y)
    sel = np.flatnonzero(~st.own_conflicts(x, y, None, ids))
    idx, x, y, ids = idx[sel], x[sel], y[sel], ids[sel]
    if st.settings.is_allowed is not None and idx.size:
        sel = np.flatnonzero(st.allowed(x, y))
        idx, x, y, ids = idx[sel], x[sel], y[sel], ids[sel]
    r = None
    if st.variable and idx.size:
        r = st.radius(x, y)
        sel = np.flatnonzero(~st.own_conflicts(x, y, r, ids))
        idx, x, y, ids, r = idx[sel], x[sel], y[sel], ids[sel], r[sel]
    if st.blockers is not None and idx.size:
        sel = np.flatnonzero(~st.blocked(x, y, r))
        idx, ids = idx[sel], ids[sel]
        r = None if r is None else r[sel]
    valid[idx] = True
    if r is not None:
        radius[idx] = r
    cell[idx] = ids
    return valid, radius, cell


def _start(st: SamplerState) -> list[int]:
    """The start: up to ``start_points * attempts`` random tries until ``start_points`` stand."""
    active: list[int] = []
    starts = st.settings.start_points
    for _ in range(starts * st.settings.attempts):
        if len(active) >= starts:
            break
        u = st.rng.random(2)
        x, y = np.array([u[0] * st.w]), np.array([u[1] * st.h])
        valid, radius, cell = _fits(st, x, y)
        if valid[0]:
            st.insert(x, y, radius if st.variable else None, cell)
            active.append(st.count - 1)
    return active


def grow_bridson(st: SamplerState) -> None:
    """Fill ``st`` by Bridson's algorithm (active list, ring candidates, retire after ``attempts``)."""
    k = st.settings.attempts
    active = np.array(_start(st), dtype=np.int64)
    two_pi = 2.0 * math.pi
    while active.size:
        batch = max(1, int(active.size * BATCH_SHARE))
        pick = st.rng.permutation(active.size)[:batch]
        centres = active[pick]
        u = st.rng.random((2, batch, k))
        # Uniform by area in d..2d, d the least distance a neighbour keeps (its own radius, or with radii that
        # add up, that plus the least radius).
        near = st.pr[centres] + st.min_radius if st.summed else st.pr[centres]
        dist = near[:, None] * np.sqrt(1.0 + 3.0 * u[1])
        angle = two_pi * u[0]
        sin_angle, cos_angle = fpmath.sincos(angle)
        x = (st.px[centres][:, None] + dist * cos_angle).ravel()
        y = (st.py[centres][:, None] + dist * sin_angle).ravel()
        if st.tileable:
            x, y = _wrap(x, st.w), _wrap(y, st.h)
        valid, radius, cell = _fits(st, x, y)
        valid = valid.reshape(batch, k)
        found = valid.any(axis=1)
        rows = np.flatnonzero(found)
        chosen = rows * k + valid[rows].argmax(axis=1)  # the first candidate that fits, per active point
        _, first_in_cell = np.unique(cell[chosen], return_index=True)
        chosen = chosen[np.sort(first_in_cell)]
        first = st.count
        st.insert(x[chosen], y[chosen], radius[chosen] if st.variable else None, cell[chosen])
        st.drop_mutual_conflicts(first)
        retired = np.zeros(active.size, dtype=bool)
        retired[pick[~found]] = True
        active = np.concatenate((active[~retired], np.arange(first, st.count)))
