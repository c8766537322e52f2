// goel.data.iid_draws (derived; docs/derivations/goel.data.iid_draws.md)
//
// The data every [G] study trains on is the data [G]'s risk bound speaks of: n i.i.d. tokens x ~ N(0, Sigma) with labels
// y = M x + xi, xi ~ N(0, s^2 I), and the draws at different n, replicates and readings independent (the trend and
// exponent tests of the risk claims assume it). On the risk studies' design at the run's budget (the one-sequence grid
// with its draws, each draw also as n prompts of T context tokens):
//
//   (I0) the data seeds of the draws (n, s) of the one-sequence and the attention-limit designs are distinct
//   (I1) no token (a row of x, query or context) occurs twice among all the draws, bit for bit
//   (I2) each coordinate j of the whitened tokens z = x Sigma^{-1/2}: |sum_i z_ij^2 - N_x| <= h(N_x)
//   (I3) each coordinate j of the label noise xi = y - M x:            |sum_i xi_ij^2 / s^2 - N_y| <= h(N_y)
//
// Under the claim every sum in (I2), (I3) is chi-squared with N degrees of freedom, independent of the others; h(N) is
// the larger distance of its two-sided quantiles at level kIidLevel / m from N (m the number of sums, Bonferroni), so a
// case fails with probability at most kIidLevel (chi-squared quantiles from Boost.Math).
//   Negative control: each h strengthened by control_factor (a data law that much tighter around its mean could hold).
#include "numerics/models/goel/prompt_attention.hpp"
#include "theorems/goel/algorithm.hpp"
#include "theorems/goel/risk.hpp"
#include "theorems/register_claim.hpp"

#include <boost/math/distributions/chi_squared.hpp>

#include <Eigen/LU>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <set>
#include <unordered_set>
#include <vector>

namespace thm::goel {

namespace {

// The false-failure probability of one case (derivation, "Calibration").
constexpr double kIidLevel = 1e-6;

// h(N): the larger distance from N of the chi-squared(N) quantiles at level / 2 and 1 - level / 2.
double chi_squared_halfwidth(double dof, double level) {
  const boost::math::chi_squared_distribution<double> chi(dof);
  return std::max(dof - boost::math::quantile(chi, level / 2), boost::math::quantile(boost::math::complement(chi, level / 2)) - dof);
}

// Rows of X as byte strings (a token bit for bit), counting the ones seen before.
struct TokenSet {
  std::unordered_set<std::string> seen;
  long repeated = 0;
  void add(const MatD& X) {
    std::vector<double> row(static_cast<std::size_t>(X.cols()));
    for (Eigen::Index i = 0; i < X.rows(); ++i) {
      for (Eigen::Index j = 0; j < X.cols(); ++j) row[static_cast<std::size_t>(j)] = X(i, j);
      std::string key(row.size() * sizeof(double), '\0');
      std::memcpy(key.data(), row.data(), key.size());
      repeated += !seen.insert(std::move(key)).second;
    }
  }
};

// The attention-limit design's n grid and draws at the instance's budget (theorems/goel/algorithm.hpp; generate_excess_bound
// writes draws_scale at the full budget only).
std::vector<std::pair<int, int>> limit_design(bool full) {
  std::vector<std::pair<int, int>> d;
  for (int n = kLimitRiskNMin; n <= kLimitRiskNMax; n *= 2) d.emplace_back(n, full ? kLimitRiskDrawsFull : kLimitRiskDraws);
  return d;
}

}  // namespace

struct IidDraws {
  static ClaimInfo info() {
    return {
        .id = "goel.data.iid_draws",
        .source = "G",
        .provenance = Provenance::derived,
        .kind = ClaimKind::inequality,
        .statement = "the [G] studies' data are i.i.d. draws of the model the bound speaks of: distinct data seeds for every draw (n, s), "
                     "no token shared by two draws or readings, each whitened token coordinate's and each label-noise coordinate's sum "
                     "of squares within its chi-squared(N) two-sided interval at level 1e-6 per case (Bonferroni)",
        .negative_control = "each chi-squared interval's half-width divided by control_factor",
        .reading = kEveryReading,
        .default_cases = 60,
        // The draws are doubles at every precision; the sums at 50 digits on a prefix.
        .mp_cases = 4,
        .control_factor = 8,
        .resolving_factor = 2.518,  // thmcheck power --claims goel.data.iid_draws --seeds 1..20
    };
  }

