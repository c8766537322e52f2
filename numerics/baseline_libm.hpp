// The C library's elementary functions, the same bits on every x86-64 (docs/guide/campaigns-and-reproducibility.md,
// "The same bytes on every machine"). glibc chooses, when a process starts, FMA versions of exp, log, pow, sin... on a
// CPU with FMA3 or FMA4 and baseline versions on one without, and the two differ in the last bit now and then; every
// double result of the suite that passes through them (softmax, softplus, the Gaussian draws' tails, Boost.Math's
// p-values) would then depend on the CPU. The tunable glibc.cpu.hwcaps=-FMA,-FMA4 makes every CPU load the baseline
// versions; glibc reads it only at start-up, so use_baseline_libm starts the program again, once, with it set.
#pragma once

#include <string>

namespace thm {

// At the top of main: unless this process already runs with the mask (or THM_NATIVE_LIBM=1 asks for the CPU's own
// versions), execute /proc/self/exe again with the same arguments and GLIBC_TUNABLES extended by the mask (a
// glibc.cpu.hwcaps the user set is kept, the mask added to it). Returns only where no new start is needed or the exec
// failed (then the process goes on with the versions it has, and libm_variants() says so).
void use_baseline_libm(char** argv);

// What the environment stamp records: "glibc VERSION, baseline (FMA versions masked)" when the process started with the
// mask (whoever set it), else "glibc VERSION, as the CPU chose (why)": THM_NATIVE_LIBM=1, a failed restart, or a process
// thmcheck did not start (Python's, for the module). Reports of the second kind are the same bytes only on CPUs of one
// kind.
std::string libm_variants();

}  // namespace thm
