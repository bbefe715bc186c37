"""Socket labels from geometry (strew.core.wfc.socket_detect): facing sides fit exactly when geometry lines up."""

from __future__ import annotations

import time
import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strew.core.budget import MEMORY_BUDGET
from strew.core.wfc.socket_detect import (
    cell_overflow,
    check_raster_budget,
    detect_sockets,
    horizontal_label,
    mirror_pairs,
    parse_compatible,
    raster_bytes,
    side_profiles,
    vertical_label,
)
from strew.core.wfc.sockets import sockets_fit, turn_label

QUANTUM = 0.01
profiles = st.lists(st.tuples(st.integers(-100, 100), st.integers(0, 300)), min_size=1, max_size=12).map(
    lambda pts: np.array(pts, dtype=float) * QUANTUM)


def _fit(a: str, b: str) -> bool:
    return sockets_fit(a, b, frozenset(frozenset(p) for p in mirror_pairs([a, b])))


def _key(points: np.ndarray) -> set:
    return {tuple(p) for p in np.round(points / QUANTUM).astype(int)}


@settings(max_examples=60, deadline=None)
@given(profiles, profiles)
def test_facing_sides_fit_exactly_when_one_profile_mirrors_the_other(a: np.ndarray, b: np.ndarray) -> None:
    la, lb = horizontal_label(a, QUANTUM), horizontal_label(b, QUANTUM)
    mirrored = _key(b * np.array([-1, 1]))
    assert _fit(la, lb) == (_key(a) == mirrored)
    assert _fit(la, horizontal_label(a * np.array([-1, 1]), QUANTUM))  # a profile always fits its mirror


@settings(max_examples=60, deadline=None)
@given(profiles, st.integers(0, 3))
def test_vertical_labels_turn_like_the_geometry(points: np.ndarray, quarter: int) -> None:
    turned = points.copy()
    for _ in range(quarter):
        turned = np.column_stack([-turned[:, 1], turned[:, 0]])
    label = vertical_label(points, QUANTUM)
    assert vertical_label(points.copy(), QUANTUM) == label  # a function of the geometry
    twofold = _key(points) == _key(-points)
    if not twofold:  # (a profile unchanged by a half turn may carry k or k+2: documented limitation)
        assert turn_label(label, quarter) == vertical_label(turned, QUANTUM)


def test_detect_sockets_on_a_box_tile_and_its_turn() -> None:
    # A tile 2 x 2 x 2 with a slab and a wall piece against the east side, shifted towards +y.
    slab = [(x, y, z) for x in (-1, 1) for y in (-1, 1) for z in (0, 0.1)]
    wall = [(x, y, z) for x in (0.8, 1) for y in (0.2, 0.9) for z in (0, 1.5)]
    vertices = np.array(slab + wall, dtype=float)
    labels = detect_sockets(vertices, (2, 2, 2))
    assert labels["up"] == ""
    assert labels["e"] not in ("", labels["w"]) and labels["e"].startswith("m")  # asymmetric piece on e only
    # The same tile turned by 90°: its north side now carries what the east side carried.
    c, s = 0.0, 1.0
    turned = vertices @ np.array([[c, s, 0], [-s, c, 0], [0, 0, 1]])
    turned_labels = detect_sockets(turned, (2, 2, 2))
    assert turned_labels["n"] == labels["e"] and turned_labels["w"] == labels["n"]
    assert turned_labels["down"] == turn_label(labels["down"], 1)
    assert cell_overflow(vertices, (2, 2, 2)) == 0.0
    assert cell_overflow(vertices + np.array([0.0, -0.05, 0.0]), (2, 2, 2)) == pytest.approx(0.05)
    assert cell_overflow(vertices + np.array([0.0, 0.0, -0.2]), (2, 2, 2)) == pytest.approx(0.2)
    profiles_ = side_profiles(vertices, (2, 2, 2), 0.005)
    assert len(profiles_["e"]) == 4 + 4 and len(profiles_["up"]) == 0


@pytest.mark.parametrize("kwargs, field", [
    ({"cell_size": (0, 2, 2)}, "cell_size"), ({"cell_size": (2, 2)}, "cell_size"),
    ({"cell_size": (2, 2, 2), "quantum": 0}, "quantum"), ({"cell_size": (2, 2, 2), "tolerance": -1}, "tolerance"),
])
def test_bad_input_names_the_field(kwargs: dict, field: str) -> None:
    with pytest.raises(ValueError, match=field):
        detect_sockets(np.zeros((1, 3)), **kwargs)


def test_parse_compatible() -> None:
    assert parse_compatible(" a=b; c = d ,") == [("a", "b"), ("c", "d")]
    for bad in ("a", "a=", "=b", "a=b=c"):
        with pytest.raises(ValueError, match="compatible"):
            parse_compatible(bad)
    assert mirror_pairs(["x", "x~", "y", ""]) == [("x", "x~")]


# --- labels from the faces lying in each side's plane -------------------------------------------------------------

_QUADS = np.array([[0, 1, 3, 2], [4, 6, 7, 5], [0, 4, 5, 1], [2, 3, 7, 6], [0, 2, 6, 4], [1, 5, 7, 3]])


def _boxes(boxes: list[tuple[float, ...]]) -> tuple[np.ndarray, np.ndarray]:
    """Vertices and triangles of axis-aligned boxes (x0, x1, y0, y1, z0, z1)."""
    vertices, triangles = [], []
    for n, (x0, x1, y0, y1, z0, z1) in enumerate(boxes):
        vertices += [(x, y, z) for x in (x0, x1) for y in (y0, y1) for z in (z0, z1)]
        for a, b, c, d in _QUADS + 8 * n:
            triangles += [(a, b, c), (a, c, d)]
    return np.array(vertices, dtype=float), np.array(triangles)


