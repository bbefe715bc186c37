"""A terrain lookup after an edit (``TerrainLookup.edited``) is the fresh lookup of the edited mesh, bit for bit: the
same tables and grid, so every answer is the same; and the shortcut is taken where an edit is local."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from terrain_reference import grid_mesh

from strew.core.terrain import TerrainLookup
from strew.core.terrain import lookup as lookup_module


def assert_same_lookup(edited: TerrainLookup, fresh: TerrainLookup, probes: np.ndarray) -> None:
    """The same tables, grid and bounds (values, dtypes and shapes) and the same answers, byte for byte."""
    a, b = edited._tables, fresh._tables
    for name in ("kept", "bary", "height", "normal"):
        x, y = getattr(a, name), getattr(b, name)
        assert (x.dtype, x.shape) == (y.dtype, y.shape) and x.tobytes() == y.tobytes(), name
    for name in ("origin", "inv_cell", "shape"):
        assert getattr(a.grid, name).tobytes() == getattr(b.grid, name).tobytes(), name
    for name in ("items", "starts"):
        x, y = getattr(a.grid.cells, name), getattr(b.grid.cells, name)
        assert (x.dtype, x.shape) == (y.dtype, y.shape) and x.tobytes() == y.tobytes(), name
    assert edited.bounds.as_array().tobytes() == fresh.bounds.as_array().tobytes()
    assert edited.vertices.tobytes() == fresh.vertices.tobytes()
    assert edited.triangles.tobytes() == fresh.triangles.tobytes()
    hit, expected = edited.sample(probes), fresh.sample(probes)
    for name in ("mask", "z", "normal", "triangle", "barycentric"):
        assert getattr(hit, name).tobytes() == getattr(expected, name).tobytes(), name


def probes_over(vertices: np.ndarray, rng: np.random.Generator, count: int = 3000) -> np.ndarray:
    """Random points over the terrain and a little beyond, plus every vertex and edge midpoint's xy (shared edges,
    where ties between triangles are decided)."""
    lo, hi = vertices[:, :2].min(axis=0), vertices[:, :2].max(axis=0)
    pad = 0.05 * (hi - lo)
    return np.concatenate([rng.uniform(lo - pad, hi + pad, (count, 2)), vertices[:, :2]])


def bump(vertices: np.ndarray, rng: np.random.Generator, across: float) -> np.ndarray:
    """A smooth bump at a random place: heights change inside a disc; with ``across``, corners also slide sideways
    (a sculpt brush moves vertices along the surface's normal)."""
    out = vertices.copy()
    lo, hi = vertices[:, :2].min(axis=0), vertices[:, :2].max(axis=0)
    centre = rng.uniform(lo, hi)
    radius = rng.uniform(0.05, 0.3) * float((hi - lo).max())
    weight = np.clip(1.0 - np.hypot(*(vertices[:, :2] - centre).T) / radius, 0.0, 1.0)
    out[:, 2] += rng.normal(0.0, 2.0) * weight
    out[:, :2] += across * weight[:, None] * rng.normal(0.0, 0.1, (len(vertices), 2))
    return out


EDITS = ("bump", "sculpt", "vertices", "flip", "hole")


def edit(vertices: np.ndarray, triangles: np.ndarray, kind: str, rng: np.random.Generator
         ) -> tuple[np.ndarray, np.ndarray]:
    """One random edit of a mesh: a bump (heights only), a sculpted bump (sideways too), a few vertices moved
    anywhere nearby, a few quads' diagonals flipped (other triangle rows) or a few triangles made degenerate."""
    vertices, triangles = vertices.copy(), triangles.copy()
    if kind == "bump":
        return bump(vertices, rng, 0.0), triangles
    if kind == "sculpt":
        return bump(vertices, rng, 1.0), triangles
    if kind == "vertices":
        picked = rng.choice(len(vertices), int(rng.integers(1, 4)), replace=False)
        vertices[picked] += rng.normal(0.0, 0.3, (len(picked), 3))
        return vertices, triangles
    rows = rng.choice(len(triangles), int(rng.integers(1, 4)), replace=False)
    if kind == "flip":  # a triangle's corners in another order, or a neighbour's corner: other rows, same count
        triangles[rows] = triangles[rows][:, ::-1]
        triangles[rows[0], 2] = triangles[(rows[0] + 1) % len(triangles), 2]
        return vertices, triangles
    triangles[rows, 2] = triangles[rows, 1]  # degenerate: no area seen from above, so no longer usable
    return vertices, triangles


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), kinds=st.lists(st.sampled_from(EDITS), min_size=1, max_size=3),
       holes=st.sampled_from([0.0, 0.15]), per_cell=st.sampled_from([1.0, 0.3, 4.0]))
