#include "properties/structural_search.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

namespace thm {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// The double evaluation; a generator or evaluator that rejects the instance counts as discarded.
Evaluation evaluate_double(const Claim& claim, const Instance& inst, Variant variant) {
  try {
    return claim.evaluate(inst, Precision::float64, variant);
  } catch (const std::exception& e) {
    return Evaluation::discarded(std::string("rejected: ") + e.what());
  }
}

// x rounded to `digits` significant decimal digits.
double round_significant(double x, int digits) {
  if (x == 0 || !std::isfinite(x)) return x;
  const double scale = std::pow(10.0, digits - 1 - std::floor(std::log10(std::fabs(x))));
  return std::round(x * scale) / scale;
}

// Significant decimal digits needed to write x (to 1e-12 relative), at most 17.
int significant_digits(double x) {
  for (int k = 1; k < 17; ++k)
    if (std::fabs(round_significant(x, k) - x) <= 1e-12 * std::fabs(x)) return k;
  return 17;
}

// Simpler values of one choice, simplest first (shrink_violation's order). Every candidate is strictly
// simpler, so shrinking terminates: integers decrease; a real moves to its lower end (the simplest value)
// or to fewer significant digits; a coin goes from true to false.
std::vector<double> simpler_values(const Choice& c) {
  std::vector<double> out;
  auto add = [&](double v) {
    v = std::clamp(v, c.lo, c.hi);
    if (v != c.value && std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  };
  switch (c.kind) {
    case Choice::Kind::integer:
      add(c.lo);
      add(std::floor((c.lo + c.value) / 2));
      add(c.value - 1);
      break;
    case Choice::Kind::real:
    case Choice::Kind::log_real: {
      if (c.value == c.lo) break;  // already the simplest
      add(c.lo);
      const int digits = significant_digits(c.value);
      for (int k = 1; k <= 2 && k < digits; ++k) {
        const double r = round_significant(c.value, k);
        if (r >= c.lo && r <= c.hi) add(r);  // a rounded value outside the range would be clamped back: not simpler
      }
      break;
    }
    case Choice::Kind::coin:
      if (c.value != 0) out.push_back(0);
      break;
    case Choice::Kind::entropy: break;
  }
  return out;
}

// Generates from `rng` at `size`, recording every choice.
RecordedCase record_from(const Claim& claim, Rng& rng, int size, StudyBudget budget = StudyBudget::standard) {
  RngChoices choices(rng, size, budget);
  RecordingChoices recording(choices);
  RecordedCase out;
  out.instance = claim.generate(recording);
  out.tape = recording.tape();
  out.size = size;
  return out;
}

}  // namespace

RecordedCase record_case(const Claim& claim, std::uint64_t seed, int index, int cases, StudyBudget budget) {
  Rng rng = Rng::derive(seed, claim.id, static_cast<std::uint64_t>(index));  // as generate_case
  return record_from(claim, rng, case_size(index, cases), budget);
}

RecordedCase replay_tape(const Claim& claim, const ChoiceTape& tape, int size, std::uint64_t seed) {
  Rng fallback = Rng::derive(seed, "replay-tape", 0);
  TapeChoices choices(tape, fallback, size);
  RecordedCase out;
  out.instance = claim.generate(choices);
  out.tape = choices.tape();
  out.size = size;
  return out;
}

ShrinkResult shrink_violation(const Claim& claim, const RecordedCase& start, Variant variant, const SearchLimits& limits,
                              std::uint64_t seed) {
  const auto t0 = Clock::now();
  const double eps = precision_epsilon(Precision::float64);
  ShrinkResult r;
  r.minimal = start;
  r.evaluation = evaluate_double(claim, start.instance, variant);
  r.evaluations = 1;
  auto out_of_limits = [&] { return r.evaluations >= limits.evaluations || seconds_since(t0) >= limits.seconds; };
  bool changed = true, finished = false;  // finished: a whole pass found nothing simpler
  while (changed && !out_of_limits()) {
    changed = false;
    // Only the choices of the original draw: a generator that rejects and redraws appends fresh choices
    // (from the fallback) that shrinking must not chase.
    const std::size_t positions = std::min(r.minimal.tape.size(), start.tape.size());
    for (std::size_t k = 0; k < positions && !out_of_limits(); ++k) {
      for (double v : simpler_values(r.minimal.tape[k])) {
        if (out_of_limits()) break;
        ChoiceTape tape = r.minimal.tape;
        const Choice before = tape[k];
        tape[k].value = v;
        RecordedCase candidate;
        try {
          candidate = replay_tape(claim, tape, start.size, seed);
        } catch (const std::exception&) {
          continue;  // the generator rejects this combination
        }
        Evaluation e = evaluate_double(claim, candidate.instance, variant);
        ++r.evaluations;
        if (judge(e, eps).verdict != CaseVerdict::violated) continue;
        r.steps.push_back(fmt::format("choice {} ({}): {:.6g} -> {:.6g}", k, to_string(before.kind), before.value, v));
        r.minimal = std::move(candidate);
        r.evaluation = std::move(e);
        changed = true;
        break;
      }
    }
    finished = !changed && !out_of_limits();
  }
  r.capped = !finished;  // stopped by a limit before a pass came back empty
  r.seconds = seconds_since(t0);
  return r;
}

std::optional<TightestCondition> tightest(const Evaluation& e) {
  if (!e.hypotheses_hold) return std::nullopt;
  std::optional<TightestCondition> best;
  for (const Condition& c : e.conditions) {
    const double ratio = 1.0 - c.relative_slack;
    if (!std::isfinite(ratio)) continue;
    if (!best || ratio > best->ratio) best = TightestCondition{ratio, c.name, c.lhs, c.rhs};
  }
  return best;
}

TightenResult tighten(const Claim& claim, Variant variant, std::uint64_t seed, const SearchLimits& limits) {
  const auto t0 = Clock::now();
  TightenResult r;
  Rng rng = Rng::derive(seed, claim.id + "/tighten", 0);
  auto out_of_limits = [&] { return r.evaluations >= limits.evaluations || seconds_since(t0) >= limits.seconds; };
  auto consider = [&](RecordedCase c) -> bool {
    const Evaluation e = evaluate_double(claim, c.instance, variant);
    ++r.evaluations;
    const std::optional<TightestCondition> t = tightest(e);
    if (!t) {
      ++r.discarded;
      return false;
    }
    if (r.found && !(t->ratio > r.tightest.ratio)) return false;
    r.found = true;
    r.best = std::move(c);
    r.tightest = *t;
    return true;
  };
  // Random starts: a fifth of the budget (at least 4), sizes swept as the runner sweeps them.
  const int starts = std::max(4, limits.evaluations / 5);
  for (int s = 0; s < starts && !out_of_limits(); ++s) {
    Rng start_rng = Rng::derive(seed, claim.id + "/tighten-start", static_cast<std::uint64_t>(s));
    RecordedCase c;
    try {
      c = record_from(claim, start_rng, case_size(s, starts));
    } catch (const std::exception&) {
      ++r.evaluations;
      continue;
    }
    consider(std::move(c));
  }
  r.first_ratio = r.found ? r.tightest.ratio : std::numeric_limits<double>::quiet_NaN();
  if (!r.found) {
    r.seconds = seconds_since(t0);
    return r;
  }
  // Hill climbing, one choice at a time; per-choice step sizes in units of the choice's range.
  std::vector<double> step(r.best.tape.size(), 0.2);
  while (!out_of_limits()) {
    ChoiceTape tape = r.best.tape;
    if (tape.empty()) break;
    step.resize(tape.size(), 0.2);
    const std::size_t k = static_cast<std::size_t>(rng.uniform_int(0, static_cast<std::int64_t>(tape.size()) - 1));
    Choice& c = tape[k];
    switch (c.kind) {
      case Choice::Kind::integer: {
        const double span = std::max(1.0, std::round(step[k] * (c.hi - c.lo)));
        c.value = std::clamp(c.value + (rng.bernoulli(0.5) ? span : -span), c.lo, c.hi);
        break;
      }
      case Choice::Kind::real: c.value = std::clamp(c.value + step[k] * (c.hi - c.lo) * rng.normal(), c.lo, c.hi); break;
      case Choice::Kind::log_real:
        c.value = c.lo > 0 ? std::clamp(c.value * std::exp(step[k] * std::log(c.hi / c.lo) * rng.normal()), c.lo, c.hi) : c.value;
        break;
      case Choice::Kind::coin: c.value = c.value != 0 ? 0 : 1; break;
      case Choice::Kind::entropy: c.raw = rng.next_u64(); break;
    }
    RecordedCase candidate;
    try {
      candidate = replay_tape(claim, tape, r.best.size, seed);
    } catch (const std::exception&) {
      ++r.evaluations;
      continue;
    }
    if (consider(std::move(candidate))) {
      ++r.accepted;
      step[k] = std::min(0.5, step[k] * 1.5);
    } else {
      step[k] = std::max(1e-4, step[k] * 0.7);
    }
  }
  r.seconds = seconds_since(t0);
  return r;
}

}  // namespace thm
