#!/usr/bin/python3
"""Conformance fixtures: the [Q] and [G] models computed from the papers' formulas alone, at 80 digits.

This file shares nothing with numerics/: it is written from the definitions in docs/spec/claims.md ("Model [Q]",
"Model [G]") and docs/derivations/goel.finite_data.md, goel.finite_data_prompts.md, with plain mpmath numbers and
Python lists. What it computes, and why the digits are right: docs/derivations/conformance.md.

  [Q]  F(X) = (FFN(Attn(X) + beta X) + Attn(X) + beta X) W_U,  Attn(X) = softmax_rows(X W_Q W_K^T X^T / sqrt(d)) X W_V,
       FFN(Z) = sigma(Z W_1) W_2; L blocks (block l + 1 reads block l's output), one head W_U;
       loss = 1/2 sum_i ||F(X_i) - Y_i||_F^2.
  [G]  one sequence:  L_n = 1/(2n) sum_i ||A sum_{j != i} softmax_j(x_i^T B x_j) x_j - y_i||^2;
       prompts:       L_{n,T} = 1/(2n) sum_p ||A sum_j softmax_j(q_p^T B x_{p,j}) x_{p,j} - y_p||^2;
       population:    L - L* = 1/2 E_q ||(A Sigma B^T - M) q||^2 = 1/2 tr((A Sigma B^T - M) Sigma (A Sigma B^T - M)^T).

Gradients are central differences of these functions (step h = 1e-25 at 80 digits), never a hand-written derivative.
Their error is bounded by comparing with the step 2h (truncation O(h^2) ~ 1e-50, rounding 1e-80 / h ~ 1e-55); the script
stops if any bound exceeds 1e-46 relative to the block's norm. Inputs are dyadic rationals with short decimal expansions,
exact in double; outputs are printed with 50 significant digits.

Usage: scripts/conformance/generate.py [OUT_DIR]   (default: tests/fixtures/conformance next to this repository's root)
Writes qin.json, goel.json and statistics.json (the support test's binomial tail, the Jonckheere-Terpstra tails, Spearman's
rho with ties and the least-squares slope's standard error, from their textbook definitions); the files are deterministic (the same bytes on every run).
"""
import json
import os
import random
import sys

import mpmath
from mpmath import mp, mpf

mp.dps = 80
DIGITS = 50          # significant digits printed (relative rounding <= 5e-50)
STEP = mpf("1e-25")  # central-difference step (relative to max(1, |w|))
SELF_CHECK = mpf("1e-46")


# ---- plain matrices: lists of rows of mpf ---------------------------------------------------------------------------
def matmul(a, b):
    return [[mpmath.fsum(a[i][k] * b[k][j] for k in range(len(b))) for j in range(len(b[0]))] for i in range(len(a))]


def transpose(a):
    return [list(r) for r in zip(*a)]


def add(a, b, s=1):
    return [[x + s * y for x, y in zip(ra, rb)] for ra, rb in zip(a, b)]


def scale(a, s):
    return [[s * x for x in r] for r in a]


def fro2(a):
    return mpmath.fsum(x * x for r in a for x in r)


def softmax_row(row):
    e = [mpmath.exp(x) for x in row]
    total = mpmath.fsum(e)
    return [x / total for x in e]


# ---- activations (docs/spec/claims.md: softplus, tanh, GELU in its tanh form) ---------------------------------------
def sigma(name, x):
    if name == "softplus":
        return mpmath.log(1 + mpmath.exp(x))
    if name == "tanh":
        return mpmath.tanh(x)
    if name == "gelu":
        return x / 2 * (1 + mpmath.tanh(mpmath.sqrt(2 / mpmath.pi) * (x + mpf("0.044715") * x ** 3)))
    raise ValueError(name)


# ---- [Q] -------------------------------------------------------------------------------------------------------------
def qin_attn(X, blk, d):
    """Attn(X) = softmax_rows(X W_Q W_K^T X^T / sqrt(d)) X W_V (the product W_Q W_K^T formed first)."""
    logits = matmul(matmul(X, matmul(blk["W_Q"], transpose(blk["W_K"]))), transpose(X))
    c = 1 / mpmath.sqrt(d)
    S = [softmax_row([c * x for x in row]) for row in logits]
    return matmul(S, matmul(X, blk["W_V"]))


