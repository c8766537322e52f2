"""[G]'s objectives (Goel, Soltanolkotabi, Bartlett, arXiv:2603.01514; our readings, docs/derivations/goel.finite_data.md
and goel.finite_data_prompts.md) from Python, each with its gradient in A (k x d) and B (d x d):

    sequence:    L_n(A, B)     = 1/(2n) sum_i ||A sum_j softmax_j(x_i^T B x_j) x_j - y_i||^2       one sequence of n tokens
                                 (mask_self: token i does not attend to itself)
    prompts:     L_{n,T}(A, B) = 1/(2n) sum_p ||A sum_j softmax_j(q_p^T B x_{p,j}) x_{p,j} - y_p||^2   n prompts of T tokens
    population:  L(A, B) - L*  = 1/2 ||(A Sigma B^T - M) Sigma^{1/2}||_F^2                         the infinite-data excess
                                 (the weighted matrix factorisation; docs/spec/claims.md, "Model [G]")

Each is computed by the suite's C++ code (numerics/models/goel/) at the precision asked for: "double", or "mpN" with N
decimal digits. Every function returns (value, gradient A, gradient B); with exact=True the values are decimal strings
holding every digit of the working precision.
"""
import numpy as np

from . import _arrays
from . import _thmcheck

MAX_TOKENS = 65536  # n of one sequence, n T of the prompts: a pass is O(n^2 d) at every precision
MAX_DIM = 512       # d, k


def _params(A, B):
    A = _arrays.matrix("A", A)
    B = _arrays.matrix("B", B)
    d = B.shape[0]
    if B.shape != (d, d) or A.shape[1] != d:
        raise ValueError(f"A must be k x d and B d x d; got A {A.shape}, B {B.shape}")
    _arrays.positive_count("d", d, MAX_DIM)
    _arrays.positive_count("k", A.shape[0], MAX_DIM)
    return A, B


def sequence(A, B, X, Y, mask_self=True, precision="double", exact=False):
    """(L_n, dL/dA, dL/dB) on one sequence: X (n x d) the tokens, Y (n x k) their labels."""
    A, B = _params(A, B)
    X = _arrays.matrix("X", X)
    Y = _arrays.matrix("Y", Y)
    if X.shape[1] != B.shape[0] or Y.shape != (X.shape[0], A.shape[0]):
        raise ValueError(f"X must be n x d and Y n x k with d = {B.shape[0]}, k = {A.shape[0]}; got X {X.shape}, Y {Y.shape}")
    _arrays.positive_count("n", X.shape[0], MAX_TOKENS)
    return _thmcheck.goel_sequence(A, B, X, Y, bool(mask_self), precision, bool(exact))


def prompts(A, B, contexts, Qry, Y, precision="double", exact=False):
    """(L_{n,T}, dL/dA, dL/dB) on n prompts: contexts (n of T x d: a 3-D array or a list), Qry (n x d) the queries,
    Y (n x k) their labels."""
    A, B = _params(A, B)
    d, k = B.shape[0], A.shape[0]
    Qry = _arrays.matrix("Qry", Qry)
    Y = _arrays.matrix("Y", Y)
    n = Qry.shape[0]
    if Qry.shape[1] != d or Y.shape != (n, k):
        raise ValueError(f"Qry must be n x d and Y n x k with d = {d}, k = {k}; got Qry {Qry.shape}, Y {Y.shape}")
    contexts = _arrays.stack("contexts", contexts)
    T = contexts[0].shape[0]
    for p, c in enumerate(contexts):
        if c.shape != (T, d):
            raise ValueError(f"contexts[{p}]: shape {c.shape}, expected ({T}, {d}) (every context T x d)")
    if len(contexts) != n:
        raise ValueError(f"{len(contexts)} contexts for {n} queries: one context per query")
    _arrays.positive_count("n T", n * T, MAX_TOKENS)
    return _thmcheck.goel_prompts(A, B, contexts, Qry, Y, precision, bool(exact))


def population(A, B, Sigma, M, noise_sd=0.0, precision="double", exact=False):
    """(L - L*, dL/dA, dL/dB) in the infinite-data limit: Sigma (d x d, symmetric positive definite) the tokens'
    covariance, M (k x d) the regression, noise_sd the label noise."""
    A, B = _params(A, B)
    d, k = B.shape[0], A.shape[0]
    Sigma = _arrays.matrix("Sigma", Sigma, (d, d))
    M = _arrays.matrix("M", M, (k, d))
    if not np.array_equal(Sigma, Sigma.T):
        raise ValueError("Sigma must be symmetric")
    if np.linalg.eigvalsh(Sigma)[0] <= 0:
        raise ValueError("Sigma must be positive definite")
    noise_sd = _arrays.real("noise_sd", noise_sd)
    if noise_sd < 0:
        raise ValueError(f"noise_sd must be >= 0, got {noise_sd}")
    return _thmcheck.goel_population(A, B, Sigma, M, noise_sd, precision, bool(exact))
