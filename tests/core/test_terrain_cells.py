"""The grid cells that settle mask queries without a ray: checked against a ray per point, on meshes with
holes, folds, stacked sheets, seams, non-manifold edges and huge triangles."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from terrain_reference import grid_mesh

from strew.core.terrain import TerrainLookup
from strew.core.terrain.cells import _outline_edges


def per_ray(lookup: TerrainLookup, xy: np.ndarray, min_up: float | None, heights: tuple[float, float] | None
            ) -> np.ndarray:
    """The answer of one ray per point, from :meth:`TerrainLookup.sample`."""
    hit = lookup.sample(xy)
    ok = hit.mask.copy()
    with np.errstate(invalid="ignore"):
        if min_up is not None:
            ok &= hit.normal[:, 2] >= min_up
        if heights is not None:
            ok &= (hit.z >= heights[0]) & (hit.z <= heights[1])
    return ok


def cell_corners(lookup: TerrainLookup, per_side: int = 4) -> np.ndarray:
    """A lattice over every grid cell with its corners and edges (where rounding picks a neighbour's cell)."""
    grid = lookup._tables.grid
    nx, ny = int(grid.shape[0]), int(grid.shape[1])
    cell = 1.0 / grid.inv_cell
    xs = grid.origin[0] + np.linspace(0.0, nx, nx * per_side + 1) * cell[0]
    ys = grid.origin[1] + np.linspace(0.0, ny, ny * per_side + 1) * cell[1]
    gx, gy = np.meshgrid(xs, ys)
    return np.column_stack((gx.ravel(), gy.ravel()))


def probes(lookup: TerrainLookup, rng: np.random.Generator, count: int = 3000) -> np.ndarray:
    lo, hi = lookup.bounds.min, lookup.bounds.max
    span = np.maximum(hi - lo, 1e-6)
    random = rng.uniform(lo - 0.1 * span, hi + 0.1 * span, (count, 2))
    corners = lookup.vertices[rng.integers(0, len(lookup.vertices), 200), :2]
    lattice = cell_corners(lookup)
    if len(lattice) > 20_000:
        lattice = lattice[rng.choice(len(lattice), 20_000, replace=False)]
    return np.concatenate((random, corners, lattice))


def uv_sphere(rings: int, segments: int, radius: float = 3.0) -> tuple[np.ndarray, np.ndarray]:
    """A closed sphere: upper and lower halves overlap seen from above, its silhouette is all folds."""
    theta = np.linspace(0.0, math.pi, rings + 1)[1:-1]
    phi = np.linspace(0.0, 2 * math.pi, segments, endpoint=False)
    t, p = np.meshgrid(theta, phi, indexing="ij")
    ring = np.column_stack((np.sin(t).ravel() * np.cos(p).ravel(), np.sin(t).ravel() * np.sin(p).ravel(),
                            np.cos(t).ravel()))
    vertices = radius * np.concatenate(([[0, 0, 1.0]], ring, [[0, 0, -1.0]]))
    south = len(vertices) - 1
    tris = []
    for s in range(segments):
        n = (s + 1) % segments
        tris.append((0, 1 + s, 1 + n))
        last = 1 + (rings - 2) * segments
        tris.append((south, last + n, last + s))
        for r in range(rings - 2):
            a, b = 1 + r * segments + s, 1 + r * segments + n
            tris += [(a, a + segments, b), (b, a + segments, b + segments)]
    return vertices, np.array(tris)


def fold(rng: np.random.Generator, n: int = 6) -> tuple[np.ndarray, np.ndarray]:
    """A sheet that runs right, then folds back left over itself (a cliff's overhang seen from above)."""
    v, t = grid_mesh(n, n, rng, size=4.0, jitter=0.0)
    upper = v.copy()
    upper[:, 0] = 8.0 - upper[:, 0]  # mirrored about x = 4: its column x = 4 lands on the lower sheet's
    upper[:, 2] += 2.0
    return np.concatenate((v, upper)), np.concatenate((t, t + len(v)))


def unwelded(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Every triangle with its own vertices (a mesh split at every edge): every edge is an outline edge."""
    v, t = grid_mesh(5, 5, rng)
    return v[t.ravel()], np.arange(t.size).reshape(-1, 3)


def non_manifold(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A grid with a fin: a third triangle on one of its inner edges, lying over the grid."""
    v, t = grid_mesh(4, 4, rng, jitter=0.0)
    a, b = t[0, 0], t[0, 2]  # the diagonal of the first quad, shared by its two triangles
    tip = (v[a] + v[b]) / 2 + np.array([1.0, -1.0, 3.0])
    return np.concatenate((v, [tip])), np.concatenate((t, [[a, b, len(v)]]))


def huge_triangles(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Two huge triangles (a plane) over a fine grid of small ones."""
    v, t = grid_mesh(12, 12, rng, size=10.0)
    plane = np.array([[-50, -50, 5.0], [60, -50, 5.0], [60, 60, 5.0], [-50, 60, 5.0]])
    n = len(v)
    return np.concatenate((v, plane)), np.concatenate((t, [[n, n + 1, n + 2], [n, n + 2, n + 3]]))


MESHES = {
    "grid": lambda rng: grid_mesh(20, 15, rng),
    "holes": lambda rng: grid_mesh(20, 20, rng, hole_rate=0.05),
    "sphere": lambda rng: uv_sphere(12, 16),
    "fold": fold,
    "unwelded": unwelded,
    "non-manifold": non_manifold,
    "huge": huge_triangles,
}


@pytest.mark.parametrize("name", sorted(MESHES))
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_point_of_an_inside_cell_hits(name: str, seed: int) -> None:
    """Brute force over a lattice of every cell said to be inside, its corners and sides included."""
    rng = np.random.default_rng(seed)
    lookup = TerrainLookup(*MESHES[name](rng))
    facts = lookup.cell_facts()
    grid = lookup._tables.grid
    nx = int(grid.shape[0])
    inside = np.flatnonzero(facts.inside)
    if name == "unwelded":
        assert len(inside) == 0  # every edge is an outline edge
        return
    assert len(inside) > 0.3 * facts.inside.size or name in ("sphere", "fold", "huge")
    u = np.linspace(0.0, 1.0, 7)
    lattice = np.stack(np.meshgrid(u, u), axis=-1).reshape(-1, 2)
    corner = grid.origin + np.column_stack((inside % nx, inside // nx)) / grid.inv_cell
    xy = (corner[:, None, :] + lattice[None, :, :] / grid.inv_cell).reshape(-1, 2)
    assert lookup.sample(xy).mask.all()


@pytest.mark.parametrize("name", sorted(MESHES))
@pytest.mark.parametrize("seed", [0, 1])
def test_allows_answers_as_one_ray_per_point(name: str, seed: int) -> None:
    rng = np.random.default_rng(seed)
    lookup = TerrainLookup(*MESHES[name](rng))
    xy = probes(lookup, rng)
    z = lookup.vertices[:, 2]
    for min_up in (None, 0.0, math.cos(math.radians(30)) - 1e-12, 0.97, 1.0):
        for heights in (None, (float(np.quantile(z, 0.3)), float(np.quantile(z, 0.8))), (-1e9, 1e9), (7.0, 6.0)):
            expected = per_ray(lookup, xy, min_up, heights)
            assert np.array_equal(lookup.allows(xy, min_up, heights), expected), (min_up, heights)


def test_a_plain_grid_settles_nearly_every_point_without_a_ray() -> None:
    """The point of the cells: on a terrain without holes almost no query casts a ray."""
    rng = np.random.default_rng(5)
    v, t = grid_mesh(60, 60, rng, jitter=0.2)
    v[:, 2] *= 0.01  # gentle: few cells straddle a 30 degree slope limit
    lookup = TerrainLookup(v, t)
    facts = lookup.cell_facts()
    assert facts.inside.mean() > 0.85
    inner = rng.uniform(0.5, 9.5, (20_000, 2))
    grid = lookup._tables.grid
    cells, inside = grid.cells_of(inner[:, 0], inner[:, 1])
    for min_up in (None, math.cos(math.radians(30))):
        settled, answer = facts.settle(cells, inside, min_up, None)
        assert settled.mean() > 0.9
        assert np.array_equal(answer[settled], per_ray(lookup, inner[settled], min_up, None))


def test_outline_edges_of_small_meshes() -> None:
    square = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0.0]])
    lookup = TerrainLookup(square, np.array([[0, 1, 2], [0, 2, 3]]))
    edges = _outline_edges(np.take(lookup.triangles, lookup._tables.kept, axis=0), lookup._tables.bary)
    assert sorted(map(tuple, edges.tolist())) == [(0, 1), (0, 3), (1, 2), (2, 3)]
    # Both triangles on the same side of their shared edge (a fold): the shared edge is outline too.
    folded = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0.5, 0.2, 1.0]])
    lookup = TerrainLookup(folded, np.array([[0, 1, 2], [0, 2, 3]]))
    edges = _outline_edges(np.take(lookup.triangles, lookup._tables.kept, axis=0), lookup._tables.bary)
    assert (0, 2) in set(map(tuple, edges.tolist()))
    # Three triangles on one edge: outline.
    fin = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0.0], [0.8, 0.1, 2.0]])
    lookup = TerrainLookup(fin, np.array([[0, 1, 2], [0, 2, 3], [0, 2, 4]]))
    edges = _outline_edges(np.take(lookup.triangles, lookup._tables.kept, axis=0), lookup._tables.bary)
    assert (0, 2) in set(map(tuple, edges.tolist()))


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    hole_rate=st.sampled_from([0.0, 0.02, 0.3]),
    lifts=st.lists(st.floats(-6.0, 6.0), min_size=0, max_size=2),
    offset=st.sampled_from([0.0, 1e4, -3e5]),
)
def test_stacked_sheets_far_from_the_origin(seed: int, hole_rate: float, lifts: list[float], offset: float) -> None:
    """Random overlapping sheets with holes, far from the origin too: the cells answer as the rays do."""
    rng = np.random.default_rng(seed)
    parts, count = [], 0
    for lift in [0.0, *lifts]:
        v, t = grid_mesh(int(rng.integers(1, 12)), int(rng.integers(1, 12)), rng, hole_rate=hole_rate)
        v[:, :2] = v[:, :2] * rng.uniform(0.3, 1.5) + rng.uniform(-4, 4, 2) + offset
        v[:, 2] += lift
        parts.append((v, t + count))
        count += len(v)
    triangles = np.concatenate([p[1] for p in parts])
    if len(triangles) == 0:
        return
    lookup = TerrainLookup(np.concatenate([p[0] for p in parts]), triangles)
    xy = probes(lookup, rng, 1500)
    min_up = float(rng.uniform(0.0, 1.0))
    z = lookup.vertices[:, 2]
    heights = (float(rng.uniform(z.min(), z.max())), float(z.max()))
    for args in ((None, None), (min_up, None), (None, heights), (min_up, heights)):
        assert np.array_equal(lookup.allows(xy, *args), per_ray(lookup, xy, *args)), args


def same_facts(one: TerrainLookup, other: TerrainLookup) -> None:
    a, b = one.cell_facts(), other.cell_facts()
    assert np.array_equal(a.inside, b.inside)
    for mine, theirs in ((a.up_range(), b.up_range()), (a.z_range(), b.z_range())):
        for x, y in zip(mine, theirs, strict=True):
            assert np.array_equal(x, y, equal_nan=True)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("asked", ["none", "up", "both"])
def test_an_edited_lookup_has_the_facts_of_a_fresh_one(seed: int, asked: str) -> None:
    """A bump in height keeps the outline and works out the ranges again near it; moving corners across works
    everything out again. Either way the facts are a fresh lookup's."""
    rng = np.random.default_rng(seed)
    v, t = grid_mesh(30, 30, rng, hole_rate=0.02)
    before = TerrainLookup(v, t)
    facts = before.cell_facts()
    if asked in ("up", "both"):
        facts.up_range()
    if asked == "both":
        facts.z_range()
    bumped = v.copy()
    near = np.hypot(*(v[:, :2] - rng.uniform(2, 8, 2)).T) < 1.5
    bumped[near, 2] += rng.uniform(0.5, 3.0)
    after = before.edited(bumped)
    assert after._cells is not None  # carried over, not worked out again
    same_facts(after, TerrainLookup(bumped, t))
    xy = probes(after, rng, 2000)
    for args in ((None, None), (0.8, None), (None, (0.0, 1.0))):
        assert np.array_equal(after.allows(xy, *args), per_ray(after, xy, *args))
    moved = v.copy()
    moved[near, 0] += 0.01
    across = before.edited(moved)
    assert across._cells is None
    same_facts(across, TerrainLookup(moved, t))
