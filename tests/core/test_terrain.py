"""TerrainLookup against a brute-force vertical ray cast (every triangle tested for every query)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from terrain_reference import brute_force_hits, grid_mesh

from strew.core.terrain import TerrainLookup, triangulate_polygons


def assert_matches_reference(vertices: np.ndarray, triangles: np.ndarray, xy: np.ndarray, **kw) -> None:
    lookup = TerrainLookup(vertices, triangles, **kw)
    hit = lookup.sample(xy)
    ref = brute_force_hits(vertices, triangles, xy)
    # Points within 1e-6 (barycentric) of some triangle's edge may round either way: skip them there.
    clear = ~ref["near_edge"]
    np.testing.assert_array_equal(hit.mask[clear], ref["mask"][clear])
    ok = ref["mask"] & hit.mask & (clear | (hit.triangle == ref["triangle"]))
    scale = np.maximum(1.0, np.abs(ref["z"][ok]))
    assert np.all(np.abs(hit.z[ok] - ref["z"][ok]) <= 1e-6 * scale)
    # Same triangle, or a different one at the same height (a shared edge hit by chance).
    same = hit.triangle[ok] == ref["triangle"][ok]
    assert np.all(same | (np.abs(hit.z[ok] - ref["z"][ok]) <= 1e-9 * scale))
    np.testing.assert_allclose(hit.normal[ok][same], ref["normal"][ok][same], atol=1e-9)
    np.testing.assert_allclose(hit.barycentric[ok][same], ref["bary"][ok][same], atol=1e-6)
    # The barycentrics rebuild the query point and the height from the reported triangle.
    corners = vertices[triangles[hit.triangle[ok]]]
    rebuilt = np.einsum("mk,mkd->md", hit.barycentric[ok], corners)
    np.testing.assert_allclose(rebuilt[:, :2], xy[ok], atol=1e-6 * max(1.0, np.abs(xy).max()))
    z_scale = max(1.0, np.abs(hit.z[ok]).max(initial=0))
    np.testing.assert_allclose(rebuilt[:, 2], hit.z[ok], atol=1e-6 * z_scale)
    # Misses carry the documented sentinels; normals are unit and point up.
    miss = ~hit.mask
    assert np.all(hit.triangle[miss] == -1) and np.all(np.isnan(hit.z[miss]))
    assert np.all(np.isnan(hit.normal[miss])) and np.all(np.isnan(hit.barycentric[miss]))
    np.testing.assert_allclose(np.linalg.norm(hit.normal[ok], axis=1), 1.0, atol=1e-12)
    assert np.all(hit.normal[ok, 2] >= 0)


def random_queries(rng: np.random.Generator, vertices: np.ndarray, m: int, pad: float = 0.2) -> np.ndarray:
    lo, hi = vertices[:, :2].min(axis=0), vertices[:, :2].max(axis=0)
    span = np.maximum(hi - lo, 1e-3)
    return rng.uniform(lo - pad * span, hi + pad * span, (m, 2))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_jittered_grid_with_holes(seed: int) -> None:
    rng = np.random.default_rng(seed)
    vertices, triangles = grid_mesh(9, 7, rng, hole_rate=0.15)
    assert_matches_reference(vertices, triangles, random_queries(rng, vertices, 400))


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    hole_rate=st.sampled_from([0.0, 0.2, 0.5]),
    lifts=st.lists(st.floats(-6.0, 6.0), min_size=1, max_size=3),
)
def test_stacked_sheets_with_holes(seed: int, hole_rate: float, lifts: list[float]) -> None:
    """Random overlapping height-field sheets (overhangs, caves) with holes: the top-most always wins."""
    rng = np.random.default_rng(seed)
    parts, offset = [], 0
    for lift in [0.0, *lifts]:
        v, t = grid_mesh(int(rng.integers(1, 7)), int(rng.integers(1, 7)), rng, hole_rate=hole_rate)
        v[:, :2] = v[:, :2] * rng.uniform(0.3, 1.5) + rng.uniform(-4, 4, 2)
        v[:, 2] += lift
        parts.append((v, t + offset))
        offset += len(v)
    vertices = np.concatenate([p[0] for p in parts])
    triangles = np.concatenate([p[1] for p in parts])
    if len(triangles) == 0:
        return
    assert_matches_reference(vertices, triangles, random_queries(rng, vertices, 300))


@pytest.mark.parametrize("seed", [0, 1])
def test_stacked_surfaces_report_the_top_one(seed: int) -> None:
    """Overhangs and caves: three partly overlapping sheets; the ray from above meets the highest first."""
    rng = np.random.default_rng(seed)
    parts, offset = [], 0
    for lift, shift in ((0.0, 0.0), (5.0, 3.0), (-4.0, -2.5)):
        v, t = grid_mesh(6, 6, rng, hole_rate=0.2)
        v[:, :2] += shift
        v[:, 2] += lift
        parts.append((v, t + offset))
        offset += len(v)
    vertices = np.concatenate([p[0] for p in parts])
    triangles = np.concatenate([p[1] for p in parts])
    xy = random_queries(rng, vertices, 500)
    assert_matches_reference(vertices, triangles, xy)
    hit = TerrainLookup(vertices, triangles).sample(xy)
    assert (hit.triangle >= len(parts[0][1])).any()  # the upper sheet really is hit somewhere


def test_cube_top_face_and_translation_precision() -> None:
    """A closed box far from the origin: the top face answers, with an exact height and +z normal."""
    corners = np.array([[x, y, z] for z in (0.0, 1.0) for y in (0.0, 1.0) for x in (0.0, 1.0)])
    quads = [[0, 1, 3, 2], [4, 6, 7, 5], [0, 4, 5, 1], [1, 5, 7, 3], [3, 7, 6, 2], [2, 6, 4, 0]]
    triangles = triangulate_polygons([4] * 6, np.ravel(quads))
    for origin in (np.zeros(3), np.array([1e5, -2e5, 300.0])):
        lookup = TerrainLookup(corners * [20, 20, 5] + origin, triangles)
        xy = np.random.default_rng(3).uniform(0.01, 19.99, (200, 2)) + origin[:2]
        hit = lookup.sample(xy)
        assert hit.mask.all()
        np.testing.assert_allclose(hit.z, origin[2] + 5.0, rtol=1e-12)
        np.testing.assert_allclose(hit.normal, np.tile([0.0, 0.0, 1.0], (200, 1)), atol=1e-12)
        assert set(hit.triangle.tolist()) <= {2, 3}  # the two halves of the top quad
        np.testing.assert_allclose(lookup.bounds.min, origin[:2])
        np.testing.assert_allclose(lookup.bounds.max, origin[:2] + 20)


def test_shared_edges_are_watertight() -> None:
    """Queries exactly on the diagonals and edges of a grid never fall through."""
    rng = np.random.default_rng(5)
    vertices, triangles = grid_mesh(12, 12, rng, jitter=0.0)
    t = np.linspace(0.0, 1.0, 97)
    a, b = vertices[triangles[:, 0], :2], vertices[triangles[:, 2], :2]
    on_edges = (a[:, None, :] + t[None, :, None] * (b - a)[:, None, :]).reshape(-1, 2)
    hit = TerrainLookup(vertices, triangles).sample(on_edges)
    assert hit.mask.all()


def test_vertical_and_degenerate_triangles_are_skipped() -> None:
    vertices = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 5], [1, 0, 5], [2, 0, 9.0]])
    triangles = np.array([[0, 1, 2], [0, 1, 3], [0, 1, 4], [0, 1, 5], [2, 2, 2]])
    lookup = TerrainLookup(vertices, triangles)
    assert lookup.usable_triangle_count == 1 and lookup.triangle_count == 5
    hit = lookup.sample(np.array([[0.5, 0.0], [0.2, 0.2]]))
    assert hit.mask.all() and np.all(hit.triangle == 0) and np.allclose(hit.z, 0)


def test_triangles_per_cell_does_not_change_answers() -> None:
    rng = np.random.default_rng(11)
    vertices, triangles = grid_mesh(20, 15, rng, hole_rate=0.1)
    xy = random_queries(rng, vertices, 2000)
    base = TerrainLookup(vertices, triangles).sample(xy)
    for per_cell in (0.1, 3.0, 1000.0):
        other = TerrainLookup(vertices, triangles, triangles_per_cell=per_cell).sample(xy)
        np.testing.assert_array_equal(other.mask, base.mask)
        np.testing.assert_allclose(other.z[base.mask], base.z[base.mask], rtol=1e-12)


@pytest.mark.parametrize("seed", [3, 4])
def test_block_sizes_do_not_change_answers(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Triangles and queries are handled in blocks; tiny blocks (many boundaries) give the same bits."""
    import strew.core.terrain.build as build
    import strew.core.terrain.query as query

    rng = np.random.default_rng(seed)
    vertices, triangles = grid_mesh(24, 17, rng, hole_rate=0.1)
    triangles = triangles[rng.permutation(len(triangles))]  # any input order
    xy = np.concatenate([random_queries(rng, vertices, 1500), vertices[:200, :2]])
    base = TerrainLookup(vertices, triangles).sample(xy)
    monkeypatch.setattr(build, "BLOCK", 37)
    monkeypatch.setattr(query, "QUERY_BLOCK", 29)
    small = TerrainLookup(vertices, triangles)
    blocked = small.sample(xy)
    for name in ("mask", "z", "normal", "triangle", "barycentric"):
        np.testing.assert_array_equal(getattr(blocked, name), getattr(base, name))
    assert_matches_reference(vertices, triangles, xy[:400])


