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

struct Sm90ClusterRoom;  // families/sm90/rules.hpp

struct PlanDevice {
  int cc_major = 0;
  int sm_count = 0;
  bool sm90_code = false;  // the build carries sm_90 code that runs on this device
  // Clusters of each sm90 shape the device runs at once (families/sm90/rules.hpp; the launcher's own answers,
  // sm90_cluster_room); null: the block-slot bound.
  const Sm90ClusterRoom* cluster_room = nullptr;
  // Peak DRAM bandwidth, bytes per microsecond (DeviceContext); 0: unknown, the H100 calibration.
  double hbm_peak_bytes_per_us = 0.0;
};

// tcgemm_plan (public struct) for one problem; transa/transb are 'N' or 'T' (normalised). The summary line
// is formatted only when asked for.
tcgemm_plan plan_dgemm(const PlanDevice& dev, char transa, char transb, int64_t m, int64_t n, int64_t k,
                       bool with_summary = true);
// The model's parts, for plan_dgemm and for calibration against measurements (tcgemm-plan-check):
//   plan_sm90_candidate: one sm90_mma candidate, kSm90Shapes[shape_index] at its default depth with
//     `requested_slices` k-slices (tcgemm_config.k_splits), and the model's time for it;
//   sm90_shape_considered / sm90_candidate_considered: whether plan_dgemm looks at a tile for this shape, and
//     at this candidate (the filters measurements motivated);
//   plan_prefers: whether plan_dgemm, going through candidates in kSm90Shapes order and by growing slice
//     count, replaces `best` by `c`.
tcgemm_plan plan_sm90_candidate(const PlanDevice& dev, int shape_index, int64_t requested_slices, char transa,
                                char transb, int64_t m, int64_t n, int64_t k);
bool sm90_shape_considered(int shape_index, char transa, char transb, int64_t m, int64_t n, int64_t k);
bool sm90_candidate_considered(const tcgemm_plan& c);
bool plan_prefers(const tcgemm_plan& c, const tcgemm_plan& best);
// The plan's configuration, remembered per thread for the last shape asked (tcgemm_dgemm's hot path: the
// model costs 1-5 us on the host, a lot for a small product called in a loop).
tcgemm_config plan_config_cached(const PlanDevice& dev, char transa, char transb, int64_t m, int64_t n, int64_t k);

}  // namespace tcgemm::detail
