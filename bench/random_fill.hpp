// Random operands of both tcgemm-bench modes: uniform values in [-1, 1) from a splitmix64 stream. Fast
// enough to refill 8192^2 matrices for every point, and a different seed gives unrelated data, so each
// point gets fresh operands (never zeros, which would make any kernel look correct).
#pragma once

#include <cstdint>
#include <vector>

namespace tcgemm::bench {

inline void fill_uniform(std::vector<double>* v, uint64_t seed) {
  uint64_t state = seed;
  constexpr double kTwoToMinus53 = 1.0 / 9007199254740992.0;  // 53 random mantissa bits -> [0, 1)
  for (double& x : *v) {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    x = 2.0 * double(z >> 11) * kTwoToMinus53 - 1.0;
  }
}

}  // namespace tcgemm::bench
