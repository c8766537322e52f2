// How a claim file becomes a catalogue entry. A claim file (theorems/<paper>/<family>/<name>.cpp, named after
// its id) defines one type with
//
//   static ClaimInfo info();                                      // metadata, as data
//   static InstanceSchema schema();                               // what evaluate reads (numerics/instance_schema.hpp)
//   static Instance generate(ChoiceSource&);                      // the instance generator
//   template <class T> static Evaluation evaluate(const Instance&, Variant);   // at every scalar type
//   static Certification certify(const Instance&, int digits, Variant);       // optional (interval arithmetic)
//   static std::vector<Tightness> tightness(std::uint64_t seed);              // optional (tightness probe)
//
// and ends, outside any namespace, with THM_REGISTER_CLAIM(Type). That line instantiates evaluate for double and
// runtime-precision MPFR (the mp50 and mp100 rungs are the latter at mp50_digits and mp100_digits: the same bits as
// fixed 50- and 100-digit types, with one scalar type to build instead of three) and defines the file's registration function, whose name the build derives from
// the file's path (THM_CLAIM_SYMBOL); the registry calls every such function from a list the build generates, so
// nothing else needs to know the claim exists. See CONTRIBUTING.md.
#pragma once

#include "theorems/claim.hpp"

#include <concepts>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace thm {

template <class C>
concept ClaimDefinition = requires(ChoiceSource& src, const Instance& inst, Variant v) {
  { C::info() } -> std::convertible_to<ClaimInfo>;
  { C::schema() } -> std::same_as<InstanceSchema>;
  { C::generate(src) } -> std::same_as<Instance>;
  { C::template evaluate<double>(inst, v) } -> std::same_as<Evaluation>;
};

template <ClaimDefinition C>
Claim make_claim() {
  Claim c;
  static_cast<ClaimInfo&>(c) = C::info();
  c.schema = C::schema();
  c.generate = [](ChoiceSource& src) { return C::generate(src); };
  // A negative control with a control_factor is the claim's own evaluation strengthened by that factor on its knob
  // (claim.hpp); an empirical trend's control only raises the support it is judged at (required_support).
  const double factor = c.control_factor;
  const bool by_support = c.required_support < 1.0;
  const auto variant_of = [factor, by_support](Evaluation (*eval)(const Instance&, Variant), const Instance& inst, Variant v) {
    if (v == Variant::claim || factor <= 0) return eval(inst, v);
    Evaluation e = eval(inst, Variant::claim);
    return by_support ? e : strengthened(std::move(e), factor);
  };
  // The evaluation at a runtime precision; the mp50 and mp100 rungs are this at mp50_digits and mp100_digits.
  const auto at_digits = [variant_of](const Instance& inst, int digits, Variant v) {
    const DigitsGuard guard(digits);
    return variant_of(&C::template evaluate<mpfr_dynamic>, inst, v);
  };
  c.evaluate = [at_digits, variant_of](const Instance& inst, Precision p, Variant v) -> Evaluation {
    switch (p) {
      case Precision::float64: return variant_of(&C::template evaluate<double>, inst, v);
      case Precision::mp50:
      case Precision::mp100: return at_digits(inst, precision_digits(p), v);
    }
    throw std::invalid_argument("unknown precision");
  };
  c.evaluate_digits = at_digits;
  if constexpr (requires(const Instance& inst, Variant v) { C::certify(inst, 0, v); })
    c.certify = [](const Instance& inst, int digits, Variant v) { return C::certify(inst, digits, v); };
  if constexpr (requires(std::uint64_t seed) { C::tightness(seed); })
    c.tightness = [](std::uint64_t seed) { return C::tightness(seed); };
  return c;
}

}  // namespace thm

// The registration line of a claim file; THM_CLAIM_SYMBOL is set by the build for files under theorems/*/*/.
#ifdef THM_CLAIM_SYMBOL
#define THM_REGISTER_CLAIM(Definition)                                                                \
  namespace thm::claim_files {                                                                        \
  void THM_CLAIM_SYMBOL(std::vector<::thm::Claim>& claims) { claims.push_back(::thm::make_claim<Definition>()); } \
  }
#else
#define THM_REGISTER_CLAIM(Definition) \
  static_assert(false, "a claim file lives at theorems/<paper>/<family>/<name>.cpp (the build names its registration)");
#endif
