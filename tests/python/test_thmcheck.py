"""The Python module against the command line and the conformance fixtures (docs/guide/python.md).

Run by ctest (python.module) with PYTHONPATH at the build's python/ and THMCHECK naming the thmcheck executable."""
import json
import os
import subprocess
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import thmcheck
from thmcheck import goel, qin

THMCHECK = os.environ["THMCHECK"]
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "conformance" / "qin.json"
GOEL_FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "conformance" / "goel.json"


def cli(*args, check=True):
    r = subprocess.run([THMCHECK, *args], capture_output=True, text=True)
    if check and r.returncode != 0:
        raise AssertionError(f"thmcheck {' '.join(args)}: exit {r.returncode}\n{r.stderr}")
    return r


def fixture_cases():
    return json.loads(FIXTURES.read_text())["cases"]


def fixture_model(case):
    """The fixture's model and data; its entries are dyadic decimals, exact in float64."""
    f = lambda a: np.array(a, dtype=float)
    blocks = case["blocks"]
    assert case["logit_scale"] == "1/sqrt(d)" and case["gamma"] == "1"
    model = qin.Transformer(*([f(b[k]) for b in blocks] for k in qin.BLOCKS), f(case["W_U"]), beta=float(case["beta"]),
                            activation=case["activation"])
    return model, f(case["X"]), f(case["Y"])


def agreeing_digits(a, b):
    a, b = Fraction(a), Fraction(b)
    if a == b:
        return 1000
    return -float(np.log10(float(abs(a - b) / max(abs(a), abs(b)))))


def test_claims_is_the_registry():
    listed = json.loads(cli("list", "--json").stdout)
    assert [c["id"] for c in thmcheck.claims()] == [c["id"] for c in listed]
    assert len(listed) > 40


@pytest.mark.parametrize("case", fixture_cases(), ids=lambda c: c["name"])
def test_model_matches_the_formula_at_every_precision(case):
    """Loss, gradient and attention output against the fixtures' 50 digits (mpmath from the papers' formulas, code that
    shares nothing with numerics/): every digit at mp50 and mp100, double's digits at double; the mp100 values agree
    with the fixture to more digits than double's (the identities tighten as digits grow)."""
    model, X, Y = fixture_model(case)
    want = case["expected"]
    need = {"double": 12, "mp50": 47, "mp100": 47}  # the fixture holds 50 digits; mp50 loses a few to cancellation
    for precision, digits in need.items():
        loss, grad = model.value_and_gradient(X, Y, precision=precision, exact=True)
        assert agreeing_digits(loss, want["loss"]) >= digits, (precision, loss, want["loss"])
        for name, g in want["gradient"].items():
            for got, ref in zip(np.ravel(grad[name]), np.ravel(np.array(g, dtype=object))):
                scale = max(abs(Fraction(ref)), Fraction(1, 10**6))
                assert abs(Fraction(got) - Fraction(ref)) / scale <= Fraction(10) ** -digits, (precision, name, got, ref)
        for layer in range(case["layers"]):  # the fixture's Z is [sample][layer]
            Z = model.attention_output(X, layer=layer, precision=precision, exact=True)
            ref = np.array([z[layer] for z in want["Z"]], dtype=object)
            assert Z.shape == ref.shape
            for got, r in zip(np.ravel(Z), np.ravel(ref)):
                assert abs(Fraction(got) - Fraction(r)) <= Fraction(10) ** -digits * max(1, abs(Fraction(r))), (precision, layer)
    assert model.loss(X, Y) == float(Fraction(model.loss(X, Y, exact=True)))


def test_double_loss_and_gradient_bit_for_bit_with_the_command_line(tmp_path):
    """qin.gd.linear_rate's trajectory as the command line computes it from an instance file: L_0 is the loss, and L_1
    the loss after the step theta_0 - eta grad L(theta_0); both equal the module's double values bit for bit."""
    for case in range(8):
        model, X, Y = qin.from_instance(thmcheck.generate_case("qin.gd.linear_rate", 5, case))
        model.save(tmp_path / "m.json", X, Y)
        cli("assess", "--instance", str(tmp_path / "m.json"), "--claims", "qin.gd.linear_rate", "--digits", "20",
            "--no-interval", "--json", str(tmp_path / "a.json"), check=False)
        doc = json.loads((tmp_path / "a.json").read_text())
        q = {x["name"]: x["values"][0] for x in doc["claims"][0].get("quantities", [])}
        if "loss L_t (t = 1)" not in q:
            continue  # outside the theorem's hypotheses: no trajectory
        assert model.loss(X, Y) == q["loss L_t (t = 0)"]
        assert model.step(X, Y, q["eta = 1/Lg"]).loss(X, Y) == q["loss L_t (t = 1)"]
        return
    pytest.fail("no case of seed 5 meets qin.gd.linear_rate's hypotheses in 8: the test checked nothing")


