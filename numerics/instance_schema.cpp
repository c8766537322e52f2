#include "numerics/instance_schema.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>

namespace thm {

namespace {

std::string shape(Eigen::Index rows, Eigen::Index cols) { return std::to_string(rows) + " x " + std::to_string(cols); }

// The shortest decimal that reads back as v (2.7, not 2.7000000000000002).
std::string shortest(double v) {
  char buf[32];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, end) : exact_decimal(v);
}

}  // namespace

InstanceSchema& InstanceSchema::integer(std::string name, std::int64_t lo, std::int64_t hi) {
  params_.push_back({std::move(name), static_cast<double>(lo), static_cast<double>(hi), true});
  return *this;
}

InstanceSchema& InstanceSchema::real(std::string name, double lo, double hi) {
  params_.push_back({std::move(name), lo, hi, false});
  return *this;
}

InstanceSchema& InstanceSchema::seconds_at_limits(double seconds) {
  seconds_ = seconds;
  return *this;
}

InstanceSchema& InstanceSchema::matrices(Shapes shapes) {
  shapes_.push_back(std::move(shapes));
  return *this;
}

std::vector<MatrixShape> InstanceSchema::shapes(const Instance& inst) const {
  std::vector<MatrixShape> out;
  for (const Shapes& f : shapes_)
    for (MatrixShape& s : f(inst)) out.push_back(std::move(s));
  return out;
}

double InstanceSchema::largest_entries() const {
  Instance largest;
  largest.family = family_;
  for (const Range& r : params_) largest.params[r.name] = r.integral ? r.hi : std::max(r.lo, std::min(r.hi, 1.0));
  double entries = 0;
  for (const MatrixShape& s : shapes(largest)) entries += static_cast<double>(s.rows) * static_cast<double>(s.cols);
  return entries;
}

void InstanceSchema::check(const Instance& inst, int digits, bool patient) const {
  if (inst.family != family_) throw InstanceError("the instance is of family '" + inst.family + "', the claim reads '" + family_ + "'");
  for (const auto& [name, v] : inst.params)
    if (!std::isfinite(v)) throw InstanceError("parameter '" + name + "' is not finite");
  for (const Range& r : params_) {
    const double v = inst.param(r.name);
    if (r.integral && !(v == std::floor(v)))
      throw InstanceError("parameter '" + r.name + "' = " + shortest(v) + " must be an integer");
    if (!(v >= r.lo) || (!(v <= r.hi) && !(patient && r.integral)))
      throw InstanceError("parameter '" + r.name + "' = " + shortest(v) + " is outside [" + shortest(r.lo) + ", " + shortest(r.hi) + "]" +
                          (r.integral ? ", the range this claim evaluates within a minute at up to " + std::to_string(kReferenceDigits) +
                                            " digits (--patient lifts the upper limit)"
                                      : ""));
  }
  const std::vector<MatrixShape> declared = shapes(inst);
  std::set<std::string> names;
  double entries = 0;
  for (const MatrixShape& s : declared) {
    names.insert(s.name);
    const auto it = inst.matrices.find(s.name);
    if (it == inst.matrices.end()) throw InstanceError("matrix '" + s.name + "' (" + shape(s.rows, s.cols) + ") is missing");
    if (it->second.rows() != s.rows || it->second.cols() != s.cols)
      throw InstanceError("matrix '" + s.name + "' is " + shape(it->second.rows(), it->second.cols()) + ", the parameters make it " +
                          shape(s.rows, s.cols));
    if (!it->second.allFinite()) throw InstanceError("matrix '" + s.name + "' has a NaN or infinite entry");
    entries += static_cast<double>(s.rows) * static_cast<double>(s.cols);
  }
  for (const auto& [name, m] : inst.matrices)
    if (!names.count(name)) throw InstanceError("matrix '" + name + "' (" + shape(m.rows(), m.cols()) + ") is not one this claim reads");
  // Above the reference digits an operation costs more: between linearly and quadratically more in the digits for
  // MPFR at these precisions (the square is taken), and the work grows as the entries to the power 3/2 (products
  // and decompositions of n x n matrices: n^3 operations on n^2 entries).
  if (digits > kReferenceDigits && !patient) {
    const double largest = std::max(1.0, largest_entries()), ratio = double(digits) / kReferenceDigits;
    const double estimate = seconds_ * ratio * ratio * std::pow(std::min(1.0, entries / largest), 1.5);
    if (estimate > kMaxSeconds)
      throw InstanceError("at " + std::to_string(digits) + " digits this instance would take about " + std::to_string(std::lround(estimate)) +
                          " s (the claim's largest take " + shortest(seconds_) + " s at " + std::to_string(kReferenceDigits) +
                          " digits, growing with the square of the digits); at most " + shortest(kMaxSeconds) + " s without --patient");
  }
}

}  // namespace thm
