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
import re
from collections.abc import Iterable, Sequence

import numpy as np

SIDES = ("n", "e", "s", "w", "up", "down")
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
    """Label of a side profile ``(M, 2)`` of ``(u, v)`` points (``u`` counter-clockwise along the side)."""
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
    """Label of a top/bottom profile ``(M, 2)`` of ``(x, y)`` points, with ``":k"`` when a turn changes it."""
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
    """The ``(u, v)`` (horizontal) or ``(x, y)`` (vertical) points of ``vertices`` on each side's plane."""
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


def detect_sockets(vertices: np.ndarray, cell_size: CellSize, quantum: float = 0.01,
                   tolerance: float | None = None) -> dict[str, str]:
    """Socket labels ``n e s w up down`` of a tile from its vertices in tile-local coordinates.

    Parameters
    ----------
    vertices : (N, 3) vertex positions relative to the tile origin (centre of the cell's bottom face).
    cell_size : (3,) cell width along x, depth along y and height along z (> 0).
    quantum : positions are rounded to this step before hashing (absorbs float noise; geometry that is
        off by more than this gets another label).
    tolerance : how far from a side's plane a vertex still counts as on it (default: ``quantum / 2``).

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
    profiles = side_profiles(vertices, size, tolerance)
    out = {}
    for side in SIDES:
        label = horizontal_label if side in ("n", "e", "s", "w") else vertical_label
        out[side] = label(profiles[side], quantum)
    return out


def cell_overflow(vertices: np.ndarray, cell_size: CellSize) -> float:
    """How far (≥ 0) the vertices reach outside the cell (x, y in ±size/2, z in [0, height]): the usual sign of
    a tile whose origin is a few centimetres off.

    >>> cell_overflow(np.array([[1.03, 0.0, 0.5], [-1.0, 0.0, 0.0]]), (2, 2, 2))
    0.03
    """
    v = np.asarray(vertices, dtype=np.float64).reshape(-1, 3)
    if len(v) == 0:
        return 0.0
    sx, sy, sz = (float(c) for c in cell_size)
    low = np.array([-sx / 2, -sy / 2, 0.0])
    high = np.array([sx / 2, sy / 2, sz])
    return float(round(max(0.0, (low - v.min(axis=0)).max(), (v.max(axis=0) - high).max()), 9))


def mirror_pairs(labels: Iterable[str]) -> list[tuple[str, str]]:
    """Compatible pairs ``(x, x~)``: for every label ``x~`` among ``labels`` (a mirrored profile and its twin),
    and for every detected asymmetric label ``m<hash>`` (which must never fit itself).

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
