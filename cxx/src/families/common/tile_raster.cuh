// The order in which a grid walks the C tiles of a product (shared by the lower-precision kernels).
#pragma once

#include <cstdint>

namespace tcgemm::detail {

// The C tile of linear index t, as (m tile, n tile). Blocks running at one time take consecutive indices;
// walking all of m before the next n would have each wave read all of A, so tiles go in groups of kGroupM
// m tiles by every n tile, down m first within a group: a wave then reads kGroupM tiles' rows of A and
// about waves / kGroupM tiles' columns of B, a set that stays in L2 while the wave runs.
template <int kGroupM>
__device__ __forceinline__ void tile_coords(int64_t t, int64_t m_tiles, int64_t n_tiles, int64_t& mt, int64_t& nt) {
  if constexpr (kGroupM == 0) {
    mt = t % m_tiles;
    nt = t / m_tiles;
  } else {
    const int64_t group = t / (kGroupM * n_tiles), first_m = group * kGroupM;
    const int64_t rows = m_tiles - first_m < kGroupM ? m_tiles - first_m : kGroupM;
    const int64_t r = t - group * kGroupM * n_tiles;
    mt = first_m + r % rows;
    nt = r / rows;
  }
}

}  // namespace tcgemm::detail
