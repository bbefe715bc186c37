"""Maximal Poisson-disk sampling on triangles: area-weighted dart throwing, then fragment refinement.

1. Dart throwing: batches of darts, each on a face picked with probability proportional to its area and
   uniform inside it. A dart is kept when it conflicts with no placed point, no blocker and no dart of its
   batch that comes earlier in a random order (the same set as throwing the batch's darts one by one).
2. Refinement (Ebeida et al. 2011): the faces are cut into fragments no longer than the least distance two
   points keep. A fragment dies when one conflict ball holds its three corners (a ball is convex, so it holds
   the whole fragment) or when it is masked out; darts go into the surviving fragments (area-weighted), the
   survivors are split in four, and so on until none survives: then no point of the surface is left where
   another sample would fit (exact for a constant radius without a mask; otherwise up to a negligible area).
   Radii that add up and vary from place to place stop at fragments ``APPROX_SIDE_SUMMED`` of the first size,
   as the plane sampler stops its boxes.
"""

from __future__ import annotations

import math
from collections.abc import Generator

import numpy as np

from ..poisson.maximal import APPROX_SIDE_SUMMED
from ._hash import PointHash, SizedHash, table_size
from ._mesh import bisect_to, block_ranges, darts, face_frames, split4
from ._state import Bools, Floats, Ints, SurfaceState

DART_SWEEPS = 2
DART_BATCH = 1 << 16
FRAGMENT_BLOCK = 1 << 17
# Fragments start no longer than this many times the least distance two points keep (a longer one is never inside
# one ball).
FRAGMENT_SIDE = 1.0
MAX_LEVEL = 40
# Stop refining when the fragments still alive cover less than this share of the surface.
EXACT_TOLERANCE = 1e-13
APPROX_TOLERANCE = 1e-8
# A mask or radius field far rougher than min_radius can keep this many fragments per point alive: stop there.
FRAGMENTS_PER_POINT = 16


def _first_by_rank(count: int, i: Ints, j: Ints, rank: Ints) -> Bools:
    """The darts that throwing one by one in ``rank`` order would keep, given the conflicting pairs (i, j).

    Each round keeps every live dart that no live neighbour precedes, and retires the neighbours of the kept
    ones; the dart of lowest rank among the live ones always stays, so the rounds end.
    """
    alive = np.ones(count, dtype=bool)
    kept = np.zeros(count, dtype=bool)
    while alive.any():
        live = alive[i] & alive[j]
        i, j = i[live], j[live]
        beaten = np.zeros(count, dtype=bool)
        i_first = rank[i] < rank[j]
        beaten[j[i_first]] = True
        beaten[i[~i_first]] = True
        won = alive & ~beaten
        kept |= won
        alive &= ~won
        alive[j[won[i]]] = False
        alive[i[won[j]]] = False
    return kept


def _mutual(st: SurfaceState, xyz: Floats, r: Floats) -> Ints:
    """Indices of the darts kept when thrown one by one in a random order, in that order."""
    rank = st.rng.permutation(len(xyz))
    if len(xyz) > 1:
        if st.summed and st.variable:  # by size class: small darts look only as far as small radii reach
            q, p = SizedHash(xyz, r, st.min_radius, st.max_radius).close_pairs()
        else:
            q, p = PointHash(xyz, st.farthest, table_size(len(xyz))).near(xyz)
            pair = q < p
            q, p = q[pair], p[pair]
        d = xyz[q] - xyz[p]
        need = st.apart(r[q], r[p])
        close = (d * d).sum(axis=1) < need * need
        kept = np.flatnonzero(_first_by_rank(len(xyz), q[close], p[close], rank))
    else:
        kept = np.arange(len(xyz))
    return kept[np.argsort(rank[kept])]


def _throw(st: SurfaceState, xyz: Floats, face: Ints) -> None:
    """Insert the darts that fit: cheap tests first, callables only for darts still in the running."""
    sel = np.flatnonzero(~st.conflicts(xyz))
    xyz, face = xyz[sel], face[sel]
    sel = np.flatnonzero(st.allowed(xyz, face))
    xyz, face = xyz[sel], face[sel]
    r = st.radius(xyz, face)
    if st.variable:
        sel = np.flatnonzero(~st.conflicts(xyz, r))
        xyz, face, r = xyz[sel], face[sel], r[sel]
    sel = np.flatnonzero(~st.blocked(xyz, r))
    xyz, face, r = xyz[sel], face[sel], r[sel]
    if len(xyz):
        sel = _mutual(st, xyz, r)
        st.insert(xyz[sel], r[sel], face[sel])


