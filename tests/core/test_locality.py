"""An edit changes only the instances near it: every instance farther away keeps its position, rotation, scale,
prefab and random value bit for bit (docs/poisson.md, *Locality*)."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from strew.core.fields.noise import PerlinNoise
from strew.core.scatter import LayerPoints, LayerSpec, scatter_layer
from strew.core.terrain import TerrainLookup

SIZE = 160.0
QUADS = 64
MAX_RADIUS = 2.0
REACH = 10 * MAX_RADIUS  # an edit's effect fades within a few radii; this is far beyond what was ever measured
NOISE = PerlinNoise(seed=3, scale=25.0, octaves=3)
QUICK = (Phase.explicit, Phase.generate)  # each example costs two scatters: a failure is shown as found


def hills(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return 6 * np.sin(x / 23) * np.cos(y / 17) + 3 * np.sin(x / 7 + y / 9)


def terrain(bump: tuple[float, float, float] | None = None, extra: float = 0.0) -> TerrainLookup:
    """A hilly square (``extra`` metres longer along +x, same quad size), with an optional bump (x, y, radius)."""
    step = SIZE / QUADS
    nx = QUADS + round(extra / step)
    xs = -SIZE / 2 + step * np.arange(nx + 1)
    ys = -SIZE / 2 + step * np.arange(QUADS + 1)
    x, y = np.meshgrid(xs, ys)
    z = hills(x, y)
    if bump is not None:
        bx, by, br = bump
        z = z + 3.0 * np.clip(1 - np.hypot(x - bx, y - by) / br, 0, 1)
    vertices = np.c_[x.ravel(), y.ravel(), z.ravel()]
    row = nx + 1
    i, j = np.meshgrid(np.arange(nx), np.arange(QUADS))
    a = (j * row + i).ravel()
    triangles = np.r_[np.c_[a, a + 1, a + row + 1], np.c_[a, a + row + 1, a + row]]
    return TerrainLookup(vertices, triangles)


def spec(seed: int, **changes: object) -> LayerSpec:
    values: dict[str, object] = dict(min_radius=1.0, max_radius=MAX_RADIUS, density=NOISE.evaluate, seed=seed,
                                     max_slope=math.radians(25), prefab_weights=(1.0, 2.0, 1.0),
                                     scale_range=(0.8, 1.3), tilt=0.2, chunk_size=50.0)
    values.update(changes)
    return LayerSpec(**values)  # type: ignore[arg-type]


def rows(points: LayerPoints, digits: int | None = None) -> np.ndarray:
    """One byte string per instance: everything an instance shows (rounded to ``digits`` decimals, or exact)."""
    table = np.column_stack([points.positions, points.rotations, points.scales, points.prefab_index.astype(float),
                             points.randoms])
    if digits is not None:
        table = np.round(table, digits)
    return np.array([r.tobytes() for r in table])


def far_changes(before: LayerPoints, after: LayerPoints, far: np.ndarray, far_after: np.ndarray,
                digits: int | None = None) -> int:
    """Instances in the far zone of either set that the other set does not hold (bit for bit, or to ``digits``)."""
    a, b = rows(before, digits), rows(after, digits)
    return int((~np.isin(a[far], b)).sum() + (~np.isin(b[far_after], a)).sum())


def distance(points: LayerPoints, x: float, y: float) -> np.ndarray:
    return np.hypot(points.positions[:, 0] - x, points.positions[:, 1] - y)


coordinate = st.floats(-SIZE / 2 + 10, SIZE / 2 - 10)


@settings(max_examples=4, deadline=None, derandomize=True, phases=QUICK)
@given(x=coordinate, y=coordinate, seed=st.integers(0, 2**31 - 1))
def test_a_terrain_bump_changes_nothing_beyond_its_reach(x: float, y: float, seed: int) -> None:
    before = scatter_layer(terrain(), spec(seed))
    after = scatter_layer(terrain(bump=(x, y, 6.0)), spec(seed))
    reach = 6.0 + SIZE / QUADS + REACH  # the bump, the quads it tilts, the reach
    assert len(before) > 3000
    assert far_changes(before, after, distance(before, x, y) > reach, distance(after, x, y) > reach) == 0
    near = distance(before, x, y) < 6.0
    assert not np.isin(rows(before)[near], rows(after)).all()  # the edit did change something


@settings(max_examples=4, deadline=None, derandomize=True, phases=QUICK)
@given(x=coordinate, y=coordinate, seed=st.integers(0, 2**31 - 1))
def test_an_excluded_disc_changes_nothing_beyond_its_reach(x: float, y: float, seed: int) -> None:
    def outside(xy: np.ndarray) -> np.ndarray:
        return np.hypot(xy[:, 0] - x, xy[:, 1] - y) > 5.0

    before = scatter_layer(terrain(), spec(seed))
    after = scatter_layer(terrain(), spec(seed, mask=outside))
    assert (distance(after, x, y) > 5.0).all()
    reach = 5.0 + REACH
    assert far_changes(before, after, distance(before, x, y) > reach, distance(after, x, y) > reach) == 0


@settings(max_examples=3, deadline=None, derandomize=True, phases=QUICK)
@given(extra=st.floats(2.0, 30.0), seed=st.integers(0, 2**31 - 1))
def test_a_terrain_grown_at_one_side_keeps_the_rest(extra: float, seed: int) -> None:
    """Chunks and sampler cells lie on the world's grid: new ground at +x moves nothing far from it (bit for bit
    outside the chunks at +x; in them the same instances, to a nanometre: a chunk whose rim moved samples from
    its new corner, whose sums round differently in the last bits)."""
    before = scatter_layer(terrain(), spec(seed))
    after = scatter_layer(terrain(extra=extra), spec(seed))
    edge = SIZE / 2 - REACH
    assert far_changes(before, after, before.positions[:, 0] < edge, after.positions[:, 0] < edge, digits=9) == 0
    inner = SIZE / 2 - 50.0  # beyond the chunk at the rim
    assert far_changes(before, after, before.positions[:, 0] < inner, after.positions[:, 0] < inner) == 0
    assert (after.positions[:, 0] > SIZE / 2).any()


@settings(max_examples=3, deadline=None, derandomize=True, phases=QUICK)
@given(shift=st.floats(3.0, 40.0), seed=st.integers(0, 2**31 - 1))
def test_a_moved_region_keeps_what_both_regions_hold(shift: float, seed: int) -> None:
    """A camera's region that moves keeps the instances it still sees (away from both regions' rims), to a
    nanometre (chunks at the region's rim sample from their new corner)."""
    first = ((-60.0, -50.0), (40.0, 50.0))
    second = ((-60.0 + shift, -50.0), (40.0 + shift, 50.0))
    before = scatter_layer(terrain(), spec(seed, region=first))
    after = scatter_layer(terrain(), spec(seed, region=second))
    for points, region in ((before, first), (after, second)):
        xy = points.positions[:, :2]
        assert ((xy >= region[0]) & (xy < region[1])).all()

    def inner(points: LayerPoints) -> np.ndarray:
        x, y = points.positions[:, 0], points.positions[:, 1]
        return (x > -60.0 + shift + REACH) & (x < 40.0 - REACH) & (np.abs(y) < 50.0 - REACH)

    assert far_changes(before, after, inner(before), inner(after), digits=9) == 0


def test_chunks_and_one_sampler_agree_away_from_chunk_edges() -> None:
    """The darts of a place do not depend on the chunk it falls in: most instances are the same with small chunks
    and with one chunk (those near a chunk edge may differ: there the chunk order matters)."""
    whole = scatter_layer(terrain(), spec(7, chunk_size=1e4))
    chunked = scatter_layer(terrain(), spec(7, chunk_size=40.0))
    shared = np.isin(rows(whole, digits=9), rows(chunked, digits=9)).mean()
    assert shared > 0.5