@pytest.mark.parametrize("per_cell", [1.0, 0.005])  # 0.005: more than 65 536 cells (coarser sort runs)
def test_queries_in_cell_order_give_the_same_answers(per_cell: float, monkeypatch: pytest.MonkeyPatch) -> None:
    """Large query sets are answered in the order of their cells and put back: the same bits, in the
    callers' order, as answering them one block after another (queries off the terrain included)."""
    import strew.core.terrain.query as query

    rng = np.random.default_rng(11)
    vertices, triangles = grid_mesh(24, 17, rng, hole_rate=0.1)
    xy = np.concatenate([random_queries(rng, vertices, 3000), vertices[:100, :2]])
    xy = np.concatenate([xy[rng.permutation(len(xy))], [[-1e3, 5.0], [1e9, 1e9]]])
    terrain = TerrainLookup(vertices, triangles, triangles_per_cell=per_cell)
    monkeypatch.setattr(query, "QUERY_BLOCK", 257)
    monkeypatch.setattr(query, "SORT_FROM", len(xy) + 1)
    plain = terrain.sample(xy)
    monkeypatch.setattr(query, "SORT_FROM", 1)
    ordered = terrain.sample(xy)
    for name in ("mask", "z", "normal", "triangle", "barycentric"):
        np.testing.assert_array_equal(getattr(ordered, name), getattr(plain, name))
        assert getattr(ordered, name).flags.c_contiguous  # what foreach_set and the chunk results expect
    assert not ordered.mask[-2:].any()
    assert_matches_reference(vertices, triangles, xy[:300])


