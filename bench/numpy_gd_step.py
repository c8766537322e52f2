#!/usr/bin/env python3
"""NumPy reference of one full gradient-descent step of the [Q] transformer.

The step timed by BM_GdStep in bench/bench_gd.cpp, written the way a straightforward NumPy
implementation would write it: forward pass, exact reverse-mode gradients of all six blocks
(W_Q, W_K, W_V, W_1, W_2, W_U), then theta -= eta * grad.

  n = 4 samples, N = 8 tokens, d = 48, m = 64, d_y = 4, one layer, beta = 1, FFN residual 1,
  softplus activation, c = 1/sqrt(d), eta = 1e-4, float64.

Per sample (U = X_i):
  XQ = U W_Q, XK = U W_K, K = c XQ XK^T, S = softmax_rows(K), XV = U W_V, V = S XV + beta U,
  P = V W_1, Phi = softplus(P), H = Phi W_2 + gamma V, Yhat = H W_U, R = Yhat - Y,
  loss = 1/2 sum_i ||R_i||_F^2.

The data are drawn with NumPy's generator at the same scales as thm::build_qin_model (X, Y entries
N(0, 1); W_Q, W_K, W_V, W_1, W_U entries N(0, 1/d); W_2 entries N(0, 1/m)); the values differ from
the C++ instance (another generator), the shapes and the work do not.

Two implementations are timed:
  loop     the primary reference: a Python loop over the 4 samples, 2-D matmuls inside;
  batched  the same formulas on stacked (n, N, .) arrays (np.matmul broadcasting), no Python loop.
Both are checked against central finite differences (relative error < 1e-6) and against each other
before timing.

Usage:  python3 bench/numpy_gd_step.py [--repeat 7] [--min-time 0.2] [--no-check]
Thread settings are read from the environment at import time, e.g.
        OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python3 bench/numpy_gd_step.py
On this machine numpy comes from the Debian package python3-numpy, for /usr/bin/python3.
"""

import argparse
import os
import sys
import timeit

import numpy as np

# Problem size and hyper-parameters (as in bench/bench_gd.cpp); bench/gd_step_side_by_side.py passes other shapes.
n, N, d, m, d_y = 4, 8, 48, 64, 4
SHAPE = (n, N, d, m, d_y)
BETA = 1.0
GAMMA = 1.0
ETA = 1e-4
SEED = 42


def logit_scale(X):
    """c = 1/sqrt(d)."""
    return 1.0 / np.sqrt(X.shape[-1])

NAMES = ("W_Q", "W_K", "W_V", "W_1", "W_2", "W_U")


def make_problem(seed=SEED, shape=SHAPE):
    n, N, d, m, d_y = shape
    rng = np.random.default_rng(seed)
    sd, sm = 1.0 / np.sqrt(d), 1.0 / np.sqrt(m)
    X = rng.standard_normal((n, N, d))
    Y = rng.standard_normal((n, N, d_y))
    params = {
        "W_Q": rng.standard_normal((d, d)) * sd,
        "W_K": rng.standard_normal((d, d)) * sd,
        "W_V": rng.standard_normal((d, d)) * sd,
        "W_1": rng.standard_normal((d, m)) * sd,
        "W_2": rng.standard_normal((m, d)) * sm,
        "W_U": rng.standard_normal((d, d_y)) * sd,
    }
    return params, X, Y


def softmax_rows(K):
    E = np.exp(K - K.max(axis=-1, keepdims=True))
    return E / E.sum(axis=-1, keepdims=True)


def softplus(x):
    return np.logaddexp(0.0, x)


def sigmoid(x):
    # 1 / (1 + e^-x) without overflow for large negative x.
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def loss_only(p, X, Y):
    """Forward pass only (for the finite differences)."""
    total = 0.0
    C = logit_scale(X)
    for i in range(X.shape[0]):
        U = X[i]
        S = softmax_rows(C * (U @ p["W_Q"]) @ (U @ p["W_K"]).T)
        V = S @ (U @ p["W_V"]) + BETA * U
        H = softplus(V @ p["W_1"]) @ p["W_2"] + GAMMA * V
        R = H @ p["W_U"] - Y[i]
        total += 0.5 * np.sum(R * R)
    return total


