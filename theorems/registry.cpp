#include "theorems/registry.hpp"

#include "theorems/qin_residual.hpp"
#include "theorems/qin_softmax.hpp"
#include "theorems/qin_training.hpp"
#include "theorems/qin_trends.hpp"

#include <sstream>
#include <stdexcept>

namespace thm {

namespace {

// Dispatch a templated evaluate<T> over the precision ladder.
template <Evaluation (*F64)(const Instance&, Variant), Evaluation (*F50)(const Instance&, Variant),
          Evaluation (*F100)(const Instance&, Variant)>
Evaluation by_precision(const Instance& inst, Precision p, Variant v) {
  switch (p) {
    case Precision::float64: return F64(inst, v);
    case Precision::mp50: return F50(inst, v);
    case Precision::mp100: return F100(inst, v);
  }
  throw std::invalid_argument("unknown precision");
}

#define THM_BY_PRECISION(f) by_precision<&f<double>, &f<mp50>, &f<mp100>>

std::vector<Claim> make_claims() {
  std::vector<Claim> claims;

  Claim rank_collapse;
  rank_collapse.id = kRankCollapseId;
  rank_collapse.source = "Q";
  rank_collapse.provenance = Provenance::derived;
  rank_collapse.kind = ClaimKind::inequality;
  rank_collapse.statement =
      "(a) row-constant logits => rank(A) <= 1; (b) eps = max|K|: ||S - 11^T/N||_2 <= exp(2 eps) - 1 and "
      "sigma_2(A) <= (exp(2 eps) - 1) ||X W_V||_2";
  rank_collapse.negative_control = "the bounds of (b) divided by 4";
  rank_collapse.default_cases = 200;
  rank_collapse.generate = generate_rank_collapse;
  rank_collapse.evaluate = THM_BY_PRECISION(evaluate_rank_collapse);
  claims.push_back(rank_collapse);

  Claim weyl;
  weyl.id = kWeylInterlacingId;
  weyl.source = "Q";
  weyl.provenance = Provenance::derived;
  weyl.kind = ClaimKind::inequality;
  weyl.statement = "sigma_k(Z) >= beta sigma_{k+j}(X) - sigma_{j+1}(A) for k >= 1, j >= 0, k + j <= min(N, d)";
  weyl.negative_control = "the index shift dropped: sigma_k(Z) >= beta sigma_k(X) - sigma_{j+1}(A) for j >= 1";
  weyl.default_cases = 200;
  weyl.generate = generate_weyl_interlacing;
  weyl.evaluate = THM_BY_PRECISION(evaluate_weyl_interlacing);
  claims.push_back(weyl);

  Claim sigma_min;
  sigma_min.id = kSigmaMinLowerBoundId;
  sigma_min.source = "Q";
  sigma_min.provenance = Provenance::derived;
  sigma_min.kind = ClaimKind::inequality;
  sigma_min.statement = "||S||_2 <= sqrt(N) and sigma_min(Z) >= beta sigma_min(X) - ||S||_2 ||X||_2 ||W_V||_2";
  sigma_min.negative_control = "||S||_2 <= 1 and sigma_min(Z) >= beta sigma_min(X) (attention term dropped)";
  sigma_min.default_cases = 200;
  sigma_min.generate = generate_sigma_min_lower_bound;
  sigma_min.evaluate = THM_BY_PRECISION(evaluate_sigma_min_lower_bound);
  claims.push_back(sigma_min);

  Claim trend;
  trend.id = kConditioningTrendId;
  trend.source = "Q";
  trend.provenance = Provenance::empirical;
  trend.kind = ClaimKind::trend;
  trend.statement =
      "small logits, beta in {0,.1,.25,.5,.75,1}: kappa(Zs) >= 1e6 at beta = 0, Spearman(beta, kappa(Zs)) <= -0.9, "
      "Spearman(beta, min_i sigma_min(Z_i)^2 / max_i ||Z_i||^2) >= 0.9; regime ||As(0)||_2 >= ||Xs||_2";
  trend.negative_control = "the reversed trend: Spearman(beta, kappa(Zs)) >= +0.9";
  trend.required_support = kTrendSupport;
  trend.default_cases = 100;
  trend.generate = generate_conditioning_trend;
  trend.evaluate = THM_BY_PRECISION(evaluate_conditioning_trend);
  claims.push_back(trend);

  Claim pl_out;
  pl_out.id = kPlOutputLayerId;
  pl_out.source = "Q";
  pl_out.provenance = Provenance::derived;
  pl_out.kind = ClaimKind::inequality;
  pl_out.statement = "nN <= d: ||grad_{W_U} L||_F^2 >= 2 sigma_{nN}(Hs)^2 L";
  pl_out.negative_control = "sigma_1(Hs) in place of sigma_{nN}(Hs)";
  pl_out.default_cases = 100;
  pl_out.generate = generate_pl_output_layer;
  pl_out.evaluate = THM_BY_PRECISION(evaluate_pl_output_layer);
  claims.push_back(pl_out);

  Claim pl_ffn;
  pl_ffn.id = kPlFirstFfnLayerId;
  pl_ffn.source = "Q";
  pl_ffn.provenance = Provenance::derived;
  pl_ffn.kind = ClaimKind::inequality;
  pl_ffn.statement = "nN <= d: ||grad_{W_1} L||_F >= sigma_{nN}(Zs) ||D||_F, D = (Rs W_U^T W_2^T) o sigma'(Zs W_1)";
  pl_ffn.negative_control = "sigma_1(Zs) in place of sigma_{nN}(Zs)";
  pl_ffn.default_cases = 100;
  pl_ffn.generate = generate_pl_first_ffn_layer;
  pl_ffn.evaluate = THM_BY_PRECISION(evaluate_pl_first_ffn_layer);
  claims.push_back(pl_ffn);

  Claim descent;
  descent.id = kDescentLemmaId;
  descent.source = "Q";
  descent.provenance = Provenance::derived;
  descent.kind = ClaimKind::trajectory;
  descent.statement =
      "GD on (W_1, W_2, W_U), attention frozen, eta <= min(1/Lg(rho0), rho0/||g||) with Lg an explicit "
      "gradient-Lipschitz bound on B(theta, rho0): L(theta - eta g) <= L(theta) - (eta/2) ||g||^2";
  descent.negative_control = "sufficient-decrease constant 3/2 in place of 1/2";
  descent.default_cases = 60;
  descent.generate = generate_descent_lemma;
  descent.evaluate = THM_BY_PRECISION(evaluate_descent_lemma);
  claims.push_back(descent);

  Claim rate;
  rate.id = kLinearRateId;
  rate.source = "Q";
  rate.provenance = Provenance::paper_shape;
  rate.kind = ClaimKind::trajectory;
  rate.statement =
      "GD on (W_1, W_2, W_U), attention frozen, single layer: if J(rho) rho <= sigma0/2 and "
      "2 sqrt(2 L0) a(rho)/alpha <= rho (sigma0 = sigma_nN(H_0), alpha = sigma0^2/4), then with eta = 1/Lg(rho), "
      "for all t: L_t <= (1 - eta alpha)^t L_0, sigma_nN(H_t) >= sigma0/2, ||theta_t - theta_0|| <= rho";
  rate.negative_control = "alpha replaced by 4 ||g_0||^2 / (2 L_0), four times the best rate the first step shows";
  rate.default_cases = 24;
  rate.mp_cases = 8;
  rate.generate = generate_linear_rate;
  rate.evaluate = THM_BY_PRECISION(evaluate_linear_rate);
  claims.push_back(rate);

  Claim rate_ml = rate;
  rate_ml.id = kLinearRateMultilayerId;
  rate_ml.statement =
      "L = 2..4 blocks, GD on (W_1, W_2) of the last block and W_U, everything below frozen: the single-layer "
      "theorem with Z the last block's attention output (same hypotheses, alpha, rho, eta), at every iterate";
  rate_ml.generate = generate_linear_rate_multilayer;
  rate_ml.evaluate = THM_BY_PRECISION(evaluate_linear_rate_multilayer);
  claims.push_back(rate_ml);

  Claim speeds;
  speeds.id = kResidualSpeedsId;
  speeds.source = "Q";
  speeds.provenance = Provenance::empirical;
  speeds.kind = ClaimKind::trend;
  speeds.statement =
      "small logits, same data, init and eta for beta in {0,.25,.5,.75,1}: iterations to 1e-3 L_0 fall with beta (Spearman <= -0.9); "
      "at beta = 0 the loss stays on the rank-one floor; at beta = 1 the per-step contraction is < 1 with R^2 > 0.99";
  speeds.negative_control = "the reversed trend, Spearman(beta, iterations to 1e-3 L_0) >= +0.9";
  speeds.required_support = 0.9;
  speeds.default_cases = 20;
  speeds.mp_cases = 1;
  speeds.generate = generate_residual_speeds;
  speeds.evaluate = THM_BY_PRECISION(evaluate_residual_speeds);
  claims.push_back(speeds);

  Claim depth;
  depth.id = kDepthCollapseId;
  depth.source = "Q";
  depth.provenance = Provenance::empirical;
  depth.kind = ClaimKind::trend;
  depth.statement =
      "at init, beta = 0: median 1/kappa(Z_i^(l)) < 1e-8 by layer 3; beta = 1: > 1e-3 through layer 6; after training, "
      "the loss decreases with depth with residuals (Spearman <= -0.8) and does not without";
  depth.negative_control = "the beta = 1 conditioning bound (> 1e-3 through layer 6) claimed for beta = 0";
  depth.required_support = 0.9;
  depth.default_cases = 10;
  depth.mp_cases = 1;
  depth.generate = generate_depth_collapse;
  depth.evaluate = THM_BY_PRECISION(evaluate_depth_collapse);
  claims.push_back(depth);

  for (Claim& c : claims) c.derivation = "docs/derivations/" + c.id + ".md";
  return claims;
}

}  // namespace

const std::vector<Claim>& all_claims() {
  static const std::vector<Claim> claims = make_claims();
  return claims;
}

bool glob_match(const std::string& pattern, const std::string& text) {
  // Iterative wildcard match with backtracking to the last '*'.
  std::size_t p = 0, t = 0, star = std::string::npos, mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = t;
    } else if (star != std::string::npos) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

std::vector<const Claim*> select_claims(const std::string& patterns) {
  std::vector<const Claim*> selected;
  std::stringstream ss(patterns);
  std::string pattern;
  bool any = false;
  while (std::getline(ss, pattern, ',')) {
    if (pattern.empty()) continue;
    any = true;
    bool matched = false;
    for (const Claim& c : all_claims())
      if (glob_match(pattern, c.id)) {
        matched = true;
        bool already = false;
        for (const Claim* s : selected) already = already || s == &c;
        if (!already) selected.push_back(&c);
      }
    if (!matched) throw std::invalid_argument("no claim matches '" + pattern + "' (see 'thmcheck list')");
  }
  if (!any) throw std::invalid_argument("empty claim pattern");
  // Catalogue order, whatever the order of the patterns.
  std::vector<const Claim*> ordered;
  for (const Claim& c : all_claims())
    for (const Claim* s : selected)
      if (s == &c) ordered.push_back(s);
  return ordered;
}

}  // namespace thm
