// See host_threads.hpp.
#include "host_threads.hpp"

#include <sched.h>

#include <atomic>
#include <cstdlib>

namespace tcgemm::pblas {
namespace {
std::atomic<int> share{1};
}

void set_copy_threads_share(int processes_on_node) { share = std::max(1, processes_on_node); }

int copy_threads() {
  if (const char* v = std::getenv("TCGEMM_PBLAS_THREADS"); v && *v) {
    const int t = std::atoi(v);
    if (t >= 1 && t <= 256) return t;
  }
  cpu_set_t set;
  int cores = static_cast<int>(std::thread::hardware_concurrency());
  if (sched_getaffinity(0, sizeof set, &set) == 0) cores = CPU_COUNT(&set);
  return std::max(1, std::min(16, cores / share.load()));
}

}  // namespace tcgemm::pblas
