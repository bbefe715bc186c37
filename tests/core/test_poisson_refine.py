"""The refinement's shortcuts (shared box corners, whole-box mask tests) against brute force."""

from __future__ import annotations

import numpy as np
import pytest
from poisson_checks import check_basic, conflicts, fillable, wavy_radius

from strew.core.poisson import PoissonSettings, sample
from strew.core.poisson.cover import split_cover_reach
from strew.core.poisson.prune import any_cell_allowed, corner_values, prune_boxes
from strew.core.poisson.state import SamplerState


def _state(settings: PoissonSettings) -> SamplerState:
    return SamplerState(settings, np.zeros((0, 2)), np.zeros(0))


def _field(xy: np.ndarray) -> np.ndarray:
    return np.sin(xy[:, 0] * 0.37) + np.cos(xy[:, 1] * 0.23) * xy[:, 0]


@pytest.mark.parametrize("dense", [True, False])
def test_shared_corner_values_match_corner_by_corner(dense: bool) -> None:
    """Dense boxes go through the corner lattice, sparse ones corner by corner: same values either way."""
    st = _state(PoissonSettings(size=(30.0, 20.0), min_radius=1.0))
    bw, bh = 0.25 * st.sx, 0.25 * st.sy
    if dense:  # a block of neighbouring boxes, in shuffled order, out to the far edges of the rectangle
        kx, ky = (a.ravel() for a in np.meshgrid(np.arange(4 * st.cols - 40, 4 * st.cols), np.arange(4 * st.rows)))
        order = np.random.default_rng(3).permutation(kx.size)
        kx, ky = kx[order], ky[order]
    else:
        kx, ky = np.array([3, 90, 17, 4 * st.cols - 1]), np.array([0, 40, 4 * st.rows - 1, 9])
    x0, y0 = kx * bw, ky * bh
    calls = []

    def fn(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        calls.append(x.size)
        return _field(np.column_stack((x, y)))

    got = corner_values(st, fn, x0, y0, bw, bh)
    px = np.minimum(np.stack((x0, x0 + bw, x0, x0 + bw)), np.nextafter(st.w, 0.0))
    py = np.minimum(np.stack((y0, y0, y0 + bh, y0 + bh)), np.nextafter(st.h, 0.0))
    want = _field(np.column_stack((px.ravel(), py.ravel()))).reshape(4, -1)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    assert (sum(calls) < 4 * kx.size) == dense  # shared corners are asked for once


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_whole_box_mask_test_keeps_exactly_the_boxes_with_a_live_cell(seed: int) -> None:
    """A box of several cells is kept exactly when one of its cells has an allowed corner or centre."""
    rng = np.random.default_rng(seed)
    centres = rng.uniform(0.0, 40.0, (12, 2))

    def is_allowed(xy: np.ndarray) -> np.ndarray:
        d2 = ((xy[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2)
        return d2.min(axis=1) < 1.1**2

    st = _state(PoissonSettings(size=(40.0, 37.0), min_radius=1.0, is_allowed=is_allowed))
    for cells in (2, 4):
        ix, iy = (a.ravel() for a in np.meshgrid(np.arange(0, st.cols, cells), np.arange(0, st.rows, cells)))
        boxes = (ix * st.sx, iy * st.sy, st.cell_ids(ix, iy))
        got = any_cell_allowed(st, boxes, cells)
        want = np.zeros(ix.size, dtype=bool)
        for k in range(ix.size):
            cx = np.arange(ix[k], min(ix[k] + cells, st.cols))
            cy = np.arange(iy[k], min(iy[k] + cells, st.rows))
            gx, gy = (a.ravel() for a in np.meshgrid(cx, cy))
            samples = [((gx + a) * st.sx, (gy + b) * st.sy) for a in (0.0, 1.0) for b in (0.0, 1.0)]
            samples.append(((gx + 0.5) * st.sx, (gy + 0.5) * st.sy))
            xy = np.concatenate([np.column_stack(s) for s in samples])
            xy = np.minimum(xy, np.nextafter(np.array([st.w, st.h]), 0.0))
            want[k] = is_allowed(xy).any()
        np.testing.assert_array_equal(got, want)
        assert want.any() and not want.all()


@pytest.mark.parametrize("seed", [4, 5])
def test_islands_smaller_than_a_start_box_all_get_points(seed: int) -> None:
    """Variable radius starts on boxes of several cells and drops masked-out boxes before splitting them:
    islands much smaller than such a box (but larger than a cell) must still be found and filled."""
    rng = np.random.default_rng(seed)
    centres = rng.uniform(5.0, 115.0, (40, 2))
    keep = np.ones(len(centres), dtype=bool)
    for i in range(len(centres)):  # islands well apart
        keep[i] = np.hypot(*(centres[:i][keep[:i]] - centres[i]).T).min(initial=np.inf) > 14.0
    centres = centres[keep]

    def is_allowed(xy: np.ndarray) -> np.ndarray:
        d2 = ((xy[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2)
        return d2.min(axis=1) < 2.5**2

    settings = PoissonSettings(
        size=(120.0, 120.0),
        min_radius=2.0,
        max_radius=6.0,
        radius_at=wavy_radius(2.0, 6.0, 20.0),
        is_allowed=is_allowed,
        seed=seed,
    )
    out = sample(settings)
    check_basic(out, settings)
    assert is_allowed(out.positions).all()
    assert conflicts(out, settings) == 0
    near = np.hypot(*(out.positions[:, None, :] - centres[None, :, :]).transpose(2, 0, 1)) < 2.5
    assert near.any(axis=0).all()  # every island holds a point
    holes, allowed = fillable(out, settings, probes=200_000)
    assert allowed > 0 and holes <= 1e-4 * allowed


@pytest.mark.parametrize("tileable", [False, True])
def test_split_cover_near_then_far_matches_brute_force(tileable: bool) -> None:
    """Wide window (variable radius): the near cells are read first and the far cells only for parents
    with a child still uncovered. Children's cover (and the reach of uncovered children) must match every
    placed point, one by one."""
    settings = PoissonSettings(
        size=(60.0, 48.0), min_radius=1.0, max_radius=3.5, radius_at=wavy_radius(1.0, 3.5), seed=3, tileable=tileable
    )
    placed = sample(settings)
    st = _state(settings)
    assert st.far is not None  # the two-pass path is the one under test
    rng = np.random.default_rng(7)
    keep = rng.random(placed.radii.size) < 0.4  # a thinned set: boxes both covered and free
    x, y, radii = placed.positions[keep, 0], placed.positions[keep, 1], placed.radii[keep]
    st.insert(x, y, radii, st.cell_of(x, y))
    empty = np.flatnonzero(st.slots[st.all_cells()] < 0)
    ids = st.all_cells()[rng.choice(empty, 300, replace=False)]
    ix, iy = st.cell_xy(ids)
    cap = st.max_radius * st.max_radius
    for depth in (0, 1, 3):  # parents of a cell, half a cell, 1/8 of a cell, somewhere inside their cell
        bw, bh = st.sx / 2**depth, st.sy / 2**depth
        kx, ky = rng.integers(0, 2**depth, (2, ids.size))
        x0, y0 = ix * st.sx + kx * bw, iy * st.sy + ky * bh
        covered, reach2 = split_cover_reach(st, x0, y0, ids, bw, bh, True)
        assert reach2 is not None
        for k, (ox, oy) in enumerate(((0, 0), (1, 0), (0, 1), (1, 1))):
            cx, cy = x0 + (ox + 0.5) * 0.5 * bw, y0 + (oy + 0.5) * 0.5 * bh
            dx, dy = np.abs(cx[:, None] - x[None, :]), np.abs(cy[:, None] - y[None, :])
            if tileable:
                dx, dy = np.minimum(dx, st.w - dx), np.minimum(dy, st.h - dy)
            far2 = (dx + 0.25 * bw) ** 2 + (dy + 0.25 * bh) ** 2
            np.testing.assert_array_equal(covered[k], (far2 < radii[None, :] ** 2).any(axis=1))
            live = ~covered[k]  # a covered child is dropped: its reach is not needed (nor always complete)
            want = np.minimum(far2.min(axis=1), cap)[live]
            np.testing.assert_allclose(np.minimum(reach2[k, live], cap), want, rtol=1e-12)
        assert covered.any() and not covered.all()


@pytest.mark.parametrize("tileable", [False, True])
def test_dart_test_near_then_far_matches_brute_force(tileable: bool) -> None:
    """Variable-radius darts test the near cells first (cover and nearest distance), then the far cells
    once their radius is known: together a dart is rejected exactly when a placed point is closer than
    the larger of the two radii."""
    radius_at = wavy_radius(1.0, 3.5)
    settings = PoissonSettings(
        size=(60.0, 48.0), min_radius=1.0, max_radius=3.5, radius_at=radius_at, seed=4, tileable=tileable
    )
    placed = sample(settings)
    st = _state(settings)
    rng = np.random.default_rng(8)
    keep = rng.random(placed.radii.size) < 0.4
    px, py, pr = placed.positions[keep, 0], placed.positions[keep, 1], placed.radii[keep]
    st.insert(px, py, pr, st.cell_of(px, py))
    x, y = rng.uniform(0.0, 60.0, 2000), rng.uniform(0.0, 48.0, 2000)
    ids = st.cell_of(x, y)
    r = st.radius(x, y)
    covered, near2 = st.covered_nearest_near(x, y, ids)
    got = covered | (r * r > near2) | st.far_conflicts(x, y, r, ids)
    dx, dy = np.abs(x[:, None] - px[None, :]), np.abs(y[:, None] - py[None, :])
    if tileable:
        dx, dy = np.minimum(dx, st.w - dx), np.minimum(dy, st.h - dy)
    want = (dx * dx + dy * dy < np.maximum(r[:, None], pr[None, :]) ** 2).any(axis=1)
    np.testing.assert_array_equal(got, want)
    assert want.any() and not want.all()
    near_only = covered | (r * r > near2)
    assert (want & ~near_only).any()  # some darts are only caught by the far cells


@pytest.mark.parametrize("seed", [0, 1])
def test_pruning_with_known_corner_values_keeps_the_same_boxes(seed: int) -> None:
    """A mask or radius value known at one corner of a box (its parent's centre) saves calls but never
    changes which boxes survive; the values returned for the box centres are the callables' own."""
    rng = np.random.default_rng(seed)
    radius_at = wavy_radius(1.0, 3.5)
    centres = rng.uniform(0.0, 60.0, (30, 2))

    def is_allowed(xy: np.ndarray) -> np.ndarray:
        return ((xy[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2).min(axis=1) > 4.0**2

    asked = []

    def counted(fn):
        def run(xy: np.ndarray) -> np.ndarray:
            asked.append(len(xy))
            return fn(xy)
        return run

    settings = PoissonSettings(size=(60.0, 48.0), min_radius=1.0, max_radius=3.5, radius_at=counted(radius_at),
                               is_allowed=counted(is_allowed), seed=seed)
    placed = sample(settings)
    st = _state(settings)
    keep = rng.random(placed.radii.size) < 0.4  # a thinned set: boxes both free and within reach
    x, y, radii = placed.positions[keep, 0], placed.positions[keep, 1], placed.radii[keep]
    st.insert(x, y, radii, st.cell_of(x, y))
    ids = st.all_cells()[st.slots[st.all_cells()] < 0]
    ix, iy = st.cell_xy(ids)
    bw, bh = 0.25 * st.sx, 0.25 * st.sy
    kx, ky = rng.integers(0, 4, (2, ids.size))
    boxes = (ix * st.sx + kx * bw, iy * st.sy + ky * bh, ids)
    cx, cy = boxes[0] + 0.5 * bw, boxes[1] + 0.5 * bh
    dx, dy = np.abs(cx[:, None] - x[None, :]), np.abs(cy[:, None] - y[None, :])
    reach2 = ((dx + 0.5 * bw) ** 2 + (dy + 0.5 * bh) ** 2).min(axis=1)
    asked.clear()
    plain, centre = prune_boxes(st, boxes, bw, bh, 1, True, reach2)
    plain_calls = sum(asked)
    corner = rng.integers(0, 4, ids.size)  # one corner per box whose values are known
    px, py = boxes[0] + (corner % 2) * bw, boxes[1] + (corner // 2) * bh
    xy = np.column_stack((px, py))
    hint = (is_allowed(xy), np.clip(radius_at(xy), 1.0, 3.5))
    asked.clear()
    hinted, hinted_centre = prune_boxes(st, boxes, bw, bh, 1, True, reach2, hint)
    for a, b in zip(plain, hinted, strict=True):
        np.testing.assert_array_equal(a, b)
    assert sum(asked) < 0.9 * plain_calls
    assert 0 < plain[0].size < ids.size
    for ok, r in (centre, hinted_centre):
        mid = np.column_stack((plain[0] + 0.5 * bw, plain[1] + 0.5 * bh))
        assert ok.any() and (~ok | is_allowed(mid)).all()  # allowed where said so
        known = np.isfinite(r)
        assert known.any()
        np.testing.assert_allclose(r[known], np.clip(radius_at(mid[known]), 1.0, 3.5), rtol=1e-12)
