// Host copies split over threads. The panel schedule packs whole panels (hundreds of MiB) into pinned
// buffers and stages the local C through them: one thread copies at a fraction of the host's memory
// bandwidth, which then bounds the whole call. TCGEMM_PBLAS_THREADS sets the count (default: the cores
// this process may use divided by the grid's processes on the node, at most 16).
#pragma once

#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

namespace tcgemm::pblas {

int copy_threads();
void set_copy_threads_share(int processes_on_node);

// Calls f(begin, end) on disjoint parts of [0, n) covering it, on up to copy_threads() threads (the caller's
// among them); small ranges stay on the caller's thread.
template <class F>
void parallel_for(int64_t n, int64_t min_per_thread, F&& f) {
  const int64_t parts = std::max<int64_t>(1, std::min<int64_t>(copy_threads(), n / std::max<int64_t>(1, min_per_thread)));
  if (parts <= 1) {
    if (n > 0) f(int64_t{0}, n);
    return;
  }
  std::vector<std::thread> pool;
  pool.reserve(static_cast<size_t>(parts - 1));
  for (int64_t t = 1; t < parts; ++t) pool.emplace_back([&, t] { f(n * t / parts, n * (t + 1) / parts); });
  f(int64_t{0}, n / parts);
  for (auto& th : pool) th.join();
}

}  // namespace tcgemm::pblas
