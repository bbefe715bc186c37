"""Socket labels from tile geometry: the vertices on each side's boundary plane, quantised and hashed.

Pure numpy (no ``bpy``). Conventions (shared with the Blender side, see docs/rooms.md):

- A tile's origin is the **centre of its cell's bottom face**: the cell spans ``x, y`` in
  ``[-size/2, size/2]`` and ``z`` in ``[0, height]`` in the tile's local coordinates.
- Horizontal sides ``e n w s`` lie on the planes ``x = +sx/2``, ``y = +sy/2``, ``x = -sx/2``, ``y = -sy/2``;
  ``up``/``down`` on ``z = height`` and ``z = 0``.
- A horizontal side's profile is read **counter-clockwise around the tile** (coordinate ``u`` along the side,
  ``v`` = height). Two facing sides match when one profile is the mirror (``u -> -u``) of the other. A
  symmetric profile gets a label that fits itself; an asymmetric one gets ``"h…"`` and its mirror ``"h…~"``
  (a compatible pair: they fit each other, not themselves).
- A vertical profile (points ``x, y``) that a quarter turn changes gets the orientation suffix ``":k"`` of the
  WFC core, so turned variants keep fitting the tile above or below only when the geometry lines up.
- Label forms: ``"h<hash>"`` for a symmetric side profile, ``"m<hash>"`` / ``"m<hash>~"`` for an asymmetric
  one and its mirror (always paired, even when the kit has only one of them: such a side then fits nothing,
  which ``rules_from_tiles`` reports), ``"v<hash>"`` or ``"v<hash>:k"`` for top/bottom profiles.
- A side with no vertex on its plane is **unset** (``""``): it fits only another unset side.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from ..budget import MEMORY_BUDGET, check_memory
from .vocab import SIDES_2D, SIDES_3D

SIDES = SIDES_3D  # n e s w up down
CellSize = Sequence[float] | np.ndarray
"""A cell's size along x, y and z."""
MIRROR_SUFFIX = "~"
_ASYMMETRIC = re.compile(r"^m[0-9a-f]{8}$")


def _hash(points: np.ndarray) -> str:
    rows = np.unique(points.astype(np.int64), axis=0)
    return hashlib.blake2b(rows.tobytes(), digest_size=4).hexdigest()


def _quantise(points: np.ndarray, quantum: float) -> np.ndarray:
    return np.round(points / quantum).astype(np.int64)


def horizontal_label(profile: np.ndarray, quantum: float) -> str:
    """Label of a side profile: ``h…`` when it is symmetric, else ``m…`` or its mirror twin ``m…~``.

    Parameters
    ----------
    profile : numpy.ndarray
        (M, 2) ``(u, v)`` points, ``u`` counter-clockwise along the side, ``v`` the height.
    quantum : float
        Positions are rounded to this step before hashing.
    """
    if len(profile) == 0:
        return ""
    q = _quantise(np.asarray(profile, dtype=np.float64), quantum)
    mine = _hash(q)
    mirrored = _hash(q * np.array([-1, 1]))
    if mine == mirrored:
        return f"h{mine}"
    base = min(mine, mirrored)
    return f"m{base}" if mine == base else f"m{base}{MIRROR_SUFFIX}"


def vertical_label(profile: np.ndarray, quantum: float) -> str:
    """Label of a top/bottom profile, with ``":k"`` when a turn changes it.

    Parameters
    ----------
    profile : numpy.ndarray
        (M, 2) ``(x, y)`` points.
    quantum : float
        Positions are rounded to this step before hashing.
    """
    if len(profile) == 0:
        return ""
    q = _quantise(np.asarray(profile, dtype=np.float64), quantum)
    turns = [q]
    for _ in range(3):
        x, y = turns[-1][:, 0], turns[-1][:, 1]
        turns.append(np.column_stack([-y, x]))  # a quarter turn counter-clockwise seen from above
    hashes = [_hash(t) for t in turns]
    if len(set(hashes)) == 1:
        return f"v{hashes[0]}"
    j0 = int(np.argmin(hashes))
    return f"v{hashes[j0]}:{(-j0) % 4}"


