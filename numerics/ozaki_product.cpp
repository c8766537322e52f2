#include "numerics/ozaki_product.hpp"

#include "numerics/fault.hpp"

#include <cblas.h>
#include <gmp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>

namespace thm::ozaki {

namespace {

// Guard bits of the digits beyond the result's precision: S beta >= p + kGuardBits.
constexpr int kGuardBits = 20;
// The assembled integer of one entry: at most (S + 1) beta + 53 bits; plans above it are refused.
constexpr int kMaxLimbs = 72;
constexpr long kMaxBits = 64L * (kMaxLimbs - 2);

// One thread of OpenBLAS per call: the suite runs its claims on its own threads (--jobs), and the products are
// small. The digit products are exact, so the result does not depend on OpenBLAS's blocking or threads anyway.
void single_threaded_blas() {
  static std::once_flag once;
  std::call_once(once, [] { openblas_set_num_threads(1); });
}

// 64 bits of the significand x starting at bit `pos` (bit 0: the least significant bit of limb 0); bits outside the
// limbs read as zero.
std::uint64_t window(const mp_limb_t* limbs, long nlimbs, long pos) {
  const auto limb = [&](long i) -> std::uint64_t { return i >= 0 && i < nlimbs ? limbs[i] : 0; };
  const long q = pos >= 0 ? pos / 64 : -((-pos + 63) / 64);
  const long r = pos - 64 * q;
  if (r == 0) return limb(q);
  return (limb(q) >> r) | (limb(q + 1) << (64 - r));
}

// The S digits of x 2^-mu (|x| < 2^mu), truncated toward zero, signed as x, written to out[0], out[step], ...
void split(mpfr_srcptr x, long mu, const Plan& plan, double* out, long step) {
  const int S = plan.slices, beta = plan.beta;
  if (mpfr_zero_p(x)) {
    for (int s = 0; s < S; ++s) out[s * step] = 0.0;
    return;
  }
  const long nlimbs = (mpfr_get_prec(x) + 63) / 64;
  const auto* limbs = static_cast<const mp_limb_t*>(mpfr_custom_get_significand(x));
  // |x| = 0.1b2b3... 2^e; the significand's bit of weight 2^-q (q >= 1, relative to 2^mu) sits at absolute bit
  // 64 nlimbs - q + (mu - e)... counted from the top: position 64 nlimbs - (q - (mu - e)).
  const long shift = mu - mpfr_get_exp(x);
  const double sign = mpfr_signbit(x) ? -1.0 : 1.0;
  const std::uint64_t mask = (std::uint64_t{1} << beta) - 1;
  for (int s = 1; s <= S; ++s) {
    // digit s holds the bits of weight 2^-((s-1) beta + 1) .. 2^-(s beta)
    const long bottom = 64 * nlimbs - (static_cast<long>(s) * beta - shift);
    const std::uint64_t d = window(limbs, nlimbs, bottom) & mask;
    out[(s - 1) * step] = sign * static_cast<double>(d);
  }
}

// sum_{l=2..S+1} P_l 2^((S+1-l) beta) 2^exp, rounded once to c; level l of the entry at p[(l-2) step].
void assemble(mpfr_ptr c, const double* p, long step, long exp, const Plan& plan, mpz_ptr z) {
  const int S = plan.slices, beta = plan.beta;
  // Two's complement integer in n limbs: S digits of beta bits, then the signed top (|top| < 2^(54 - beta)).
  const long n = (static_cast<long>(S) * beta + 64) / 64 + 1;
  mp_limb_t limbs[kMaxLimbs] = {};
  const auto put = [&](std::uint64_t bits, long at) {
    const long q = at / 64, r = at % 64;
    limbs[q] |= bits << r;
    if (r != 0 && q + 1 < n) limbs[q + 1] |= bits >> (64 - r);
  };
  // Carry normalisation from the lowest level up: level l = carry 2^beta + digit, digit in [0, 2^beta).
  const std::int64_t mask = (std::int64_t{1} << beta) - 1;
  std::int64_t carry = 0;
  long offset = 0;  // (S + 1 - l) beta
  for (int l = S + 1; l >= 2; --l) {
    const std::int64_t v = static_cast<std::int64_t>(p[(l - 2) * step]) + carry;
    put(static_cast<std::uint64_t>(v & mask), offset);
    carry = v >> beta;  // arithmetic shift: floor division
    offset += beta;
  }
  const bool negative = carry < 0;
  put(static_cast<std::uint64_t>(carry), offset);
  if (negative) {  // sign-extend above the top's 64 bits, then negate: -x = ~x + 1
    const long hi = offset + 64, q = hi / 64, r = hi % 64;
    for (long i = q; i < n; ++i) limbs[i] |= (i == q && r != 0) ? ~std::uint64_t{0} << r : ~std::uint64_t{0};
    bool carry_in = true;
    for (long i = 0; i < n; ++i) {
      limbs[i] = ~limbs[i] + (carry_in ? 1 : 0);
      carry_in = carry_in && limbs[i] == 0;
    }
  }
  long used = n;
  while (used > 0 && limbs[used - 1] == 0) --used;
  if (used == 0) {
    mpfr_set_zero(c, 1);
    return;
  }
  mp_limb_t* zl = mpz_limbs_write(z, used);
  std::memcpy(zl, limbs, used * sizeof(mp_limb_t));
  mpz_limbs_finish(z, negative ? -used : used);
  mpfr_set_z_2exp(c, z, exp, MPFR_RNDN);
}

// The MPFR dot product of row i and column j, rounded as the recursive loop of numerics/matmul.hpp.
void dot(mpfr_ptr c, long i, long j, long rows, long inner, const mpfr_srcptr* a, const mpfr_srcptr* b, mpfr_ptr term) {
  mpfr_set_zero(c, 1);
  for (long k = 0; k < inner; ++k) {
    mpfr_mul(term, a[i + k * rows], b[k + j * inner], MPFR_RNDN);
    mpfr_add(c, c, term, MPFR_RNDN);
  }
}

// Buffers reused across the calling thread's products (the digit arrays of a 64 x 64 product at 50 digits are
// about 1 MB; fresh pages for them cost more than the GEMMs). No MPFR state: nothing to release at thread exit but
// the mpz.
struct Workspace {
  std::vector<long> mu, nu;
  std::vector<double> acat, brev, levels, a1, b1, g;
  mpz_t z;
  Workspace() { mpz_init2(z, 64 * kMaxLimbs); }
  ~Workspace() { mpz_clear(z); }
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;
};

Workspace& workspace() {
  thread_local Workspace w;
  return w;
}

}  // namespace

Plan plan(long precision, long inner) {
  if (inner <= 0 || precision <= 0) return {};
  // beta and S depend on each other (the level sums grow with S): take the largest beta whose S fits.
  for (int beta = 26; beta >= 8; --beta) {
    const long S = (precision + kGuardBits + beta - 1) / beta;
    const double bound = static_cast<double>(S) * static_cast<double>(inner) * std::ldexp(1.0, 2 * beta);
    if (bound < std::ldexp(1.0, 53) && (S + 1) * beta + 53 <= kMaxBits) return {beta, static_cast<int>(S)};
  }
  return {};
}

void loop_product(long rows, long cols, long inner, const mpfr_srcptr* a, const mpfr_srcptr* b, const mpfr_ptr* c) {
  if (rows == 0 || cols == 0) return;
  mpfr_t term;
  mpfr_init2(term, mpfr_get_prec(c[0]));
  for (long j = 0; j < cols; ++j)
    for (long i = 0; i < rows; ++i) dot(c[i + j * rows], i, j, rows, inner, a, b, term);
  mpfr_clear(term);
}

bool worthwhile(long rows, long cols, long inner) { return rows * cols * inner >= 256; }

Stats& thread_stats() {
  thread_local Stats stats;
  return stats;
}

bool product(long rows, long cols, long inner, const mpfr_srcptr* a, const mpfr_srcptr* b, const mpfr_ptr* c) {
  if (rows == 0 || cols == 0) return true;
  if (inner == 0) {
    for (long i = 0; i < rows * cols; ++i) mpfr_set_zero(c[i], 1);
    return true;
  }
  // The result's precision p sets the digits (S beta >= p + kGuardBits) and the cancellation threshold.
  const long precision = THM_FAULT(ozaki_precision_of_double) ? 53 : static_cast<long>(mpfr_get_prec(c[0]));
  const Plan pl = plan(precision, inner);
  if (pl.slices == 0) return false;
  const int S = pl.slices, beta = pl.beta;

  // Row exponents of op(A), column exponents of op(B); a non-finite entry leaves the scheme.
  constexpr long kNone = std::numeric_limits<long>::min();
  Workspace& w = workspace();
  std::vector<long>&mu = w.mu, &nu = w.nu;
  mu.assign(rows, kNone);
  nu.assign(cols, kNone);
  for (long k = 0; k < inner; ++k)
    for (long i = 0; i < rows; ++i) {
      mpfr_srcptr x = a[i + k * rows];
      if (!mpfr_number_p(x)) return false;
      if (!mpfr_zero_p(x)) mu[i] = std::max(mu[i], static_cast<long>(mpfr_get_exp(x)));
    }
  for (long j = 0; j < cols; ++j)
    for (long k = 0; k < inner; ++k) {
      mpfr_srcptr x = b[k + j * inner];
      if (!mpfr_number_p(x)) return false;
      if (!mpfr_zero_p(x)) nu[j] = std::max(nu[j], static_cast<long>(mpfr_get_exp(x)));
    }
  single_threaded_blas();

  // Digits: Acat = [A_1 | ... | A_S] (rows x S inner), Brev = [B_S; ...; B_1] (S inner x cols), column-major.
  const long ka = rows * inner, kb = S * inner;
  std::vector<double>&acat = w.acat, &brev = w.brev;
  acat.resize(static_cast<std::size_t>(ka) * S);
  brev.resize(static_cast<std::size_t>(kb) * cols);
  for (long k = 0; k < inner; ++k)
    for (long i = 0; i < rows; ++i)
      split(a[i + k * rows], mu[i] == kNone ? 0 : mu[i], pl, &acat[i + k * rows], ka);
  for (long j = 0; j < cols; ++j)
    for (long k = 0; k < inner; ++k)
      // B_t(k, j) at row (S - t) inner + k: digit t = 1 is the last block, so step back by `inner` per digit.
      split(b[k + j * inner], nu[j] == kNone ? 0 : nu[j], pl, &brev[(S - 1) * inner + k + j * kb], -inner);

  // Levels: P_l = [A_1 ... A_{l-1}] [B_{l-1}; ...; B_1], exact.
  const long mn = rows * cols;
  std::vector<double>& levels = w.levels;
  levels.resize(static_cast<std::size_t>(mn) * S);
  for (int l = 2; l <= S + 1; ++l) {
    const long depth = (l - 1) * inner;
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, rows, cols, depth, 1.0, acat.data(), rows,
                brev.data() + (S - l + 1) * inner, kb, 0.0, levels.data() + (l - 2) * mn, rows);
  }
  // Magnitude test: (|A_1| |B_1|)_ij 2^(-2 beta) <= (|A| |B|)_ij 2^-(mu_i + nu_j), computed exactly.
  std::vector<double>&a1 = w.a1, &b1 = w.b1, &g = w.g;
  a1.resize(ka);
  b1.resize(static_cast<std::size_t>(inner) * cols);
  g.resize(mn);
  for (long e = 0; e < ka; ++e) a1[e] = std::abs(acat[e]);
  for (long j = 0; j < cols; ++j)
    for (long k = 0; k < inner; ++k) b1[k + j * inner] = std::abs(brev[(S - 1) * inner + k + j * kb]);
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, rows, cols, inner, 1.0, a1.data(), rows, b1.data(), inner,
              0.0, g.data(), rows);
  const double threshold = std::ldexp(2.0 * (S + 3) * static_cast<double>(inner),
                                      static_cast<int>(precision) - S * beta + 2 * beta);

  Stats& stats = thread_stats();
  ++stats.products;
  mpfr_t term;  // the fallback's, initialised on first use
  bool term_ready = false;
  for (long j = 0; j < cols; ++j)
    for (long i = 0; i < rows; ++i) {
      const long e = i + j * rows;
      if (mu[i] == kNone || nu[j] == kNone) {
        mpfr_set_zero(c[e], 1);
      } else if (g[e] < threshold) {
        if (!term_ready) {
          mpfr_init2(term, mpfr_get_prec(c[0]));
          term_ready = true;
        }
        dot(c[e], i, j, rows, inner, a, b, term);
        ++stats.fallback_entries;
      } else {
        assemble(c[e], &levels[e], mn, mu[i] + nu[j] - static_cast<long>(S + 1) * beta, pl, w.z);
        ++stats.entries;
      }
    }
  if (term_ready) mpfr_clear(term);
  return true;
}

}  // namespace thm::ozaki
