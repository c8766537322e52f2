// Conformance with an independent definition (docs/derivations/conformance.md): the [Q] transformer's output, attention
// outputs, loss and every gradient block, and [G]'s finite-data losses (one sequence; prompts) and population excess with
// their gradients, and Algorithm 1's step rule, against tests/fixtures/conformance/*.json, computed by scripts/conformance/generate.py from the papers'
// formulas in mpmath (nothing shared with numerics/). At double and at mp50, each quantity to within
//   tol = 64 (L + 1) k max(kappa, 1) u + r_ref,
// u the unit roundoff, k the largest inner dimension, L the number of blocks (1 for [G]), kappa the quantity's relative
// condition under relative perturbations of every input (measured here at mp50), r_ref = 1e-45 the fixtures' own error.
// The transformer's attention and the attention-only block of the residual claims (numerics/models/qin/attention.hpp) agree
// on every case. With fault points built in (THM_FAULTS), the consistent faults logit_scale_1_over_d and beta_squared leave
// the model agreeing with its own finite differences and fail these fixtures.
#include "tests/support/mp50.hpp"
#include "numerics/fault.hpp"
#include "numerics/models/goel/algorithm1_studies.hpp"
#include "numerics/models/goel/attention_regression.hpp"
#include "numerics/models/goel/finite_attention.hpp"
#include "numerics/models/goel/prompt_attention.hpp"
#include "numerics/models/qin/attention.hpp"
#include "numerics/models/qin/model_instance.hpp"
#include "numerics/models/qin/transformer.hpp"
#include "numerics/random.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

using namespace thm;
using nlohmann::json;

namespace {

// The fixtures' own error, relative: 50 printed digits (5e-50), central differences within 1e-46 / 3 (the generator's check
// of the steps h and 2h bounds three times the O(h^2) error of h), with a factor 10 to spare.
constexpr double kReferenceError = 1e-45;
// Relative size of the perturbation that measures the conditioning at mp50 (second-order terms ~1e-40 of it).
const char* const kPerturbation = "1e-20";

json load(const std::string& name) {
  std::ifstream f(std::string(THM_SOURCE_DIR) + "/tests/fixtures/conformance/" + name);
  REQUIRE_MESSAGE(f.good(), "missing fixture " << name << " (scripts/conformance/generate.py)");
  return json::parse(f);
}

// An input: a short decimal exact in double (checked at mp50).
double input_number(const json& s) {
  const std::string t = s.get<std::string>();
  const double x = std::strtod(t.c_str(), nullptr);
  REQUIRE_MESSAGE(mpfr_dynamic(t) == mpfr_dynamic(x), "fixture input " << t << " is not exact in double");
  return x;
}

MatD input_matrix(const json& rows) {
  MatD m(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(rows.at(0).size()));
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) m(i, j) = input_number(rows.at(i).at(j));
  return m;
}

template <class T>
T expected_number(const json& s) {
  const std::string t = s.get<std::string>();
  if constexpr (std::is_same_v<T, double>) return std::strtod(t.c_str(), nullptr);
  else return T(t);
}

template <class T>
Mat<T> expected_matrix(const json& rows) {
  Mat<T> m(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(rows.at(0).size()));
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) m(i, j) = expected_number<T>(rows.at(i).at(j));
  return m;
}

template <class T>
Mat<T> scalar_matrix(const T& x) {
  Mat<T> m(1, 1);
  m(0, 0) = x;
  return m;
}

template <class T>
using Quantities = std::vector<std::pair<std::string, Mat<T>>>;

// ---- [Q] ---------------------------------------------------------------------------------------------------------------

struct QCase {
  std::string name;
  QModel<double> model;
  json expected;
  int layers = 0, inner = 0;
};

