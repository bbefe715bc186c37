"""Poisson-disk guarantees checked by brute force (KD-tree over every pair, random probes)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from poisson_checks import check_basic, conflicts, fillable, river, wavy_radius

from strew.core.poisson import PoissonSettings, Samples, sample

METHODS = ("maximal", "bridson")


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("seed", [0, 7, 12345])
def test_constant_radius_has_no_conflict(method: str, seed: int) -> None:
    settings = PoissonSettings(size=(60.0, 40.0), min_radius=1.0, seed=seed, method=method)
    out = sample(settings)
    check_basic(out, settings)
    assert len(out.radii) > 1000
    assert (out.radii == 1.0).all()
    assert conflicts(out, settings) == 0


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_maximal_constant_radius_leaves_no_fillable_place(seed: int) -> None:
    settings = PoissonSettings(size=(70.0, 50.0), min_radius=1.0, seed=seed)
    out = sample(settings)
    assert conflicts(out, settings) == 0
    holes, allowed = fillable(out, settings, probes=200_000, seed=seed)
    assert allowed == 200_000
    assert holes == 0


def test_bridson_leaves_some_gaps_that_maximal_fills() -> None:
    bridson = PoissonSettings(size=(60.0, 60.0), min_radius=1.0, seed=5, method="bridson")
    maximal = dataclasses.replace(bridson, method="maximal")
    gaps, _ = fillable(sample(bridson), bridson, probes=50_000)
    assert gaps > 0
    assert fillable(sample(maximal), maximal, probes=50_000)[0] == 0
    assert len(sample(maximal).radii) > len(sample(bridson).radii)


@pytest.mark.parametrize("method", METHODS)
def test_variable_radius_follows_the_field_without_conflict(method: str) -> None:
    field = wavy_radius(0.8, 2.4)
    settings = PoissonSettings(
        size=(120.0, 90.0), min_radius=1.0, max_radius=2.0, radius_at=field, seed=3, method=method
    )
    out = sample(settings)
    check_basic(out, settings)
    assert conflicts(out, settings) == 0
    np.testing.assert_allclose(out.radii, np.clip(field(out.positions), 1.0, 2.0))
    assert out.radii.min() == 1.0 and out.radii.max() == 2.0  # the field is clamped at both ends
    if method == "maximal":
        holes, allowed = fillable(out, settings, probes=200_000)
        assert holes <= 1e-4 * allowed


@pytest.mark.parametrize("method", METHODS)
def test_river_mask_both_banks_get_points_up_to_the_shore(method: str) -> None:
    w, h, half = 90.0, 70.0, 6.0
    mask = river(w, h, half)
    settings = PoissonSettings(
        size=(w, h), min_radius=1.0, is_allowed=mask, seed=11, start_points=16, method=method
    )
    out = sample(settings)
    check_basic(out, settings)
    assert conflicts(out, settings) == 0
    assert mask(out.positions).all()
    centre = h * 0.5 + h * 0.08 * np.sin(out.positions[:, 0] * 6.0 / w)
    south, north = out.positions[:, 1] < centre, out.positions[:, 1] > centre
    assert south.sum() > 500 and north.sum() > 500
    shore = np.abs(np.abs(out.positions[:, 1] - centre) - half) < 0.5
    overall_density = len(out.radii) / (w * (h - 2 * half))
    assert shore.sum() / (2 * w * 0.5) > 0.5 * overall_density  # no empty strip along the banks
    if method == "maximal":
        holes, allowed = fillable(out, settings, probes=200_000)
        assert holes <= 1e-4 * allowed


def test_variable_radius_with_mask_is_maximal() -> None:
    settings = PoissonSettings(
        size=(200.0, 200.0),
        min_radius=3.0,
        max_radius=9.0,
        radius_at=wavy_radius(3.0, 9.0, 40.0),
        is_allowed=river(200.0, 200.0, 10.0),
        seed=8,
    )
    out = sample(settings)
    check_basic(out, settings)
    assert conflicts(out, settings) == 0
    holes, allowed = fillable(out, settings, probes=200_000)
    assert holes <= 1e-4 * allowed


def _blockers(size: tuple[float, float], radii: list[float], n: int, seed: int) -> Samples:
    rng = np.random.default_rng(seed)
    lo, hi = -3.0, 3.0
    positions = rng.uniform((lo, lo), (size[0] + hi, size[1] + hi), (n, 2))
    return Samples(positions=positions, radii=rng.choice(radii, n))


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("blocker_radii", [[0.3], [5.0], [0.2, 1.0, 4.0, 12.0]])
def test_blockers_of_any_radius_are_respected_and_not_returned(
    method: str, blocker_radii: list[float]
) -> None:
    settings = PoissonSettings(size=(60.0, 50.0), min_radius=1.0, seed=4, method=method, start_points=8)
    blockers = _blockers(settings.size, blocker_radii, 80, seed=9)
    out = sample(settings, blockers=blockers)
    check_basic(out, settings)
    assert conflicts(out, settings, blockers) == 0
    assert len(out.radii) > 20
    distance = np.linalg.norm(out.positions[:, None, :] - blockers.positions[None, :, :], axis=2)
    assert distance.min() > 0.0  # no blocker comes back
    if method == "maximal":
        assert fillable(out, settings, blockers, probes=200_000)[0] == 0


def test_small_blockers_are_dense_and_still_respected() -> None:
    """Blockers much smaller than min_radius (several per sampler cell) all keep their distance."""
    settings = PoissonSettings(
        size=(30.0, 30.0), min_radius=2.0, max_radius=3.0, radius_at=wavy_radius(2.0, 3.0, 5.0), seed=2
    )
    rng = np.random.default_rng(3)
    blockers = Samples(rng.random((3000, 2)) * 30.0, np.full(3000, 0.05))
    out = sample(settings, blockers)
    assert conflicts(out, settings, blockers) == 0
    holes, allowed = fillable(out, settings, blockers, probes=200_000)
    assert holes <= 1e-4 * allowed


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("variable", [False, True])
def test_tileable_wraps_and_3x3_copies_have_no_seam_conflict(method: str, variable: bool) -> None:
    w, h = 31.0, 23.0
    settings = PoissonSettings(
        size=(w, h),
        min_radius=1.0,
        max_radius=2.5 if variable else None,
        radius_at=wavy_radius(0.5, 3.0, 4.0) if variable else None,
        tileable=True,
        seed=6,
        method=method,
    )
    out = sample(settings)
    check_basic(out, settings)
    assert conflicts(out, settings) == 0  # periodic KD-tree: wrapped distances
    shifts = np.array([(i * w, j * h) for i in (-1, 0, 1) for j in (-1, 0, 1)])
    copies = Samples(
        (out.positions[None, :, :] + shifts[:, None, :]).reshape(-1, 2), np.tile(out.radii, len(shifts))
    )
    flat = dataclasses.replace(settings, tileable=False, size=(3 * w, 3 * h))
    assert conflicts(copies, flat) == 0
    seam = (out.positions[:, 0] < 1.0) | (out.positions[:, 0] > w - 1.0)
    assert seam.sum() > 5
    if method == "maximal":
        holes, allowed = fillable(out, settings, probes=200_000)
        assert holes <= (0 if not variable else 1e-4 * allowed)


@pytest.mark.parametrize("method", METHODS)
def test_same_settings_same_arrays_and_seed_changes_them(method: str) -> None:
    settings = PoissonSettings(
        size=(40.0, 30.0),
        min_radius=0.8,
        max_radius=1.6,
        radius_at=wavy_radius(0.8, 1.6, 6.0),
        is_allowed=river(40.0, 30.0, 2.0),
        seed=21,
        start_points=4,
        method=method,
    )
    a, b = sample(settings), sample(settings)
    np.testing.assert_array_equal(a.positions, b.positions)
    np.testing.assert_array_equal(a.radii, b.radii)
    c = sample(dataclasses.replace(settings, seed=22))
    assert len(c.radii) != len(a.radii) or not np.array_equal(c.positions, a.positions)


@pytest.mark.parametrize("method", METHODS)
def test_callables_see_arrays_of_candidates(method: str) -> None:
    calls: list[tuple[int, ...]] = []
    field = wavy_radius(1.0, 2.0, 5.0)

    def radius_at(xy: np.ndarray) -> np.ndarray:
        calls.append(xy.shape)
        return field(xy)

    def is_allowed(xy: np.ndarray) -> np.ndarray:
        calls.append(xy.shape)
        return xy[:, 0] > 3.0

    settings = PoissonSettings(
        size=(50.0, 50.0),
        min_radius=1.0,
        max_radius=2.0,
        radius_at=radius_at,
        is_allowed=is_allowed,
        seed=1,
        method=method,
    )
    out = sample(settings)
    assert all(len(shape) == 2 and shape[1] == 2 and shape[0] >= 1 for shape in calls)
    assert (out.positions[:, 0] > 3.0).all()
    rows = sum(shape[0] for shape in calls)
    assert rows / len(calls) > (10 if method == "maximal" else 2)  # batches, not one call per candidate


def test_empty_result_when_nothing_is_allowed() -> None:
    settings = PoissonSettings(size=(10.0, 10.0), min_radius=1.0, is_allowed=lambda xy: xy[:, 0] < -1.0)
    for method in METHODS:
        out = sample(dataclasses.replace(settings, method=method))
        assert out.positions.shape == (0, 2) and out.radii.shape == (0,)


def test_domain_smaller_than_a_cell_gets_one_point() -> None:
    out = sample(PoissonSettings(size=(0.3, 0.2), min_radius=1.0, seed=3))
    assert out.positions.shape == (1, 2)


@pytest.mark.parametrize("method", METHODS)
def test_blocked_neighbour_tests_give_the_same_points(method: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Neighbour tests run on blocks of candidates; the block size must not change the result."""
    import strew.core.poisson.state as state

    settings = PoissonSettings(
        size=(50.0, 40.0),
        min_radius=0.6,
        max_radius=1.5,
        radius_at=wavy_radius(0.6, 1.5, 6.0),
        is_allowed=river(50.0, 40.0, 2.0),
        seed=5,
        method=method,
    )
    whole = sample(settings)
    monkeypatch.setattr(state, "BLOCK", 37)
    blocked = sample(settings)
    np.testing.assert_array_equal(whole.positions, blocked.positions)
    np.testing.assert_array_equal(whole.radii, blocked.radii)