def test_a_side_is_what_its_faces_cover_however_they_were_modelled() -> None:
    slab = (-1, 1, -1, 1, 0, 0.1)
    one = _boxes([slab, (0.8, 1, -1, 1, 0, 1.5)])
    three = _boxes([slab, (0.8, 1, -1, -0.3, 0, 1.5), (0.8, 1, -0.3, 0.4, 0, 1.5), (0.8, 1, 0.4, 1, 0, 1.5)])
    window = _boxes([slab, (0.8, 1, -1, -0.3, 0, 1.5), (0.8, 1, 0.4, 1, 0, 1.5)])
    label = detect_sockets(one[0], (2, 2, 2), triangles=one[1])
    assert detect_sockets(three[0], (2, 2, 2), triangles=three[1])["e"] == label["e"]
    assert detect_sockets(window[0], (2, 2, 2), triangles=window[1])["e"] != label["e"]
    assert label["up"] == "" and label["down"].startswith("v") and label["e"].startswith("h")


cells_on_side = st.sets(st.tuples(st.integers(0, 9), st.integers(0, 9)), min_size=1, max_size=8)


@settings(max_examples=40, deadline=None)
@given(cells_on_side, cells_on_side)
def test_facing_sides_fit_exactly_when_their_faces_mirror_each_other(a: set, b: set) -> None:
    """Tile A has boxes against its east side on cells (u, v) of a 10 x 10 grid of the side, tile B against its
    west side: they fit exactly when B's covered cells are A's seen from the other side."""
    def tile(cells: set, east: bool) -> dict[str, str]:
        boxes = []
        for u, v in cells:  # cell u spans y in [-1 + 0.2 u, -0.8 + 0.2 u], v spans z in [0.2 v, 0.2 v + 0.2]
            y0 = -1 + 0.2 * u
            x0, x1 = (0.9, 1.0) if east else (-1.0, -0.9)
            boxes.append((x0, x1, y0, y0 + 0.2, 0.2 * v, 0.2 * v + 0.2))
        vertices, triangles = _boxes(boxes)
        return detect_sockets(vertices, (2, 2, 2), triangles=triangles)

    la, lb = tile(a, True)["e"], tile(b, False)["w"]
    assert _fit(la, lb) == (a == b)  # facing east/west sides share the plane: same y, same z


BOX = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (0, 2)], dtype=float)
BOX_TRIANGLES = np.array([t for f in ((0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4),
                                      (1, 5, 7, 3)) for t in ((f[0], f[1], f[2]), (f[0], f[2], f[3]))])


@pytest.mark.parametrize(("cell_size", "quantum"), [
    ((2, 2, 2), 1e-5),            # the Precision field's own minimum
    ((200, 200, 300), 0.01),      # a kit modelled in centimetres
    ((400, 400, 3), 0.01),        # a 400 m tile
    ((2, 2, 2), 1e-300),          # a quantum whose raster size overflows a float
    ((1e300, 1e300, 1e300), 1.0),
    ((0.5, 0.5, 1e6), 0.01),      # one tall side only
    ((2, 2, 3e38), 0.01),         # a tile with a vertex far up, its cell from its bounds
    ((2, 2, 1.7e308), 1e-5),
])
def test_side_rasters_beyond_the_memory_budget_are_refused_at_once_with_the_quantum_that_fits(
        cell_size: tuple, quantum: float) -> None:
    started = time.perf_counter()
    with pytest.raises(ValueError, match=r"needs (about [\d.,e+]+ [KMGTPE]iB|unbounded memory), more than the memory "
                                         r"budget \(1\.0 GiB\); raise quantum \(Precision\) to [\d.e+-]+ or more"):
        detect_sockets(BOX, cell_size, quantum=quantum, triangles=BOX_TRIANGLES)
    assert time.perf_counter() - started < 0.05  # nothing was allocated
    with pytest.raises(ValueError) as failure:
        check_raster_budget(cell_size, quantum)
    least = float(str(failure.value).split("to ")[-1].split(" or more")[0])
    assert raster_bytes(cell_size, least) <= MEMORY_BUDGET  # the advice works …
    assert raster_bytes(cell_size, least / 1.5) > MEMORY_BUDGET  # … and asks for no more than needed


@settings(max_examples=80, deadline=None)
@given(st.tuples(*[st.floats(1e-3, 1e300)] * 3), st.floats(1e-12, 1e3), st.floats(1e3, 1e12))
def test_the_raster_budget_refuses_exactly_above_it_and_its_advice_fits(cell_size: tuple, quantum: float,
                                                                         budget: float) -> None:
    needed = raster_bytes(cell_size, quantum)
    if needed <= budget:
        check_raster_budget(cell_size, quantum, budget)
        return
    with pytest.raises(ValueError) as failure:
        check_raster_budget(cell_size, quantum, budget)
    least = float(str(failure.value).split("to ")[-1].split(" or more")[0])
    assert raster_bytes(cell_size, least) <= budget


@pytest.mark.parametrize("quantum", [0.01, 0.004])
def test_the_raster_estimate_bounds_the_memory_detect_sockets_takes(quantum: float) -> None:
    tracemalloc.start()
    try:
        detect_sockets(BOX, (2, 2, 2), quantum=quantum, triangles=BOX_TRIANGLES)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak <= raster_bytes((2, 2, 2), quantum) * 1.05
