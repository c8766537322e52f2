#!/usr/bin/python3
"""One full gradient-descent step of the [Q] transformer, side by side in one run: this project's double step
(thmcheck_bench's BM_GdStep<double> and BM_GdStepShape), PyTorch eager autograd (batched) and NumPy (loop and
batched, bench/numpy_gd_step.py), all on one thread, at two shapes:

  bench   n = 4, N = 8,  d = 48,  m = 64,   d_y = 4   (bench/bench_gd.cpp's instance)
  large   n = 4, N = 32, d = 256, m = 1024, d_y = 4

Forward + exact gradient of all six blocks + theta -= eta grad, float64, one layer, beta = 1, FFN residual 1,
softplus, c = 1/sqrt(d), eta = 1e-4 (1e-6 at the large shape, where 1e-4 diverges). PyTorch and NumPy run on the same NumPy-drawn data (checked against each other
before timing); the C++ step on its own instance of the same shapes and scales.

Times: wall time per step, the best of --repeat rounds; each round times every implementation once (the C++ bench,
then PyTorch, then NumPy, each for at least --min-time seconds; Google Benchmark's 0.5 s for C++), so that a change
in the machine's load slows them alike. Ratios are the comparator's time over this project's: above 1, this project is faster. A measurement,
never a test: it prints and exits 0 (2 when the C++ bench cannot run).

Usage (numpy and torch are Debian's python3-numpy and python3-torch, i.e. for /usr/bin/python3; not in
scripts/install-deps: torch and its dependencies take 630 MB. Without torch its column says skipped and why):
  cmake --build build --target thmcheck_bench
  /usr/bin/python3 bench/gd_step_side_by_side.py [--build build] [--repeat 5] [--min-time 0.3] [--shapes bench,large]
"""

import os

# One thread everywhere, set before numpy or torch is imported (OpenBLAS and OpenMP read them at load).
for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS"):
    os.environ[var] = "1"

import argparse  # noqa: E402
import json  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import timeit  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
try:
    import numpy as np  # noqa: E402
    import numpy_gd_step as ref  # noqa: E402
except ImportError:
    sys.exit("NumPy is not importable by this python: the comparators need it (Debian: apt-get install python3-numpy, "
             "then run with /usr/bin/python3)")

# shape, the C++ benchmark, eta (at the large shape the loss starts near 850 and 1e-4 diverges: 1e-6, as
# bench_gd.cpp's BM_GdStepShape)
SHAPES = {
    "bench": ((4, 8, 48, 64, 4), "BM_GdStep<double>", 1e-4),
    "large": ((4, 32, 256, 1024, 4), "BM_GdStepShape/n:4/N:32/d:256/m:1024/dy:4", 1e-6),
}


def cpp_times(build, names, repeat, min_time):
    """Best real time per step (seconds) of each named benchmark, and the kernel label."""
    exe = os.path.join(build, "bench", "thmcheck_bench")
    if not os.access(exe, os.X_OK):
        sys.exit(f"no {exe}: build it first (cmake --build {build} --target thmcheck_bench)")
    pattern = "|".join("^" + n + "(/|$)" for n in names)
    cmd = [exe, f"--benchmark_filter={pattern}", f"--benchmark_repetitions={repeat}",
           f"--benchmark_min_time={min_time}", "--benchmark_format=json"]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    runs = json.loads(out)["benchmarks"]
    unit = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
    best, label = {}, {}
    for r in runs:
        if r.get("run_type") != "iteration":
            continue
        full = r.get("run_name", r["name"])
        matches = [n for n in names if full == n or full.startswith(n + "/")]
        if not matches:
            continue
        name = matches[0]
        t = r["real_time"] * unit[r["time_unit"]]
        best[name] = min(best.get(name, float("inf")), t)
        label[name] = r.get("label", "")
    return best, label


def torch_gd(torch):
    """PyTorch eager autograd, batched: the formulas of numpy_gd_step.gradient_batched, gradients by backward()."""
    import torch.nn.functional as F

    def step(P, X, Y, eta):
        W_Q, W_K, W_V, W_1, W_2, W_U = P
        c = X.shape[-1] ** -0.5
        S = torch.softmax(c * (X @ W_Q) @ (X @ W_K).transpose(1, 2), dim=-1)
        V = S @ (X @ W_V) + ref.BETA * X
        H = F.softplus(V @ W_1) @ W_2 + ref.GAMMA * V
        R = H @ W_U - Y
        loss = 0.5 * (R * R).sum()
        for w in P:
            w.grad = None
        loss.backward()
        with torch.no_grad():
            for w in P:
                w -= eta * w.grad
        return loss

    return step


def torch_problem(torch, shape):
    p, X, Y = ref.make_problem(shape=shape)
    P = [torch.from_numpy(p[k].copy()).requires_grad_(True) for k in ref.NAMES]
    return P, torch.from_numpy(X), torch.from_numpy(Y)


