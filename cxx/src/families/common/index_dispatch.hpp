// A run-time index into a compile-time table (a family's size classes or shapes): the launchers of the batched
// families pick the kernel instance of entry i with dispatch_index<N>(i, f), which calls
// f(std::integral_constant<int, i>) for the one i in [0, N) that matches, instead of a hand-written case per entry.
#pragma once

#include <type_traits>
#include <utility>

#include "tcgemm/tcgemm.h"

namespace tcgemm::detail {

template <class F, int... kI>
tcgemm_status dispatch_index_impl(int index, F&& f, tcgemm_status outside, std::integer_sequence<int, kI...>) {
  tcgemm_status st = outside;
  ((index == kI ? (st = f(std::integral_constant<int, kI>{}), true) : false) || ...);
  return st;
}

// f(std::integral_constant<int, index>) when 0 <= index < N, else `outside` (the caller's error, already recorded).
template <int N, class F>
tcgemm_status dispatch_index(int index, F&& f, tcgemm_status outside) {
  return dispatch_index_impl(index, std::forward<F>(f), outside, std::make_integer_sequence<int, N>{});
}

}  // namespace tcgemm::detail
