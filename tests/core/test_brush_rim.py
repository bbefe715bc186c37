"""Re-sampling a region keeps the whole set maximal across its rim, and changes nothing beyond the rim's band.

A maximal set is sampled, then regions are removed and filled again (:func:`fill` with :func:`rim_band`), several
in a row and overlapping. Every check is brute force on the result: each pair's distance, probes on a dense grid
and on rings about the rim (inside and out) where one more point would fit, and which points moved.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial import cKDTree

from strew.core.brush import Box, Circle, fill, rim_band
from strew.core.hashing import Stream, hash_uniform
from strew.core.poisson import PoissonSettings, Samples, sample
from strew.core.poisson.maximal import APPROX_SIDE, APPROX_SIDE_SUMMED

W, H = 36.0, 30.0
GROUND = (np.array([0.0, 0.0]), np.array([W, H]))


def _outside(xy: np.ndarray, region: Box | Circle) -> np.ndarray:
    """How far each place lies outside the region (0 inside), from the region's corners or centre."""
    if isinstance(region, Circle):
        return np.maximum(np.hypot(*(xy - region.centre).T) - region.radius, 0.0)
    low, high = region.low, region.high
    return np.hypot(*np.maximum(np.maximum(low - xy, xy - high), 0.0).T)


def _conflicts(points: Samples, summed: bool) -> int:
    """Pairs closer than the spacing: the larger radius, or the sum when radii add up."""
    xy, r = points.positions, points.radii
    pairs = cKDTree(xy).query_pairs(2.0 * float(r.max()), output_type="ndarray")
    d = np.hypot(*(xy[pairs[:, 0]] - xy[pairs[:, 1]]).T)
    a, b = r[pairs[:, 0]], r[pairs[:, 1]]
    return int((d < (a + b if summed else np.maximum(a, b))).sum())


def _resolution(case: Case) -> float:
    """The diagonal of the sampler's finest refinement box for the layer (a cell is the closest distance over
    sqrt 2): a sliver narrower than that may stay free, by design (``core/poisson/maximal.py``), so a probe
    counts as free only where a point that much larger fits."""
    summed = case[4] == "sum"
    cell = (2.0 * case[0] if summed else case[0]) / math.sqrt(2.0)
    return (APPROX_SIDE_SUMMED if summed else APPROX_SIDE) * cell * math.sqrt(2.0)


def _free(points: Samples, probes: np.ndarray, own: np.ndarray, summed: bool) -> np.ndarray:
    """The probes (radius ``own`` each) that no point holds off: where one more point would fit."""
    reach = float(own.max()) + float(points.radii.max())
    pairs = cKDTree(probes).sparse_distance_matrix(cKDTree(points.positions), reach, output_type="ndarray")
    a, b = own[pairs["i"]], points.radii[pairs["j"]]
    held = np.zeros(len(probes), dtype=bool)
    held[pairs["i"][pairs["v"] < (a + b if summed else np.maximum(a, b))]] = True
    return ~held


def _grid(step: float) -> np.ndarray:
    xs, ys = np.arange(0.5 * step, W, step), np.arange(0.5 * step, H, step)
    gx, gy = np.meshgrid(xs, ys, indexing="ij")
    return np.column_stack([gx.ravel(), gy.ravel()])


def _rings(region: Box | Circle, reach: float, step: float) -> np.ndarray:
    """Places at several distances about the rim, inside and out (up to ``reach`` out)."""
    rng = np.random.default_rng(0)
    if isinstance(region, Circle):
        near = rng.uniform(-reach, reach, 20_000) + region.radius
        angle = rng.uniform(0.0, 2.0 * math.pi, 20_000)
        xy = region.centre + np.column_stack([np.cos(angle), np.sin(angle)]) * np.abs(near)[:, None]
    else:
        xy = rng.uniform(region.low - reach, region.high + reach, (40_000, 2))
        inner = np.minimum(xy - region.low, region.high - xy).min(axis=1)
        xy = xy[(_outside(xy, region) > 0) | (inner < reach)]
    ring_steps = np.arange(-2.0, reach + step, step)
    if isinstance(region, Circle):
        t = np.linspace(0.0, 2.0 * math.pi, 720, endpoint=False)
        extra = [region.centre + (region.radius + s) * np.column_stack([np.cos(t), np.sin(t)])
                 for s in ring_steps if region.radius + s > 0]
        xy = np.concatenate([xy, *extra])
    inside = ((xy >= 0.0) & (xy < (W, H))).all(axis=1)
    return xy[inside]


