"""Shared state of one surface sampling call: the placed points, their hash, the blockers and the callables.

Two points conflict when they are closer (in 3-D) than the larger of their radii, or with ``conflict="sum"`` than
the sum. Points are hashed on cubes of side ``max_radius`` (twice that when radii add up: no conflict reaches
farther), rebuilt after every batch of insertions; radii that add up and vary are also hashed by size class for
the tests of a new point of the least radius (coverage, a dart's first test), which then see only the points that
can reach it. Every test runs on blocks of ``BLOCK`` queries so the (query, candidate) pair arrays stay small.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import numpy as np
from numpy.typing import NDArray

from .._grid import expand_ranges
from ..poisson.settings import conflict_distances
from ._hash import PointHash, ReachHash, SizedHash, table_size
from .settings import RadiusFn, SurfaceRadiusFn, SurfaceSettings

BLOCK = 1 << 14
Floats = NDArray[np.float64]
Ints = NDArray[np.int64]
Bools = NDArray[np.bool_]


def _chunked(test: Callable[..., Bools], count: int, *arrays: NDArray | None) -> Bools:
    """``test`` on blocks of rows of ``arrays`` (``None`` passes through), joined."""
    if count <= BLOCK:
        return test(*arrays)
    parts = [
        test(*(None if a is None else a[lo : lo + BLOCK] for a in arrays)) for lo in range(0, count, BLOCK)
    ]
    return np.concatenate(parts)


def _any_per_query(count: int, query: Ints, hit: Bools) -> Bools:
    out = np.zeros(count, dtype=bool)
    out[query[hit]] = True
    return out


class SurfaceState:
    """Placed points (positions, radii, faces) and the tests every dart and fragment goes through."""

    def __init__(
        self,
        settings: SurfaceSettings,
        face_normals: Floats,
        area: float,
        blocker_xyz: Floats,
        blocker_r: Floats,
    ) -> None:
        self.settings = settings
        self.min_radius = float(settings.min_radius)
        self.max_radius = float(cast(float, settings.max_radius))
        self.variable = settings.radius_at is not None and self.max_radius > self.min_radius
        # Radii add up (each an object's own reach) or the larger one counts: ``closest`` is the least distance two
        # points keep, ``farthest`` the farthest two can conflict (the side of the points' hash cells).
        self.summed = settings.conflict == "sum"
        self.closest, self.farthest = conflict_distances(self.min_radius, self.max_radius, settings.conflict)
        self.rng = np.random.default_rng(settings.seed)
        self.face_normals = face_normals
        self.table = table_size(area / (self.max_radius * self.max_radius) * 2.0)
        self.positions = np.zeros((0, 3))
        self.radii = np.zeros(0)
        self.faces = np.zeros(0, dtype=np.int64)
        self.hash = PointHash(self.positions, self.farthest, self.table)
        self.sized: SizedHash | None = None  # radii that add up and vary: the points by size class
        self.blockers: ReachHash | None = None
        self.blocker_xyz, self.blocker_r = blocker_xyz, blocker_r
        if len(blocker_r):
            self.blockers = ReachHash(blocker_xyz, blocker_r, self.max_radius, self.summed)
        self.mask_calls = 0
        self.radius_calls = 0
        self.levels = 0

    # ------------------------------------------------------------------ callables
    def allowed(self, xyz: Floats, face: Ints) -> Bools:
        fn = self.settings.is_allowed
        if fn is None or len(xyz) == 0:
            return np.ones(len(xyz), dtype=bool)
        self.mask_calls += len(xyz)
        out = np.asarray(fn(xyz, self.face_normals[face]))
        if out.shape != (len(xyz),):
            raise ValueError(f"is_allowed must return shape ({len(xyz)},) for {len(xyz)} points, got {out.shape}")
        return out.astype(bool)

    def radius(self, xyz: Floats, face: Ints) -> Floats:
        """Radius at each place (on faces ``face``), clamped to ``[min_radius, max_radius]`` (NaN counts as
        ``max_radius``)."""
        fn = self.settings.radius_at
        if not self.variable or fn is None or len(xyz) == 0:
            return np.full(len(xyz), self.min_radius)
        self.radius_calls += len(xyz)
        if self.settings.radius_reads_normals:
            out = np.asarray(cast(SurfaceRadiusFn, fn)(xyz, self.face_normals[face]), dtype=np.float64)
        else:
            out = np.asarray(cast(RadiusFn, fn)(xyz), dtype=np.float64)
        if out.shape != (len(xyz),):
            raise ValueError(f"radius_at must return shape ({len(xyz)},) for {len(xyz)} points, got {out.shape}")
        return np.clip(np.nan_to_num(out, nan=self.max_radius), self.min_radius, self.max_radius)

    # ------------------------------------------------------------------ points
    def insert(self, xyz: Floats, radii: Floats, faces: Ints) -> None:
        self.positions = np.concatenate((self.positions, xyz))
        self.radii = np.concatenate((self.radii, radii))
        self.faces = np.concatenate((self.faces, faces))
        self.hash = PointHash(self.positions, self.farthest, self.table)
        if self.summed and self.variable:
            self.sized = SizedHash(self.positions, self.radii, self.min_radius, self.max_radius)

    def apart(self, a: Floats, b: Floats) -> Floats:
        """The distance two points of radii ``a`` and ``b`` keep: the larger radius, or the sum when radii add up."""
        return a + b if self.summed else np.maximum(a, b)

    def _need(self, radius: Floats, r: Floats | None) -> Floats:
        """The distance a new point of radius ``r`` keeps from balls of ``radius``; ``r=None``: any new point
        keeps at least this (the ball's radius, or with radii that add up, that plus ``min_radius``)."""
        if r is None:
            return radius + self.min_radius if self.summed else radius
        return self.apart(radius, r)

    def _near_own(self, xyz: Floats, r: Floats | None) -> tuple[Ints, Ints]:
        """(query, point) pairs that include every placed point a new point at ``xyz`` of radius ``r`` (None: the
        least) can conflict with."""
        if self.sized is not None:
            return self.sized.near(xyz, self.min_radius if r is None else r)
        return self.hash.near(xyz)

    def _inside_own(self, xyz: Floats, r: Floats | None) -> Bools:
        query, point = self._near_own(xyz, r)
        d = xyz[query] - self.positions[point]
        need = self._need(self.radii[point], None if r is None else r[query])
        return _any_per_query(len(xyz), query, (d * d).sum(axis=1) < need * need)

    def conflicts(self, xyz: Floats, r: Floats | None = None) -> Bools:
        """Closer than ``max(point radius, r)`` to a placed point (the sum when radii add up; ``r=None``: a new
        point of the least radius)."""
        if len(self.radii) == 0:
            return np.zeros(len(xyz), dtype=bool)
        return _chunked(self._inside_own, len(xyz), xyz, r)

    def _inside_blocker(self, xyz: Floats, r: Floats | None) -> Bools:
        assert self.blockers is not None
        query, ball = self.blockers.near(xyz)
        d = xyz[query] - self.blocker_xyz[ball]
        need = self._need(self.blocker_r[ball], None if r is None else r[query])
        return _any_per_query(len(xyz), query, (d * d).sum(axis=1) < need * need)

    def blocked(self, xyz: Floats, r: Floats | None = None) -> Bools:
        """Closer than ``max(blocker radius, r)`` to a blocker (the sum when radii add up)."""
        if self.blockers is None:
            return np.zeros(len(xyz), dtype=bool)
        return _chunked(self._inside_blocker, len(xyz), xyz, r)

    # ------------------------------------------------------------------ fragments
    def _covered_own(self, corners: Floats, r_lo: Floats) -> Bools:
        if self.variable:  # one ball must hold the three corners: corner 0 first
            least = not len(r_lo) or float(np.max(r_lo)) <= self.min_radius
            query, point = self._near_own(corners[:, 0], None if least else r_lo)
            return self._holds(corners, r_lo, query, self.positions[point], self.radii[point])
        query, point = self.hash.near(corners[:, 0])  # sorted by query
        d = corners[query] - self.positions[point][:, None, :]
        need = self._need(self.radii[point], r_lo[query])
        holds = (d * d).sum(axis=2) < (need * need)[:, None]
        out = _any_per_query(len(corners), query, holds.all(axis=1))
        sel = np.flatnonzero(~out[query] & holds.any(axis=1))
        return out | self._held_by_two(corners, query[sel], point[sel], holds[sel])

    def _covered_blocker(self, corners: Floats, r_lo: Floats) -> Bools:
        assert self.blockers is not None
        query, ball = self.blockers.near(corners[:, 0])
        return self._holds(corners, r_lo, query, self.blocker_xyz[ball], self.blocker_r[ball])

    def _holds(self, corners: Floats, r_lo: Floats, query: Ints, centre: Floats, radius: Floats) -> Bools:
        """Per triangle, whether one of its candidate balls (query, centre, radius) holds its three corners;
        corner 0 first, the other two only for the pairs still in the running."""
        need2 = self._need(radius, r_lo[query]) ** 2
        for k in range(3):
            d = corners[query, k] - centre
            sel = np.flatnonzero((d * d).sum(axis=1) < need2)
            query, centre, need2 = query[sel], centre[sel], need2[sel]
        return _any_per_query(len(corners), query, np.ones(len(query), dtype=bool))

    def _held_by_two(self, corners: Floats, query: Ints, point: Ints, holds: Bools) -> Bools:
        """Constant radius: whether the balls of two placed points together hold each triangle, given the
        (query, point) pairs sorted by query whose ball holds a corner (``holds``: which corners).

        Exact: within a triangle, the distance to the nearer of two points is convex on each side of their
        bisector plane, so it peaks at a corner or where an edge crosses that plane; the union holds the
        triangle when it holds those places. Both balls of such a pair hold a corner (else one ball alone
        would hold all three), so only balls holding a corner are paired. Each ball reaches the distance two points
        keep (``closest``: the radius, or twice it when radii add up).
        """
        r2 = self.closest * self.closest
        after = np.searchsorted(query, query, side="right") - np.arange(len(query)) - 1
        first, step = expand_ranges(after)
        second = first + 1 + step
        sel = np.flatnonzero((holds[first] | holds[second]).all(axis=1))
        first, second = first[sel], second[sel]
        tri, p, q = corners[query[first]], self.positions[point[first]], self.positions[point[second]]
        w, rhs = q - p, (q * q).sum(axis=1) - (p * p).sum(axis=1)
        ok = np.ones(len(first), dtype=bool)
        for a, b in ((0, 1), (1, 2), (2, 0)):
            start, edge = tri[:, a], tri[:, b] - tri[:, a]
            den = 2.0 * (edge * w).sum(axis=1)
            with np.errstate(divide="ignore", invalid="ignore"):
                u = (rhs - 2.0 * (start * w).sum(axis=1)) / den
            cross = np.flatnonzero((u > 0.0) & (u < 1.0))
            x = start[cross] + u[cross, None] * edge[cross] - p[cross]
            ok[cross[(x * x).sum(axis=1) >= r2]] = False
        return _any_per_query(len(corners), query[first], ok)

    def covered(self, corners: Floats, r_lo: Floats) -> Bools:
        """Whether each triangle (M, 3, 3) lies inside one placed point's or blocker's conflict ball (or, for a
        constant radius, inside the union of two placed points' balls).

        A new point of radius at least ``r_lo`` would conflict anywhere in such a triangle: a ball is convex,
        so holding the three corners (closer than ``max(ball radius, r_lo)``, or with radii that add up
        ``ball radius + r_lo``) means holding the triangle.
        """
        out = np.zeros(len(corners), dtype=bool)
        if len(self.radii):
            out |= _chunked(self._covered_own, len(corners), corners, r_lo)
        if self.blockers is not None:
            rest = np.flatnonzero(~out)
            out[rest] = _chunked(self._covered_blocker, len(rest), corners[rest], r_lo[rest])
        return out