std::vector<QCase> qin_cases() {
  const json f = load("qin.json");
  std::vector<QCase> out;
  for (const json& c : f.at("cases")) {
    QCase q;
    q.name = c.at("name").get<std::string>();
    q.layers = c.at("layers").get<int>();
    q.inner = std::max({c.at("N").get<int>(), c.at("d").get<int>(), c.at("m").get<int>()});
    REQUIRE(c.at("logit_scale").get<std::string>() == "1/sqrt(d)");
    QModel<double>& m = q.model;
    m.config.beta = input_number(c.at("beta"));
    m.config.ffn_residual = input_number(c.at("gamma"));
    m.config.c = 0;  // 1/sqrt(d) in the working precision
    const std::optional<Activation> act = parse_activation(c.at("activation").get<std::string>());
    REQUIRE(act);
    m.config.activation = *act;
    for (const json& x : c.at("X")) m.X.push_back(input_matrix(x));
    for (const json& y : c.at("Y")) m.Y.push_back(input_matrix(y));
    for (const json& b : c.at("blocks"))
      m.params.blocks.push_back({input_matrix(b.at("W_Q")), input_matrix(b.at("W_K")), input_matrix(b.at("W_V")),
                                 input_matrix(b.at("W_1")), input_matrix(b.at("W_2"))});
    m.params.W_U = input_matrix(c.at("W_U"));
    REQUIRE(static_cast<int>(m.params.blocks.size()) == q.layers);
    q.expected = c.at("expected");
    out.push_back(std::move(q));
  }
  REQUIRE(!out.empty());
  return out;
}

// The model's quantities, named as the fixture's: Z[l][i] (the transformer's attention outputs), attention_block Z[l][i]
// (the attention-only block on the same input), output[i], loss, and the gradient blocks.
template <class T>
Quantities<T> qin_quantities(const QModel<T>& m) {
  using std::sqrt;
  Quantities<T> q;
  const TransformerTrace<T> tr = transformer_forward(m.params, m.config, m.X, m.Y);
  const Eigen::Index d = m.X.front().cols();
  for (std::size_t i = 0; i < m.X.size(); ++i)
    for (std::size_t l = 0; l < m.params.blocks.size(); ++l) {
      const std::string at = std::string("[").append(std::to_string(l)).append("][").append(std::to_string(i)).append("]");
      q.emplace_back(std::string("Z").append(at), tr.V[l][i]);
      const TransformerBlock<T>& b = m.params.blocks[l];
      const AttentionWeights<T> w{b.W_Q, b.W_K, b.W_V, T(T(1) / sqrt(T(static_cast<double>(d))))};
      const Mat<T>& U = l == 0 ? m.X[i] : tr.H[l - 1][i];
      q.emplace_back(std::string("attention_block Z").append(at), attention_forward(U, w, T(m.config.beta)).Z);
    }
  for (std::size_t i = 0; i < m.X.size(); ++i)
    q.emplace_back("output[" + std::to_string(i) + "]", Mat<T>(tr.H.back()[i] * m.params.W_U));
  q.emplace_back("loss", scalar_matrix(tr.loss));
  T loss = 0;
  const TransformerParams<T> g = transformer_gradient(m.params, m.config, m.X, m.Y, &loss);
  q.emplace_back("loss from the gradient pass", scalar_matrix(loss));
  const std::vector<std::string> names = transformer_block_names(m.params.blocks.size());
  for (std::size_t k = 0; k < g.block_count(); ++k) q.emplace_back("gradient " + names[k], g.block(k));
  return q;
}

template <class T>
Mat<T> qin_expected(const json& e, const std::string& name) {
  if (name.rfind("Z[", 0) == 0 || name.rfind("attention_block Z[", 0) == 0) {
    const std::size_t open = name.find('[');
    const int l = std::stoi(name.substr(open + 1)), i = std::stoi(name.substr(name.find('[', open + 1) + 1));
    return expected_matrix<T>(e.at("Z").at(i).at(l));
  }
  if (name.rfind("output[", 0) == 0) return expected_matrix<T>(e.at("output").at(std::stoi(name.substr(7))));
  if (name.rfind("loss", 0) == 0) return scalar_matrix(expected_number<T>(e.at("loss")));
  return expected_matrix<T>(e.at("gradient").at(name.substr(9)));  // "gradient W_Q[0]"
}

// Every input (weights and data) times 1 + delta s, s = +-1 from `rng`.
template <class T>
void perturb(Mat<T>& m, Rng& rng, const T& delta) {
  for (Eigen::Index e = 0; e < m.size(); ++e) m.data()[e] *= T(1) + (rng.uniform01() < 0.5 ? delta : T(-delta));
}

