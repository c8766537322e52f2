// The second reading of [G]'s finite data (numerics/models/goel/prompt_attention.hpp,
// docs/derivations/goel.finite_data_prompts.md): the gradient of L_{n,T} against 50-digit central differences, the
// prompts' queries and labels are the first reading's tokens and labels on the same seed, and one context token per prompt
// makes the attention average that token.
#include "tests/support/mp50.hpp"
#include "numerics/models/goel/prompt_attention.hpp"
#include "numerics/random_matrix.hpp"
#include "theorems/goel/optimum.hpp"

#include <doctest/doctest.h>

using namespace thm;

namespace {

PromptSet<double> random_prompts(int n, int tokens, int k, int d, std::uint64_t seed) {
  Rng rng(seed);
  PromptSet<double> p;
  p.X = gaussian_matrix(rng, n * tokens, d);
  p.Qry = gaussian_matrix(rng, n, d);
  p.Y = gaussian_matrix(rng, n, k);
  p.tokens = tokens;
  return p;
}

}  // namespace

TEST_CASE("[G] prompts: L_{n,T} gradients match 50-digit central differences (h = 1e-17)") {
  using T = mp50;
  Rng rng(21);
  const PromptSet<T> D = lift_prompts<T>(random_prompts(5, 4, 2, 3, 22));
  const Mat<T> A = lift<T>(gaussian_matrix(rng, 2, 3, 0.7)), B = lift<T>(gaussian_matrix(rng, 3, 3, 0.5));
  const ParamPair<T> g = prompt_gradient(A, B, D);
  const T h("1e-17");
  // Rounding eps |f| / h ~ 1e-34, truncation h^2 ~ 1e-34.
  const auto central = [&](bool wrt_A) {
    const Mat<T>& W = wrt_A ? A : B;
    Mat<T> out(W.rows(), W.cols());
    for (Eigen::Index i = 0; i < W.rows(); ++i)
      for (Eigen::Index j = 0; j < W.cols(); ++j) {
        Mat<T> up = W, down = W;
        up(i, j) += h;
        down(i, j) -= h;
        const T fu = wrt_A ? prompt_loss(up, B, D) : prompt_loss(A, up, D);
        const T fd = wrt_A ? prompt_loss(down, B, D) : prompt_loss(A, down, D);
        out(i, j) = (fu - fd) / (2 * h);
      }
    return out;
  };
  CHECK(T((g.A - central(true)).norm() / g.A.norm()) < T("1e-30"));
  CHECK(T((g.B - central(false)).norm() / g.B.norm()) < T("1e-30"));
  // A wrong gradient is caught: dropping the softmax's centring term changes G_B by far more than that.
  CHECK(T(g.B.norm()) > T("1e-3"));
}

TEST_CASE("[G] prompts: one context token per prompt gives L = 1/(2n) sum ||A x_p - y_p||^2, for any B") {
  const PromptSet<double> D = random_prompts(6, 1, 2, 3, 23);
  Rng rng(24);
  const MatD A = gaussian_matrix(rng, 2, 3), B = gaussian_matrix(rng, 3, 3, 3.0);
  const double direct = (D.X * A.transpose() - D.Y).squaredNorm() / 12;
  CHECK(std::fabs(prompt_loss(A, B, D) - direct) <= 1e-14 * direct);
  CHECK(prompt_gradient(A, B, D).B.norm() == 0.0);
}

TEST_CASE("[G] prompts: the queries and labels are the first reading's tokens and labels on the same seed, the contexts fresh") {
  Rng rng(31);
  RngChoices src(rng, 50);
  const Instance inst = detail::generate_optimum(src);
  const GData first = draw_goel_data(inst, 40, 77);
  const PromptSet<double> second = draw_goel_prompts(inst, 40, 8, 77);
  CHECK(second.Qry == first.X);
  CHECK(second.Y == first.Y);
  CHECK(second.X.rows() == 320);
  CHECK((second.X.topRows(40) - first.X).norm() > 1.0);
  CHECK(draw_goel_prompts(inst, 40, 8, 78).Qry != first.X);
}