def side_profiles(vertices: np.ndarray, cell_size: CellSize, tolerance: float) -> dict[str, np.ndarray]:
    """The ``(u, v)`` (horizontal) or ``(x, y)`` (vertical) points of ``vertices`` on each side's plane.

    Parameters
    ----------
    vertices : numpy.ndarray
        (N, 3) positions relative to the tile origin.
    cell_size : sequence of float
        The cell's size along x, y and z.
    tolerance : float
        How far from a plane a vertex still counts as on it.
    """
    v = np.asarray(vertices, dtype=np.float64).reshape(-1, 3)
    sx, sy, sz = (float(c) for c in cell_size)
    x, y, z = v[:, 0], v[:, 1], v[:, 2]
    planes = {
        "e": (np.abs(x - sx / 2) <= tolerance, np.column_stack([y, z])),
        "n": (np.abs(y - sy / 2) <= tolerance, np.column_stack([-x, z])),
        "w": (np.abs(x + sx / 2) <= tolerance, np.column_stack([-y, z])),
        "s": (np.abs(y + sy / 2) <= tolerance, np.column_stack([x, z])),
        "up": (np.abs(z - sz) <= tolerance, np.column_stack([x, y])),
        "down": (np.abs(z) <= tolerance, np.column_stack([x, y])),
    }
    return {side: points[mask] for side, (mask, points) in planes.items()}


def _plane_axes(side: str, size: np.ndarray) -> tuple[int, float, tuple[int, int], tuple[float, float], tuple[
        tuple[float, float], tuple[float, float]]]:
    """For a side: the axis normal to its plane, the plane's offset, the axes of ``(u, v)``, their signs and
    their ranges over the cell (the same ``(u, v)`` as :func:`side_profiles`)."""
    sx, sy, sz = (float(c) for c in size)
    return {
        "e": (0, sx / 2, (1, 2), (1.0, 1.0), ((-sy / 2, sy / 2), (0.0, sz))),
        "n": (1, sy / 2, (0, 2), (-1.0, 1.0), ((-sx / 2, sx / 2), (0.0, sz))),
        "w": (0, -sx / 2, (1, 2), (-1.0, 1.0), ((-sy / 2, sy / 2), (0.0, sz))),
        "s": (1, -sy / 2, (0, 2), (1.0, 1.0), ((-sx / 2, sx / 2), (0.0, sz))),
        "up": (2, sz, (0, 1), (1.0, 1.0), ((-sx / 2, sx / 2), (-sy / 2, sy / 2))),
        "down": (2, 0.0, (0, 1), (1.0, 1.0), ((-sx / 2, sx / 2), (-sy / 2, sy / 2))),
    }[side]


def _centres(low: float, high: float, quantum: float) -> np.ndarray:
    n = max(1, round((high - low) / quantum))
    return low + (np.arange(n) + 0.5) * (high - low) / n


RASTER_BYTES = 72  # peak bytes per sample of a side while its faces are rasterised (tracemalloc, 40k-1M samples)


def raster_bytes(cell_size: CellSize, quantum: float) -> float:
    """Estimated peak memory of :func:`side_bitmaps` (float arithmetic: no overflow, no allocation): every side's
    bitmap kept, plus the temporaries of rasterising the largest one.

    Parameters
    ----------
    cell_size : sequence of float
        The cell's size along x, y and z.
    quantum : float
        The raster's step.
    """
    sx, sy, sz = (float(c) for c in cell_size)
    across, up = max(1.0, float(np.round(max(sx, sy) / quantum))), max(1.0, float(np.round(sz / quantum)))
    largest = max(across * up, across * across)
    return RASTER_BYTES * largest + 4.0 * across * up + 2.0 * across * across


def check_raster_budget(cell_size: CellSize, quantum: float, budget: float = MEMORY_BUDGET) -> None:
    """Refuse (``ValueError`` with the least quantum that fits) a cell whose side rasters at ``quantum`` would
    exceed ``budget`` bytes: a kit in centimetres, a huge tile or a tiny quantum.

    Parameters
    ----------
    cell_size : sequence of float
        The cell's size along x, y and z.
    quantum : float
        The raster's step.
    budget : float, default MEMORY_BUDGET
        Bytes the rasters may take.
    """
    needed = raster_bytes(cell_size, quantum)
    if needed <= budget:
        return
    sx, sy, sz = (float(c) for c in cell_size)
    check_memory(
        f"Rasterising the sides of a {sx:g} × {sy:g} × {sz:g} cell every {quantum:g}", needed,
        f"raise quantum (Precision) to {_least_quantum(cell_size, quantum, budget):g} or more, or check "
        "the cell size (a kit modelled in centimetres has cells a hundred times too large)", budget)