def gradient_loop(p, X, Y):
    """Loss and gradient of every block; Python loop over the samples."""
    W_Q, W_K, W_V, W_1, W_2, W_U = (p[k] for k in NAMES)
    g = {k: np.zeros_like(v) for k, v in p.items()}
    loss = 0.0
    C = logit_scale(X)
    for i in range(X.shape[0]):
        U = X[i]
        # forward
        XQ = U @ W_Q
        XK = U @ W_K
        S = softmax_rows(C * (XQ @ XK.T))
        XV = U @ W_V
        V = S @ XV + BETA * U
        P = V @ W_1
        Phi = softplus(P)
        H = Phi @ W_2 + GAMMA * V
        R = H @ W_U - Y[i]
        loss += 0.5 * np.sum(R * R)
        # backward
        g["W_U"] += H.T @ R
        G = R @ W_U.T
        g["W_2"] += Phi.T @ G
        dP = (G @ W_2.T) * sigmoid(P)
        g["W_1"] += V.T @ dP
        dV = dP @ W_1.T + GAMMA * G
        dXV = S.T @ dV
        dS = dV @ XV.T
        g["W_V"] += U.T @ dXV
        dK = S * (dS - np.sum(S * dS, axis=1, keepdims=True))
        dXQ = C * (dK @ XK)
        dXK = C * (dK.T @ XQ)
        g["W_Q"] += U.T @ dXQ
        g["W_K"] += U.T @ dXK
    return loss, g


def gradient_batched(p, X, Y):
    """Same formulas on stacked (n, N, .) arrays; weight gradients summed over the samples."""
    W_Q, W_K, W_V, W_1, W_2, W_U = (p[k] for k in NAMES)
    nN = X.shape[0] * X.shape[1]
    C = logit_scale(X)
    U = X
    XQ = U @ W_Q
    XK = U @ W_K
    S = softmax_rows(C * (XQ @ XK.transpose(0, 2, 1)))
    XV = U @ W_V
    V = S @ XV + BETA * U
    P = V @ W_1
    Phi = softplus(P)
    H = Phi @ W_2 + GAMMA * V
    R = H @ W_U - Y
    loss = 0.5 * np.sum(R * R)
    flat = lambda A: A.reshape(nN, A.shape[-1])  # noqa: E731  (rows of all samples stacked)
    g = {}
    g["W_U"] = flat(H).T @ flat(R)
    G = R @ W_U.T
    g["W_2"] = flat(Phi).T @ flat(G)
    dP = (G @ W_2.T) * sigmoid(P)
    g["W_1"] = flat(V).T @ flat(dP)
    dV = dP @ W_1.T + GAMMA * G
    dXV = S.transpose(0, 2, 1) @ dV
    dS = dV @ XV.transpose(0, 2, 1)
    g["W_V"] = flat(U).T @ flat(dXV)
    dK = S * (dS - np.sum(S * dS, axis=-1, keepdims=True))
    dXQ = C * (dK @ XK)
    dXK = C * (dK.transpose(0, 2, 1) @ XQ)
    g["W_Q"] = flat(U).T @ flat(dXQ)
    g["W_K"] = flat(U).T @ flat(dXK)
    return loss, g


def gd_step(gradient, p, X, Y, eta=ETA):
    """One step: forward + gradient + theta -= eta grad (in place). Returns the loss at theta."""
    loss, g = gradient(p, X, Y)
    for k in NAMES:
        p[k] -= eta * g[k]
    return loss


