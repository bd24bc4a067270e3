// How tcgemm_dgemm runs a problem: a small performance model, not a per-shape list. For every candidate
// (the sm90_mma block tiles x split-K slice counts, and the skinny family for m or n <= 8) it predicts the
// time from
//   - the tile grid and its waves over the SMs: blocks are spread evenly, each SM runs its share in rounds
//     of at most `blocks per SM` resident blocks, and a round with fewer resident warps runs slower;
//   - the arithmetic of each block, padded tiles included (edge waste), at the block tile's measured rate;
//   - the compulsory HBM traffic (A, B and C once, the split-K partial products twice), which bounds
//     memory-bound shapes (deep k with a small C, small k with a large C, matrix-vector-like products);
//   - fixed costs: per round (pipeline fill, epilogue) and per kernel launch (the split-K reduction is one);
// and picks the fastest, preferring fewer slices when two are within kPlanTieFraction. The rates are
// measurements (docs/tuning.md, "The plan model"); the model only has to rank the candidates.
// Host only, no CUDA calls: the CPU tests check its choices.
#pragma once

#include <cstdint>

#include "tcgemm/tcgemm.h"

namespace tcgemm::detail {

struct PlanDevice {
  int cc_major = 0;
  int sm_count = 0;
  bool sm90_code = false;  // the build carries sm_90 code that runs on this device
};

// tcgemm_plan (public struct) for one problem; transa/transb are 'N' or 'T' (normalised). The summary line
// is formatted only when asked for.
tcgemm_plan plan_dgemm(const PlanDevice& dev, char transa, char transb, int64_t m, int64_t n, int64_t k,
                       bool with_summary = true);
// The plan's configuration, remembered per thread for the last shape asked (tcgemm_dgemm's hot path: the
// model costs 1-5 us on the host, a lot for a small product called in a loop).
tcgemm_config plan_config_cached(const PlanDevice& dev, char transa, char transb, int64_t m, int64_t n, int64_t k);

}  // namespace tcgemm::detail
