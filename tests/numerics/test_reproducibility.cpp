// The same bytes on every machine (docs/guide/campaigns-and-reproducibility.md, "The same bytes on every machine"): the build fuses no multiply-add and
// targets baseline x86-64; the double products of the [Q] model (numerics/ordered_gemm.hpp) give the naive loop's
// bits on every kernel the CPU has; a GD step gives the same bits on every kernel, and the bits stored below.
#include "numerics/models/qin/model_instance.hpp"
#include "numerics/models/qin/transformer.hpp"
#include "numerics/ordered_gemm.hpp"
#include "numerics/random.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

using namespace thm;

namespace {

std::uint64_t bits(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

std::string hex(std::uint64_t b) {
  static const char* digits = "0123456789abcdef";
  std::string s(16, '0');
  for (int i = 15; i >= 0; --i, b >>= 4) s[static_cast<std::size_t>(i)] = digits[b & 15];
  return s;
}

// FNV-1a over the bits of every value, in order: equal exactly when every bit is.
struct BitHash {
  std::uint64_t h = 1469598103934665603ull;
  void add(double x) {
    std::uint64_t b = bits(x);
    for (int i = 0; i < 8; ++i, b >>= 8) h = (h ^ (b & 0xff)) * 1099511628211ull;
  }
};

// The naive loop: s = 0; s = s + a_ik b_kj for k = 0, 1, ...; then C = s or C + s. volatile keeps the compiler
// from fusing or reassociating even under other flags.
void naive_gemm(Eigen::Index m, Eigen::Index n, Eigen::Index k, const std::vector<double>& a, Eigen::Index lda, bool ta,
                const std::vector<double>& b, Eigen::Index ldb, bool tb, std::vector<double>& c, Eigen::Index ldc, bool acc) {
  for (Eigen::Index j = 0; j < n; ++j)
    for (Eigen::Index i = 0; i < m; ++i) {
      volatile double s = 0.0;
      for (Eigen::Index q = 0; q < k; ++q) {
        volatile double p = (ta ? a[q + i * lda] : a[i + q * lda]) * (tb ? b[j + q * ldb] : b[q + j * ldb]);
        s = s + p;
      }
      c[i + j * ldc] = acc ? c[i + j * ldc] + s : s;
    }
}

QModelSpec step_spec(int L) {
  QModelSpec s;
  s.n = 3;
  s.N = 5;
  s.d = 12;
  s.m = 20;
  s.d_y = 3;
  s.L = L;
  s.config.activation = Activation::softplus;
  s.entropy = 20261204;
  return s;
}

// The loss and every gradient entry of one step at step_spec(L), hashed bit for bit.
std::uint64_t step_hash(int L, double* loss_out = nullptr) {
  const QModel<double> q = qin_model_double(build_qin_model(step_spec(L)));
  double loss = 0;
  const TransformerParams<double> g = transformer_gradient(q.params, q.config, q.X, q.Y, &loss);
  BitHash h;
  h.add(loss);
  for (std::size_t k = 0; k < g.block_count(); ++k)
    for (Eigen::Index e = 0; e < g.block(k).size(); ++e) h.add(g.block(k).data()[e]);
  if (loss_out) *loss_out = loss;
  return h.h;
}

}  // namespace

TEST_CASE("reproducibility: the build targets baseline x86-64 and fuses no multiply-add") {
#if defined(__FMA__) || defined(__AVX__) || defined(__FMA4__)
  FAIL("the library is built for a wider CPU than baseline x86-64 (-march or -mfma in the flags): its bits would "
       "depend on the machine's compiler target");
#endif
  // a b + c with a b = 1 - 2^-60 exactly: rounded separately it is 0, fused it is -2^-60.
  volatile double a = 1.0 + 0x1p-30, b = 1.0 - 0x1p-30, c = -1.0;
  const double separate = a * b + c;
  CHECK(separate == 0.0);
}

TEST_CASE("reproducibility: ordered_gemm gives the naive loop's bits on every kernel this CPU has") {
  Rng rng(20261204);
  auto draw = [&](int below) { return static_cast<Eigen::Index>(rng.next_u64() % static_cast<std::uint64_t>(below)); };
  int compared = 0, differing = 0;
  for (int trial = 0; trial < 120; ++trial) {
    // shapes across the tile sizes (4 to 16 rows, 6 to 8 columns) and, one trial in ten, deeper than a block (256)
    const Eigen::Index m = 1 + draw(40), n = 1 + draw(30), k = trial % 10 == 0 ? 250 + draw(300) : 1 + draw(70);
    const bool ta = draw(2) == 1, tb = draw(2) == 1, acc = draw(2) == 1;
    const Eigen::Index lda = (ta ? k : m) + draw(3), ldb = (tb ? n : k) + draw(3), ldc = m + draw(3);
    std::vector<double> a(static_cast<std::size_t>(lda * (ta ? m : k))), b(static_cast<std::size_t>(ldb * (tb ? k : n))),
        c0(static_cast<std::size_t>(ldc * n));
    for (double& x : a) x = rng.normal();
    for (double& x : b) x = rng.normal();
    for (double& x : c0) x = rng.normal();
    std::vector<double> expected = c0;
    naive_gemm(m, n, k, a, lda, ta, b, ldb, tb, expected, ldc, acc);
    for (GemmIsa isa : gemm_isas_supported()) {
      const ScopedGemmIsa on(isa);
      std::vector<double> c = c0;
      ordered_gemm(m, n, k, a.data(), lda, ta, b.data(), ldb, tb, c.data(), ldc, acc);
      ++compared;
      if (std::memcmp(c.data(), expected.data(), c.size() * sizeof(double)) != 0) {
        ++differing;
        INFO(gemm_isa_name(isa) << " m=" << m << " n=" << n << " k=" << k << " ta=" << ta << " tb=" << tb << " acc=" << acc);
        CHECK(false);
      }
    }
  }
  MESSAGE(compared << " products compared on " << gemm_isas_supported().size() << " kernel(s), the widest "
                   << gemm_isa_name(gemm_isas_supported().back()));
  CHECK(compared >= 120);
  CHECK(differing == 0);
}

TEST_CASE("reproducibility: a GD step of the [Q] transformer has the same bits on every kernel") {
  for (int L : {1, 2}) {
    std::vector<std::uint64_t> hashes;
    for (GemmIsa isa : gemm_isas_supported()) {
      const ScopedGemmIsa on(isa);
      hashes.push_back(step_hash(L));
    }
    for (std::size_t i = 1; i < hashes.size(); ++i) {
      INFO("L=" << L << ": " << gemm_isa_name(gemm_isas_supported()[i]) << " differs from sse2");
      CHECK(hashes[i] == hashes[0]);
    }
  }
}

// The stored bits of one GD step (loss, then every gradient entry in TransformerParams::block order) at step_spec(L).
// They change when the model's summation order, the build's floating-point flags or the C library's exp and log
// change: then every double row of the [Q] claims may change too. If the change is meant, say so in the commit and
// store the new values (the failure prints them).
TEST_CASE("reproducibility: a fixed GD step of the [Q] transformer gives the stored bits") {
  struct Golden {
    int L;
    std::string loss_bits;
    std::string step_hash;
  };
  for (const Golden& want : {Golden{1, "405db2c551ede6fb", "a60f570c0b08eee8"}, Golden{2, "4058f7d9d10ae14a", "1bfd7c850e64d6f6"}}) {
    double loss = 0;
    const std::string h = hex(step_hash(want.L, &loss));
    INFO("L=" << want.L << ": loss bits " << hex(bits(loss)) << " (" << loss << "), step hash " << h);
    CHECK(hex(bits(loss)) == want.loss_bits);
    CHECK(h == want.step_hash);
  }
}