def torch_check(torch, shape):
    """PyTorch's gradient against numpy_gd_step's batched gradient at the same point (relative 1e-10)."""
    p, X, Y = ref.make_problem(shape=shape)
    loss_np, g_np = ref.gradient_batched(p, X, Y)
    P, Xt, Yt = torch_problem(torch, shape)
    W_Q, W_K, W_V, W_1, W_2, W_U = P
    c = Xt.shape[-1] ** -0.5
    S = torch.softmax(c * (Xt @ W_Q) @ (Xt @ W_K).transpose(1, 2), dim=-1)
    V = S @ (Xt @ W_V) + ref.BETA * Xt
    H = torch.nn.functional.softplus(V @ W_1) @ W_2 + ref.GAMMA * V
    R = H @ W_U - Yt
    loss = 0.5 * (R * R).sum()
    loss.backward()
    worst = max(float(np.max(np.abs(w.grad.numpy() - g_np[k])) / np.max(np.abs(g_np[k])))
                for w, k in zip(P, ref.NAMES))
    return abs(float(loss) - loss_np) / abs(loss_np), worst


def best_of(fn, repeat, min_time):
    timer = timeit.Timer(fn)
    number, taken = timer.autorange()
    while taken < min_time:
        number, taken = 2 * number, 2 * taken
    return min(timer.repeat(repeat=repeat, number=number)) / number


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build", help="the CMake build directory (default: build)")
    ap.add_argument("--repeat", type=int, default=5, help="rounds; the best of each implementation is reported (default 5)")
    ap.add_argument("--min-time", type=float, default=0.3, help="seconds of each Python timing, at least (default 0.3)")
    ap.add_argument("--shapes", default="bench,large", help="comma-separated: bench, large")
    args = ap.parse_args()
    shapes = [s for s in args.shapes.split(",") if s]
    for s in shapes:
        if s not in SHAPES:
            sys.exit(f"unknown shape {s!r}: bench or large")

    try:
        import torch
        torch.set_num_threads(1)
        torch_version = torch.__version__
    except ImportError:
        torch, torch_version = None, None

    print(f"numpy {np.__version__}, torch {torch_version or 'not installed'}, python {sys.version.split()[0]}; "
          "OMP/OPENBLAS/MKL/BLIS_NUM_THREADS=1")
    # Rounds: each round times every implementation once, so that a machine whose load changes during the run
    # slows all of them alike; the best round of each is reported.
    setups = {}
    for s in shapes:
        shape, bench_name, eta = SHAPES[s]
        if torch is not None:
            loss_rel, grad_rel = torch_check(torch, shape)
            if loss_rel > 1e-10 or grad_rel > 1e-10:
                sys.exit(f"PyTorch and NumPy disagree at {s}: loss {loss_rel:.1e}, gradient {grad_rel:.1e} relative")
            P, X, Y = torch_problem(torch, shape)
            setups[s] = (torch_gd(torch), P, X, Y)
    best = {s: {} for s in shapes}
    label = {}

    def keep(s, name, t):
        best[s][name] = min(best[s].get(name, float("inf")), t)

    load_before = os.getloadavg()[0]
    for _ in range(args.repeat):
        cpp, label = cpp_times(args.build, [SHAPES[s][1] for s in shapes], 1, args.min_time)
        for s in shapes:
            shape, bench_name, eta = SHAPES[s]
            if bench_name in cpp:
                keep(s, "C++ double", cpp[bench_name])
            if torch is not None:
                step, P, X, Y = setups[s]
                keep(s, "PyTorch eager", best_of(lambda: step(P, X, Y, eta), 1, args.min_time))
            for name, gradient in (("NumPy batched", ref.gradient_batched), ("NumPy loop", ref.gradient_loop)):
                keep(s, name, ref.time_step(gradient, 1, args.min_time, shape=shape, eta=eta)[0])
    load_after = os.getloadavg()[0]
    rows = [(s, SHAPES[s][0], best[s], label.get(SHAPES[s][1], "")) for s in shapes]
    print(f"{args.repeat} rounds; load average (1 min) {load_before:.1f} before, {load_after:.1f} after, on "
          f"{os.cpu_count()} CPUs")

    print()
    print("| shape (n, N, d, m, d_y) | C++ double | PyTorch eager | NumPy batched | NumPy loop |"
          " PyTorch / C++ | NumPy batched / C++ | NumPy loop / C++ |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")

    def us(x):
        return "skipped" if x is None else (f"{x * 1e6:.0f} us" if x < 1e-2 else f"{x * 1e3:.1f} ms")

    def ratio(x, base):
        return "-" if x is None or base is None else f"{x / base:.2f}x"

    for s, shape, t, kernel in rows:
        base = t["C++ double"]
        print(f"| {s} {shape} | {us(base)} | {us(t.get('PyTorch eager'))} | {us(t['NumPy batched'])} | "
              f"{us(t['NumPy loop'])} | {ratio(t.get('PyTorch eager'), base)} | {ratio(t['NumPy batched'], base)} | "
              f"{ratio(t['NumPy loop'], base)} |")
    print()
    for s, shape, t, kernel in rows:
        print(f"{s}: C++ kernel {kernel or '?'}")
    if torch is None:
        print("PyTorch skipped: not importable by this python (Debian: apt-get install python3-torch, "
              "then run with /usr/bin/python3)")
    goals = {"bench": (2.0, 1.2), "large": (1.5, None)}
    for s, shape, t, kernel in rows:
        want_torch, want_np = goals[s]
        base = t["C++ double"]
        if t.get("PyTorch eager") is not None:
            r = t["PyTorch eager"] / base
            print(f"goal {s}: PyTorch / C++ >= {want_torch}: {r:.2f}x, {'met' if r >= want_torch else 'NOT met'}")
        if want_np is not None:
            r = t["NumPy batched"] / base
            print(f"goal {s}: NumPy batched / C++ >= {want_np}: {r:.2f}x, {'met' if r >= want_np else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
