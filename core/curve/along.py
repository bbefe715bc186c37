"""Maximal Poisson-disk spacing along a curve, and posts at a fixed step.

:func:`maximal_along` places points on a :class:`~.path.CurvePath` so that no two are closer (straight-line
distance in the path's space) than the larger of their radii (or the sum, for radii that add up), and no place of
the curve is left where one more would fit. It keeps the *free set*, the places of the curve no placed point
forbids, as pieces (segment, from, to), exactly: a placed point's disk cuts each nearby segment in one interval
(a quadratic), removed from the pieces. Every round throws one dart per *run* of touching pieces, uniform over
the run's free length, at a random time; darts are kept in time order when they fit the points placed and the
earlier darts. On a straight line a run is one gap of sequential random adsorption and no dart can reach another
run, so the result has exactly the distribution of Rényi's car parking (0.7476 points per radius, maximal). A
radius that varies, radii that add up, or a mask leave places that only a dart can settle: a piece where a dart
failed is halved, and a half dies when its ends and middle are all forbidden, or when it is shorter than
:data:`SMALLEST_PIECE` of the least radius.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .. import fpmath
from ..hashing import hash_columns, unit_floats
from ..poisson import Samples
from ..surface._hash import PointHash, ReachHash, table_size

PointsFn = Callable[[np.ndarray], np.ndarray]

SMALLEST_PIECE = 2.0**-12  # of the least radius: a piece this short that a dart could not settle is dropped
PROBES = 5  # places per piece where the mask is read before sampling: a piece masked at all of them is dropped
MAX_ROUNDS = 400


@dataclass(frozen=True)
class AlongPoints:
    """Places on the path: ``segment`` and ``along`` (metres into it), their ``positions`` (K, 3) and radii."""

    segment: np.ndarray
    along: np.ndarray
    positions: np.ndarray
    radii: np.ndarray


@dataclass(frozen=True)
class Spacing:
    """How far apart: radii from ``least`` to ``largest`` (``radius_at`` of world points, None: ``least``
    everywhere), the larger counting or the two adding up (``summed``); ``allowed`` of world points (None: all)."""

    least: float
    largest: float
    radius_at: PointsFn | None = None
    allowed: PointsFn | None = None
    summed: bool = False

    def reach(self, mine: np.ndarray | float, theirs: np.ndarray | float) -> np.ndarray:
        """The distance two points with these radii keep."""
        return np.add(mine, theirs) if self.summed else np.maximum(mine, theirs)

    @property
    def exact(self) -> bool:
        """Every placed point's disk is exactly what it forbids (one radius, no mask)."""
        return self.radius_at is None and self.allowed is None and not self.summed


def _empty(path_dims: int = 3) -> AlongPoints:
    return AlongPoints(np.zeros(0, dtype=np.int64), np.zeros(0), np.zeros((0, path_dims)), np.zeros(0))


class _Pieces:
    """The free set: pieces (segment, lo, hi) of the path in path order, each in chunk ``chunk`` (a row of the
    call's chunk table, inherited by the parts of a piece)."""

    def __init__(self, segment: np.ndarray, lo: np.ndarray, hi: np.ndarray, chunk: np.ndarray) -> None:
        self.segment, self.lo, self.hi, self.chunk = segment, lo, hi, chunk

    def __len__(self) -> int:
        return len(self.segment)

    def take(self, keep: np.ndarray) -> _Pieces:
        return _Pieces(self.segment[keep], self.lo[keep], self.hi[keep], self.chunk[keep])

    @classmethod
    def ordered(cls, segment: np.ndarray, lo: np.ndarray, hi: np.ndarray, chunk: np.ndarray) -> _Pieces:
        order = np.lexsort((lo, segment))
        return cls(segment[order], lo[order], hi[order], chunk[order])

    def runs(self, path_line: np.ndarray, path_length: np.ndarray) -> np.ndarray:
        """The run (of touching pieces on one line) of every piece, numbered from 0."""
        if not len(self):
            return np.zeros(0, dtype=np.int64)
        seg = self.segment
        same = (seg[1:] == seg[:-1]) & (self.lo[1:] == self.hi[:-1])
        follows = ((seg[1:] == seg[:-1] + 1) & (path_line[seg[1:]] == path_line[seg[:-1]])
                   & (self.lo[1:] == 0.0) & (self.hi[:-1] == path_length[seg[:-1]]))
        joined = (same | follows) & (self.chunk[1:] == self.chunk[:-1])
        return np.concatenate([[0], np.cumsum(~joined)])


