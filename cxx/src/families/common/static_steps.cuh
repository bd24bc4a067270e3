// A loop over compile-time step indices, for pipelines whose steps differ by constants (fragment buffer, copy
// part, whether the step waits): each step is its own instantiation, so every index folds into immediates.
#pragma once

#include <type_traits>
#include <utility>

namespace tcgemm::detail {

// Calls f(std::integral_constant<int, s>) for s = 0, 1, ... in order.
template <int... kS, class F>
__device__ __forceinline__ void for_each_step(std::integer_sequence<int, kS...>, F&& f) {
  (f(std::integral_constant<int, kS>{}), ...);
}

}  // namespace tcgemm::detail
