"""Elementwise sin, cos, arctan2, arcsin, arccos and log that give the same bits on every CPU and numpy.

numpy's own transcendental ufuncs pick a kernel at run time: SIMD code for the CPU at hand (AVX2, AVX-512,
SVML), a different one in each numpy release, and plain libm for the elements a SIMD loop peels off to reach an
aligned address. Each is accurate to an ulp or so, but not the *same* ulp: a rotation computed in one process
can differ in its last bits from the same rotation computed in another. Strew promises byte-identical output
for the same inputs and seed, so everything that decides an output goes through this module instead.

Each function here is built only from operations IEEE 754 rounds correctly (``+ - * /``, ``sqrt``, ``rint``,
``frexp``, comparisons), each applied element by element, so every element's result depends on that element
alone: not on the array's length, alignment, the SIMD path, numpy's version or the CPU. Accuracy is within a
few ulp of the correctly rounded result for the arguments Strew uses (angles of at most about ``1e5``
radians; larger angles stay deterministic but lose accuracy in the range reduction).

Examples
--------
>>> import math
>>> import numpy as np
>>> angles = np.array([0.0, 0.5, 2.0, -7.0])
>>> bool(np.all(np.abs(sin(angles) - [math.sin(a) for a in angles]) < 1e-15))
True
>>> float(arctan2(np.array([1.0]), np.array([-1.0]))[0]) == 3 * math.pi / 4
True
"""

from __future__ import annotations

import math
from fractions import Fraction
from math import factorial

import numpy as np
from numpy.typing import NDArray

Floats = NDArray[np.float64]

# pi/2 split into three parts; the first two have 33 significant bits, so k * part is exact for |k| < 2**20.
_PIO2_1 = float.fromhex("0x1.921fb54400000p+0")
_PIO2_2 = float.fromhex("0x1.0b4611a600000p-34")
_PIO2_3 = float.fromhex("0x1.3198a2e037073p-69")
_TWO_OVER_PI = float.fromhex("0x1.45f306dc9c883p-1")
# pi and pi/2 as a double plus the remainder.
_PI_HI = float.fromhex("0x1.921fb54442d18p+1")
_PI_LO = float.fromhex("0x1.1a62633145c07p-53")
_PIO2_HI = float.fromhex("0x1.921fb54442d18p+0")
_PIO2_LO = float.fromhex("0x1.1a62633145c07p-54")
# atan(j / 8), j = 0..8, as a double plus the remainder.
_ATAN_HI = np.array([float.fromhex(h) for h in (
    "0x0.0p+0", "0x1.fd5ba9aac2f6ep-4", "0x1.f5b75f92c80ddp-3", "0x1.6f61941e4def1p-2", "0x1.dac670561bb4fp-2",
    "0x1.1e00babdefeb4p-1", "0x1.4978fa3269ee1p-1", "0x1.700a7c5784634p-1", "0x1.921fb54442d18p-1")])
_ATAN_LO = np.array([float.fromhex(h) for h in (
    "0x0.0p+0", "-0x1.cd37686760c17p-59", "0x1.8ab6e3cf7afbdp-57", "-0x1.c63aae6f6e918p-56",
    "0x1.a2b7f222f65e2p-56", "-0x1.928df287a668fp-58", "0x1.2419a87f2a458p-56", "-0x1.8c34d25aadef6p-56",
    "0x1.1a62633145c07p-55")])
# ln 2 split: the first part has 32 significant bits, so e * part is exact for every binary exponent e.
_LN2_HI = float.fromhex("0x1.62e42ff000000p-1")
_LN2_LO = float.fromhex("-0x1.718432a1b0e26p-35")
_SQRT_HALF = float.fromhex("0x1.6a09e667f3bcdp-1")

# Series coefficients, each the correctly rounded value of an exact fraction (int / int is correctly rounded).
_SIN = [float(Fraction((-1) ** k, factorial(2 * k + 1))) for k in range(1, 9)]  # x^3 ... x^17
_COS = [float(Fraction((-1) ** k, factorial(2 * k))) for k in range(2, 10)]  # x^4 ... x^18
_ATAN = [float(Fraction((-1) ** k, 2 * k + 1)) for k in range(1, 8)]  # t^3 ... t^15, |t| <= 1/16
_LOG = [float(Fraction(2, 2 * k + 1)) for k in range(1, 12)]  # 2 atanh(s) = 2s + s * (2/3 s^2 + 2/5 s^4 ...)