def _initial(path_length: np.ndarray, side: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every segment cut in pieces of at most ``side``: (segment, lo, hi)."""
    count = np.maximum(np.ceil(path_length / side).astype(np.int64), 1)
    segment = np.repeat(np.arange(len(path_length)), count)
    first = np.cumsum(count) - count
    index = np.arange(len(segment)) - np.repeat(first, count)
    step = (path_length / count)[segment]
    lo = index * step
    hi = np.where(index == count[segment] - 1, path_length[segment], (index + 1) * step)
    return segment, lo, hi


def _cut(pieces: _Pieces, piece: np.ndarray, lo: np.ndarray, hi: np.ndarray, tiny: float) -> _Pieces:
    """``pieces`` less the intervals ``(lo, hi)`` of pieces ``piece`` (several per piece allowed)."""
    order = np.lexsort((lo, piece))
    piece, lo, hi = piece[order], lo[order], hi[order]
    owner = np.arange(len(pieces))
    current = pieces
    rank = np.arange(len(piece)) - np.searchsorted(piece, piece, side="left")
    for k in range(int(np.max(rank)) + 1 if len(rank) else 0):
        mine = rank == k
        cut_of = np.full(len(pieces), -1)
        cut_of[piece[mine]] = np.flatnonzero(mine)
        which = cut_of[owner]
        has = which >= 0
        c_lo, c_hi = np.where(has, lo[which], np.inf), np.where(has, hi[which], -np.inf)
        left_hi = np.minimum(current.hi, c_lo)
        right_lo = np.maximum(current.lo, c_hi)
        left = left_hi - current.lo > tiny
        right = (current.hi - right_lo > tiny) & has
        left |= ~has & (current.hi - current.lo > tiny)
        segment = np.concatenate([current.segment[left], current.segment[right]])
        new_lo = np.concatenate([current.lo[left], right_lo[right]])
        new_hi = np.concatenate([np.where(has, left_hi, current.hi)[left], current.hi[right]])
        new_owner = np.concatenate([owner[left], owner[right]])
        order_new = np.lexsort((new_lo, segment))
        owner = new_owner[order_new]
        current = _Pieces(segment[order_new], new_lo[order_new], new_hi[order_new], pieces.chunk[owner])
    return current


class _Along:
    """One sampling call's state."""

    def __init__(self, start: np.ndarray, direction: np.ndarray, length: np.ndarray, line: np.ndarray,
                 spacing: Spacing, blockers: Samples | None, seed: int) -> None:
        self.start, self.direction, self.length, self.line = start, direction, length, line
        self.spacing = spacing
        self.seed = int(seed)
        self.chunks = np.zeros((1, 2), dtype=np.int64)  # the xy cells of the chunks pieces belong to
        self.tiny = spacing.least * 1e-9
        self.positions = np.zeros((0, 3))
        self.radii = np.zeros(0)
        self.segments = np.zeros(0, dtype=np.int64)
        self.alongs = np.zeros(0)
        self.blockers: ReachHash | None = None
        if blockers is not None and len(blockers.radii):
            self.blocker_xyz = _xyz(np.asarray(blockers.positions, dtype=np.float64))
            self.blocker_r = np.asarray(blockers.radii, dtype=np.float64)
            self.blockers = ReachHash(self.blocker_xyz, self.blocker_r, spacing.largest, spacing.summed)

    def points(self, segment: np.ndarray, along: np.ndarray) -> np.ndarray:
        return self.start[segment] + self.direction[segment] * along[:, None]

    def radius(self, xyz: np.ndarray) -> np.ndarray:
        fn = self.spacing.radius_at
        return np.full(len(xyz), self.spacing.least) if fn is None else np.asarray(fn(xyz), dtype=np.float64)

    def allowed(self, xyz: np.ndarray) -> np.ndarray:
        fn = self.spacing.allowed
        return np.ones(len(xyz), dtype=bool) if fn is None else np.asarray(fn(xyz), dtype=bool)

    def forbidding(self, xyz: np.ndarray, radius: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(place, point) for every blocker or placed point that forbids a place to a point of ``radius``; points
        are numbered blockers first, then the placed ones."""
        queries, sources = [np.zeros(0, dtype=np.int64)], [np.zeros(0, dtype=np.int64)]
        count = 0
        if self.blockers is not None:
            count = len(self.blocker_r)
            if len(xyz):
                query, ball = self.blockers.near(xyz)
                gap = _distance2(xyz[query], self.blocker_xyz[ball])
                reach = self.spacing.reach(radius[query], self.blocker_r[ball])
                hit = gap < reach * reach
                queries.append(query[hit])
                sources.append(ball[hit])
        if len(self.radii) and len(xyz):
            side = 2.0 * self.spacing.largest if self.spacing.summed else self.spacing.largest
            query, point = PointHash(self.positions, side, table_size(len(self.radii))).near(xyz)
            gap = _distance2(xyz[query], self.positions[point])
            reach = self.spacing.reach(radius[query], self.radii[point])
            hit = gap < reach * reach
            queries.append(query[hit])
            sources.append(point[hit] + count)
        return np.concatenate(queries), np.concatenate(sources)

    def blocked(self, xyz: np.ndarray, radius: np.ndarray) -> np.ndarray:
        """Which places a blocker or a placed point forbids for a point of ``radius``."""
        hit = np.zeros(len(xyz), dtype=bool)
        hit[self.forbidding(xyz, radius)[0]] = True
        return hit

    def covers(self, pieces: _Pieces, xyz: np.ndarray, reach: np.ndarray) -> _Pieces:
        """``pieces`` less what disks (``xyz``, ``reach``) hold of them, exactly (a disk cuts a segment in one
        interval)."""
        if not len(pieces) or not len(xyz):
            return pieces
        middle = self.points(pieces.segment, 0.5 * (pieces.lo + pieces.hi))
        half = 0.5 * float(np.max(pieces.hi - pieces.lo))
        side = float(np.max(reach)) + half
        table = PointHash(xyz, side, table_size(len(xyz)))
        piece, disk = table.near(middle)
        seg = pieces.segment[piece]
        offset = xyz[disk] - self.start[seg]
        direction = self.direction[seg]
        centre = offset[:, 0] * direction[:, 0] + offset[:, 1] * direction[:, 1] + offset[:, 2] * direction[:, 2]
        across2 = np.maximum(_norm2(offset) - centre * centre, 0.0)
        width2 = reach[disk] * reach[disk] - across2
        hits = width2 > 0
        width = np.sqrt(np.where(hits, width2, 0.0))
        lo, hi = centre - width, centre + width
        hits &= (hi > pieces.lo[piece]) & (lo < pieces.hi[piece])
        return _cut(pieces, piece[hits], lo[hits], hi[hits], self.tiny)

    def certain(self) -> float:
        """The least distance a placed point keeps from any other (its disk for every radius a dart can draw)."""
        return self.spacing.least

    def keep(self, segment: np.ndarray, along: np.ndarray, xyz: np.ndarray, radius: np.ndarray) -> None:
        self.segments = np.concatenate([self.segments, segment])
        self.alongs = np.concatenate([self.alongs, along])
        self.positions = np.concatenate([self.positions, xyz])
        self.radii = np.concatenate([self.radii, radius])


def _xyz(points: np.ndarray) -> np.ndarray:
    return points if points.shape[1] == 3 else np.concatenate([points, np.zeros((len(points), 1))], axis=1)


def _norm2(v: np.ndarray) -> np.ndarray:
    return v[:, 0] * v[:, 0] + v[:, 1] * v[:, 1] + v[:, 2] * v[:, 2]


def _distance2(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return _norm2(a - b)


def _in_time_order(xyz: np.ndarray, radius: np.ndarray, time: np.ndarray, spacing: Spacing) -> np.ndarray:
    """Which darts are kept when thrown one by one in ``time`` order, each kept when no earlier kept dart is
    closer than their reach."""
    count = len(xyz)
    kept = np.ones(count, dtype=bool)
    if count < 2:
        return kept
    side = 2.0 * spacing.largest if spacing.summed else spacing.largest
    query, other = PointHash(xyz, side, table_size(count)).near(xyz)
    reach = spacing.reach(radius[query], radius[other])
    close = (query != other) & (_distance2(xyz[query], xyz[other]) < reach * reach)
    query, other = query[close], other[close]
    earlier = (time[other] < time[query]) | ((time[other] == time[query]) & (other < query))
    query, other = query[earlier], other[earlier]  # (dart, an earlier dart it conflicts with)
    if not len(query):
        return kept
    state = np.zeros(count, dtype=np.int8)  # 0 undecided, 1 kept, -1 dropped
    state[np.setdiff1d(np.arange(count), query)] = 1
    while (state == 0).any():
        other_state = state[other]
        any_kept = np.zeros(count, dtype=bool)
        any_kept[query[other_state == 1]] = True
        any_open = np.zeros(count, dtype=bool)
        any_open[query[other_state == 0]] = True
        undecided = state == 0
        state[undecided & any_kept] = -1
        state[undecided & ~any_kept & ~any_open] = 1
    return state == 1


def maximal_along(path_start: np.ndarray, path_end: np.ndarray, path_line: np.ndarray, spacing: Spacing,
                  blockers: Samples | None = None, seed: int = 0, chunk: float | None = None) -> AlongPoints:
    """A maximal set of points on the segments ``path_start → path_end`` (one line each in ``path_line``,
    segments of one line in order), spaced by ``spacing``, keeping clear of ``blockers`` (x, y[, z] with the
    radius each keeps: the distance kept is the larger of that and a point's own, or their sum).

    With ``chunk`` (a side in metres, at least twice the farthest two points interact), the path is sampled in
    square xy chunks, in four phases so that chunks of one phase never interact, each with its own random
    numbers: the points then depend only on the path near them, and an edit of the path changes the result
    within a few chunks of it only."""
    start = np.asarray(path_start, dtype=np.float64)
    vector = np.asarray(path_end, dtype=np.float64) - start
    length = np.sqrt(_norm2(vector))
    if not len(length):
        return _empty()
    st = _Along(start, vector / length[:, None], length, np.asarray(path_line), spacing, blockers, seed)
    segment, lo, hi = _initial(length, spacing.least)
    cells = np.zeros((len(segment), 2), dtype=np.int64)
    if chunk is not None:
        middle = st.points(segment, 0.5 * (lo + hi))
        cells = np.floor(middle[:, :2] / float(chunk)).astype(np.int64)
    table, index = np.unique(cells, axis=0, return_inverse=True)
    st.chunks = table
    pieces = _Pieces(segment, lo, hi, index.reshape(-1).astype(np.int64))
    pieces = _unmasked(st, pieces)
    if st.blockers is not None:
        pieces = st.covers(pieces, st.blocker_xyz, st.spacing.reach(st.certain(), st.blocker_r))
    phase_of = (table[:, 0] & 1) + 2 * (table[:, 1] & 1) if chunk is not None else np.zeros(len(table), np.int64)
    for phase in range(4):
        for round_no in range(MAX_ROUNDS):
            active = phase_of[pieces.chunk] == phase
            if not active.any():
                break
            pieces = _round(st, pieces, active, phase * MAX_ROUNDS + round_no)
    order = np.lexsort((st.alongs, st.segments))  # in the curves' order
    return AlongPoints(st.segments[order], st.alongs[order], st.positions[order], st.radii[order])


def _unmasked(st: _Along, pieces: _Pieces) -> _Pieces:
    """The pieces where the mask allows at least one of :data:`PROBES` evenly spread places."""
    if st.spacing.allowed is None or not len(pieces):
        return pieces
    share = (np.arange(PROBES) + 0.5) / PROBES
    along = pieces.lo[:, None] + (pieces.hi - pieces.lo)[:, None] * share
    ok = st.allowed(st.points(np.repeat(pieces.segment, PROBES), along.ravel())).reshape(-1, PROBES)
    return pieces.take(ok.any(axis=1))


def _round(st: _Along, pieces: _Pieces, active: np.ndarray, round_no: int) -> _Pieces:
    """One dart per run of touching ``active`` pieces, at the first arrival of darts falling on its free length
    (uniform over it, each piece racing with an exponential time); darts kept in time order cut the free set, and
    pieces where a dart failed for its own reasons (mask, its radius) are halved. The random numbers of a piece
    hash its chunk, the round and its rank in the chunk, so a chunk's darts do not depend on other chunks."""
    mine = np.flatnonzero(active)
    part = pieces.take(active)
    run = part.runs(st.line, st.length)
    size = part.hi - part.lo
    order = np.argsort(part.chunk, kind="stable")
    rank = np.empty(len(part), dtype=np.int64)
    first = np.searchsorted(part.chunk[order], part.chunk[order], side="left")
    rank[order] = np.arange(len(part)) - first
    cell = st.chunks[part.chunk]
    bits = [hash_columns(st.seed, cell[:, 0], cell[:, 1], np.full(len(part), round_no), rank, np.full(len(part), k))
            for k in (1, 2)]
    wait = -fpmath.log(1.0 - unit_floats(bits[0])) / size  # the first dart on the piece, in time per metre
    run_first = np.flatnonzero(np.concatenate([[True], run[1:] != run[:-1]]))
    time = np.minimum.reduceat(wait, run_first)
    winner = np.flatnonzero(wait == time[run])
    winner = winner[np.concatenate([[True], run[winner][1:] != run[winner][:-1]])]  # the first of a tie
    piece = mine[winner]
    along = pieces.lo[piece] + unit_floats(bits[1][winner]) * (pieces.hi[piece] - pieces.lo[piece])
    segment = pieces.segment[piece]
    xyz = st.points(segment, along)
    radius = st.radius(xyz)
    fits = st.allowed(xyz)
    fits[fits] &= ~st.blocked(xyz[fits], radius[fits])
    own_fail = ~fits
    chosen = np.flatnonzero(fits)
    kept_local = _in_time_order(xyz[chosen], radius[chosen], time[chosen], st.spacing)
    kept = chosen[kept_local]
    st.keep(segment[kept], along[kept], xyz[kept], radius[kept])
    if not st.spacing.exact and own_fail.any():
        pieces = _refined(st, pieces, piece[own_fail])
    return st.covers(pieces, xyz[kept], st.spacing.reach(st.certain(), radius[kept]))


def _refined(st: _Along, pieces: _Pieces, failed: np.ndarray) -> _Pieces:
    """Pieces ``failed`` (a dart there failed for its own reasons) halved; a half dies when its ends and middle
    are all forbidden (masked, or too close to a placed point for the radius drawn there) or when it is shorter
    than :data:`SMALLEST_PIECE` of the least radius."""
    hit = np.zeros(len(pieces), dtype=bool)
    hit[failed] = True
    stay, split = pieces.take(~hit), pieces.take(hit)
    middle = 0.5 * (split.lo + split.hi)
    halves = _Pieces(np.concatenate([split.segment, split.segment]), np.concatenate([split.lo, middle]),
                     np.concatenate([middle, split.hi]), np.concatenate([split.chunk, split.chunk]))
    halves = halves.take(halves.hi - halves.lo > SMALLEST_PIECE * st.spacing.least)
    if len(halves):
        halves = halves.take(~_settled(st, halves))
    return _Pieces.ordered(np.concatenate([stay.segment, halves.segment]), np.concatenate([stay.lo, halves.lo]),
                           np.concatenate([stay.hi, halves.hi]), np.concatenate([stay.chunk, halves.chunk]))


def _settled(st: _Along, halves: _Pieces) -> np.ndarray:
    """Halves where no point can go: masked at both ends and the middle, or one point forbids both ends and the
    middle (a disk holds an interval of a segment, so it holds the half between; a radius that varies is read
    at those three places)."""
    count = len(halves)
    at = halves.lo[:, None] + (halves.hi - halves.lo)[:, None] * np.array([0.0, 0.5, 1.0])
    xyz = st.points(np.repeat(halves.segment, 3), at.ravel())
    allowed = st.allowed(xyz).reshape(-1, 3)
    masked = ~allowed.any(axis=1)
    place, point = st.forbidding(xyz, st.radius(xyz))
    total = len(st.radii) + (0 if st.blockers is None else len(st.blocker_r)) + 1
    half, corner = place // 3, place % 3
    keys = [np.unique(half[corner == k] * total + point[corner == k]) for k in range(3)]
    held = np.intersect1d(np.intersect1d(keys[0], keys[1], assume_unique=True), keys[2], assume_unique=True)
    dead = masked.copy()
    dead[(held // total).astype(np.int64)] = True
    return dead[:count]


def fixed_step(line_lengths: np.ndarray, closed: tuple[bool, ...], step: float, jitter: float, seed: int,
               ) -> tuple[np.ndarray, np.ndarray]:
    """Posts every ``step`` metres along each line: (line, distance from the line's start) of each. An open line
    gets a post at both ends (its last span may be shorter); a closed one the step nearest ``step`` that goes
    round it evenly. ``jitter`` (a share of the step, 0 … 1) moves each post along the line by up to half that
    either way, from a generator seeded by ``seed`` (0: exact posts)."""
    if not step > 0:
        raise ValueError(f"step must be above 0, got {step!r}")
    if not 0 <= jitter <= 1:
        raise ValueError(f"jitter must be from 0 to 1, got {jitter!r}")
    lines, places = [], []
    for number, (total, loop) in enumerate(zip(line_lengths, closed, strict=True)):
        if total <= 0:
            continue
        if loop:
            count = max(1, round(total / step))
            at = np.arange(count) * (total / count)
        else:
            count = int(np.floor(total / step * (1 + 1e-12)))
            at = np.arange(count + 1) * step
            if total - at[-1] > step * 1e-9:
                at = np.concatenate([at, [total]])
        lines.append(np.full(len(at), number, dtype=np.int64))
        places.append(at)
    line = np.concatenate(lines) if lines else np.zeros(0, dtype=np.int64)
    along = np.concatenate(places) if places else np.zeros(0)
    if jitter > 0 and len(along):
        post = np.arange(len(along)) - np.searchsorted(line, line, side="left")
        shift = unit_floats(hash_columns(seed, line, post, np.full(len(along), 3))) - 0.5
        along = along + shift * jitter * step
        totals = np.asarray(line_lengths, dtype=np.float64)[line]
        loops = np.asarray(closed, dtype=bool)[line]
        along = np.where(loops, np.mod(along, totals), np.clip(along, 0.0, totals))
    return line, along
