"""Random triangle soups and settings (hypothesis): never a conflict, never a fillable probe."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from surface_checks import conflicts, fillable, on_faces, surface_probes

from strew.core.surface import SurfaceSamples, SurfaceSettings, sample_surface, slope_between


@st.composite
def cases(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, SurfaceSettings, SurfaceSamples | None]:
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    count = draw(st.integers(1, 8))
    span = draw(st.floats(1.0, 8.0))
    vertices = rng.normal(size=(count * 3, 3)) * span
    triangles = np.arange(count * 3).reshape(count, 3)
    r_min = draw(st.floats(0.2, 1.0)) * span / 4
    ratio = draw(st.sampled_from([1.0, 1.0, 2.0]))
    radius_at = None
    if ratio > 1.0:
        def radius_at(p: np.ndarray) -> np.ndarray:
            return r_min * (1.0 + np.abs(np.sin(p[:, 0] / span * 3.0)))
    mask = slope_between(rng.normal(size=3), 0.0, draw(st.floats(0.5, 3.2))) if draw(st.booleans()) else None
    blockers = None
    if draw(st.booleans()):
        n = draw(st.integers(1, 10))
        blockers = SurfaceSamples(rng.normal(size=(n, 3)) * span, np.zeros((n, 3)), np.zeros(n, dtype=np.int64),
                                  rng.uniform(0.2, 2.0, n) * r_min)
    chosen = SurfaceSettings(r_min, r_min * ratio, radius_at=radius_at, is_allowed=mask,
                             seed=draw(st.integers(0, 2**31)))
    return vertices, triangles, chosen, blockers


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_random_soups(case: tuple[np.ndarray, np.ndarray, SurfaceSettings, SurfaceSamples | None]) -> None:
    v, f, chosen, blockers = case
    s = sample_surface(v, f, chosen, blockers=blockers)
    assert on_faces(v, f, s.positions, s.faces) < 1e-9 * max(1.0, float(np.abs(v).max()))
    both = None if blockers is None else (blockers.positions, blockers.radii)
    assert conflicts(s.positions, s.radii, both) == 0
    q, qf = surface_probes(v, f, 10_000, seed=1)
    rq = np.full(len(q), chosen.min_radius)
    if chosen.radius_at is not None:
        rq = np.clip(chosen.radius_at(q), chosen.min_radius, chosen.max_radius)
    a, b, c = (v[f[qf, k]] for k in range(3))
    n = np.cross(b - a, c - a)
    n /= np.linalg.norm(n, axis=1, keepdims=True)
    allowed = None if chosen.is_allowed is None else chosen.is_allowed(q, n)
    assert fillable(s.positions, s.radii, q, rq, allowed=allowed, blockers=both) == 0


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_two_ball_cover_is_sound(seed: int) -> None:
    """When the sampler drops a triangle as held by two balls, dense probes of it are all inside them."""
    from strew.core.surface._state import SurfaceState

    rng = np.random.default_rng(seed)
    tri = rng.normal(size=(1, 3, 3))
    centres = tri[0, rng.integers(0, 3, 2)] + rng.normal(size=(2, 3)) * 0.3
    r = float(np.linalg.norm(tri[0] - tri[0].mean(axis=0), axis=1).max()) * rng.uniform(0.6, 1.2)
    state = SurfaceState(SurfaceSettings(r, seed=0), np.zeros((1, 3)), 10.0, np.zeros((0, 3)), np.zeros(0))
    state.insert(centres, np.full(2, r), np.zeros(2, dtype=np.int64))
    d = tri[0][None] - centres[:, None]
    holds = ((d * d).sum(axis=2) < r * r)
    held = state._held_by_two(tri, np.zeros(2, dtype=np.int64), np.arange(2), holds)[0]
    if held:
        u = rng.random((4000, 2))
        u[u.sum(axis=1) > 1] = 1 - u[u.sum(axis=1) > 1]
        x = tri[0, 0] + u[:, :1] * (tri[0, 1] - tri[0, 0]) + u[:, 1:] * (tri[0, 2] - tri[0, 0])
        near = np.linalg.norm(x[:, None] - centres[None], axis=2).min(axis=1)
        assert (near < r).all()