Case = tuple[float, float, object, object, str]


def _case(kind: str) -> Case:
    """(least radius, largest, radius_at, is_allowed, conflict) of a layer."""
    if kind == "constant":
        return 0.8, 0.8, None, None, "larger"
    if kind == "variable":
        return 0.5, 1.4, lambda xy: 0.95 + 0.45 * np.sin(xy[:, 0] / 4.0) * np.cos(xy[:, 1] / 5.0), None, "larger"
    if kind == "masked":
        def pond(xy: np.ndarray) -> np.ndarray:
            return np.hypot(xy[:, 0] - 18.0, xy[:, 1] - 14.0) > 4.0
        return 0.5, 1.2, lambda xy: 0.85 + 0.35 * np.sin(xy[:, 1] / 3.0), pond, "larger"

    def sizes(xy: np.ndarray) -> np.ndarray:  # objects of two sizes drawn per place, plus half a varying gap
        big = hash_uniform(xy, 5, Stream.RANDOM) < 0.3
        return np.where(big, 1.1, 0.3) + 0.5 * (0.5 + 0.3 * np.sin(xy[:, 0] / 6.0))

    return 0.4, 1.5, sizes, None, "sum"


def _probe_radius(case: Case, xy: np.ndarray) -> np.ndarray:
    low, high, radius_at = case[0], case[1], case[2]
    return np.full(len(xy), low) if radius_at is None else np.clip(radius_at(xy), low, high)


def _allowed(case: Case, xy: np.ndarray) -> np.ndarray:
    return xy[case[3](xy)] if case[3] is not None else xy


def _rescatter(points: Samples, region: Box | Circle, case: Case, seed: int, band: bool = True) -> Samples:
    low, high, radius_at, is_allowed, conflict = case
    gone = region.contains(points.positions)
    width = rim_band(high, points.radii[gone], conflict) if band else 0.0
    kept = Samples(points.positions[~gone], points.radii[~gone])
    new = fill(kept, region, low, high, radius_at, is_allowed, seed, conflict, within=GROUND, band=width)
    return Samples(np.concatenate([kept.positions, new.positions]), np.concatenate([kept.radii, new.radii]))


def _start(case: Case, seed: int) -> Samples:
    low, high, radius_at, is_allowed, conflict = case
    return sample(PoissonSettings(size=(W, H), min_radius=low, max_radius=high, radius_at=radius_at,
                                  is_allowed=is_allowed, seed=seed, conflict=conflict))


def _check(before: Samples, after: Samples, region: Box | Circle, case: Case) -> None:
    """No conflict; no free place on the grid or about the rim; every point outside the region kept; new ones
    only in the region or within the band the removed points' spacing reached."""
    summed = case[4] == "sum"
    assert _conflicts(after, summed) == 0
    probes = _allowed(case, np.concatenate([_grid(case[0] / 3.0), _rings(region, 2.0 * case[1] + 1.0, 0.1)]))
    free = _free(after, probes, _probe_radius(case, probes) + _resolution(case), summed)
    assert not free.any(), f"{free.sum()} places where one more point fits, e.g. {probes[free][:3].tolist()}"
    out = _outside(before.positions, region) > 0
    kept = {p.tobytes() for p in before.positions[out]}
    assert kept <= {p.tobytes() for p in after.positions}, "a point outside the region moved or went"
    added = np.array([p.tobytes() not in kept for p in after.positions])
    gone = before.radii[~out]
    reach = float(max(case[1], gone.max(initial=0.0)))
    band = case[1] + reach if summed else reach
    assert (_outside(after.positions[added], region) <= band + 1e-9).all()


