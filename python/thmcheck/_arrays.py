"""Checks on the arrays a user hands over: one-line ValueError before any work (docs/guide/bad-input.md)."""
import numpy as np

# Sizes beyond these would take the multiprecision rungs hours: refused, never attempted (the C++ instance limits).
MAX_SAMPLES = 512   # n
MAX_LAYERS = 16     # L
MAX_SIDE = 4096     # N, d, d_y
MAX_WIDTH = 16384   # m


def matrix(name, a, shape=None):
    """`a` as a C-contiguous float64 2-D array, exactly: float16/32/64 and integers up to 2^53 convert without
    rounding; anything else (complex, object, strings, long double, NaN, infinity, another shape) is a ValueError."""
    try:
        a = np.asarray(a)
    except Exception as e:  # ragged nested lists
        raise ValueError(f"{name}: not an array ({e})") from None
    kind = a.dtype.kind
    if kind not in "fiu" or (kind == "f" and a.dtype.itemsize > 8):
        raise ValueError(f"{name}: dtype {a.dtype} is not a real type float64 holds exactly (float16/32/64 or integers)")
    if a.ndim != 2:
        raise ValueError(f"{name}: expected a 2-D array, got shape {a.shape}")
    if shape is not None and a.shape != tuple(shape):
        raise ValueError(f"{name}: shape {a.shape}, expected {tuple(shape)}")
    out = np.ascontiguousarray(a, dtype=np.float64)
    if kind in "iu" and np.any(np.abs(out) > 2.0**53):
        raise ValueError(f"{name}: an integer entry beyond 2^53 would be rounded to float64")
    if not np.all(np.isfinite(out)):
        i, j = np.argwhere(~np.isfinite(out))[0]
        raise ValueError(f"{name}: entry ({i}, {j}) is {out[i, j]}; every entry must be finite")
    return out


def stack(name, a, inner_shape=None):
    """A sequence of 2-D arrays (a 3-D array, or a list of 2-D arrays) as a list of checked float64 matrices."""
    if isinstance(a, np.ndarray) and a.ndim == 2:
        raise ValueError(f"{name}: expected a 3-D array (samples or layers first) or a list of 2-D arrays, got shape {a.shape}")
    try:
        items = list(a)
    except TypeError:
        raise ValueError(f"{name}: expected a 3-D array or a list of 2-D arrays, got {type(a).__name__}") from None
    if not items:
        raise ValueError(f"{name}: empty")
    return [matrix(f"{name}[{k}]", x, inner_shape) for k, x in enumerate(items)]


def positive_count(name, value, upper):
    if not (1 <= value <= upper):
        raise ValueError(f"{name} = {value} is outside [1, {upper}]")
    return value


def real(name, value):
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a real number, got {value!r}") from None
    if not np.isfinite(v):
        raise ValueError(f"{name} must be finite, got {v}")
    return v