def qin_block(X, blk, beta, gamma, act, d):
    """Returns (Z, H): Z = Attn(X) + beta X, H = FFN(Z) + gamma Z."""
    Z = add(qin_attn(X, blk, d), X, beta)
    ffn = matmul([[sigma(act, x) for x in row] for row in matmul(Z, blk["W_1"])], blk["W_2"])
    return Z, add(ffn, Z, gamma)


def qin_forward(case, params):
    """Per sample: the attention outputs Z of every block and F(X_i)."""
    d = case["d"]
    Zs, outputs = [], []
    for X in case["X"]:
        U, Zl = X, []
        for blk in params["blocks"]:
            Z, U = qin_block(U, blk, case["beta"], case["gamma"], case["activation"], d)
            Zl.append(Z)
        Zs.append(Zl)
        outputs.append(matmul(U, params["W_U"]))
    return Zs, outputs


def qin_loss(case, params):
    _, outputs = qin_forward(case, params)
    return mpmath.fsum(fro2(add(F, Y, -1)) for F, Y in zip(outputs, case["Y"])) / 2


# ---- [G] -------------------------------------------------------------------------------------------------------------
def goel_sequence_loss(case, params):
    A, B, X, Y = params["A"], params["B"], case["X"], case["Y"]
    n = len(X)
    total = []
    for i in range(n):
        others = [j for j in range(n) if j != i]
        w = [mpmath.fsum(X[i][a] * B[a][b] * X[j][b] for a in range(len(B)) for b in range(len(B))) for j in others]
        s = softmax_row(w)
        h = [mpmath.fsum(s[t] * X[j][c] for t, j in enumerate(others)) for c in range(len(B))]
        r = [mpmath.fsum(A[k][c] * h[c] for c in range(len(h))) - Y[i][k] for k in range(len(A))]
        total.append(mpmath.fsum(x * x for x in r))
    return mpmath.fsum(total) / (2 * n)


def goel_prompts_loss(case, params):
    A, B = params["A"], params["B"]
    n = len(case["Qry"])
    total = []
    for p in range(n):
        q, Xp, y = case["Qry"][p], case["contexts"][p], case["Y"][p]
        w = [mpmath.fsum(q[a] * B[a][b] * x[b] for a in range(len(B)) for b in range(len(B))) for x in Xp]
        s = softmax_row(w)
        h = [mpmath.fsum(s[j] * Xp[j][c] for j in range(len(Xp))) for c in range(len(B))]
        r = [mpmath.fsum(A[k][c] * h[c] for c in range(len(h))) - y[k] for k in range(len(A))]
        total.append(mpmath.fsum(x * x for x in r))
    return mpmath.fsum(total) / (2 * n)


def goel_population_excess(case, params):
    Sigma = case["Sigma"]
    E = add(matmul(matmul(params["A"], Sigma), transpose(params["B"])), case["M"], -1)
    ESE = matmul(matmul(E, Sigma), transpose(E))
    return mpmath.fsum(ESE[i][i] for i in range(len(ESE))) / 2


# ---- gradients by central differences --------------------------------------------------------------------------------
def numerical_gradient(f, case, params, names):
    """{name: dF/d(params[name])} for the matrices `names` (a list of (key path, label))."""
    def central(entry_get, entry_set, h):
        w = entry_get()
        entry_set(w + h)
        up = f(case, params)
        entry_set(w - h)
        down = f(case, params)
        entry_set(w)
        return (up - down) / (2 * h)

    out = {}
    for label, mat in names:
        g = [[None] * len(mat[0]) for _ in mat]
        err = mpf(0)
        for i in range(len(mat)):
            for j in range(len(mat[0])):
                get = lambda: mat[i][j]

                def put(v, i=i, j=j):
                    mat[i][j] = v
                h = STEP * max(1, abs(mat[i][j]))
                g1 = central(get, put, h)
                g2 = central(get, put, 2 * h)
                g[i][j] = g1
                err = max(err, abs(g1 - g2))
        norm = mpmath.sqrt(fro2(g))
        if err > SELF_CHECK * norm:
            sys.exit(f"generate.py: central differences of {label} disagree by {mpmath.nstr(err, 3)} (norm {mpmath.nstr(norm, 3)})")
        out[label] = g
    return out


# ---- instances: dyadic entries, exact in double, short decimals ------------------------------------------------------
def dyadic_matrix(rng, rows, cols, scale_num, bits=8):
    """Entries round(N(0, scale^2) 2^bits) / 2^bits, scale = scale_num (a float), as mpf (exact)."""
    den = 2 ** bits
    return [[mpf(int(round(rng.gauss(0.0, scale_num) * den))) / den for _ in range(cols)] for _ in range(rows)]


