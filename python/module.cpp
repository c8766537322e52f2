// thmcheck from Python (docs/guide/python.md): the registry, runs, the [Q] model at any precision, and assess on an
// instance of the user's own, bound with Debian's pybind11. The Python package (python/thmcheck/) checks the arrays and
// names the matrices; this file converts between NumPy and the suite's types and calls, nothing more.
#include "cli/commands.hpp"
#include "numerics/allocation.hpp"
#include "numerics/models/goel/attention_regression.hpp"
#include "numerics/models/goel/finite_attention.hpp"
#include "numerics/models/goel/prompt_attention.hpp"
#include "numerics/models/qin/model_instance.hpp"
#include "numerics/models/qin/transformer.hpp"
#include "properties/assess.hpp"
#include "properties/runner.hpp"
#include "reports/assess_json.hpp"
#include "reports/catalogue.hpp"
#include "reports/counterexample.hpp"
#include "theorems/registry.hpp"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <charconv>
#include <cmath>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

namespace py = pybind11;

namespace {

using namespace thm;

// The Python layer hands over C-contiguous float64 arrays; anything else is refused here too.
MatD to_matrix(const std::string& name, const py::handle& obj) {
  const auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(obj);
  if (!a || a.ndim() != 2) throw py::value_error("matrix " + name + " must be a 2-D float64 array");
  MatD m(a.shape(0), a.shape(1));
  const auto r = a.unchecked<2>();
  for (py::ssize_t i = 0; i < a.shape(0); ++i)
    for (py::ssize_t j = 0; j < a.shape(1); ++j) m(i, j) = r(i, j);
  return m;
}

Instance to_instance(const std::string& family, const std::map<std::string, double>& params, const py::dict& matrices) {
  Instance inst;
  inst.family = family;
  inst.params = params;
  for (const auto& [k, v] : matrices) {
    const std::string name = py::str(k);
    inst.matrices[name] = to_matrix(name, v);
  }
  inst.require_finite();
  return inst;
}

py::array_t<double> from_matrix(const MatD& m) {
  py::array_t<double> out({m.rows(), m.cols()});
  auto w = out.mutable_unchecked<2>();
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) w(i, j) = m(i, j);
  return out;
}

py::tuple instance_tuple(const Instance& inst) {
  py::dict matrices;
  for (const auto& [name, m] : inst.matrices) matrices[py::str(name)] = from_matrix(m);
  return py::make_tuple(inst.family, inst.params, matrices);
}

// A value at the working precision: a float (rounded to nearest), or every digit as a decimal string.
template <class T>
py::object scalar_out(const T& x, bool exact) {
  if (exact) return py::str(exact_decimal(x));
  return py::float_(to_double(x));
}
template <class T>
py::object matrix_out(const Mat<T>& m, bool exact) {
  if (!exact) {
    if constexpr (std::is_same_v<T, double>) return from_matrix(m);
    else return from_matrix(m.unaryExpr([](const T& x) { return to_double(x); }));
  }
  py::list rows;
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    py::list row;
    for (Eigen::Index j = 0; j < m.cols(); ++j) row.append(py::str(exact_decimal(m(i, j))));
    rows.append(row);
  }
  return rows;
}

// "double", or "mpN" (N decimal digits, 20 to 5000: mp50 and mp100 are the ladder's rungs).
int precision_digits_of(const std::string& precision) {
  if (precision == "double") return 0;
  int digits = 0;
  const char* end = precision.data() + precision.size();
  if (precision.size() > 2 && precision.compare(0, 2, "mp") == 0) {
    const auto [p, ec] = std::from_chars(precision.data() + 2, end, digits);
    if (ec == std::errc() && p == end && digits >= 20 && digits <= 5000) return digits;
  }
  throw py::value_error("precision must be 'double' or 'mpN' with N digits in [20, 5000] (mp50, mp100), got '" + precision + "'");
}

// f.template operator()<T>() at the precision named, mpfr_dynamic under a DigitsGuard for the multiprecision ones.
template <class F>
py::object at_precision(const std::string& precision, F&& f) {
  const int digits = precision_digits_of(precision);
  if (digits == 0) return f.template operator()<double>();
  DigitsGuard guard(digits);
  return f.template operator()<mpfr_dynamic>();
}