def _horner(z: Floats, coefficients: list[float]) -> Floats:
    """c0 + z * (c1 + z * (c2 + ...)), evaluated from the highest term down."""
    out = np.full_like(z, coefficients[-1])
    for c in reversed(coefficients[:-1]):
        out *= z
        out += c
    return out


def _as_floats(x: object) -> Floats:
    return np.asarray(x, dtype=np.float64)


def sincos(x: object) -> tuple[Floats, Floats]:
    """``(sin x, cos x)`` of an array of radians (NaN for non-finite angles)."""
    a = _as_floats(x)
    with np.errstate(invalid="ignore", over="ignore"):
        finite = np.isfinite(a)
        a = np.where(finite, a, 0.0)
        k = np.rint(a * _TWO_OVER_PI)
        r = ((a - k * _PIO2_1) - k * _PIO2_2) - k * _PIO2_3
        z = r * r
        s = r + r * z * _horner(z, _SIN)
        c = (1.0 - 0.5 * z) + z * z * _horner(z, _COS)
        quadrant = np.remainder(k, 4.0).astype(np.int8)
        odd = (quadrant & 1).astype(bool)
        sin_out = np.where(odd, c, s)
        cos_out = np.where(odd, s, c)
        sin_out = np.where(quadrant >= 2, -sin_out, sin_out)
        cos_out = np.where((quadrant == 1) | (quadrant == 2), -cos_out, cos_out)
        nan = np.float64(np.nan)
        return np.where(finite, sin_out, nan), np.where(finite, cos_out, nan)


def sin(x: object) -> Floats:
    """Sine of an array of radians."""
    return sincos(x)[0]


def cos(x: object) -> Floats:
    """Cosine of an array of radians."""
    return sincos(x)[1]


def _atan_unit(a: Floats) -> Floats:
    """atan(a) for 0 <= a <= 1: atan(j/8) from the table plus the series of the rest."""
    j = np.rint(a * 8.0)
    c = j * 0.125
    t = (a - c) / (1.0 + a * c)
    index = j.astype(np.intp)
    return np.take(_ATAN_HI, index) + (np.take(_ATAN_LO, index) + (t + t * (t * t) * _horner(t * t, _ATAN)))


def arctan2(y: object, x: object) -> Floats:
    """The angle of the point (x, y) in radians, in [-pi, pi], signed zeros as in C's ``atan2`` (finite
    inputs; NaN where either is NaN or infinite)."""
    ya, xa = np.broadcast_arrays(_as_floats(y), _as_floats(x))
    ax, ay = np.abs(xa), np.abs(ya)
    big, small = np.maximum(ax, ay), np.minimum(ax, ay)
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = np.where(big > 0.0, small / np.where(big > 0.0, big, 1.0), 0.0)
        bad = ~(np.isfinite(xa) & np.isfinite(ya))
        angle = _atan_unit(np.where(bad, 0.0, ratio))
    angle = np.where(ay > ax, (_PIO2_HI - angle) + _PIO2_LO, angle)
    angle = np.where(np.signbit(xa), (_PI_HI - angle) + _PI_LO, angle)
    return np.where(bad, np.nan, np.copysign(angle, ya))


def arcsin(x: object) -> Floats:
    """Arc sine in [-pi/2, pi/2] (NaN outside [-1, 1])."""
    a = _as_floats(x)
    with np.errstate(invalid="ignore"):
        return arctan2(a, np.sqrt((1.0 - a) * (1.0 + a)))


def arccos(x: object) -> Floats:
    """Arc cosine in [0, pi] (NaN outside [-1, 1])."""
    a = _as_floats(x)
    with np.errstate(invalid="ignore"):
        return arctan2(np.sqrt((1.0 - a) * (1.0 + a)), a)


_SMALL = 16
"""Below this many elements :func:`log` runs the same operations on Python floats: numpy's per-call cost
would dominate (the WFC heuristic asks for the log of one or two cells at a time)."""


