// The fault catalogue (numerics/fault.hpp): every fault is planted where the scan says, its metadata names real claims,
// reaching a fault point is recorded (the matrix skips the claims that never reach it), and the catalogue's fault table renders
// from a matrix's JSON.
#include "numerics/fault.hpp"
#include "numerics/softmax.hpp"
#include "reports/atomic_write.hpp"
#include "reports/fault_matrix_json.hpp"
#include "theorems/registry.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

using namespace thm;

namespace {

std::string source_line(const std::string& path, int line) {
  std::ifstream f(std::string(THM_SOURCE_DIR) + "/" + path);
  std::string text;
  for (int k = 0; k < line && std::getline(f, text); ++k) {
  }
  return text;
}

}  // namespace

TEST_CASE("faults: every fault is planted, and at the place the scan reports") {
  int model = 0;
  for (const FaultInfo& f : all_faults()) {
    CAPTURE(f.name);
    REQUIRE_FALSE(f.location.empty());  // planted somewhere
    std::stringstream sites{std::string(f.location)};
    for (std::string site; std::getline(sites, site, ',');) {
      if (site.front() == ' ') site.erase(0, 1);
      const std::size_t colon = site.rfind(':');
      REQUIRE(colon != std::string::npos);
      CHECK(source_line(site.substr(0, colon), std::stoi(site.substr(colon + 1))).find("THM_FAULT(" + std::string(f.name) + ")") !=
            std::string::npos);
    }
    std::stringstream owners{std::string(f.written_for)};
    for (std::string id; std::getline(owners, id, ',');) CHECK_NOTHROW(select_claims(id));  // an exact id of the registry
    CHECK((f.checks.empty() || f.checks == "conformance" || f.checks == "independence" || f.checks == "statistics"));
    model += f.kind == FaultKind::model;
  }
  CHECK(model >= 45);
}

TEST_CASE("faults: the fault table renders from a matrix's JSON, marks what it did not measure, refuses what is not one") {
  const std::string json = R"({"seed": 3, "precisions": ["double"], "claims": ["a", "b"], "model": {"caught": 1, "total": 2},
      "checker": {"caught": 0, "total": 1}, "faults": [{"name": "softmax_columns", "caught_by": ["qin.gd.gradient_step", "goel.finite.masked_loss"],
      "caught_by_general": ["qin.gd.gradient_step"], "caught_by_control": [], "reached_by": ["qin.gd.gradient_step"]},
      {"name": "gd_stale_gradient", "caught_by": [], "caught_by_general": [], "caught_by_control": [], "reached_by": ["a", "b"]},
      {"name": "slope_se_over_n", "caught_by": [], "caught_by_general": [], "caught_by_control": [], "reached_by": ["a"]}]})";
  const std::string table = fault_matrix_table(json);
  CHECK(table.find("| `softmax_columns` | model | softmax normalised over columns instead of rows | `numerics/detail/softmax_impl.hpp` | "
                   "`qin.gd.gradient_step`, `goel.finite.masked_loss` (written for it) |") != std::string::npos);
  CHECK(table.find("**not caught** (reached by 2 claims)") != std::string::npos);
  // A fault no claim caught but a test of its own kind does (FaultInfo::checks) is not marked as uncaught.
  CHECK(table.find("no claim (reached by 1 claim); caught by the statistics test |") != std::string::npos);
  CHECK(table.rfind("**Model faults caught: 1 of 2; checker faults: 0 of 1** (every fault against 2 claims, seed 3, double). "
                    "With the tests of the `checks` column as well: model faults 1 of 2, checker faults 1 of 1.", 0) == 0);
  CHECK(table.find("| `gd_step_sign_w2` | model |") != std::string::npos);
  CHECK(table.find("not measured") != std::string::npos);
  CHECK(table.find("1/2 \\|\\|") != std::string::npos);  // the pipes of a norm escaped
  CHECK_THROWS_AS(fault_matrix_table("{"), ReportError);
  CHECK_THROWS_AS(fault_matrix_table(R"({"faults": [{"caught_by": []}]})"), ReportError);
}

#ifdef THM_FAULTS
TEST_CASE("faults: reaching a fault point is recorded, whether or not its fault is active") {
  clear_reached_faults();
  CHECK_FALSE(fault_reached(Fault::softmax_columns));
  const MatD s = softmax_rows(MatD(MatD::Ones(2, 3)));
  CHECK(s(0, 0) == doctest::Approx(1.0 / 3));
  CHECK(fault_reached(Fault::softmax_columns));
  CHECK(fault_reached(Fault::softmax_max_not_subtracted));
  CHECK_FALSE(fault_reached(Fault::gd_step_sign_w2));
  clear_reached_faults();
  CHECK_FALSE(fault_reached(Fault::softmax_columns));
}
#endif
