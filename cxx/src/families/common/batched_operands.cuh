// Product g's matrices in a batch (batched_small/args.hpp), for the kernels of both batched families: strided
// (pointer + g * stride) or arrays of device pointers (array[g], read on the device).
#pragma once

#include <cstdint>

#include "families/batched_small/args.hpp"

namespace tcgemm::detail::batched_small {

template <bool kArrays>
__device__ __forceinline__ const double* a_of(const BatchedArgs& p, int64_t g) {
  if constexpr (kArrays) return p.A_array[g];
  else return p.A + g * p.stride_a;
}
template <bool kArrays>
__device__ __forceinline__ const double* b_of(const BatchedArgs& p, int64_t g) {
  if constexpr (kArrays) return p.B_array[g];
  else return p.B + g * p.stride_b;
}
template <bool kArrays>
__device__ __forceinline__ double* c_of(const BatchedArgs& p, int64_t g) {
  if constexpr (kArrays) return p.C_array[g];
  else return p.C + g * p.stride_c;
}

}  // namespace tcgemm::detail::batched_small
