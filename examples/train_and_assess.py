"""Train [Q]'s transformer on a real weather series with NumPy, then ask thmcheck what [Q]'s theorems say about the
trained weights (docs/guide/python.md, "A worked example").

    PYTHONPATH=build/python /usr/bin/python3 examples/train_and_assess.py [--steps 300] [--seed 1]

The series is R's airquality (examples/data/airquality.csv, written by scripts/extract-airquality): daily ozone, solar
radiation, wind and temperature. Missing values (37 ozone, 7 radiation readings) are filled by linear interpolation in
time between the nearest observed days of the same column (the nearest observed value before the first or after the
last). Columns are standardised; each day's 4 features are embedded into d dimensions by a fixed Gaussian map drawn
from the seed (entries N(0, 1/4)); sample i is N consecutive days and its targets the next day's ozone of each. The
sizes default to what qin.gd.linear_rate reads (n N <= d: the over-parameterised regime of its PL inequality).
"""
import argparse
import csv
from pathlib import Path

import numpy as np

import thmcheck
from thmcheck import qin

DATA = Path(__file__).resolve().parent / "data" / "airquality.csv"


def load_series(path):
    """The CSV as a (days, columns) array, missing cells filled by the rule above."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    a = np.array([[float(x) if x.strip() else np.nan for x in r] for r in body])
    days = np.arange(len(a))
    for j in range(a.shape[1]):
        seen = ~np.isnan(a[:, j])
        a[:, j] = np.interp(days, days[seen], a[seen, j])  # constant beyond the ends
    return header, a


def windows(series, n, N, d, rng):
    z = (series - series.mean(axis=0)) / series.std(axis=0)
    embed = rng.normal(0.0, 0.5, size=(z.shape[1], d))
    starts = np.linspace(0, len(z) - N - 1, n).astype(int)  # spread over the season
    X = np.array([z[s:s + N] @ embed for s in starts])
    Y = np.array([z[s + 1:s + N + 1, :1] for s in starts])  # next day's ozone (column 0)
    return X, Y


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--data", default=str(DATA))
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--samples", type=int, default=2, help="n")
    p.add_argument("--window", type=int, default=3, help="N, days per sample")
    p.add_argument("--width", type=int, default=12, help="d, the embedding dimension")
    p.add_argument("--hidden", type=int, default=16, help="m, the FFN width")
    p.add_argument("--beta", type=float, default=1.0, help="the attention residual's weight")
    p.add_argument("--steps", type=int, default=300)
    p.add_argument("--eta", type=float, default=0.02)
    p.add_argument("--digits", default="50", help="the rungs above double, comma-separated")
    a = p.parse_args()

    rng = np.random.default_rng(a.seed)
    names, series = load_series(a.data)
    X, Y = windows(series, a.samples, a.window, a.width, rng)
    d, m = a.width, a.hidden
    g = lambda rows, cols, fan_in: rng.normal(0.0, 1.0 / np.sqrt(fan_in), size=(rows, cols))
    model = qin.Transformer(g(d, d, d), g(d, d, d), g(d, d, d), g(d, m, d), g(m, d, m), g(d, 1, d), beta=a.beta)
    print(f"{model}\ndata: {len(names)} columns of {a.data}, n = {a.samples} samples of N = {a.window} days")
    losses = [model.loss(X, Y)]
    for t in range(1, a.steps + 1):
        model = model.step(X, Y, a.eta)
        losses.append(model.loss(X, Y))
        if t % max(1, a.steps // 5) == 0:
            print(f"  GD step {t:4d}: loss {losses[-1]:.6e}")
    tail = max(1, a.steps // 5)
    measured = (losses[-1] / losses[-1 - tail]) ** (1.0 / tail)
    print(f"trained: loss {losses[0]:.4e} -> {losses[-1]:.4e} in {a.steps} steps of eta = {a.eta}; "
          f"per-step contraction over the last {tail} steps {measured:.6f}\n")

    digits = [int(x) for x in a.digits.split(",")]
    report = thmcheck.assess(model, X, Y, claims="qin.gd.linear_rate,qin.pl.output_layer", digits=digits)
    print(thmcheck.summary(report))
    rate = next(c for c in report["claims"] if c["id"] == "qin.gd.linear_rate")
    if rate["applicable"]:
        q = {x["name"]: x["values"][0] for x in rate["quantities"]}
        gap = q.get("log10(L_0 / largest L_0 admitted by (H2))")
        print("\nqin.gd.linear_rate on these weights:")
        if gap is None:
            print(f"  the theorem's setting does not hold: {rate['rungs'][0]['condition']}")
        elif gap > 0:
            print(f"  (H2) fails: L_0 is {gap:.1f} orders of magnitude above the largest loss the theorem admits here "
                  f"(L_0 / (1/2 ||Y||^2) = {q['L_0 / (1/2 ||Y||^2)']:.3e}, admitted "
                  f"{q['largest L_0 / (1/2 ||Y||^2) admitted by (H2)']:.3e}); it certifies no rate from these weights")
        else:
            print(f"  (H1) and (H2) hold ({-gap:.1f} orders of magnitude to spare): GD from these weights contracts "
                  f"the loss by at most {q['certified contraction 1 - eta alpha']:.12f} per step (certified); "
                  f"measured {q['measured contraction (L_T / L_0)^(1/T)']:.12f}")


if __name__ == "__main__":
    main()