def test_equal_heights_go_to_the_triangle_listed_last() -> None:
    """A point on a flat quad's diagonal is in both halves at the same height: the later row wins."""
    vertices = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0.0]])
    on_diagonal = np.array([[0.25, 0.25], [0.5, 0.5], [0.75, 0.75]])
    for triangles in ([[0, 1, 2], [0, 2, 3]], [[0, 2, 3], [0, 1, 2]]):
        hit = TerrainLookup(vertices, np.array(triangles)).sample(on_diagonal)
        assert hit.mask.all() and np.all(hit.z == 0.0)
        assert np.all(hit.triangle == 1)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    count=st.integers(1, 40),
    spread=st.sampled_from([1.0, 50.0, 1e4]),
    offset=st.sampled_from([0.0, 1e4, -3e5]),
)
def test_random_triangle_soup(seed: int, count: int, spread: float, offset: float) -> None:
    """Arbitrary overlapping triangles of mixed sizes (plus a few huge ones): the top-most always wins."""
    rng = np.random.default_rng(seed)
    centres = rng.uniform(0, spread, (count, 1, 3))
    sizes = spread * rng.choice([0.01, 0.1, 1.0], (count, 1, 1))
    vertices = (centres + sizes * rng.normal(size=(count, 3, 3))).reshape(-1, 3)
    triangles = np.arange(3 * count).reshape(count, 3)
    if count > 1 and rng.random() < 0.3:  # a vertical wall among them (exactly collinear in xy)
        vertices[3:6, :2] = np.round(vertices[3, :2]) + np.outer([0, 1, 2], np.round(4 * rng.normal(size=2)))
    vertices[:, :2] += offset
    xy = random_queries(rng, vertices, 300, pad=0.05)
    corners = vertices[rng.integers(0, len(vertices), 50), :2]  # include the vertices themselves
    try:
        assert_matches_reference(vertices, triangles, np.concatenate([xy, corners]))
    except ValueError as exc:  # every triangle vertical: the one documented refusal
        assert "vertical" in str(exc)


