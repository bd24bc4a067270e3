// Sweep rows for the sweep's CPU tests: a point with a given configuration at 3200^3, and a timed row for it.
#pragma once

#include <string>

#include "sweep/sweep_format.hpp"
#include "sweep/sweep_grid.hpp"

namespace tcgemm::sweep::test_rows {

inline SweepPoint point(int32_t family, int32_t tile, int32_t tile_k, int32_t pad_a, int32_t pad_b, int32_t stages) {
  SweepPoint p;
  p.config.family = family;
  p.config.tile_m = p.config.tile_n = tile;
  p.config.tile_k = tile_k;
  p.config.pad_a = pad_a;
  p.config.pad_b = pad_b;
  p.config.stages = stages;
  p.m = p.n = p.k = 3200;
  p.smem_bytes = 8 * (tile + pad_a) * tile_k;
  p.threads = tile * 4;
  return p;
}

inline SweepRow ok_row(const SweepPoint& p, double tflops, double cublas) {
  SweepRow r = make_row(p, "Test GPU");
  r.status = RowStatus::kOk;
  r.blocks_per_sm = 16;
  r.median_ms = 2.0 * 3200.0 * 3200.0 * 3200.0 / (tflops * 1e12) * 1e3;
  r.min_ms = r.median_ms;
  r.max_ms = r.median_ms;
  r.tflops = tflops;
  r.cublas_tflops = cublas;
  r.ratio_to_cublas = tflops / cublas;
  r.max_rel_err = 1.25e-16;
  return r;
}

}  // namespace tcgemm::sweep::test_rows