  // The risk studies' instances (theorems/goel/algorithm.hpp), with the context tokens per prompt.
  static InstanceSchema schema() { return excess_bound_schema().integer("tokens", 1, 4); }
  static Instance generate(ChoiceSource& src) {
    Instance inst = generate_excess_bound(src);
    inst.params["tokens"] = static_cast<double>(src.integer(1, 4));
    return inst;
  }

  template <class T>
  static Evaluation evaluate(const Instance& inst, Variant) {
    using std::abs;
    const int tokens = int_param(inst, "tokens", 1, 4);
    const MatD& S = inst.matrix("Sigma_sqrt");
    const MatD M = data_task(inst);
    const double sd = inst.param("noise_sd");
    const int d = static_cast<int>(S.rows()), k = static_cast<int>(M.rows());

    // (I0) the seeds of both designs.
    std::vector<std::pair<int, int>> design;
    for (int n : n_grid(inst)) design.emplace_back(n, detail::risk_seeds(inst, n));
    // A draw (n, s) of both designs is one draw (the readings share their data), counted once.
    std::set<std::pair<int, int>> pairs;
    for (const auto& part : {design, limit_design(inst.params.count("draws_scale") > 0)})
      for (const auto& [n, count] : part)
        for (int s = 0; s < count; ++s) pairs.emplace(n, s);
    std::unordered_set<std::uint64_t> seeds;
    long seed_repeats = 0;
    const long draws = static_cast<long>(pairs.size());
    for (const auto& [n, s] : pairs) seed_repeats += !seeds.insert(data_seed(inst, n, s)).second;

    // (I1)-(I3) on the one-sequence design's draws, each as n prompts of `tokens` context tokens.
    TokenSet seen;
    const Mat<T> S_inv = lift<T>(S).inverse();
    Vec<T> zsq = Vec<T>::Zero(d), xisq = Vec<T>::Zero(k);
    long Nx = 0, Ny = 0;
    for (const auto& [n, count] : design)
      for (int s = 0; s < count; ++s) {
        const PromptSet<double> p = draw_goel_prompts(inst, n, tokens, data_seed(inst, n, s));
        seen.add(p.Qry);
        seen.add(p.X);
        for (const MatD* X : {&p.Qry, &p.X}) {
          const Mat<T> Z = lift<T>(*X) * S_inv;
          zsq += Z.colwise().squaredNorm().transpose();
          Nx += X->rows();
        }
        const MatD xi = p.Y - fixed_order_product(p.Qry, M.transpose());
        xisq += (lift<T>(xi) / T(sd)).colwise().squaredNorm().transpose();
        Ny += p.Qry.rows();
      }

    Evaluation e;
    e.conditions.push_back(with_strength(make_le<T>("(I0) data seeds repeated, none (< 1/2)", T(seed_repeats), T(0.5), T(0)), kNotScaled));
    e.conditions.push_back(with_strength(make_le<T>("(I1) tokens repeated, none (< 1/2)", T(seen.repeated), T(0.5), T(0)), kNotScaled));
    const int m = d + (sd > 0 ? k : 0);
    const double level = kIidLevel / m;
    // The sums' rounding: N terms of a few ulps each, relative to the sum.
    const auto sum_noise = [](const T& sum, long N) { return T(T(4 * N) * epsilon<T>() * sum); };
    for (int j = 0; j < d; ++j) {
      const T dev = abs(T(zsq(j) - T(Nx)));
      e.conditions.push_back(make_le<T>("(I2) |sum z_" + std::to_string(j + 1) + "^2 - N_x| <= h(N_x)", dev,
                                        T(chi_squared_halfwidth(double(Nx), level)), sum_noise(zsq(j), Nx)));
    }
    if (sd > 0) {
      for (int j = 0; j < k; ++j) {
        const T dev = abs(T(xisq(j) - T(Ny)));
        e.conditions.push_back(make_le<T>("(I3) |sum xi_" + std::to_string(j + 1) + "^2 / s^2 - N_y| <= h(N_y)", dev,
                                          T(chi_squared_halfwidth(double(Ny), level)), sum_noise(xisq(j), Ny)));
      }
    }
    e.observations = {{"draws", double(draws)}, {"N_x", double(Nx)}, {"N_y", double(Ny)}, {"tokens per prompt", double(tokens)},
                      {"d", double(d)}, {"k", double(k)}, {"s", sd}};
    return e;
  }
};

}  // namespace thm::goel

THM_REGISTER_CLAIM(thm::goel::IidDraws)