def text(x):
    """A decimal string: exact for the dyadic inputs, DIGITS significant digits for the outputs."""
    return mpmath.nstr(x, DIGITS, min_fixed=-5, max_fixed=6, strip_zeros=False) if not x == 0 else "0"


def exact_text(x):
    """Exact decimal of a dyadic input (at most 8 binary places: at most 8 decimal places)."""
    s = mpmath.nstr(x, 30, min_fixed=-30, max_fixed=30)
    if mpf(s) != x:
        sys.exit(f"generate.py: input {s} is not exact")
    return s


def mat_text(m, exact=False):
    f = exact_text if exact else text
    return [[f(x) for x in r] for r in m]


QIN_CASES = [
    # name, layers, beta, activation, seed
    ("L1_beta1_softplus", 1, "1", "softplus", 101),
    ("L1_beta0.5_tanh", 1, "0.5", "tanh", 102),
    ("L1_beta0_softplus", 1, "0", "softplus", 103),
    ("L2_beta1_softplus", 2, "1", "softplus", 104),
    ("L2_beta0.5_softplus", 2, "0.5", "softplus", 105),
    ("L2_beta0.5_tanh", 2, "0.5", "tanh", 106),
]
QIN_SHAPE = dict(n=2, N=4, d=3, m=5, d_y=2)


def qin_case(name, layers, beta, act, seed):
    rng = random.Random(seed)
    n, N, d, m, dy = (QIN_SHAPE[k] for k in ("n", "N", "d", "m", "d_y"))
    case = dict(name=name, layers=layers, beta=mpf(beta), gamma=mpf(1), activation=act, d=d)
    case["X"] = [dyadic_matrix(rng, N, d, 1.0) for _ in range(n)]
    case["Y"] = [dyadic_matrix(rng, N, dy, 1.0) for _ in range(n)]
    # Logits of order one: W_Q, W_K entries of sd 1.5 / sqrt(d) (a typical logit c x^T W_Q W_K^T x' is about 1.5^2).
    blocks = []
    for _ in range(layers):
        blocks.append({"W_Q": dyadic_matrix(rng, d, d, 1.5 / d ** 0.5), "W_K": dyadic_matrix(rng, d, d, 1.5 / d ** 0.5),
                       "W_V": dyadic_matrix(rng, d, d, 1.0 / d ** 0.5), "W_1": dyadic_matrix(rng, d, m, 1.0 / d ** 0.5),
                       "W_2": dyadic_matrix(rng, m, d, 1.0 / m ** 0.5)})
    params = {"blocks": blocks, "W_U": dyadic_matrix(rng, d, dy, 1.0 / d ** 0.5)}
    Zs, outputs = qin_forward(case, params)
    loss = qin_loss(case, params)
    names = [(f"{k}[{l}]", blocks[l][k]) for l in range(layers) for k in ("W_Q", "W_K", "W_V", "W_1", "W_2")]
    names.append(("W_U", params["W_U"]))
    grad = numerical_gradient(qin_loss, case, params, names)
    return {
        "name": name, "layers": layers, "beta": beta, "gamma": "1", "activation": act, "logit_scale": "1/sqrt(d)",
        **QIN_SHAPE,
        "X": [mat_text(x, True) for x in case["X"]], "Y": [mat_text(y, True) for y in case["Y"]],
        "blocks": [{k: mat_text(b[k], True) for k in ("W_Q", "W_K", "W_V", "W_1", "W_2")} for b in blocks],
        "W_U": mat_text(params["W_U"], True),
        "expected": {
            "Z": [[mat_text(Zs[i][l]) for l in range(layers)] for i in range(n)],
            "output": [mat_text(F) for F in outputs],
            "loss": text(loss),
            "gradient": {label: mat_text(g) for label, g in grad.items()},
        },
    }


GOEL_SHAPE = dict(d=3, k=2)


def symmetric_power(S, power):
    """S^power for a symmetric positive definite S (its eigendecomposition, mpmath.eigsy)."""
    E, Q = mpmath.eigsy(mpmath.matrix(S))
    d = len(S)
    return [[mpmath.fsum(Q[i, t] * E[t] ** power * Q[j, t] for t in range(d)) for j in range(d)] for i in range(d)]