def test_an_edited_lookup_is_the_fresh_lookup_bit_for_bit(seed: int, kinds: list[str], holes: float,
                                                           per_cell: float) -> None:
    rng = np.random.default_rng(seed)
    vertices, triangles = grid_mesh(int(rng.integers(4, 24)), int(rng.integers(4, 24)), rng, hole_rate=holes)
    if len(triangles) < 4:
        return
    lookup = TerrainLookup(vertices, triangles, triangles_per_cell=per_cell)
    for kind in kinds:  # edits one after another, each from the lookup the last one gave
        vertices, triangles = edit(vertices, triangles, kind, rng)
        told = bool(rng.integers(2))
        changed = np.flatnonzero((lookup.vertices[lookup.triangles] != vertices[triangles]).any(axis=(1, 2)))
        lookup = lookup.edited(vertices, triangles, changed if told else None)
        assert_same_lookup(lookup, TerrainLookup(vertices, triangles, triangles_per_cell=per_cell),
                           probes_over(vertices, rng))


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), lifts=st.lists(st.floats(-3.0, 3.0), min_size=1, max_size=2),
       kind=st.sampled_from(EDITS))
def test_edits_of_stacked_sheets(seed: int, lifts: list[float], kind: str) -> None:
    """Overhangs: sheets over each other, where the top-most triangle (and ties on shared heights) decide."""
    rng = np.random.default_rng(seed)
    parts, offset = [], 0
    for lift in [0.0, *lifts]:
        v, t = grid_mesh(int(rng.integers(3, 10)), int(rng.integers(3, 10)), rng, hole_rate=0.1)
        v[:, :2] += rng.uniform(-3, 3, 2)
        v[:, 2] += lift
        parts.append((v, t + offset))
        offset += len(v)
    vertices = np.concatenate([p[0] for p in parts])
    triangles = np.concatenate([p[1] for p in parts])
    if len(triangles) < 4:
        return
    lookup = TerrainLookup(vertices, triangles)
    vertices, triangles = edit(vertices, triangles, kind, rng)
    assert_same_lookup(lookup.edited(vertices, triangles), TerrainLookup(vertices, triangles),
                       probes_over(vertices, rng))


def test_a_local_edit_takes_the_shortcut(monkeypatch: pytest.MonkeyPatch) -> None:
    """Heights changed, corners slid sideways inside the terrain, a quad's diagonal flipped: no fresh build; an edit
    that moves the outline, or most of the terrain, builds afresh (and is still the same lookup)."""
    builds = []
    fresh_build = lookup_module.build
    monkeypatch.setattr(lookup_module, "build", lambda *args: builds.append(1) or fresh_build(*args))
    rng = np.random.default_rng(7)
    vertices, triangles = grid_mesh(40, 40, rng, jitter=0.2)
    lookup = TerrainLookup(vertices, triangles)
    inner = np.flatnonzero(np.all(np.abs(vertices[:, :2] - 5.0) < 2.0, axis=1))
    raised = vertices.copy()
    raised[inner, 2] += 1.0
    slid = raised.copy()
    slid[inner, :2] += rng.normal(0.0, 0.05, (len(inner), 2))  # across cells too (cells are about 0.18 wide)
    flipped = triangles.copy()
    quad = 1000  # triangles quad and quad + 1600 share the quad's diagonal: split it along the other one
    a, b, c, d = triangles[quad][0], triangles[quad][1], triangles[quad][2], triangles[quad + 1600][2]
    flipped[quad], flipped[quad + 1600] = (a, b, d), (b, c, d)
    builds.clear()
    for moved, rows in ((raised, triangles), (slid, triangles), (vertices, flipped)):
        after = lookup.edited(moved, rows)
        assert_same_lookup(after, TerrainLookup(moved, rows), probes_over(moved, rng))
    assert len(builds) == 3  # the three fresh lookups to compare with, none for the edits
    builds.clear()
    wider = vertices.copy()
    wider[np.argmax(wider[:, 0]), 0] += 1.0  # the outline moves: the grid's cells move
    everywhere = vertices.copy()
    everywhere[:, 2] *= 2.0
    for moved in (wider, everywhere):
        assert_same_lookup(lookup.edited(moved), TerrainLookup(moved, triangles), probes_over(moved, rng))
    assert len(builds) == 4  # a fresh build for each edit, and one for each lookup compared with


def test_edited_refuses_what_a_new_lookup_refuses() -> None:
    rng = np.random.default_rng(3)
    vertices, triangles = grid_mesh(5, 5, rng)
    lookup = TerrainLookup(vertices, triangles)
    bad = vertices.copy()
    bad[3, 2] = np.nan
    with pytest.raises(ValueError, match="row 3 is not finite"):
        lookup.edited(bad)
    with pytest.raises(ValueError, match="vertex indices must lie in"):
        lookup.edited(vertices[:10])
    with pytest.raises(ValueError, match="vertex indices must lie in"):
        lookup.edited(vertices, triangles + len(vertices))


def test_a_pickled_lookup_answers_and_edits_from_scratch() -> None:
    """Copies sent to worker processes leave the edit's bookkeeping behind; editing one builds afresh."""
    import pickle

    rng = np.random.default_rng(4)
    vertices, triangles = grid_mesh(8, 8, rng)
    lookup = pickle.loads(pickle.dumps(TerrainLookup(vertices, triangles)))
    assert lookup._built is None
    raised = vertices.copy()
    raised[20, 2] += 1.0
    assert_same_lookup(lookup.edited(raised), TerrainLookup(raised, triangles), probes_over(raised, rng))