def test_assess_gives_the_verdicts_explore_gives():
    for claim in ("qin.gd.linear_rate", "qin.pl.output_layer"):
        fam, params, mats = thmcheck.generate_case(claim, 11, 2)
        got = thmcheck.assess((fam, params, mats), claims=claim, digits=(30, 50), certify=False)["claims"][0]
        out = cli("explore", claim, "--seed", "11", "--case", "2", "--digits", "30,50").stdout
        lines = [l.split() for l in out.splitlines()]
        rows = {l[0]: l[1] if l[0] == "double" else l[2] for l in lines if l and (l[0] == "double" or l[1:2] == ["digits"])}
        assert [r["verdict"] for r in got["rungs"]] == [rows["double"], rows["30"], rows["50"]]
        classification = out.splitlines()[-1].split(": ", 1)[1].split(" ")[0]
        assert got["classification"].split("_")[0] == classification


def test_assess_reports_how_far_the_hypotheses_are():
    """On a generated instance whose L_0 is of order ||Y||^2, (H2) fails; assess says by how many orders of magnitude."""
    for case in range(12):
        model, X, Y = qin.from_instance(thmcheck.generate_case("qin.gd.linear_rate", 3, case))
        a = thmcheck.assess(model, X, Y, claims="qin.gd.linear_rate", digits=(30,), certify=False)["claims"][0]
        if a["classification"] != "discarded":
            continue
        q = {x["name"]: x["values"][0] for x in a["quantities"]}
        gap = q["log10(L_0 / largest L_0 admitted by (H2))"]
        assert gap > 0 and "(H2) fails" in a["rungs"][0]["condition"]
        assert gap == pytest.approx(np.log10(q["L_0 / (1/2 ||Y||^2)"] / q["largest L_0 / (1/2 ||Y||^2) admitted by (H2)"]))
        return
    pytest.fail("no case of seed 3 fails (H2) in 12")


def test_run_returns_the_summary(tmp_path):
    got = thmcheck.run(claims="qin.residual.weyl_interlacing", seed=4, precision="double", cases=4, report=tmp_path / "r")
    assert got["exit_status"] == 0
    on_disk = json.loads((tmp_path / "r" / "summary.json").read_text())
    assert {k: v for k, v in got.items() if k != "exit_status"} == on_disk


def test_bad_input_is_a_value_error():
    model, X, Y = fixture_model(fixture_cases()[0])
    bad = X.copy()
    bad[1, 2, 0] = np.nan
    cases = [
        lambda: model.loss(bad, Y),
        lambda: model.loss(X[:, :, :2], Y),
        lambda: model.loss(X.astype(complex), Y),
        lambda: model.loss(X.astype(str), Y),
        lambda: model.loss(X[0], Y),
        lambda: model.loss(X, Y[:1]),
        lambda: model.loss(X, Y, precision="mp7"),
        lambda: model.loss(X, Y, precision="quad"),
        lambda: qin.Transformer(*([np.eye(3)] for _ in range(4)), [np.eye(4)], np.ones((3, 2))),
        lambda: qin.Transformer(*([np.eye(3)] for _ in range(5)), np.ones((3, 2)), activation="swish"),
        lambda: qin.Transformer(*([np.eye(3)] for _ in range(5)), np.ones((3, 2)), beta=float("inf")),
        lambda: thmcheck.assess(model, X, Y, claims="no.such.*"),
        lambda: thmcheck.assess(model, X, Y, claims="goel.*"),
        lambda: thmcheck.run(claims="no.such.claim"),
        lambda: thmcheck.run(seed=-1),
        lambda: thmcheck.generate_case("qin.gd.linear_rate", 1, 10**6),
        lambda: qin.from_instance("/nonexistent/instance.json"),
    ]
    for k, f in enumerate(cases):
        with pytest.raises(ValueError) as e:
            f()
        assert "\n" not in str(e.value), (k, str(e.value))


def test_instance_files_round_trip_and_bad_files_are_refused(tmp_path):
    model, X, Y = fixture_model(fixture_cases()[3])
    model.save(tmp_path / "m.json", X, Y)
    again, X2, Y2 = qin.from_instance(tmp_path / "m.json")
    assert again.loss(X2, Y2, exact=True) == model.loss(X, Y, exact=True)
    (tmp_path / "bad.json").write_text('{"format": "thmcheck-instance", "version": 1, "instance": {"family": "qin.model"}}')
    r = cli("assess", "--instance", str(tmp_path / "bad.json"), check=False)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and r.stdout == ""