// [G]'s parameters A (k x d) and B (d x d), checked against the data's d and k (the kernels assume them).
void check_goel_shapes(const MatD& A, const MatD& B, Eigen::Index d, Eigen::Index k, const char* data) {
  if (A.rows() != k || A.cols() != d || B.rows() != d || B.cols() != d)
    throw py::value_error("A must be k x d and B d x d with d = " + std::to_string(d) + " and k = " + std::to_string(k) + " from " + data +
                          "; got A " + std::to_string(A.rows()) + " x " + std::to_string(A.cols()) + ", B " + std::to_string(B.rows()) +
                          " x " + std::to_string(B.cols()));
}

template <class T>
py::object goel_out(const T& loss, const ParamPair<T>& g, bool exact) {
  return py::make_tuple(scalar_out<T>(loss, exact), matrix_out<T>(g.A, exact), matrix_out<T>(g.B, exact));
}

QModel<double> qin_model(const std::string& family, const std::map<std::string, double>& params, const py::dict& matrices) {
  return qin_model_double(to_instance(family, params, matrices));
}

}  // namespace

PYBIND11_MODULE(_thmcheck, m) {
  m.doc() = "thmcheck's C++ core; use the thmcheck package (docs/guide/python.md)";
  thm::use_heap_for_large_matrices();
  // Bad input is a ValueError with the suite's one line (docs/guide/bad-input.md).
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const thm::cli::UsageError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const thm::InstanceError& e) {
      PyErr_SetString(PyExc_ValueError, (std::string("bad instance: ") + e.what()).c_str());
    } catch (const thm::DataError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });

  m.def("claims_json", [] { return thm::claims_json().dump(); }, "The registry as thmcheck list --json prints it");

  m.def(
      "run",
      [](const std::string& claims, std::uint64_t seed, const std::string& precision, std::optional<int> cases, bool negative_control,
         int jobs, const std::string& budget, const std::string& report, const std::string& certify) {
        thm::cli::RunArgs a;
        a.claims = claims;
        a.seed = seed;
        a.precision = precision;
        a.cases = cases;
        a.negative_control = negative_control;
        a.jobs = jobs;
        a.budget = budget;
        a.report = report;
        a.certify = certify;
        py::gil_scoped_release release;
        return thm::cli::run(a);
      },
      py::arg("claims"), py::arg("seed"), py::arg("precision"), py::arg("cases"), py::arg("negative_control"), py::arg("jobs"),
      py::arg("budget"), py::arg("report"), py::arg("certify"), "thmcheck run; returns its exit status, the report in `report`");

  m.def(
      "generate_case",
      [](const std::string& claim, std::uint64_t seed, int index, std::optional<int> cases) {
        const thm::Claim& c = thm::cli::select_one_claim(claim, "generate_case");
        const int n = cases.value_or(c.default_cases);
        if (n < 1 || n > 100000 || index < 0 || index >= n) throw py::value_error("case must be in [0, cases) and cases in [1, 100000]");
        return instance_tuple(thm::generate_case(c, seed, index, n));
      },
      py::arg("claim"), py::arg("seed"), py::arg("case"), py::arg("cases") = py::none(),
      "(family, params, matrices) of a claim's generated case, as thmcheck explore --seed --case evaluates it");

  m.def(
      "read_instance",
      [](const std::string& path) { return instance_tuple(thm::read_instance_file(path)); }, py::arg("path"),
      "(family, params, matrices) of an instance or counterexample file");
  m.def(
      "instance_file_json",
      [](const std::string& family, const std::map<std::string, double>& params, const py::dict& matrices) {
        return thm::instance_file_json(to_instance(family, params, matrices)).dump(1) + "\n";
      },
      "The instance file thmcheck assess --instance reads");

  m.def(
      "assess",
      [](const std::string& family, const std::map<std::string, double>& params, const py::dict& matrices, const std::string& claims,
         const std::vector<int>& digits, bool certify, bool patient) {
        const thm::Instance inst = to_instance(family, params, matrices);
        const std::vector<const thm::Claim*> selected = thm::cli::select_claims_or_usage(claims);
        thm::AssessOptions o;
        o.digits = digits;
        for (int d : digits)
          if (d < 20 || d > 5000) throw py::value_error("digits must be in [20, 5000], got " + std::to_string(d));
        o.certify = certify;
        o.patient = patient;
        py::gil_scoped_release release;
        return thm::assess_json(inst, thm::assess_instance(inst, selected, o)).dump();
      },
      py::arg("family"), py::arg("params"), py::arg("matrices"), py::arg("claims"), py::arg("digits"), py::arg("certify"),
      py::arg("patient"), "thmcheck assess on an instance; the JSON document of reports/assess_json.hpp");

  // [G]'s objectives (numerics/models/goel/): (value, gradient in A, gradient in B) at the precision asked for.
  m.def(
      "goel_sequence",
      [](const py::handle& A_, const py::handle& B_, const py::handle& X_, const py::handle& Y_, bool mask_self, const std::string& precision,
         bool exact) {
        const MatD A = to_matrix("A", A_), B = to_matrix("B", B_), X = to_matrix("X", X_), Y = to_matrix("Y", Y_);
        if (Y.rows() != X.rows()) throw py::value_error("X (n x d) and Y (n x k) must have the same number of rows");
        check_goel_shapes(A, B, X.cols(), Y.cols(), "X and Y");
        return at_precision(precision, [&]<class T>() {
          T loss = 0;
          const ParamPair<T> g = finite_gradient(lift<T>(A), lift<T>(B), lift<T>(X), lift<T>(Y), mask_self, nullptr, &loss);
          return goel_out<T>(loss, g, exact);
        });
      },
      py::arg("A"), py::arg("B"), py::arg("X"), py::arg("Y"), py::arg("mask_self"), py::arg("precision"), py::arg("exact"),
      "L_n(A, B) on one sequence of n tokens (the first reading) and its gradient");
  m.def(
      "goel_prompts",
      [](const py::handle& A_, const py::handle& B_, const py::list& contexts, const py::handle& Qry_, const py::handle& Y_,
         const std::string& precision, bool exact) {
        const MatD A = to_matrix("A", A_), B = to_matrix("B", B_), Qry = to_matrix("Qry", Qry_), Y = to_matrix("Y", Y_);
        const Eigen::Index n = Qry.rows(), d = Qry.cols();
        if (static_cast<Eigen::Index>(contexts.size()) != n || Y.rows() != n)
          throw py::value_error("one context and one label per query: " + std::to_string(contexts.size()) + " contexts, " +
                                std::to_string(Y.rows()) + " labels, " + std::to_string(n) + " queries");
        PromptSet<double> data;
        data.Qry = Qry;
        data.Y = Y;
        for (Eigen::Index p = 0; p < n; ++p) {
          const MatD c = to_matrix("contexts[" + std::to_string(p) + "]", contexts[static_cast<std::size_t>(p)]);
          if (p == 0) {
            data.tokens = static_cast<int>(c.rows());
            data.X.resize(n * c.rows(), d);
          }
          if (c.rows() != data.tokens || c.cols() != d)
            throw py::value_error("every context must be T x d with T = " + std::to_string(data.tokens) + ", d = " + std::to_string(d));
          data.X.middleRows(p * data.tokens, data.tokens) = c;
        }
        check_goel_shapes(A, B, d, Y.cols(), "the queries and labels");
        return at_precision(precision, [&]<class T>() {
          PromptSet<T> lifted;
          lifted.X = lift<T>(data.X);
          lifted.Qry = lift<T>(data.Qry);
          lifted.Y = lift<T>(data.Y);
          lifted.tokens = data.tokens;
          T loss = 0;
          const ParamPair<T> g = prompt_gradient(lift<T>(A), lift<T>(B), lifted, &loss);
          return goel_out<T>(loss, g, exact);
        });
      },
      py::arg("A"), py::arg("B"), py::arg("contexts"), py::arg("Qry"), py::arg("Y"), py::arg("precision"), py::arg("exact"),
      "L_{n,T}(A, B) on n prompts (the second reading) and its gradient");
  m.def(
      "goel_population",
      [](const py::handle& A_, const py::handle& B_, const py::handle& Sigma_, const py::handle& M_, double noise_sd, const std::string& precision,
         bool exact) {
        const MatD A = to_matrix("A", A_), B = to_matrix("B", B_), Sigma = to_matrix("Sigma", Sigma_), M = to_matrix("M", M_);
        if (Sigma.rows() != Sigma.cols() || M.cols() != Sigma.rows())
          throw py::value_error("Sigma must be d x d and M k x d");
        check_goel_shapes(A, B, Sigma.rows(), M.rows(), "Sigma and M");
        if (!(noise_sd >= 0) || !std::isfinite(noise_sd)) throw py::value_error("noise_sd must be finite and >= 0");
        return at_precision(precision, [&]<class T>() {
          const RegressionTask<T> task = make_regression_task(lift<T>(Sigma), lift<T>(M), T(noise_sd));
          const Mat<T> a = lift<T>(A), b = lift<T>(B);
          return goel_out<T>(population_excess(a, b, task), population_excess_gradient(a, b, task), exact);
        });
      },
      py::arg("A"), py::arg("B"), py::arg("Sigma"), py::arg("M"), py::arg("noise_sd"), py::arg("precision"), py::arg("exact"),
      "The infinite-data excess risk L(A, B) - L* of the weighted matrix factorisation and its gradient");

  // [Q]'s model (numerics/models/qin/transformer.hpp) on an instance of family qin.model.
  m.def(
      "qin_loss",
      [](const std::map<std::string, double>& params, const py::dict& matrices, const std::string& precision, bool exact) {
        const QModel<double> q0 = qin_model(kQinModelFamily, params, matrices);
        return at_precision(precision, [&]<class T>() {
          const QModel<T> q = lift_model<T>(q0);
          return scalar_out<T>(transformer_loss(q.params, q.config, q.X, q.Y), exact);
        });
      },
      py::arg("params"), py::arg("matrices"), py::arg("precision"), py::arg("exact"));
  m.def(
      "qin_gradient",
      [](const std::map<std::string, double>& params, const py::dict& matrices, const std::string& precision, bool exact) {
        const QModel<double> q0 = qin_model(kQinModelFamily, params, matrices);
        return at_precision(precision, [&]<class T>() {
          const QModel<T> q = lift_model<T>(q0);
          T loss;
          const TransformerParams<T> g = transformer_gradient(q.params, q.config, q.X, q.Y, &loss);
          const std::vector<std::string> names = transformer_block_names(q.params.blocks.size());
          py::dict out;
          for (std::size_t k = 0; k < names.size(); ++k) out[py::str(names[k])] = matrix_out<T>(g.block(k), exact);
          return py::object(py::make_tuple(scalar_out<T>(loss, exact), out));
        });
      },
      py::arg("params"), py::arg("matrices"), py::arg("precision"), py::arg("exact"));
  m.def(
      "qin_forward",
      [](const std::map<std::string, double>& params, const py::dict& matrices, const std::string& precision, bool exact) {
        const QModel<double> q0 = qin_model(kQinModelFamily, params, matrices);
        return at_precision(precision, [&]<class T>() {
          const QModel<T> q = lift_model<T>(q0);
          const TransformerTrace<T> tr = transformer_forward(q.params, q.config, q.X, q.Y);
          py::list V, H, R;
          for (std::size_t l = 0; l < tr.V.size(); ++l) {
            py::list v, h;
            for (const Mat<T>& x : tr.V[l]) v.append(matrix_out<T>(x, exact));
            for (const Mat<T>& x : tr.H[l]) h.append(matrix_out<T>(x, exact));
            V.append(v);
            H.append(h);
          }
          for (const Mat<T>& x : tr.residual) R.append(matrix_out<T>(x, exact));
          return py::object(py::make_tuple(V, H, R, scalar_out<T>(tr.loss, exact)));
        });
      },
      py::arg("params"), py::arg("matrices"), py::arg("precision"), py::arg("exact"),
      "(V[layer][sample], H[layer][sample], residual[sample], loss): the attention outputs with residual (the paper's Z at "
      "L = 1), the block outputs, Yhat - Y");
}