def goel_step_rule(seq, A, B, lam):
    """Algorithm 1's step rule on the one-sequence data (goel.finite_data.md, "Step sizes" and "Step size"), from the
    definitions: Sigma_hat = X^T X / n, X~ = X Sigma_hat^{-1/2}, Z_hat = Y^T X~ / n; the documented step
    1 / (2 max(1, lambda) sigma_1(Z_hat)), plain GD's 1 / (2 sigma_1(Z_hat) ||Sigma_hat||_2^2); and the step capped by the
    Hessian of F~_n(P, Q) = L_n(P, Q; X~, Y) + lambda/8 ||P^T P - Q^T Q||^2 at (P, Q) = (A Sigma_hat^{1/2},
    Sigma_hat^{1/2} B Sigma_hat^{1/2}): min(documented, 2^floor(log2(1 / lambda_max))). The Hessian by second
    differences of F~_n (step 1e-20: truncation and rounding both about 1e-40)."""
    X, Y = seq["X"], seq["Y"]
    n, d, k = len(X), len(X[0]), len(Y[0])
    S = scale(matmul(transpose(X), X), mpf(1) / n)
    root, inv_root = symmetric_power(S, mpf(1) / 2), symmetric_power(S, -mpf(1) / 2)
    Xw = matmul(X, inv_root)
    Z = scale(matmul(transpose(Y), Xw), mpf(1) / n)
    sigma1 = max(mpmath.svd_r(mpmath.matrix(Z), compute_uv=False))
    norm_S = max(mpmath.eigsy(mpmath.matrix(S))[0])
    documented = 1 / (2 * max(mpf(1), lam) * sigma1)
    plain = documented / norm_S ** 2
    P, Q = matmul(A, root), matmul(matmul(root, B), root)
    coords = [("P", i, j) for j in range(d) for i in range(k)] + [("Q", i, j) for j in range(d) for i in range(d)]  # column-major

    def objective(point):
        Pm, Qm = point["P"], point["Q"]
        N = add(matmul(transpose(Pm), Pm), matmul(transpose(Qm), Qm), -1)
        return goel_sequence_loss({"X": Xw, "Y": Y}, {"A": Pm, "B": Qm}) + lam / 8 * fro2(N)

    def shifted(steps):
        point = {"P": [row[:] for row in P], "Q": [row[:] for row in Q]}
        for (name, i, j), h in steps:
            point[name][i][j] += h
        return objective(point)

    h = mpf("1e-20")
    m = len(coords)
    H = mpmath.matrix(m, m)
    f0 = objective({"P": P, "Q": Q})
    for a in range(m):
        H[a, a] = (shifted([(coords[a], h)]) - 2 * f0 + shifted([(coords[a], -h)])) / h ** 2
        for b in range(a):
            H[a, b] = H[b, a] = (shifted([(coords[a], h), (coords[b], h)]) - shifted([(coords[a], h), (coords[b], -h)])
                                 - shifted([(coords[a], -h), (coords[b], h)]) + shifted([(coords[a], -h), (coords[b], -h)])) / (4 * h ** 2)
    top = max(mpmath.eigsy(H)[0])
    exponent = mpmath.floor(mpmath.log(1 / top, 2))
    # The test compares powers of two exactly: 1 / lambda_max must not sit within 1e-6 of one (the C++ Hessian is accurate
    # to about 1e-8), and the cap must bind, or it would test nothing.
    assert abs(mpmath.log(1 / top, 2) - mpmath.nint(mpmath.log(1 / top, 2))) > mpf("1e-6")
    cap = mpf(2) ** exponent
    assert cap < documented, "the Hessian cap does not bind on this instance"
    return {"lambda": text(lam), "eta_documented": text(documented), "eta_plain": text(plain),
            "lambda_max_hessian": text(top), "eta_capped": text(min(documented, cap))}


