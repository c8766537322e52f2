#include "properties/choice_tape.hpp"

#include <algorithm>
#include <cmath>

namespace thm {

std::string_view to_string(Choice::Kind k) {
  switch (k) {
    case Choice::Kind::integer: return "integer";
    case Choice::Kind::real: return "real";
    case Choice::Kind::log_real: return "log-real";
    case Choice::Kind::coin: return "coin";
    case Choice::Kind::entropy: return "entropy";
  }
  return "?";
}

std::int64_t RecordingChoices::integer(std::int64_t lo, std::int64_t hi) {
  const std::int64_t v = inner_.integer(lo, hi);
  tape_.push_back({Choice::Kind::integer, double(lo), double(hi), double(v), 0});
  return v;
}
double RecordingChoices::real(double a, double b) {
  const double v = inner_.real(a, b);
  tape_.push_back({Choice::Kind::real, a, b, v, 0});
  return v;
}
double RecordingChoices::log_real(double a, double b) {
  const double v = inner_.log_real(a, b);
  tape_.push_back({Choice::Kind::log_real, a, b, v, 0});
  return v;
}
bool RecordingChoices::coin(double p) {
  const bool v = inner_.coin(p);
  tape_.push_back({Choice::Kind::coin, p, p, v ? 1.0 : 0.0, 0});
  return v;
}
std::uint64_t RecordingChoices::entropy() {
  const std::uint64_t v = inner_.entropy();
  tape_.push_back({Choice::Kind::entropy, 0, 0, 0, v});
  return v;
}

const Choice* TapeChoices::next(Choice::Kind kind) {
  const std::size_t k = out_.size();
  return k < in_.size() && in_[k].kind == kind ? &in_[k] : nullptr;
}

std::int64_t TapeChoices::integer(std::int64_t lo, std::int64_t hi) {
  const Choice* c = next(Choice::Kind::integer);
  const std::int64_t v = c ? std::clamp<std::int64_t>(std::llround(c->value), lo, hi) : fallback_.uniform_int(lo, hi);
  out_.push_back({Choice::Kind::integer, double(lo), double(hi), double(v), 0});
  return v;
}
double TapeChoices::real(double a, double b) {
  const Choice* c = next(Choice::Kind::real);
  const double v = c ? std::clamp(c->value, a, b) : fallback_.uniform(a, b);
  out_.push_back({Choice::Kind::real, a, b, v, 0});
  return v;
}
double TapeChoices::log_real(double a, double b) {
  const Choice* c = next(Choice::Kind::log_real);
  const double v = c ? std::clamp(c->value, a, b) : fallback_.log_uniform(a, b);
  out_.push_back({Choice::Kind::log_real, a, b, v, 0});
  return v;
}
bool TapeChoices::coin(double p) {
  const Choice* c = next(Choice::Kind::coin);
  const bool v = c ? c->value != 0 : fallback_.bernoulli(p);
  out_.push_back({Choice::Kind::coin, p, p, v ? 1.0 : 0.0, 0});
  return v;
}
std::uint64_t TapeChoices::entropy() {
  const Choice* c = next(Choice::Kind::entropy);
  const std::uint64_t v = c ? c->raw : fallback_.next_u64();
  out_.push_back({Choice::Kind::entropy, 0, 0, 0, v});
  return v;
}

}  // namespace thm