def test_from_torch_round_trip():
    torch = pytest.importorskip("torch", reason="Debian's python3-torch is not installed (optional: the PyTorch comparator)")
    model, X, Y = fixture_model(fixture_cases()[4])
    module = qin.torch_module(model)
    back = qin.from_torch(module)
    assert back.loss(X, Y, exact=True) == model.loss(X, Y, exact=True)
    yhat = module(torch.tensor(X)).detach().numpy()
    np.testing.assert_allclose(yhat, model.outputs(X), rtol=1e-12, atol=1e-12)


def exact_array(rows):
    """A fixture's input matrix as float64; its entries are decimals that float64 holds exactly (checked)."""
    a = np.array([[float(x) for x in r] for r in rows])
    assert all(Fraction(str(x)) == Fraction(float(x)) or Fraction(x) == Fraction(float(x)) for r in rows for x in r)
    return a


def goel_parts():
    f = json.loads(GOEL_FIXTURE.read_text())
    A, B = exact_array(f["A"]), exact_array(f["B"])
    s, p, pop = f["one_sequence"], f["prompts"], f["population"]
    yield "sequence", s["expected"]["loss"], s["expected"]["gradient"], \
        lambda precision: goel.sequence(A, B, exact_array(s["X"]), exact_array(s["Y"]), mask_self=s["mask_self"], precision=precision, exact=True)
    yield "prompts", p["expected"]["loss"], p["expected"]["gradient"], \
        lambda precision: goel.prompts(A, B, [exact_array(c) for c in p["contexts"]], exact_array(p["Qry"]), exact_array(p["Y"]),
                                       precision=precision, exact=True)
    yield "population", pop["expected"]["excess"], pop["expected"]["gradient"], \
        lambda precision: goel.population(A, B, exact_array(pop["Sigma"]), exact_array(pop["M"]), float(Fraction(pop["noise_sd"])),
                                          precision=precision, exact=True)


@pytest.mark.parametrize("part", list(goel_parts()), ids=lambda p: p[0])
def test_goel_objectives_match_the_formula_at_every_precision(part):
    """[G]'s three objectives and their gradients against the fixture's 50 digits (mpmath from the formulas,
    scripts/conformance/generate.py): double's digits at double, every digit the fixture holds at mp50 and mp100."""
    name, value, gradient, evaluate = part
    for precision, digits in {"double": 12, "mp50": 46, "mp100": 46}.items():
        got, gA, gB = evaluate(precision)
        assert agreeing_digits(got, value) >= digits, (name, precision, got, value)
        for block, g in (("A", gA), ("B", gB)):
            ref = np.array(gradient[block], dtype=object)
            scale = max(abs(Fraction(r)) for r in np.ravel(ref))
            for x, r in zip(np.ravel(np.array(g, dtype=object)), np.ravel(ref)):
                assert abs(Fraction(x) - Fraction(r)) <= Fraction(10) ** -digits * scale, (name, precision, block, x, r)


def test_goel_bad_input_is_a_value_error():
    A, B = np.zeros((2, 3)), np.eye(3)
    X, Y = np.ones((4, 3)), np.ones((4, 2))
    with pytest.raises(ValueError, match="A must be k x d"):
        goel.sequence(np.zeros((2, 4)), B, X, Y)
    with pytest.raises(ValueError, match="Y n x k"):
        goel.sequence(A, B, X, np.ones((3, 2)))
    with pytest.raises(ValueError, match="entry"):
        goel.sequence(A, B, np.full((4, 3), np.nan), Y)
    with pytest.raises(ValueError, match="one context per query"):
        goel.prompts(A, B, [np.ones((5, 3))], np.ones((2, 3)), np.ones((2, 2)))
    with pytest.raises(ValueError, match="positive definite"):
        goel.population(A, B, -np.eye(3), np.ones((2, 3)))
    with pytest.raises(ValueError, match="symmetric"):
        goel.population(A, B, np.triu(np.ones((3, 3))), np.ones((2, 3)))
    with pytest.raises(ValueError, match="precision"):
        goel.population(A, B, np.eye(3), np.ones((2, 3)), precision="mp3")
    # the double value is the float nearest the exact decimal the same pass prints
    v, _, _ = goel.sequence(A + 0.25, B, X, Y)
    assert v == float(goel.sequence(A + 0.25, B, X, Y, exact=True)[0])
