"""thmcheck from Python: the claims, runs, the papers' models at any precision, and a theorem's verdict on weights and
data of your own (docs/guide/python.md).

    import thmcheck
    thmcheck.claims()                                   # the registry, as `thmcheck list --json`
    thmcheck.run(claims="qin.residual.*", seed=7)       # what reports/latest/summary.json holds
    model = thmcheck.qin.Transformer(W_Q, W_K, W_V, W_1, W_2, W_U, beta=1.0)
    model.loss(X, Y, precision="mp50", exact=True)      # every digit
    thmcheck.assess(model, X, Y)                        # every [Q] claim on these weights and data
    thmcheck.goel.prompts(A, B, contexts, Qry, Y)       # [G]'s objectives: (value, gradient A, gradient B)
"""
import json
import os
import tempfile

from . import _thmcheck
from . import goel
from . import qin

__all__ = ["claims", "run", "assess", "summary", "generate_case", "qin", "goel"]


def claims():
    """Every registered claim as a dict (id, source, provenance, kind, statement, ...), as `thmcheck list --json`."""
    return json.loads(_thmcheck.claims_json())


def run(claims="*", seed=1, precision="double,mp50", cases=None, negative_control=False, jobs=None,
        budget="standard", report=None, certify="reported"):
    """`thmcheck run` on the claims selected (ids or globs, comma-separated): returns what summary.json holds, with the
    run's exit status under "exit_status" (0: every verdict the expected one). The report is written to `report`
    (a directory, replaced whole) or to a temporary directory removed afterwards. Bad arguments raise ValueError."""
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64:
        raise ValueError(f"seed must be an integer in [0, 2^64 - 1], got {seed!r}")
    if cases is not None and (not isinstance(cases, int) or isinstance(cases, bool)):
        raise ValueError(f"cases must be an integer, got {cases!r}")
    if jobs is None:
        jobs = os.cpu_count() or 1
    if not isinstance(jobs, int) or not 1 <= jobs <= 256:
        raise ValueError(f"jobs must be an integer in [1, 256], got {jobs!r}")

    def go(directory):
        status = _thmcheck.run(claims, seed, precision, cases, negative_control, jobs, budget, directory, certify)
        with open(os.path.join(directory, "summary.json")) as f:
            out = json.load(f)
        out["exit_status"] = status
        return out

    if report is not None:
        return go(os.fspath(report))
    with tempfile.TemporaryDirectory(prefix="thmcheck-") as tmp:
        return go(os.path.join(tmp, "report"))


def generate_case(claim, seed, case, cases=None):
    """(family, params, matrices) of case `case` of a claim's run with `seed`: the instance `thmcheck explore CLAIM
    --seed SEED --case CASE` evaluates. For the [Q] model's family, thmcheck.qin.from_instance makes it a model."""
    return _thmcheck.generate_case(claim, seed, case, cases)


def assess(model, X=None, Y=None, claims="*", digits=(50, 100), certify=True, patient=False):
    """Every selected claim that reads the model's instances, judged on these weights and this data: at double and at
    each of `digits`, with the worst condition's two sides and margin per rung, the quantities the claim measured (for
    qin.gd.linear_rate: how far L_0 is from what (H2) admits, the certified and the measured contraction), and the
    interval certificate where the claim has one. `model` is a thmcheck.qin.Transformer (with X, Y) or an instance
    (family, params, matrices). Returns the document `thmcheck assess --json` writes (docs/guide/python.md)."""
    if isinstance(model, qin.Transformer):
        if X is None or Y is None:
            raise ValueError("assess(model, X, Y): a model needs its data X and Y")
        instance = model.instance(X, Y)
    else:
        instance = model
    family, params, matrices = instance
    digits = [int(d) for d in digits]
    return json.loads(_thmcheck.assess(family, params, matrices, claims, digits, bool(certify), bool(patient)))


def summary(assessment):
    """A few lines per claim of an assess() result: whether it applies, its verdict per precision, its certificate."""
    lines = []
    for c in assessment["claims"]:
        if not c["applicable"]:
            lines.append(f"{c['id']}: does not apply ({c['not_applicable']})")
            continue
        lines.append(f"{c['id']}: {c['classification'].replace('_', ' ')}")
        for r in c["rungs"]:
            if r["measured"] is None:
                lines.append(f"  {r['precision']:<10} {r['verdict']:<12} {r['condition']}")
            else:
                lines.append(f"  {r['precision']:<10} {r['verdict']:<12} {r['condition']} (margin {r['margin']:.3e})")
        if "certification" in c:
            cert = c["certification"]
            lines.append(f"  interval certificate at {cert['digits']} digits: {cert['verdict']}")
        # The headline quantities at double: a certified rate beside the measured one, how far a hypothesis is from holding.
        for q in c.get("quantities", []):
            if any(k in q["name"] for k in _HEADLINE) and q["values"] and q["values"][0] is not None:
                lines.append(f"  {q['name']}: {q['values'][0]:.6g}")
    return "\n".join(lines)


_HEADLINE = ("certified contraction", "measured contraction", "admitted by")
