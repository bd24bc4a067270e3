#include "sweep_check.hpp"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <limits>

namespace tcgemm::sweep {
namespace {

uint64_t splitmix64(uint64_t* state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

int64_t round_up(int64_t v, int64_t unit) { return (v + unit - 1) / unit * unit; }

}  // namespace

void fill_uniform(std::vector<double>* v, uint64_t seed) {
  uint64_t state = seed;
  constexpr double kTwoToMinus53 = 1.0 / 9007199254740992.0;  // 53 random mantissa bits -> [0, 1)
  for (double& x : *v) x = 2.0 * double(splitmix64(&state) >> 11) * kTwoToMinus53 - 1.0;
}

CheckResult check_against_reference(int64_t m, int64_t n, int64_t k, const std::vector<double>& A,
                                    const std::vector<double>& B, const std::vector<double>& C,
                                    const std::vector<double>& R) {
  CheckResult res;
  res.tolerance = double(k) * std::numeric_limits<double>::epsilon();
  std::vector<double> row_norm(m, 0.0), col_norm(n, 0.0);
  for (int64_t l = 0; l < k; ++l)
    for (int64_t i = 0; i < m; ++i) row_norm[i] += A[i + l * m] * A[i + l * m];
  for (int64_t j = 0; j < n; ++j) {
    double s = 0;
    for (int64_t l = 0; l < k; ++l) s += B[l + j * k] * B[l + j * k];
    col_norm[j] = std::sqrt(s);
  }
  for (double& r : row_norm) r = std::sqrt(r);

  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) {
      const double c = C[i + j * m];
      const double scale = row_norm[i] * col_norm[j];
      double err;
      if (!std::isfinite(c))
        err = std::numeric_limits<double>::infinity();
      else
        err = std::fabs(c - R[i + j * m]) / (scale > 0 ? scale : 1.0);
      if (err > res.max_rel_err || res.worst_i < 0) {
        res.max_rel_err = err;
        res.worst_i = i;
        res.worst_j = j;
      }
    }
  res.pass = res.max_rel_err <= res.tolerance;
  if (!res.pass) {
    char buf[256];
    const double c = C[res.worst_i + res.worst_j * m], r = R[res.worst_i + res.worst_j * m];
    std::snprintf(buf, sizeof buf,
                  "wrong result: C(%" PRId64 ",%" PRId64 ") = %.17g, cuBLAS %.17g; normwise error %.3e > k*eps = %.3e",
                  res.worst_i + 1, res.worst_j + 1, c, r, res.max_rel_err, res.tolerance);
    res.message = buf;
  }
  return res;
}

int32_t blocks_per_sm_upper_bound(int32_t threads, int64_t smem_bytes, const SmLimits& lim) {
  if (threads <= 0 || smem_bytes < 0 || lim.max_threads_per_sm <= 0 || lim.max_blocks_per_sm <= 0) return -1;
  int64_t blocks = lim.max_blocks_per_sm;
  blocks = std::min<int64_t>(blocks, lim.max_threads_per_sm / round_up(threads, kThreadsPerWarp));
  if (smem_bytes > 0) {
    const int64_t per_block = round_up(smem_bytes, kSharedMemoryAllocationUnit) + lim.reserved_shared_per_block;
    blocks = std::min<int64_t>(blocks, lim.shared_memory_per_sm / per_block);
  }
  return static_cast<int32_t>(std::max<int64_t>(blocks, 0));
}

}  // namespace tcgemm::sweep