def _log_one(v: float) -> float:
    """:func:`log` of one float: the vector path's operations in the same order."""
    if not 0.0 < v < math.inf:
        return -math.inf if v == 0.0 else math.inf if v == math.inf else math.nan
    mantissa, exponent = math.frexp(v)
    low = mantissa < _SQRT_HALF
    m = mantissa * 2.0 if low else mantissa
    e = float(exponent - low)
    f = m - 1.0
    s = f / (2.0 + f)
    z = s * s
    h = _LOG[-1]
    for c in reversed(_LOG[:-1]):
        h = h * z + c
    log_m = f - s * (f - z * h)
    return (e * _LN2_LO + log_m) + e * _LN2_HI


def log(x: object) -> Floats:
    """Natural logarithm (``-inf`` at 0, NaN below)."""
    a = _as_floats(x)
    if a.size < _SMALL:
        return np.array([_log_one(v) for v in a.ravel().tolist()], dtype=np.float64).reshape(a.shape)
    mantissa, exponent = np.frexp(a)
    low = mantissa < _SQRT_HALF
    m = np.where(low, mantissa * 2.0, mantissa)
    e = (exponent - low).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        f = m - 1.0
        s = f / (2.0 + f)
        z = s * s
        log_m = f - s * (f - z * _horner(z, _LOG))
        out = (e * _LN2_LO + log_m) + e * _LN2_HI
        out = np.where(a > 0.0, out, np.where(a == 0.0, -np.inf, np.nan))
        return np.where(np.isposinf(a), np.inf, out)


# -- small linear algebra, written out: BLAS and LAPACK pick kernels by CPU, and their rounding follows --------


def dot3(a: object, b: object) -> Floats:
    """Row-wise dot products of (..., 3) arrays: ``a·b`` summed x, then y, then z."""
    u, v = _as_floats(a), _as_floats(b)
    return (u[..., 0] * v[..., 0] + u[..., 1] * v[..., 1]) + u[..., 2] * v[..., 2]


def norm3(a: object) -> Floats:
    """Row-wise Euclidean length of a (..., 3) array."""
    return np.sqrt(dot3(a, a))


def project(points: object, rows: object) -> Floats:
    """``points @ rows.T`` for (N, 3) points and (K, 3) rows: (N, K), each entry a :func:`dot3`."""
    p, r = _as_floats(points), _as_floats(rows)
    return (p[:, None, 0] * r[None, :, 0] + p[:, None, 1] * r[None, :, 1]) + p[:, None, 2] * r[None, :, 2]


def det3(m: object) -> float:
    """Determinant of a 3×3 matrix (cofactors of the first row)."""
    a = _as_floats(m)
    return float(a[0, 0] * (a[1, 1] * a[2, 2] - a[1, 2] * a[2, 1])
                 - a[0, 1] * (a[1, 0] * a[2, 2] - a[1, 2] * a[2, 0])
                 + a[0, 2] * (a[1, 0] * a[2, 1] - a[1, 1] * a[2, 0]))


def solve3(m: object, b: object) -> Floats:
    """``x`` with ``m @ x = b`` for a 3×3 ``m`` and ``b`` of shape (3,) or (3, K), by Cramer's rule
    (``ValueError`` for a singular ``m``)."""
    a, rhs = _as_floats(m), _as_floats(b)
    det = det3(a)
    if det == 0.0 or not math.isfinite(det):
        raise ValueError("singular 3×3 system")
    columns = rhs.reshape(3, -1)
    out = np.empty_like(columns)
    for col in range(columns.shape[1]):
        for i in range(3):
            swapped = a.copy()
            swapped[:, i] = columns[:, col]
            out[i, col] = det3(swapped) / det
    return out.reshape(rhs.shape)


def transform(points: object, matrix: object) -> Floats:
    """(N, 3) ``points`` through a 4×4 affine ``matrix`` (``points @ matrix[:3, :3].T + matrix[:3, 3]``,
    written out)."""
    p, m = _as_floats(points).reshape(-1, 3), _as_floats(matrix)
    return np.column_stack([
        (p[:, 0] * m[i, 0] + p[:, 1] * m[i, 1]) + p[:, 2] * m[i, 2] + m[i, 3] for i in range(3)
    ]) if len(p) else np.zeros((0, 3))
