// thmcheck: numerical checks of convergence theorems about transformers.
#include "cli/commands.hpp"
#include "numerics/allocation.hpp"
#include "numerics/baseline_libm.hpp"
#include "numerics/instance.hpp"
#include "numerics/ordered_gemm.hpp"

#include <CLI/CLI.hpp>

#include <iostream>
#include <vector>

int main(int argc, char** argv) {
  using namespace thm::cli;
  thm::use_baseline_libm(argv);  // first: may start the program again with glibc's baseline exp, log, pow...
  // A bad THM_GEMM_ISA is bad input: refused here (one line, exit 2), on this thread, before any work; found first in
  // a worker thread mid-run, its exit ran while other workers still evaluated (ASan: a use after free).
  thm::gemm_isa();
  thm::use_heap_for_large_matrices();
  CLI::App app{"thmcheck: numerical checks of convergence theorems about transformers"};
  app.require_subcommand(1);

  // The subcommands in the order --help lists them; each file registers its own options (cli/commands.hpp).
  const std::vector<Command> commands = {add_list(app),       add_catalogue(app), add_run(app),    add_merge(app),
                                         add_stability(app),  add_experiment(app), add_explore(app), add_assess(app),
                                         add_power(app),      add_tighten(app),    add_faults(app)};

  try {
    app.parse(argc, argv);
    for (const Command& c : commands)
      if (*c.app) return c.run();
    return kExitUsage;  // unreachable: require_subcommand(1)
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help on a subcommand
    std::cerr << "thmcheck: error: " << e.what() << "\n";
    return kExitUsage;
  } catch (const UsageError& e) {
    std::cerr << "thmcheck: error: " << e.what() << "\n";
    return kExitUsage;
  } catch (const thm::InstanceError& e) {
    std::cerr << "thmcheck: error: bad instance: " << e.what() << "\n";
    return kExitUsage;
  } catch (const std::invalid_argument& e) {
    std::cerr << "thmcheck: error: " << e.what() << "\n";
    return kExitUsage;
  } catch (const std::exception& e) {
    // Anything else (an unwritable path, a library error): one line, never an abort.
    std::cerr << "thmcheck: error: " << e.what() << "\n";
    return kExitUsage;
  }
}