def test_triangulate_polygons_matches_blender_quad_split() -> None:
    tris = triangulate_polygons(np.array([3, 4, 5]), np.array([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]))
    assert tris.tolist() == [[0, 1, 2], [3, 4, 5], [3, 5, 6], [7, 8, 9], [7, 9, 10], [7, 10, 11]]


@pytest.mark.parametrize(
    ("vertices", "triangles", "match"),
    [
        (np.zeros((0, 3)), np.zeros((0, 3), int), "vertices"),
        (np.zeros((3, 2)), np.array([[0, 1, 2]]), r"vertices: expected shape \(V, 3\)"),
        (np.array([[0, 0, 0], [1, 0, np.nan], [0, 1, 0]]), np.array([[0, 1, 2]]), "vertices: row 1"),
        (np.eye(3), np.zeros((0, 3), int), "triangles: the mesh has no triangles"),
        (np.eye(3), np.array([[0, 1, 3]]), r"triangles: vertex indices must lie in \[0, 2\]"),
        (np.eye(3), np.array([[0, -1, 2]]), "triangles: vertex indices"),
        (np.eye(3), np.array([0, 1, 2]), "triangles: expected shape"),
        (np.eye(3), np.array([[0.5, 1, 2]]), "triangles: expected integer"),
        (np.array([[0, 0, 0], [1, 0, 0], [2, 0, 1.0]]), np.array([[0, 1, 2]]), "vertical or degenerate"),
    ],
)
def test_bad_meshes_are_refused(vertices, triangles, match) -> None:
    with pytest.raises(ValueError, match=match):
        TerrainLookup(vertices, triangles)


def test_bad_queries_are_refused() -> None:
    lookup = TerrainLookup(np.eye(3), np.array([[0, 1, 2]]))
    with pytest.raises(ValueError, match=r"xy: expected shape \(M, 2\)"):
        lookup.sample(np.zeros((4, 3)))
    with pytest.raises(ValueError, match="xy: row 1 is not finite"):
        lookup.sample(np.array([[0.0, 0.0], [np.nan, 1.0]]))
    with pytest.raises(ValueError, match="triangles_per_cell"):
        TerrainLookup(np.eye(3), np.array([[0, 1, 2]]), triangles_per_cell=0)
    assert lookup.sample(np.zeros((0, 2))).mask.shape == (0,)


def test_sample_cache_shares_one_lookup() -> None:
    rng = np.random.default_rng(2)
    vertices, triangles = grid_mesh(5, 5, rng)
    lookup = TerrainLookup(vertices, triangles)
    xy = random_queries(rng, vertices, 50)
    first = lookup.cache.sample(xy)
    assert lookup.cache.sample(xy.copy()) is first and lookup.cache.lookups == 1
    moved = xy.copy()
    moved[0, 0] += 1e-9
    assert lookup.cache.sample(moved) is not first and lookup.cache.lookups == 2
    with pytest.raises(ValueError):
        first.z[0] = 1.0  # cached answers are read-only


def test_inputs_are_copied_not_frozen() -> None:
    vertices = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 1.0]])
    triangles = np.array([[0, 1, 2]], dtype=np.int64)
    lookup = TerrainLookup(vertices, triangles)
    assert vertices.flags.writeable and triangles.flags.writeable
    vertices[2, 2] = 5.0  # editing the caller's array later does not change the lookup
    assert lookup.sample(np.array([[0.0, 0.5]])).z[0] == pytest.approx(0.5)