template <class T>
QModel<T> perturbed(QModel<T> m, Rng& rng, const T& delta) {
  for (std::size_t k = 0; k < m.params.block_count(); ++k) perturb(m.params.block(k), rng, delta);
  for (Mat<T>& x : m.X) perturb(x, rng, delta);
  for (Mat<T>& y : m.Y) perturb(y, rng, delta);
  return m;
}

// kappa of every quantity: the largest relative change over 3 random relative perturbations of the inputs, divided by
// their size; at mp50 (the perturbation is not representable in double).
std::vector<double> conditioning(const std::function<Quantities<mp50>(Rng&, const mp50&)>& at) {
  Rng rng(20261205);
  const mp50 delta(kPerturbation);
  const Quantities<mp50> base = at(rng, mp50(0));
  std::vector<double> kappa(base.size(), 0.0);
  for (int r = 0; r < 3; ++r) {
    const Quantities<mp50> moved = at(rng, delta);
    for (std::size_t k = 0; k < base.size(); ++k) {
      const mp50 scale = base[k].second.norm();
      if (scale == 0) continue;
      kappa[k] = std::max(kappa[k], static_cast<double>((moved[k].second - base[k].second).norm() / (scale * delta)));
    }
  }
  return kappa;
}

template <class T>
double unit_roundoff() {
  return static_cast<double>(std::numeric_limits<T>::epsilon()) / 2;
}

struct Comparison {
  double worst_error = 0, worst_ratio = 0;  // largest relative error, largest error / tolerance
  std::string worst;
};

// Relative error of every quantity against its reference; each CHECKed to its tolerance when `check`.
template <class T>
Comparison compare(const std::string& what, const Quantities<T>& got, const std::vector<Mat<T>>& want,
                   const std::vector<double>& kappa, int layers, int inner, bool check) {
  Comparison c;
  for (std::size_t k = 0; k < got.size(); ++k) {
    const Mat<T>& g = got[k].second;
    const Mat<T>& w = want[k];
    REQUIRE(g.rows() == w.rows());
    REQUIRE(g.cols() == w.cols());
    const double err = static_cast<double>((g - w).norm() / w.norm());
    const double tol = 64.0 * (layers + 1) * inner * std::max(kappa[k], 1.0) * unit_roundoff<T>() + kReferenceError;
    if (check) CHECK_MESSAGE(err <= tol, what << ": " << got[k].first << " relative error " << err << " > " << tol
                                              << " (kappa " << kappa[k] << ")");
    c.worst_error = std::max(c.worst_error, err);
    if (err / tol > c.worst_ratio) {
      c.worst_ratio = err / tol;
      c.worst = got[k].first;
    }
  }
  return c;
}

template <class T>
Comparison qin_compare(const QCase& c, const std::vector<double>& kappa, bool check) {
  const Quantities<T> got = qin_quantities(lift_model<T>(c.model));
  std::vector<Mat<T>> want;
  for (const auto& [name, value] : got) want.push_back(qin_expected<T>(c.expected, name));
  return compare(c.name, got, want, kappa, c.layers, c.inner, check);
}

std::vector<double> qin_conditioning(const QCase& c) {
  const QModel<mp50> base = lift_model<mp50>(c.model);
  return conditioning([&](Rng& rng, const mp50& delta) { return qin_quantities(perturbed(base, rng, delta)); });
}

// ---- [G] ---------------------------------------------------------------------------------------------------------------

struct GoelFixture {
  MatD A, B;
  MatD X, Y;                       // one sequence
  PromptSet<double> prompts;
  MatD Sigma, M;
  double noise_sd = 0;
  json expected_sequence, expected_prompts, expected_population, step_rule;
  int inner_sequence = 0, inner_prompts = 0, inner_population = 0;
};