def goel_cases():
    rng = random.Random(201)
    d, k = GOEL_SHAPE["d"], GOEL_SHAPE["k"]
    # Sigma = G G^T / 4 + I / 2 (dyadic, symmetric positive definite), M, A, B: one shared parameter point.
    G = dyadic_matrix(rng, d, d, 1.0, bits=4)
    Sigma = add(scale(matmul(G, transpose(G)), mpf(1) / 4), [[mpf(1) / 2 if i == j else mpf(0) for j in range(d)] for i in range(d)])
    M = dyadic_matrix(rng, k, d, 0.5)
    A = dyadic_matrix(rng, k, d, 0.7)
    B = dyadic_matrix(rng, d, d, 0.5)
    params = {"A": A, "B": B}
    names = [("A", A), ("B", B)]
    out = {"d": d, "k": k, "A": mat_text(A, True), "B": mat_text(B, True)}

    n = 6
    seq = {"X": dyadic_matrix(rng, n, d, 1.0), "Y": dyadic_matrix(rng, n, k, 1.0)}
    out["one_sequence"] = {
        "n": n, "mask_self": True, "X": mat_text(seq["X"], True), "Y": mat_text(seq["Y"], True),
        "expected": {"loss": text(goel_sequence_loss(seq, params)),
                     "gradient": {l: mat_text(g) for l, g in numerical_gradient(goel_sequence_loss, seq, params, names).items()}},
        "step_rule": goel_step_rule(seq, A, B, mpf(1)),
    }

    n, T = 4, 5
    pr = {"Qry": dyadic_matrix(rng, n, d, 1.0), "Y": dyadic_matrix(rng, n, k, 1.0),
          "contexts": [dyadic_matrix(rng, T, d, 1.0) for _ in range(n)]}
    out["prompts"] = {
        "n": n, "T": T, "Qry": mat_text(pr["Qry"], True), "Y": mat_text(pr["Y"], True),
        "contexts": [mat_text(x, True) for x in pr["contexts"]],
        "expected": {"loss": text(goel_prompts_loss(pr, params)),
                     "gradient": {l: mat_text(g) for l, g in numerical_gradient(goel_prompts_loss, pr, params, names).items()}},
    }

    pop = {"Sigma": Sigma, "M": M}
    out["population"] = {
        "Sigma": mat_text(Sigma, True), "M": mat_text(M, True), "noise_sd": "0.25",
        "expected": {"excess": text(goel_population_excess(pop, params)),
                     "gradient": {l: mat_text(g) for l, g in numerical_gradient(goel_population_excess, pop, params, names).items()}},
    }
    return out


# ---- the statistics of the verdicts and the trend claims, from their textbook definitions -------------------------------
def binomial_cdf(k, n, p):
    """P(X <= k), X ~ Binomial(n, p): the sum of the probability mass, term by term."""
    return mpmath.fsum(mpmath.binomial(n, i) * p ** i * (1 - p) ** (n - i) for i in range(k + 1))


def jonckheere_exact_tails(sizes):
    """P(J >= j) for every j, J the Jonckheere-Terpstra statistic of untied values: every assignment of the ranks 1..N to
    the ordered groups, equally likely, enumerated one by one (J counts the pairs, earlier group below later group)."""
    counts = {}

    def arrangements(prefix, left):
        if not any(left):
            yield prefix
            return
        for g in range(len(left)):
            if left[g]:
                left[g] -= 1
                yield from arrangements(prefix + [g], left)
                left[g] += 1

    for arr in arrangements([], list(sizes)):  # arr[r] = the group holding rank r
        j = sum(1 for a in range(len(arr)) for b in range(a + 1, len(arr)) if arr[a] < arr[b])
        counts[j] = counts.get(j, 0) + 1
    total = sum(counts.values())
    top = max(counts)
    tails = [mpf(sum(c for v, c in counts.items() if v >= j)) / total for j in range(top + 2)]
    # The moments the normal approximation uses (Jonckheere 1954), checked against this exact law.
    mean = mpmath.fsum(mpf(v) * c for v, c in counts.items()) / total
    var = mpmath.fsum((mpf(v) - mean) ** 2 * c for v, c in counts.items()) / total
    n_all = sum(sizes)
    assert mean == mpf(n_all ** 2 - sum(s * s for s in sizes)) / 4
    assert abs(var - mpf(n_all ** 2 * (2 * n_all + 3) - sum(s * s * (2 * s + 3) for s in sizes)) / 72) < mpf("1e-70")
    return tails


def jonckheere_normal_tail(sizes, j):
    """The normal approximation with the continuity correction: P(N(mean, var) >= j - 1/2)."""
    n_all = sum(sizes)
    mean = mpf(n_all ** 2 - sum(s * s for s in sizes)) / 4
    var = mpf(n_all ** 2 * (2 * n_all + 3) - sum(s * s * (2 * s + 3) for s in sizes)) / 72
    return mpmath.erfc((mpf(j) - mpf(1) / 2 - mean) / mpmath.sqrt(2 * var)) / 2


