// The block-cyclic arithmetic of libtcgemm_pblas (cxx/pblas/block_cyclic.hpp) against ScaLAPACK's own
// NUMROC, INDXG2L and INDXG2P, over block sizes, source processes and grid sizes.
#include <gtest/gtest.h>

#include "block_cyclic.hpp"

extern "C" {
int numroc_(const int* n, const int* nb, const int* iproc, const int* isrc, const int* nprocs);
int indxg2l_(const int* indxglob, const int* nb, const int* iproc, const int* isrc, const int* nprocs);
int indxg2p_(const int* indxglob, const int* nb, const int* iproc, const int* isrc, const int* nprocs);
}

using namespace tcgemm::pblas;

TEST(BlockCyclic, MatchesScalapack) {
  for (int nprocs : {1, 2, 3, 4})
    for (int nb : {1, 3, 8, 64})
      for (int src = 0; src < nprocs; ++src) {
        const CyclicDim d{nb, src, nprocs};
        for (int g = 0; g <= 300; g += 7) {
          const int g1 = g + 1;
          int dummy = 0;
          EXPECT_EQ(owner_of(d, g), indxg2p_(&g1, &nb, &dummy, &src, &nprocs)) << nb << " " << src << " " << g;
          EXPECT_EQ(local_index(d, g), indxg2l_(&g1, &nb, &dummy, &src, &nprocs) - 1);
          for (int p = 0; p < nprocs; ++p) EXPECT_EQ(held_before(d, p, g), numroc_(&g, &nb, &p, &src, &nprocs));
        }
      }
}

TEST(BlockCyclic, LocalRangeIsTheOwnedIndicesInOrder) {
  const CyclicDim d{5, 1, 3};
  for (int p = 0; p < 3; ++p) {
    const LocalRange r = local_range(d, p, 7, 40);
    int64_t count = 0, expect_first = -1;
    for (int64_t g = 7; g < 47; ++g)
      if (owner_of(d, g) == p) {
        if (expect_first < 0) expect_first = local_index(d, g);
        EXPECT_EQ(local_index(d, g), expect_first + count);  // contiguous in the local array
        ++count;
      }
    EXPECT_EQ(r.count, count);
    if (count) EXPECT_EQ(r.first, expect_first);
  }
}

TEST(BlockCyclic, SameSpread) {
  const CyclicDim a{8, 0, 2}, b{8, 1, 2}, c{16, 0, 2};
  EXPECT_TRUE(same_spread(a, 0, a, 0, 100));
  EXPECT_TRUE(same_spread(a, 3, b, 11, 50));   // offset 3 in a block of process 0 both times
  EXPECT_FALSE(same_spread(a, 0, b, 0, 50));   // other source process
  EXPECT_FALSE(same_spread(a, 0, c, 0, 50));   // other block size
  EXPECT_FALSE(same_spread(a, 2, a, 3, 50));   // other offset in the block
  EXPECT_TRUE(same_spread(CyclicDim{8, 0, 1}, 2, CyclicDim{3, 0, 1}, 5, 50));  // one process: any
  EXPECT_TRUE(same_spread(a, 0, c, 0, 0));     // nothing to spread
}