GoelFixture goel_data() {
  const json f = load("goel.json");
  GoelFixture g;
  g.A = input_matrix(f.at("A"));
  g.B = input_matrix(f.at("B"));
  const json& s = f.at("one_sequence");
  REQUIRE(s.at("mask_self").get<bool>());
  g.X = input_matrix(s.at("X"));
  g.Y = input_matrix(s.at("Y"));
  g.expected_sequence = s.at("expected");
  g.step_rule = s.at("step_rule");
  const json& p = f.at("prompts");
  const int n = p.at("n").get<int>(), tokens = p.at("T").get<int>();
  g.prompts.Qry = input_matrix(p.at("Qry"));
  g.prompts.Y = input_matrix(p.at("Y"));
  g.prompts.tokens = tokens;
  g.prompts.X.resize(n * tokens, g.A.cols());
  for (int q = 0; q < n; ++q) g.prompts.X.middleRows(q * tokens, tokens) = input_matrix(p.at("contexts").at(q));
  g.expected_prompts = p.at("expected");
  const json& pop = f.at("population");
  g.Sigma = input_matrix(pop.at("Sigma"));
  g.M = input_matrix(pop.at("M"));
  g.noise_sd = input_number(pop.at("noise_sd"));
  g.expected_population = pop.at("expected");
  const int d = static_cast<int>(g.A.cols());
  g.inner_sequence = std::max(static_cast<int>(g.X.rows()), d);
  g.inner_prompts = std::max({n, tokens, d});
  g.inner_population = d;
  return g;
}

template <class T>
struct GLifted {
  Mat<T> A, B, X, Y, Sigma, M;
  PromptSet<T> prompts;
  T noise_sd;
};

template <class T>
GLifted<T> lift_goel(const GoelFixture& g) {
  return {lift<T>(g.A), lift<T>(g.B), lift<T>(g.X), lift<T>(g.Y), lift<T>(g.Sigma), lift<T>(g.M), lift_prompts<T>(g.prompts),
          T(g.noise_sd)};
}

enum class GPart { sequence, prompts, population };

template <class T>
Quantities<T> goel_quantities(const GLifted<T>& g, GPart part) {
  Quantities<T> q;
  T loss = 0;
  ParamPair<T> grad;
  if (part == GPart::sequence) {
    q.emplace_back("loss", scalar_matrix(finite_loss(g.A, g.B, g.X, g.Y, true)));
    q.emplace_back("loss of finite_forward", scalar_matrix(finite_forward(g.A, g.B, g.X, g.Y, true).loss));
    grad = finite_gradient(g.A, g.B, g.X, g.Y, true, nullptr, &loss);
  } else if (part == GPart::prompts) {
    q.emplace_back("loss", scalar_matrix(prompt_loss(g.A, g.B, g.prompts)));
    grad = prompt_gradient(g.A, g.B, g.prompts, &loss);
  } else {
    const RegressionTask<T> task = make_regression_task(g.Sigma, g.M, g.noise_sd);
    loss = population_excess(g.A, g.B, task);
    grad = population_excess_gradient(g.A, g.B, task);
  }
  q.emplace_back("loss from the gradient pass", scalar_matrix(loss));
  q.emplace_back("gradient A", grad.A);
  q.emplace_back("gradient B", grad.B);
  return q;
}

template <class T>
Comparison goel_compare(const GoelFixture& g, GPart part, const std::vector<double>& kappa, bool check) {
  const Quantities<T> got = goel_quantities(lift_goel<T>(g), part);
  const json& e = part == GPart::sequence ? g.expected_sequence : part == GPart::prompts ? g.expected_prompts : g.expected_population;
  std::vector<Mat<T>> want;
  for (const auto& [name, value] : got) {
    if (name.rfind("gradient ", 0) == 0) want.push_back(expected_matrix<T>(e.at("gradient").at(name.substr(9))));
    else want.push_back(scalar_matrix(expected_number<T>(e.at(part == GPart::population ? "excess" : "loss"))));
  }
  const int inner = part == GPart::sequence ? g.inner_sequence : part == GPart::prompts ? g.inner_prompts : g.inner_population;
  const char* what = part == GPart::sequence ? "[G] one sequence" : part == GPart::prompts ? "[G] prompts" : "[G] population";
  return compare(what, got, want, kappa, 1, inner, check);
}

