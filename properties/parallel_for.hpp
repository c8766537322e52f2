// parallel_for: the project's one thread pool (the runner's cases and claims, the experiments' independent runs).
#pragma once

#include "numerics/scalar.hpp"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace thm {

// f(k) for every k in [0, n) on up to `jobs` threads, k handed out in increasing order; f writes only outputs of
// its own k. An exception is rethrown after every thread has stopped (the one of the smallest k), so a failure is
// the same whatever the number of jobs.
template <class F>
void parallel_for(std::size_t n, int jobs, F&& f) {
  const std::size_t workers = std::min<std::size_t>(n, static_cast<std::size_t>(std::max(1, jobs)));
  if (workers <= 1) {
    for (std::size_t k = 0; k < n; ++k) f(k);
    return;
  }
  std::atomic<std::size_t> next{0};
  std::mutex failure_mutex;
  std::size_t failure_at = n;
  std::exception_ptr failure;
  const auto work = [&] {
    for (std::size_t k = next++; k < n; k = next++) {
      try {
        f(k);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(failure_mutex);
        if (k < failure_at) {
          failure_at = k;
          failure = std::current_exception();
        }
      }
    }
  };
  std::vector<std::thread> threads;
  for (std::size_t t = 1; t < workers; ++t)
    threads.emplace_back([&] {
      work();
      release_thread_caches();  // MPFR's per-thread constant caches would leak (found by make test's ASan build)
    });
  work();
  for (std::thread& t : threads) t.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace thm
