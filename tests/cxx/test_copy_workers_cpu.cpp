// The host path's parallel block copies (host/copy_workers.hpp): every byte of every run lands where it
// belongs, for jobs of one piece and of many, runs longer and shorter than a piece, and from many threads.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "host/copy_workers.hpp"

namespace {

// Copies a rows x cols block (leading dimension ld) into a packed buffer and back into a fresh matrix.
void round_trip(int64_t rows, int64_t cols, int64_t ld, uint64_t seed) {
  std::vector<double> src(size_t(ld * cols)), packed(size_t(rows * cols), -1.0), back(size_t(ld * cols), -2.0);
  for (size_t i = 0; i < src.size(); ++i) src[i] = double(seed * 1000003 + i);
  tcgemm::detail::copy_runs({reinterpret_cast<const char*>(src.data()), ld * 8, reinterpret_cast<char*>(packed.data()),
                             rows * 8, rows * 8, cols});
  tcgemm::detail::copy_runs({reinterpret_cast<const char*>(packed.data()), rows * 8, reinterpret_cast<char*>(back.data()),
                             ld * 8, rows * 8, cols});
  for (int64_t j = 0; j < cols; ++j)
    for (int64_t i = 0; i < ld; ++i) {
      const size_t x = size_t(j * ld + i);
      if (i < rows) {
        ASSERT_EQ(packed[size_t(j * rows + i)], src[x]) << rows << "x" << cols << " at " << i << "," << j;
        ASSERT_EQ(back[x], src[x]);
      } else {
        ASSERT_EQ(back[x], -2.0) << "padding row written";
      }
    }
}

// Eight helpers whatever the environment says (more than a 2-core CI machine's cores), so jobs' pieces are
// contended for. The helpers are made at the first copy, and each test runs in its own process under ctest.
void many_workers() { setenv("TCGEMM_HOST_COPY_THREADS", "8", 1); }

TEST(CopyWorkers, BlocksOfEveryShape) {
  many_workers();
  round_trip(1, 1, 1, 1);
  round_trip(7, 3, 9, 2);
  round_trip(2000, 1000, 2003, 3);     // 16 MB: many pieces, each spanning several runs
  round_trip(3000000, 2, 3000001, 4);  // runs longer than a piece
  round_trip(1, 300000, 5, 5);         // many short runs
}

TEST(CopyWorkers, ManyThreadsAtOnce) {
  many_workers();
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([t] {
      for (int r = 0; r < 3; ++r) round_trip(1500 + 17 * t, 700 + r, 1600 + 17 * t, uint64_t(10 * t + r));
    });
  for (auto& th : threads) th.join();
}

// Many small jobs of a few pieces each, from several threads: workers race the jobs' owners for the last
// pieces (a worker once took a job whose pieces had all gone between two looks at the queue).
TEST(CopyWorkers, ContendedSmallJobs) {
  many_workers();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([t] {
      for (int r = 0; r < 150; ++r) round_trip(512, 600 + (r % 7), 515, uint64_t(1000 * t + r));
    });
  for (auto& th : threads) th.join();
}

}  // namespace
