"""Curve remap through control points (like Unity's AnimationCurve or Blender's Float Curve).

``linear`` joins the points with straight segments; ``smooth`` uses a monotone cubic (PCHIP, the same
derivatives as ``scipy.interpolate.PchipInterpolator``): it passes through every point, never overshoots
between them and keeps monotone data monotone. Outside the first/last x the curve holds its end values.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray


def _pchip_slopes(x: NDArray[np.float64], y: NDArray[np.float64]) -> NDArray[np.float64]:
    h = np.diff(x)
    m = np.diff(y) / h
    if len(x) == 2:
        return np.array([m[0], m[0]])
    d = np.zeros_like(y)
    w1 = 2.0 * h[1:] + h[:-1]
    w2 = h[1:] + 2.0 * h[:-1]
    same_sign = (np.sign(m[:-1]) * np.sign(m[1:])) > 0
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        harmonic = (w1 + w2) / (w1 / m[:-1] + w2 / m[1:])
    d[1:-1] = np.where(same_sign, harmonic, 0.0)
    d[0] = _edge_slope(h[0], h[1], m[0], m[1])
    d[-1] = _edge_slope(h[-1], h[-2], m[-1], m[-2])
    return d


def _edge_slope(h0: float, h1: float, m0: float, m1: float) -> float:
    d = ((2.0 * h0 + h1) * m0 - h0 * m1) / (h0 + h1)
    if np.sign(d) != np.sign(m0):
        return 0.0
    if np.sign(m0) != np.sign(m1) and abs(d) > abs(3.0 * m0):
        return 3.0 * m0
    return float(d)


class CurveRemap:
    """Map values through a curve given by control points.

    Parameters
    ----------
    xs, ys : sequences of the same length (>= 2)
        Control points; ``xs`` strictly increasing, all finite.
    mode : "smooth" or "linear"
        Monotone cubic (no overshoot) or straight segments.

    Examples
    --------
    >>> edge = CurveRemap([0.0, 0.45, 0.55, 1.0], [0.0, 0.0, 1.0, 1.0])   # a sharp forest edge
    >>> edge([0.3, 0.5, 0.9]).round(3).tolist()
    [0.0, 0.5, 1.0]
    """

    def __init__(self, xs: Any, ys: Any, mode: Literal["smooth", "linear"] = "smooth") -> None:
        x = np.asarray(xs, dtype=np.float64)
        y = np.asarray(ys, dtype=np.float64)
        if x.ndim != 1 or y.ndim != 1 or len(x) != len(y):
            raise ValueError(f"xs, ys: expected two 1-D sequences of one length, got {x.shape}, {y.shape}")
        if len(x) < 2:
            raise ValueError(f"xs: a curve needs at least 2 control points, got {len(x)}")
        if not (np.isfinite(x).all() and np.isfinite(y).all()):
            raise ValueError("xs, ys: control points must be finite")
        if np.any(np.diff(x) <= 0):
            raise ValueError("xs: control points must be sorted by x with no repeats (strictly increasing)")
        if mode not in ("smooth", "linear"):
            raise ValueError(f"mode: expected 'smooth' or 'linear', got {mode!r}")
        self.xs, self.ys, self.mode = x, y, mode
        self._slopes = _pchip_slopes(x, y) if mode == "smooth" else None

    def __call__(self, values: Any) -> NDArray[np.float64]:
        v = np.asarray(values, dtype=np.float64)
        if self._slopes is None:
            return np.interp(v, self.xs, self.ys)
        x, y, d = self.xs, self.ys, self._slopes
        clamped = np.clip(v, x[0], x[-1])
        i = np.clip(np.searchsorted(x, clamped, side="right") - 1, 0, len(x) - 2)
        h = x[i + 1] - x[i]
        t = (clamped - x[i]) / h
        t2, t3 = t * t, t * t * t
        return (
            (2 * t3 - 3 * t2 + 1) * y[i]
            + (t3 - 2 * t2 + t) * h * d[i]
            + (-2 * t3 + 3 * t2) * y[i + 1]
            + (t3 - t2) * h * d[i + 1]
        )

    def __repr__(self) -> str:
        return f"CurveRemap(xs={self.xs.tolist()}, ys={self.ys.tolist()}, mode={self.mode!r})"