def test_wide_radius_range_is_still_exact() -> None:
    settings = PoissonSettings(
        size=(60.0, 60.0), min_radius=0.5, max_radius=5.0, radius_at=wavy_radius(0.4, 5.5, 12.0), seed=9
    )
    out = sample(settings)
    check_basic(out, settings)
    assert out.radii.min() == 0.5 and out.radii.max() == 5.0
    assert conflicts(out, settings) == 0
    holes, allowed = fillable(out, settings, probes=200_000)
    assert holes <= 1e-4 * allowed


@pytest.mark.parametrize("method", METHODS)
def test_white_noise_mask_terminates_and_is_respected(method: str) -> None:
    """A mask that flips on a scale far below the cell size cannot be resolved; sampling still ends."""

    def speckle(xy: np.ndarray) -> np.ndarray:
        k = np.floor(xy * 997.0).astype(np.int64)
        return ((k[:, 0] * 73856093) ^ (k[:, 1] * 19349663)) % 7 < 3

    settings = PoissonSettings(size=(20.0, 20.0), min_radius=0.5, is_allowed=speckle, seed=1, method=method)
    out = sample(settings)
    check_basic(out, settings)
    assert len(out.radii) > 100
    assert speckle(out.positions).all()
    assert conflicts(out, settings) == 0