std::vector<double> goel_conditioning(const GoelFixture& g, GPart part) {
  const GLifted<mp50> base = lift_goel<mp50>(g);
  return conditioning([&](Rng& rng, const mp50& delta) {
    GLifted<mp50> m = base;
    for (Mat<mp50>* x : {&m.A, &m.B, &m.X, &m.Y, &m.Sigma, &m.M, &m.prompts.X, &m.prompts.Qry, &m.prompts.Y}) perturb(*x, rng, delta);
    m.Sigma = Mat<mp50>((m.Sigma + m.Sigma.transpose()) / 2);  // still symmetric (evaluated first: no aliasing)
    return goel_quantities(m, part);
  });
}

// Algorithm 1's step rule on the one-sequence data (algorithm_options, algorithm1_options; goel.finite_data.md, "Step sizes"
// and "Step size"), against the fixture's: the documented step 1/(2 max(1, lambda) sigma_1(Z_hat)) and plain GD's, each to
// 1e-12 relative (an SVD and an eigenvalue of 3 x 3 matrices in double), and the step capped by the Hessian of F~_n at the
// fixture's point, a power of two, exactly (the generator keeps 1/lambda_max 1e-6 away from a power of two; the
// Hessian's central differences are accurate to about 1e-8). Returns the largest error over its tolerance (the capped
// step's tolerance is 1e-12 relative too, so a different power of two is a ratio of about 1e11).
double step_rule_ratio(const GoelFixture& g) {
  const EmpiricalMoments<double> m = empirical_moments(g.X, g.Y);
  const TrainOptions documented = algorithm_options(m, 1, true), plain = algorithm_options(m, 1, false);
  REQUIRE(documented.lambda == input_number(g.step_rule.at("lambda")));
  FiniteProblem<double> f;
  f.X = g.X;
  f.Y = g.Y;
  f.moments = m;
  const ParamPair<double> point{g.A, g.B};
  const double capped = hessian_step_cap(hat_hessian(f, point, documented), documented.eta);
  const auto ratio = [&](double measured, const char* key) {
    const double reference = expected_number<double>(g.step_rule.at(key));
    return std::fabs(measured - reference) / (1e-12 * std::fabs(reference));
  };
  return std::max({ratio(documented.eta, "eta_documented"), ratio(plain.eta, "eta_plain"), ratio(capped, "eta_capped")});
}

}  // namespace

TEST_CASE("conformance [G]: Algorithm 1's documented steps and its Hessian-capped step match the independent definition") {
  CHECK(step_rule_ratio(goel_data()) <= 1.0);
}

TEST_CASE("conformance [Q]: output, attention outputs, loss and every gradient block match the independent definition") {
  for (const QCase& c : qin_cases()) {
    const std::vector<double> kappa = qin_conditioning(c);
    const Comparison at_double = qin_compare<double>(c, kappa, true);
    const Comparison at_mp50 = qin_compare<mp50>(c, kappa, true);
    MESSAGE(c.name << ": worst relative error " << at_double.worst_error << " at double, " << at_mp50.worst_error
                   << " at mp50; largest kappa " << *std::max_element(kappa.begin(), kappa.end()));
  }
}

TEST_CASE("conformance [G]: both finite-data losses, the population excess and their gradients match the independent definition") {
  const GoelFixture g = goel_data();
  for (GPart part : {GPart::sequence, GPart::prompts, GPart::population}) {
    const std::vector<double> kappa = goel_conditioning(g, part);
    const Comparison at_double = goel_compare<double>(g, part, kappa, true);
    const Comparison at_mp50 = goel_compare<mp50>(g, part, kappa, true);
    MESSAGE("part " << static_cast<int>(part) << ": worst relative error " << at_double.worst_error << " at double, "
                    << at_mp50.worst_error << " at mp50; largest kappa " << *std::max_element(kappa.begin(), kappa.end()));
  }
}

