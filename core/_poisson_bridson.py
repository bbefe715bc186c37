"""Bridson's Poisson-disk growth (2007), as the seed describes it, with the tests vectorised.

A random active point proposes ``attempts`` candidates uniform by area in the ring ``r..2r`` around it
(``r`` is its own radius); the first candidate that passes every test becomes a new active point; an
active point whose candidates all fail retires (swap-remove). All candidates of one step are tested in one
numpy pass, so the mask and radius callables see arrays. Several random start points are tried first so
islands cut off by a mask are reached.
"""

from __future__ import annotations

import math

import numpy as np

from ._poisson_state import SamplerState

RANDOM_BLOCK = 4096


def _first_fit(st: SamplerState, x: np.ndarray, y: np.ndarray) -> bool:
    """Insert the first candidate that passes every test; whether there was one."""
    if st.tileable:
        x = x % st.w
        y = y % st.h
    else:
        inside = np.flatnonzero((x >= 0.0) & (y >= 0.0) & (x < st.w) & (y < st.h))
        x, y = x[inside], y[inside]
    ids = st.cell_of(x, y)
    sel = np.flatnonzero(~st.own_conflicts(x, y, None, ids))
    x, y, ids = x[sel], y[sel], ids[sel]
    if st.settings.is_allowed is not None and x.size:
        sel = np.flatnonzero(st.allowed(x, y))
        x, y, ids = x[sel], y[sel], ids[sel]
    r = None
    if st.variable and x.size:
        r = st.radius(x, y)
        sel = np.flatnonzero(~st.own_conflicts(x, y, r, ids))
        x, y, ids, r = x[sel], y[sel], ids[sel], r[sel]
    if st.blockers is not None and x.size:
        sel = np.flatnonzero(~st.blocked(x, y, r))
        x, y, ids = x[sel], y[sel], ids[sel]
        r = None if r is None else r[sel]
    if x.size == 0:
        return False
    st.insert(x[:1], y[:1], None if r is None else r[:1], ids[:1])
    return True


def grow_bridson(st: SamplerState) -> None:
    """Fill ``st`` by Bridson's algorithm (active list, ring candidates, swap-remove)."""
    k = st.settings.attempts
    starts = st.settings.start_points
    active = np.empty(st.px.size, dtype=np.int64)
    n_active = 0
    for _ in range(starts * k):
        if n_active >= starts:
            break
        u = st.rng.random(2)
        if _first_fit(st, np.array([u[0] * st.w]), np.array([u[1] * st.h])):
            active[n_active] = st.count - 1
            n_active += 1

    block = st.rng.random((RANDOM_BLOCK, 1 + 2 * k))
    row = 0
    two_pi = 2.0 * math.pi
    while n_active:
        if row == RANDOM_BLOCK:
            block = st.rng.random((RANDOM_BLOCK, 1 + 2 * k))
            row = 0
        u = block[row]
        row += 1
        slot = min(int(u[0] * n_active), n_active - 1)
        centre = active[slot]
        cr = st.pr[centre]
        angle = two_pi * u[1 : 1 + k]
        dist = cr * np.sqrt(1.0 + 3.0 * u[1 + k :])
        x = st.px[centre] + dist * np.cos(angle)
        y = st.py[centre] + dist * np.sin(angle)
        if _first_fit(st, x, y):
            active[n_active] = st.count - 1
            n_active += 1
        else:
            n_active -= 1
            active[slot] = active[n_active]
