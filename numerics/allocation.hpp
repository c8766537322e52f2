// How the process allocates large matrices: one call at the start of each executable's main (thmcheck, the tests).
#pragma once

namespace thm {

// Large matrices from the heap, reused, rather than fresh mmap'd pages unmapped at every free: with glibc's default
// threshold (128 KiB, raised only by frees) a [G] risk claim, whose data draws are n x d matrices with n up to 2^16,
// spent 60% of its CPU time in page faults (goel.risk.population_attention_later, one case: 18.6 s of CPU, 7.9 s with
// this). 32 MiB is glibc's largest mmap threshold; free memory above 256 MiB at the top of a heap goes back to the
// system. Allocation only: no result depends on it.
void use_heap_for_large_matrices();

}  // namespace thm