def _least_quantum(cell_size: CellSize, quantum: float, budget: float) -> float:
    """About the smallest quantum, rounded up to two significant digits, whose rasters fit ``budget``: bisection
    in log scale between ``quantum`` and the cell's largest size (one sample per side there)."""
    low, high = quantum, max(float(c) for c in cell_size)
    if raster_bytes(cell_size, high) > budget:
        return high  # nothing fits this budget; the refusal stands on its own
    for _ in range(200):  # samples only shrink as the quantum grows
        middle = math.sqrt(low) * math.sqrt(high)  # no overflow for huge cells
        if not low < middle < high:
            break
        low, high = (low, middle) if raster_bytes(cell_size, middle) <= budget else (middle, high)
    step = 10.0 ** (math.floor(math.log10(high)) - 1)
    shown = float(f"{math.ceil(high / step) * step:.2g}")
    return shown if math.isfinite(shown) and raster_bytes(cell_size, shown) <= budget else high


def _rasterise(corners: np.ndarray, us: np.ndarray, vs: np.ndarray) -> np.ndarray:
    """(len(us), len(vs)) bool: the sample points covered by any of the (T, 3, 2) triangles."""
    bitmap = np.zeros((len(us), len(vs)), dtype=bool)
    eps = 1e-9
    for a, b, c in corners:
        lo, hi = np.minimum(np.minimum(a, b), c), np.maximum(np.maximum(a, b), c)
        i0, i1 = np.searchsorted(us, lo[0] - eps), np.searchsorted(us, hi[0] + eps)
        j0, j1 = np.searchsorted(vs, lo[1] - eps), np.searchsorted(vs, hi[1] + eps)
        if i0 >= i1 or j0 >= j1:
            continue
        pu, pv = np.meshgrid(us[i0:i1], vs[j0:j1], indexing="ij")
        d1 = (pu - b[0]) * (a[1] - b[1]) - (a[0] - b[0]) * (pv - b[1])
        d2 = (pu - c[0]) * (b[1] - c[1]) - (b[0] - c[0]) * (pv - c[1])
        d3 = (pu - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (pv - a[1])
        negative = (d1 < -eps) | (d2 < -eps) | (d3 < -eps)
        positive = (d1 > eps) | (d2 > eps) | (d3 > eps)
        bitmap[i0:i1, j0:j1] |= ~(negative & positive)
    return bitmap


def side_bitmaps(vertices: np.ndarray, triangles: np.ndarray, cell_size: CellSize, quantum: float,
                 tolerance: float) -> dict[str, np.ndarray]:
    """Per side, the faces lying in its plane rasterised at ``quantum`` over the cell's side (``(u, v)`` grid
    of sample centres): what a neighbour sees, whatever the faces' topology (one box or three make one wall).

    Parameters
    ----------
    vertices : numpy.ndarray
        (N, 3) positions relative to the tile origin.
    triangles : numpy.ndarray
        (M, 3) vertex indices.
    cell_size : sequence of float
        The cell's size along x, y and z.
    quantum : float
        The raster's step.
    tolerance : float
        How far from a plane a triangle's corners still count as on it.
    """
    v = np.asarray(vertices, dtype=np.float64).reshape(-1, 3)
    tris = v[np.asarray(triangles, dtype=np.int64).reshape(-1, 3)] if len(v) else np.zeros((0, 3, 3))
    size = np.asarray(cell_size, dtype=np.float64)
    out = {}
    for side in SIDES:
        axis, offset, (ua, va), (us_sign, vs_sign), (urange, vrange) = _plane_axes(side, size)
        on = np.all(np.abs(tris[:, :, axis] - offset) <= tolerance, axis=1) if len(tris) else np.zeros(0, bool)
        corners = np.stack([tris[on][:, :, ua] * us_sign, tris[on][:, :, va] * vs_sign], axis=2)
        out[side] = _rasterise(corners, _centres(*urange, quantum), _centres(*vrange, quantum))
    return out


def _bits_hash(bitmap: np.ndarray) -> str:
    data = np.array(bitmap.shape, dtype=np.int64).tobytes() + np.packbits(bitmap, axis=None).tobytes()
    return hashlib.blake2b(data, digest_size=4).hexdigest()


def bitmap_label(bitmap: np.ndarray, side: str) -> str:
    """The label of a side's rasterised faces (same forms as the vertex labels: ``h``, ``m``/``m~``, ``v``/``:k``;
    ``""`` for no face on the plane).

    Parameters
    ----------
    bitmap : numpy.ndarray
        A side's bool raster from :func:`side_bitmaps`.
    side : str
        The side (``up`` and ``down`` are labelled as top/bottom profiles).
    """
    if not bitmap.any():
        return ""
    if side in ("up", "down"):
        turns = [np.rot90(bitmap, k) for k in range(4)]
        hashes = [_bits_hash(t) for t in turns]
        if len(set(hashes)) == 1:
            return f"v{hashes[0]}"
        j0 = int(np.argmin(hashes))
        return f"v{hashes[j0]}:{(-j0) % 4}"
    mine, mirrored = _bits_hash(bitmap), _bits_hash(bitmap[::-1])
    if mine == mirrored:
        return f"h{mine}"
    base = min(mine, mirrored)
    return f"m{base}" if mine == base else f"m{base}{MIRROR_SUFFIX}"


def detect_sockets(vertices: np.ndarray, cell_size: CellSize, quantum: float = 0.01,
                   tolerance: float | None = None, triangles: np.ndarray | None = None) -> dict[str, str]:
    """Socket labels ``n e s w up down`` of a tile from its geometry in tile-local coordinates.

    With ``triangles`` (the usual case), a side's label is the hash of the **faces lying in its plane**,
    rasterised at ``quantum``: two facing sides fit when their faces cover the same area (mirrored across the
    shared plane), however each was modelled. A side with no face in its plane (a flat tile's edge), or every
    side when no triangles are given, hashes the **vertices** on the plane instead.

    Parameters
    ----------
    vertices : numpy.ndarray
        (N, 3) vertex positions relative to the tile origin (centre of the cell's bottom face).
    cell_size : sequence of float
        (3,) cell width along x, depth along y and height along z (> 0).
    quantum : float, default 0.01
        Positions are rounded to this step before hashing (absorbs float noise; geometry that is off by more
        than this gets another label).
    tolerance : float, optional
        How far from a side's plane a vertex still counts as on it (default: ``quantum / 2``).
    triangles : numpy.ndarray, optional
        (M, 3) vertex indices of the tile's triangles.

    Examples
    --------
    >>> import numpy as np
    >>> cube = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (0, 2)], dtype=float)
    >>> labels = detect_sockets(cube, (2, 2, 2))
    >>> labels["e"] == labels["w"] == labels["n"] and labels["up"] == labels["down"]
    True
    """
    size = np.asarray(cell_size, dtype=np.float64).reshape(-1)
    if size.shape != (3,) or not np.all(np.isfinite(size)) or np.any(size <= 0):
        raise ValueError(f"cell_size: give three sizes > 0 (x, y, z), got {cell_size!r}")
    if not (np.isfinite(quantum) and quantum > 0):
        raise ValueError(f"quantum: must be > 0, got {quantum!r}")
    tolerance = quantum / 2 if tolerance is None else float(tolerance)
    if not (np.isfinite(tolerance) and tolerance >= 0):
        raise ValueError(f"tolerance: must be >= 0, got {tolerance!r}")
    if triangles is not None:
        check_raster_budget(size, quantum)
    bitmaps = side_bitmaps(vertices, triangles, size, quantum, tolerance) if triangles is not None else {}
    profiles = side_profiles(vertices, size, tolerance)
    out = {}
    for side in SIDES:
        if side in bitmaps and bitmaps[side].any():
            out[side] = bitmap_label(bitmaps[side], side)
        else:  # no face in the plane (or no faces given): the vertices on it, e.g. a flat tile's edge
            label = horizontal_label if side in SIDES_2D else vertical_label
            out[side] = label(profiles[side], quantum)
    return out


def cell_overflow(vertices: np.ndarray, cell_size: CellSize, vertical: bool = True) -> float:
    """How far (≥ 0) the vertices reach outside the cell (x, y in ±size/2, z in [0, height]): the usual sign of
    a tile whose origin is a few centimetres off. ``vertical=False`` measures x and y only (a stair or a tall
    prop may rise into the storey above by design).

    Parameters
    ----------
    vertices : numpy.ndarray
        (N, 3) positions relative to the tile origin (centre of the cell's bottom face).
    cell_size : sequence of float
        The cell's size along x, y and z.
    vertical : bool, default True
        Also measure z.

    Examples
    --------
    >>> cell_overflow(np.array([[1.03, 0.0, 0.5], [-1.0, 0.0, 0.0]]), (2, 2, 2))
    0.03
    >>> cell_overflow(np.array([[0.0, 0.0, 2.15]]), (2, 2, 2), vertical=False)
    0.0
    """
    v = np.asarray(vertices, dtype=np.float64).reshape(-1, 3)
    if len(v) == 0:
        return 0.0
    sx, sy, sz = (float(c) for c in cell_size)
    low = np.array([-sx / 2, -sy / 2, 0.0])
    high = np.array([sx / 2, sy / 2, sz])
    axes = 3 if vertical else 2
    return float(round(max(0.0, (low - v.min(axis=0))[:axes].max(), (v.max(axis=0) - high)[:axes].max()), 9))


def mirror_pairs(labels: Iterable[str]) -> list[tuple[str, str]]:
    """Compatible pairs ``(x, x~)``: for every label ``x~`` among ``labels`` (a mirrored profile and its twin),
    and for every detected asymmetric label ``m<hash>`` (which must never fit itself).

    Parameters
    ----------
    labels : iterable of str
        Socket labels of a kit.

    Examples
    --------
    >>> mirror_pairs(["door", "door~", "wall"])
    [('door', 'door~')]
    """
    pairs = set()
    for label in labels:
        if label and label.endswith(MIRROR_SUFFIX):
            pairs.add((label[: -len(MIRROR_SUFFIX)], label))
        elif label and _ASYMMETRIC.match(label):
            pairs.add((label, label + MIRROR_SUFFIX))
    return sorted(pairs)


def parse_compatible(text: str) -> list[tuple[str, str]]:
    """Pairs from ``"a=b, c=d"`` (spaces ignored); ``ValueError`` naming the bad item otherwise.

    Parameters
    ----------
    text : str
        ``a=b`` pairs separated by commas (or ``;``).

    Examples
    --------
    >>> parse_compatible("ceil=floor, ground = floor")
    [('ceil', 'floor'), ('ground', 'floor')]
    """
    pairs = []
    for item in (part.strip() for part in text.replace(";", ",").split(",")):
        if not item:
            continue
        left, sep, right = item.partition("=")
        if not sep or not left.strip() or not right.strip() or "=" in right:
            raise ValueError(f"compatible: write pairs as a=b separated by commas; cannot read {item!r}")
        pairs.append((left.strip(), right.strip()))
    return pairs


def follow_labels(text: str, before: Mapping[str, Mapping[str, str]], after: Mapping[str, Mapping[str, str]]) -> str:
    """A comma-separated label list (a Border field) rewritten for relabelled tiles.

    Each label that some tile side carried ``before`` becomes the labels those same sides carry ``after``
    (``{tile: {side: label}}``); a label no relabelled side carried stays as it is. So "wall" keeps meaning
    the sides that were walls when Detect Sockets replaces the hand-set labels with geometry hashes.

    Parameters
    ----------
    text : str
        Labels separated by commas.
    before, after : mapping
        ``{tile: {side: label}}`` before and after the relabelling.
    """
    out: list[str] = []
    for label in (part.strip() for part in text.split(",")):
        if not label:
            continue
        new = sorted({after[tile][side] for tile, sides in before.items() for side, old in sides.items()
                      if old == label and after.get(tile, {}).get(side)})
        for value in new or [label]:
            if value not in out:
                out.append(value)
    return ", ".join(out)