def average_ranks(x):
    """Rank i + 1 of the i-th smallest; a run of ties shares the mean of its ranks."""
    order = sorted(range(len(x)), key=lambda i: x[i])
    ranks = [None] * len(x)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and x[order[j + 1]] == x[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = mpf(i + j + 2) / 2
        i = j + 1
    return ranks


def pearson(a, b):
    ma, mb = mpmath.fsum(a) / len(a), mpmath.fsum(b) / len(b)
    sab = mpmath.fsum((u - ma) * (v - mb) for u, v in zip(a, b))
    saa = mpmath.fsum((u - ma) ** 2 for u in a)
    sbb = mpmath.fsum((v - mb) ** 2 for v in b)
    return sab / mpmath.sqrt(saa * sbb)


def ols_slope_se(x, y):
    """Least squares y = c0 + c1 x; SE(c1)^2 = (SSR / (N - 2)) / Sxx."""
    n = len(x)
    mx, my = mpmath.fsum(x) / n, mpmath.fsum(y) / n
    sxx = mpmath.fsum((u - mx) ** 2 for u in x)
    c1 = mpmath.fsum((u - mx) * (v - my) for u, v in zip(x, y)) / sxx
    c0 = my - c1 * mx
    ssr = mpmath.fsum((v - c0 - c1 * u) ** 2 for u, v in zip(x, y))
    return c1, mpmath.sqrt(ssr / (n - 2) / sxx)


def statistics_cases():
    binomial = [{"held": h, "judged": n, "p0": p, "p_value": text(binomial_cdf(h, n, mpf(p)))}
                for h, n, p in ((17, 20, "0.9375"), (90, 100, "0.96875"), (0, 5, "0.5"), (28, 30, "0.984375"), (45, 50, "0.8125"))]
    exact = []
    for sizes in ((2, 3, 2), (3, 3, 3), (4, 2, 3)):
        tails = jonckheere_exact_tails(sizes)
        exact.append({"sizes": list(sizes), "tails": [text(t) for t in tails]})
    normal = [{"sizes": list(sz), "j": j, "tail": text(jonckheere_normal_tail(sz, j))}
              for sz, j in (((20, 20, 25), 800), ((20, 20, 25), 900), ((15, 15, 15, 16), 1000))]
    rank_data = [
        (["1", "2", "2", "3", "5", "5", "5", "8", "9", "9"], ["2", "1", "4", "4", "3", "6", "6", "7", "9", "8"]),
        (["0.5", "0.5", "0.5", "0.25", "1", "1", "2"], ["3", "1", "2", "2", "5", "4", "4"]),
    ]
    spearman = [{"x": x, "y": y, "rho": text(pearson(average_ranks([mpf(v) for v in x]), average_ranks([mpf(v) for v in y])))}
                for x, y in rank_data]
    line_data = [
        (["1", "2", "3", "4", "5", "6", "7", "8"], ["0.5", "1.25", "1.5", "2.5", "2.25", "3.5", "3.25", "4.5"]),
        (["0", "0.5", "1", "2", "4"], ["-1", "-0.75", "-1.5", "-2", "-3.25"]),
    ]
    slopes = []
    for x, y in line_data:
        c1, se = ols_slope_se([mpf(v) for v in x], [mpf(v) for v in y])
        slopes.append({"x": x, "y": y, "slope": text(c1), "se": text(se)})
    return {"binomial_lower_tail": binomial, "jonckheere_exact": exact, "jonckheere_normal": normal,
            "spearman": spearman, "slope": slopes}


def dumps(value, indent=0):
    """JSON with one line per matrix row (a list of strings), so that a changed entry is a one-line diff."""
    pad = " " * indent
    if isinstance(value, dict):
        items = [f'{pad} {json.dumps(k)}: {dumps(v, indent + 1).lstrip()}' for k, v in value.items()]
        return pad + "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list) and value and all(isinstance(x, str) for x in value):
        return pad + json.dumps(value)
    if isinstance(value, list):
        return pad + "[\n" + ",\n".join(dumps(x, indent + 1) for x in value) + "\n" + pad + "]"
    return pad + json.dumps(value)


HEADER = ("Generated by scripts/conformance/generate.py from the papers' formulas (mpmath, 80 digits; "
          "docs/derivations/conformance.md). Do not edit: re-run the script.")


def main():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "tests", "fixtures", "conformance")
    os.makedirs(out_dir, exist_ok=True)
    qin = {"about": HEADER, "cases": [qin_case(*c) for c in QIN_CASES]}
    goel = {"about": HEADER, **goel_cases()}
    statistics = {"about": HEADER, **statistics_cases()}
    for name, data in (("qin.json", qin), ("goel.json", goel), ("statistics.json", statistics)):
        with open(os.path.join(out_dir, name), "w") as f:
            f.write(dumps(data) + "\n")


if __name__ == "__main__":
    main()
