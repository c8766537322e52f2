#include "reports/experiment_files.hpp"

#include "reports/atomic_write.hpp"
#include "reports/csv.hpp"
#include "reports/pages.hpp"
#include "reports/svg_plot.hpp"

#include <cmath>

namespace thm {

namespace {

std::string first_non_finite_at(const nlohmann::json& j, const std::string& path) {
  if (j.is_number_float()) return std::isfinite(j.get<double>()) ? "" : (path.empty() ? "(top)" : path);
  if (j.is_object())
    for (const auto& [k, v] : j.items())
      if (std::string p = first_non_finite_at(v, path + "/" + k); !p.empty()) return p;
  if (j.is_array())
    for (std::size_t i = 0; i < j.size(); ++i)
      if (std::string p = first_non_finite_at(j[i], path + "/" + std::to_string(i)); !p.empty()) return p;
  return "";
}

}  // namespace

std::string first_non_finite(const nlohmann::json& j) { return first_non_finite_at(j, ""); }

std::vector<std::filesystem::path> write_experiment_files(const ExperimentResult& result, const std::filesystem::path& dir) {
  if (const std::string p = first_non_finite(result.json); !p.empty())
    throw ReportError(result.name + ": a non-finite result at " + p + " (degenerate data?); nothing written");
  std::vector<std::filesystem::path> written;
  for (const ExperimentTable& t : result.tables) {
    written.push_back(dir / t.file);
    atomic_write(written.back(), CsvTable{t.header, t.rows}.str());
  }
  written.push_back(dir / (result.name + ".json"));
  atomic_write(written.back(), result.json.dump(2) + "\n");
  std::vector<Figure> figures;
  for (const ExperimentFigure& f : result.figures) figures.push_back({line_plot(f.spec, f.series), f.caption});
  written.push_back(dir / (result.name + ".html"));
  atomic_write(written.back(), render_html(experiment_page(result.name, result.intro, std::move(figures))));
  return written;
}

}  // namespace thm
