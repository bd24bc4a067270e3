// Family batched_small's kernel arguments (kernel.cuh), shared with the host side (launch.hpp, the API).
#pragma once

#include <cstdint>

namespace tcgemm::detail::batched_small {

// The operands of a batch: strided (pointer + g * stride) or arrays of device pointers (array[g]).
struct BatchedArgs {
  const double* A;
  const double* B;
  double* C;
  const double* const* A_array;
  const double* const* B_array;
  double* const* C_array;
  int64_t stride_a, stride_b, stride_c;
  int64_t lda, ldb, ldc;
  int64_t m, n, k, batch;
  double alpha, beta;
  bool trans_a, trans_b;
};

}  // namespace tcgemm::detail::batched_small
