"""Curves as the samplers see them: polylines in world space, one flat list of straight segments.

A curve layer spaces its instances along polylines (Blender's curves evaluated to points). Every segment knows
its line, so a place is (segment, distance along it). Segments of zero length are dropped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from .. import fpmath
from ..inputs import MAX_DISTANCE


@dataclass(frozen=True)
class CurvePath:
    """Polylines ``lines`` (each (N, 3), in order; ``closed[k]``: line ``k`` also joins its last point to its first)
    as straight segments ``start[i] → end[i]`` of length ``length[i]`` on line ``line[i]``."""

    lines: tuple[np.ndarray, ...]
    closed: tuple[bool, ...]
    start: np.ndarray = field(repr=False)
    end: np.ndarray = field(repr=False)
    length: np.ndarray = field(repr=False)
    line: np.ndarray = field(repr=False)

    @classmethod
    def of(cls, lines: Sequence[object], closed: Sequence[bool] | None = None) -> CurvePath:
        """The path of polylines (each (N, 3) or (N, 2) points). ``ValueError`` for points that are not finite
        numbers within reach."""
        flags = tuple(bool(c) for c in (closed if closed is not None else [False] * len(lines)))
        if len(flags) != len(lines):
            raise ValueError(f"closed needs one flag per line ({len(lines)}), got {len(flags)}")
        points = tuple(_points(line, number) for number, line in enumerate(lines))
        starts, ends, owners = [np.zeros((0, 3))], [np.zeros((0, 3))], [np.zeros(0, dtype=np.int64)]
        for number, (line, loop) in enumerate(zip(points, flags, strict=True)):
            ring = np.concatenate([line, line[:1]]) if loop and len(line) > 2 else line
            starts.append(ring[:-1])
            ends.append(ring[1:])
            owners.append(np.full(max(len(ring) - 1, 0), number, dtype=np.int64))
        start, end, line_of = np.concatenate(starts), np.concatenate(ends), np.concatenate(owners)
        length = fpmath.norm3(end - start)
        keep = length > 0
        return cls(points, flags, start[keep], end[keep], length[keep], line_of[keep])

    @property
    def direction(self) -> np.ndarray:
        """The unit direction of every segment (M, 3)."""
        return (self.end - self.start) / self.length[:, None]

    def at(self, segment: np.ndarray, along: np.ndarray) -> np.ndarray:
        """World points (K, 3) ``along`` metres into segments ``segment``."""
        return self.start[segment] + self.direction[segment] * along[:, None]

    def line_lengths(self) -> np.ndarray:
        """The length of every line (0 for a line without segments)."""
        return np.bincount(self.line, weights=self.length, minlength=len(self.lines))

    def flat(self) -> CurvePath:
        """The path seen from above (z = 0): lengths and distances measured in xy."""
        return CurvePath.of([line * np.array([1.0, 1.0, 0.0]) for line in self.lines], self.closed)

    def shifted(self, offset: float) -> CurvePath:
        """The path moved sideways in xy by ``offset`` metres (positive: to the left of its direction), each
        corner on the bisector of its two segments, so straight stretches keep exactly that distance."""
        if offset == 0:
            return self
        return CurvePath.of([_shift(line, loop, offset) for line, loop in zip(self.lines, self.closed, strict=True)],
                            self.closed)


def _points(points: object, number: int) -> np.ndarray:
    array = np.asarray(points, dtype=np.float64)
    if array.ndim != 2 or array.shape[1] not in (2, 3):
        raise ValueError(f"curve line {number} needs (N, 3) points, got shape {array.shape}")
    if array.shape[1] == 2:
        array = np.concatenate([array, np.zeros((len(array), 1))], axis=1)
    if not np.isfinite(array).all() or (np.abs(array) > MAX_DISTANCE).any():
        raise ValueError(f"curve line {number} has points that are not finite or beyond {MAX_DISTANCE:g} m")
    return array


def _shift(points: np.ndarray, loop: bool, offset: float) -> np.ndarray:
    """One line's points moved ``offset`` to the left in xy, corners on the bisectors (a mitre of at most 4×)."""
    if len(points) < 2:
        return points
    ring = np.concatenate([points, points[:1]]) if loop else points
    step = ring[1:, :2] - ring[:-1, :2]
    size = np.hypot(step[:, 0], step[:, 1])
    step = step / np.where(size > 0, size, 1.0)[:, None]
    left = np.stack([-step[:, 1], step[:, 0]], axis=1)  # one per segment (zero for a vertical one)
    if loop:
        before, after = np.roll(left, 1, axis=0), left
    else:
        before = np.concatenate([left[:1], left])
        after = np.concatenate([left, left[-1:]])
    middle = before + after
    size = np.hypot(middle[:, 0], middle[:, 1])
    middle = np.where(size[:, None] > 1e-9, middle / np.where(size > 0, size, 1.0)[:, None], after)
    cosine = middle[:, 0] * after[:, 0] + middle[:, 1] * after[:, 1]
    moved = points.copy()
    moved[:, :2] += middle * (offset / np.maximum(cosine, 0.25))[:, None]
    return moved
