// Overflow-checked 64-bit arithmetic for the host-side rules (core/arguments.cpp, the family rules, api/host_api.cpp). Each helper
// returns false instead of wrapping, so a size that cannot be represented becomes a named error, never a
// wrapped value handed to a kernel or to cudaMemcpy.
#pragma once

#include <cstdint>

#include "core/host_device.hpp"

namespace tcgemm::detail {

inline bool checked_mul(int64_t a, int64_t b, int64_t* out) { return !__builtin_mul_overflow(a, b, out); }
inline bool checked_add(int64_t a, int64_t b, int64_t* out) { return !__builtin_add_overflow(a, b, out); }

// ceil(a / b) for a >= 0, b > 0, without the (a + b - 1) that wraps near INT64_MAX.
TCGEMM_HOST_DEVICE constexpr int64_t ceil_div_nonneg(int64_t a, int64_t b) { return a / b + (a % b != 0 ? 1 : 0); }
// The same for sizes the extent rule bounds (below 2^49), where a + b - 1 cannot wrap: one add and one shift
// for a power-of-two b. Which of the two a kernel uses changes its register allocation; each kernel uses the
// one that measured faster (docs/tuning.md).
TCGEMM_HOST_DEVICE constexpr int64_t ceil_div_bounded(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Elements from the first element of a column-major rows x cols matrix to its last, inclusive:
// (cols - 1) * ld + rows; 0 for an empty matrix. False when that does not fit in int64.
inline bool matrix_span_elements(int64_t rows, int64_t cols, int64_t ld, int64_t* out) {
  if (rows <= 0 || cols <= 0) {
    *out = 0;
    return true;
  }
  int64_t whole = 0;
  return checked_mul(cols - 1, ld, &whole) && checked_add(whole, rows, out);
}

}  // namespace tcgemm::detail