def _pick(st: SurfaceState, cum_area: Floats, count: int) -> Ints:
    """``count`` indices drawn with probability proportional to area (``cum_area`` is the running sum)."""
    idx = np.searchsorted(cum_area, st.rng.random(count) * cum_area[-1], side="right")
    return np.minimum(idx, len(cum_area) - 1)


def _drop_dead(st: SurfaceState, corners: Floats, face: Ints, masked: bool) -> tuple[Floats, Ints]:
    """Fragments where another point might still fit: not inside one conflict ball, not masked out (corners
    and centre all refused), and, for a variable radius, not within reach of a point through the least radius
    at their corners and centre. Radii that add up are objects' sizes drawn per place: the radius at a few spots
    bounds nothing in between, so they skip that last test."""
    sel = np.flatnonzero(~st.covered(corners, np.full(len(corners), st.min_radius)))
    corners, face = corners[sel], face[sel]
    if masked and len(corners):
        keep = st.allowed(corners.mean(axis=1), face)
        unsure = np.flatnonzero(~keep)
        for k in range(3):
            if unsure.size:
                hit = st.allowed(corners[unsure, k], face[unsure])
                keep[unsure[hit]] = True
                unsure = unsure[~hit]
        corners, face = corners[keep], face[keep]
    if st.variable and not st.summed and len(corners):
        spots = np.concatenate((corners.mean(axis=1)[None], corners.transpose(1, 0, 2)))
        r_lo = st.radius(spots.reshape(-1, 3), np.tile(face, 4)).reshape(4, -1).min(axis=0)
        sel = np.flatnonzero(~st.covered(corners, r_lo))
        corners, face = corners[sel], face[sel]
    return corners, face


def _sweep(st: SurfaceState, corners: Floats, face: Ints, count: int) -> None:
    """``count`` darts on the triangles (area-weighted), in batches."""
    areas, _ = face_frames(corners)
    cum = np.cumsum(areas)
    for lo in range(0, count, DART_BATCH):
        pick = _pick(st, cum, min(DART_BATCH, count - lo))
        _throw(st, darts(corners[pick], st.rng.random((2, len(pick)))), face[pick])


def fill(st: SurfaceState, corners: Floats, face: Ints, area: float) -> Generator[float, None, None]:
    """Fill ``st`` with a maximal conflict-free set of points on the faces ``corners`` (F, 3, 3) whose ids
    are ``face``; yields the fraction done between steps."""
    per_dart = st.closest * (st.farthest if st.variable else st.closest)
    for sweep in range(DART_SWEEPS):
        _sweep(st, corners, face, max(1, math.ceil(area / per_dart)))
        yield 0.3 * (sweep + 1) / DART_SWEEPS

    masked = st.settings.is_allowed is not None
    side = FRAGMENT_SIDE * st.closest
    weights = face_frames(corners)[0] / (side * side) + 1.0
    pieces: list[tuple[Floats, Ints]] = []
    blocks = block_ranges(weights, FRAGMENT_BLOCK / 4)
    for n, (lo, hi) in enumerate(blocks):
        pieces.append(_drop_dead(st, *bisect_to(corners[lo:hi], face[lo:hi], side), masked))
        yield 0.3 + 0.3 * (n + 1) / len(blocks)
    frags = np.concatenate([p[0] for p in pieces]) if pieces else np.zeros((0, 3, 3))
    frag_face = np.concatenate([p[1] for p in pieces]) if pieces else np.zeros(0, dtype=np.int64)

    exact = not masked and not st.variable
    tolerance = (EXACT_TOLERANCE if exact else APPROX_TOLERANCE) * area
    smallest = APPROX_SIDE_SUMMED * side if st.summed and st.variable else 0.0
    edge = side  # the longest edge a fragment of this level can have
    budget = FRAGMENTS_PER_POINT * max(len(st.radii), 1) + 100_000
    level = 0
    while len(frags):
        _sweep(st, frags, frag_face, len(frags))
        frags, frag_face = _drop_dead(st, frags, frag_face, False)
        level += 1
        if not len(frags) or face_frames(frags)[0].sum() <= tolerance or level >= MAX_LEVEL or edge <= smallest:
            break
        if 4 * len(frags) > budget:
            break  # a mask or radius too rough to resolve (e.g. white noise)
        frags, frag_face = _drop_dead(st, *split4(frags, frag_face), masked)
        edge *= 0.5
        yield 0.6 + 0.4 * (1.0 - 0.5**level)
    st.levels = level
