"""Helpers the calibration scripts share: printing a named figure, normal and binomial tails, bisection.

Not a calibration script itself (run-all skips files whose name starts with an underscore).
"""
import importlib.util
import math
import os


def show(name, value, fmt="%.3g", width=72):
    print("%-*s %s" % (width, name, fmt % value))


def norm_sf(x):
    return 0.5 * math.erfc(x / math.sqrt(2.0))


def bisect(f, lo, hi, it=200):
    """Root of an increasing function f on [lo, hi]."""
    for _ in range(it):
        mid = 0.5 * (lo + hi)
        if f(mid) < 0:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def binom_cdf(k, n, p):
    return sum(math.comb(n, i) * p ** i * (1 - p) ** (n - i) for i in range(k + 1))


def cp_lower_all(n, level):
    """One-sided Clopper-Pearson lower bound at confidence `level` when n of n trials succeeded."""
    return (1.0 - level) ** (1.0 / n)


def load_script(name):
    """Another calibration script of this directory as a module (its names have dots, so `import` cannot reach them)."""
    spec = importlib.util.spec_from_file_location(name.replace(".", "_"), os.path.join(os.path.dirname(os.path.abspath(__file__)), name))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