REGIONS = [Box((6.0, 5.0), (15.0, 19.0)), Circle((20.0, 15.0), 6.5), Box((13.0, 0.0), (30.0, 9.0)),
           Circle((4.0, 26.0), 5.0), Box((17.0, 12.0), (26.0, 24.0))]


@pytest.mark.parametrize("kind", ["constant", "variable", "masked", "sum"])
@pytest.mark.parametrize("seed", [1, 7, 2024])
def test_five_overlapping_rescatters_keep_the_set_maximal_and_the_outside(kind: str, seed: int) -> None:
    case = _case(kind)
    points = _start(case, seed)
    for k, region in enumerate(REGIONS):
        after = _rescatter(points, region, case, 1000 * seed + k)
        _check(points, after, region, case)
        points = after


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), x=st.floats(-5.0, 35.0), y=st.floats(-5.0, 30.0),
       width=st.floats(0.05, 20.0), depth=st.floats(0.05, 20.0), circle=st.booleans(),
       kind=st.sampled_from(["constant", "variable", "masked", "sum"]))
def test_any_region_keeps_the_set_maximal(seed: int, x: float, y: float, width: float, depth: float, circle: bool,
                                          kind: str) -> None:
    case = _case(kind)
    region: Box | Circle = Circle((x, y), 0.5 * width) if circle else Box((x, y), (x + width, y + depth))
    points = _start(case, seed % 1000)
    _check(points, _rescatter(points, region, case, seed), region, case)


def test_without_the_band_the_rim_keeps_holes() -> None:
    """The check above can fail: filling the region alone leaves places by the rim where one more point fits."""
    case = _case("variable")
    holes = 0
    for seed in (1, 7, 2024):
        points = _start(case, seed)
        for k, region in enumerate(REGIONS[:2]):
            after = _rescatter(points, region, case, 1000 * seed + k, band=False)
            probes = _rings(region, 2.0, 0.05)
            holes += int(_free(after, probes, _probe_radius(case, probes), False).sum())
            points = after
    assert holes > 0


@pytest.mark.parametrize("kind", ["variable", "sum"])
def test_the_same_edits_give_the_same_bytes_and_the_same_seed_again_changes_nothing(kind: str) -> None:
    case = _case(kind)

    def edits() -> Samples:
        points = _start(case, 3)
        for k, region in enumerate(REGIONS):
            points = _rescatter(points, region, case, 50 + k)
        return points

    a, b = edits(), edits()
    assert a.positions.tobytes() == b.positions.tobytes() and a.radii.tobytes() == b.radii.tobytes()
    again = _rescatter(a, REGIONS[-1], case, 50 + len(REGIONS) - 1)
    assert {p.tobytes() for p in again.positions} == {p.tobytes() for p in a.positions}


def test_the_band_is_the_reach_of_the_removed_spacing() -> None:
    assert rim_band(1.0, np.array([0.5, 0.8])) == 1.0
    assert rim_band(1.0, np.array([0.5, 2.5])) == 2.5  # points of an older, wider spacing reached farther
    assert rim_band(1.0, np.zeros(0)) == 1.0
    assert rim_band(1.0, np.array([0.7]), "sum") == 2.0
    assert rim_band(1.0, np.array([1.6]), "sum") == 2.6
    with pytest.raises(ValueError, match="band"):
        fill(None, Box((0.0, 0.0), (1.0, 1.0)), 0.5, band=-1.0)
    with pytest.raises(ValueError, match="band"):
        fill(None, Box((0.0, 0.0), (1.0, 1.0)), 0.5, band=math.inf)


def test_a_band_adds_nothing_where_the_set_already_holds_every_place() -> None:
    """Filling only the band (a region already full) adds nothing: the band never crowds what is there."""
    case = _case("variable")
    points = _start(case, 5)
    region = Box((10.0, 10.0), (20.0, 20.0))
    new = fill(points, region, case[0], case[1], case[2], None, 9, within=GROUND, band=rim_band(case[1], points.radii))
    assert len(new.radii) == 0