#ifdef THM_FAULTS
namespace {

// The model agrees with itself under the fault: <grad L, v> against a central difference of the loss at mp50 (step 1e-20:
// truncation ~1e-40, rounding ~1e-30 relative), v a random direction on every block.
double self_consistency(const QModel<double>& m64) {
  const QModel<mp50> m = lift_model<mp50>(m64);
  Rng rng(7);
  TransformerParams<mp50> v = m.params;
  for (std::size_t k = 0; k < v.block_count(); ++k)
    for (Eigen::Index e = 0; e < v.block(k).size(); ++e) v.block(k).data()[e] = mp50(rng.uniform01() - 0.5);
  const mp50 h("1e-20");
  const mp50 directional = params_dot(transformer_gradient(m.params, m.config, m.X, m.Y), v);
  const mp50 central = (transformer_loss(params_axpy(m.params, h, v), m.config, m.X, m.Y) -
                        transformer_loss(params_axpy(m.params, mp50(-h), v), m.config, m.X, m.Y)) / (2 * h);
  return static_cast<double>(abs(directional - central) / abs(central));
}

void consistent_fault_fails(Fault fault) {
  const std::vector<QCase> cases = qin_cases();
  std::vector<std::vector<double>> kappa;
  for (const QCase& c : cases) kappa.push_back(qin_conditioning(c));  // without the fault
  double worst_double = 0, worst_mp50 = 0, self = 0;
  bool beta_one_only = true;
  {
    const ActiveFault guard(fault);
    for (std::size_t k = 0; k < cases.size(); ++k) {
      worst_double = std::max(worst_double, qin_compare<double>(cases[k], kappa[k], false).worst_ratio);
      worst_mp50 = std::max(worst_mp50, qin_compare<mp50>(cases[k], kappa[k], false).worst_ratio);
      self = std::max(self, self_consistency(cases[k].model));
      if (cases[k].model.config.beta != 1.0 && cases[k].model.config.beta != 0.0) beta_one_only = false;
    }
  }
  REQUIRE_FALSE(beta_one_only);  // beta^2 = beta at 0 and 1: the fixtures need another beta
  MESSAGE("fault active: largest error / tolerance " << worst_double << " at double, " << worst_mp50
                                                     << " at mp50; the model against its own finite differences " << self);
  CHECK(self < 1e-25);          // invisible to a comparison of the model with itself ...
  CHECK(worst_double > 1e3);    // ... and far outside the conformance tolerance
  CHECK(worst_mp50 > 1e3);
  for (std::size_t k = 0; k < cases.size(); ++k) CHECK(qin_compare<double>(cases[k], kappa[k], false).worst_ratio <= 1.0);
}

}  // namespace

TEST_CASE("conformance [Q]: a consistent 1/d logit scale passes the model's own gradient check and fails the fixtures") {
  consistent_fault_fails(Fault::logit_scale_1_over_d);
}

TEST_CASE("conformance [Q]: a consistent beta^2 residual weight passes the model's own gradient check and fails the fixtures") {
  consistent_fault_fails(Fault::beta_squared);
}

// The catalogue's `checks` field is a promise (numerics/fault.hpp; the catalogue's fault table prints it): every fault it says
// the conformance fixtures catch fails them, at double, by more than 1000 times the tolerance on some quantity.
TEST_CASE("conformance: every fault the catalogue says the fixtures catch fails them") {
  const std::vector<QCase> cases = qin_cases();
  std::vector<std::vector<double>> kappa;
  for (const QCase& c : cases) kappa.push_back(qin_conditioning(c));
  const GoelFixture g = goel_data();
  std::vector<std::vector<double>> g_kappa;
  for (GPart part : {GPart::sequence, GPart::prompts, GPart::population}) g_kappa.push_back(goel_conditioning(g, part));
  int promised = 0;
  for (const FaultInfo& f : all_faults()) {
    if (f.checks != "conformance") continue;
    ++promised;
    double worst = 0;
    const ActiveFault guard(f.fault);
    for (std::size_t k = 0; k < cases.size(); ++k) worst = std::max(worst, qin_compare<double>(cases[k], kappa[k], false).worst_ratio);
    for (GPart part : {GPart::sequence, GPart::prompts, GPart::population})
      worst = std::max(worst, goel_compare<double>(g, part, g_kappa[static_cast<std::size_t>(part)], false).worst_ratio);
    worst = std::max(worst, step_rule_ratio(g));
    MESSAGE(f.name << ": largest error / tolerance " << worst);
    CHECK_MESSAGE(worst > 1e3, f.name);
  }
  CHECK(promised >= 6);
}
#endif