def self_check():
    """Gradients against central finite differences (two entries per block) and loop vs batched."""
    p, X, Y = make_problem()
    loss_l, g_l = gradient_loop(p, X, Y)
    loss_b, g_b = gradient_batched(p, X, Y)
    ok = abs(loss_l - loss_only(p, X, Y)) <= 1e-12 * abs(loss_l)
    ok &= abs(loss_l - loss_b) <= 1e-12 * abs(loss_l)
    worst_fd, worst_lb = 0.0, 0.0
    h = 1e-5
    for k in NAMES:
        scale = np.max(np.abs(g_l[k]))
        worst_lb = max(worst_lb, np.max(np.abs(g_l[k] - g_b[k])) / scale)
        # the largest-magnitude entry and a second, fixed entry
        idx = [np.unravel_index(np.argmax(np.abs(g_l[k])), g_l[k].shape), (1, 2)]
        for ij in idx:
            orig = p[k][ij]
            p[k][ij] = orig + h
            lp = loss_only(p, X, Y)
            p[k][ij] = orig - h
            lm = loss_only(p, X, Y)
            p[k][ij] = orig
            fd = (lp - lm) / (2 * h)
            rel = abs(fd - g_l[k][ij]) / max(abs(g_l[k][ij]), 1e-300)
            worst_fd = max(worst_fd, rel)
            status = "ok" if rel < 1e-6 else "FAIL"
            print(f"  {k}{tuple(int(t) for t in ij)}: grad {g_l[k][ij]: .10e}  fd {fd: .10e}  rel err {rel:.2e}  {status}")
            ok &= rel < 1e-6
    ok &= worst_lb < 1e-12
    print(f"  loop vs batched: loss {loss_l:.12g} vs {loss_b:.12g}, max rel grad diff {worst_lb:.2e}")
    print(f"self-check: {'PASS' if ok else 'FAIL'} (worst finite-difference rel err {worst_fd:.2e})")
    return ok


def blas_info():
    """Which BLAS numpy actually loaded, and the thread-related environment."""
    libs = set()
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                path = line.split()[-1]
                base = os.path.basename(path)
                if any(s in base for s in ("blas", "lapack", "mkl", "blis", "gomp", "omp")):
                    libs.add(os.path.realpath(path))
    except OSError:
        pass
    env = {k: os.environ[k] for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS") if k in os.environ}
    try:
        from threadpoolctl import threadpool_info  # optional
        pools = [(i.get("internal_api"), i.get("num_threads")) for i in threadpool_info()]
    except ImportError:
        pools = "threadpoolctl not installed"
    return sorted(libs), env, pools


def time_step(gradient, repeat, min_time, shape=SHAPE, eta=ETA):
    """Per-step seconds: best of `repeat` timeit repeats, each of `number` steps (>= min_time s)."""
    p, X, Y = make_problem(shape=shape)
    timer = timeit.Timer(lambda: gd_step(gradient, p, X, Y, eta))
    number, taken = timer.autorange()  # smallest 1, 2, 5, 10, ... taking >= 0.2 s
    while taken < min_time:
        number, taken = 2 * number, 2 * taken
    best = min(timer.repeat(repeat=repeat, number=number)) / number
    final_loss = loss_only(p, X, Y)
    if not np.isfinite(final_loss):
        raise SystemExit("loss is not finite after the timed steps")
    return best, number, final_loss


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7, help="timeit repeats (best is reported)")
    ap.add_argument("--min-time", type=float, default=0.2, help="seconds per repeat, at least")
    ap.add_argument("--no-check", action="store_true", help="skip the finite-difference self-check")
    args = ap.parse_args()

    libs, env, pools = blas_info()
    print(f"numpy {np.__version__}, python {sys.version.split()[0]} ({sys.executable})")
    print(f"BLAS/OpenMP libraries loaded: {libs or 'none found'}")
    print(f"thread env: {env or 'none set (defaults)'}; threadpools: {pools}")
    print(f"problem: n={n} N={N} d={d} m={m} d_y={d_y} L=1 beta={BETA} gamma={GAMMA} softplus c=1/sqrt(d) eta={ETA}")

    if not args.no_check and not self_check():
        return 1

    for name, gradient in (("loop", gradient_loop), ("batched", gradient_batched)):
        best, number, final_loss = time_step(gradient, args.repeat, args.min_time)
        print(f"numpy gd step [{name:7s}]: {best * 1e6:9.1f} us/step  (best of {args.repeat} x {number} steps; "
              f"loss after the run {final_loss:.6g})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
