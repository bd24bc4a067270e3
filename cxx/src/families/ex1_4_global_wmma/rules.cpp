// Configuration and argument rules of the global-memory WMMA families (Examples 1-4, Figure 1).
#include "families/ex1_4_global_wmma/rules.hpp"

#include "core/checked_math.hpp"
#include "core/config_checks.hpp"
#include "core/family_table.hpp"

namespace tcgemm::detail {

tcgemm_status validate_one_tile_config(const tcgemm_config& c, const ArgPositions& pos, tcgemm_config* out) {
  const char* fam = family_name(c.family);
  if (c.tile_m != 0 && c.tile_m != kWmmaM)
    return config_error(pos, fam, "tile_m", c.tile_m, "this family's C tile is 8 x 8");
  if (c.tile_n != 0 && c.tile_n != kWmmaN)
    return config_error(pos, fam, "tile_n", c.tile_n, "this family's C tile is 8 x 8");
  TCGEMM_TRY(require_no_shared_tiles(pos, fam, c));
  out->tile_m = kWmmaM;
  out->tile_n = kWmmaN;
  return TCGEMM_SUCCESS;
}

tcgemm_status validate_block_tile_config(const tcgemm_config& c, const ArgPositions& pos, tcgemm_config* out) {
  const char* fam = family_name(c.family);
  const int tm = c.tile_m ? c.tile_m : kBlockTileDefaultM;
  const int tn = c.tile_n ? c.tile_n : kBlockTileDefaultN;
  if (tm < kWmmaM || tm > kBlockTileMax || tm % kWmmaM != 0)
    return config_error(pos, fam, "tile_m", tm,
                        "must be a multiple of 8 between 8 and 128 (one warp per 8x8 C tile)");
  if (tn < kWmmaN || tn > kBlockTileMax || tn % kWmmaN != 0)
    return config_error(pos, fam, "tile_n", tn,
                        "must be a multiple of 8 between 8 and 128 (one warp per 8x8 C tile)");
  if ((tm / kWmmaM) * (tn / kWmmaN) > kBlockTileMaxWarps)
    return set_arg_error(TCGEMM_ERROR_INVALID_CONFIG, field_position(pos, "tile_m"),
                         "tile_m=%d, tile_n=%d: (tile_m/8)*(tile_n/8) = %d warps exceeds 32 warps (1024 threads) "
                         "per block (family block_tile)",
                         tm, tn, (tm / kWmmaM) * (tn / kWmmaN));
  TCGEMM_TRY(require_no_shared_tiles(pos, fam, c));
  out->tile_m = tm;
  out->tile_n = tn;
  return TCGEMM_SUCCESS;
}

tcgemm_status validate_peak_config(const tcgemm_config& c, const ArgPositions& pos, tcgemm_config* out) {
  const char* fam = family_name(c.family);
  const int tm = kPeakWarpsM * kWmmaM, tn = kPeakWarpsN * kWmmaN;
  if (c.tile_m != 0 && c.tile_m != tm)
    return config_error(pos, fam, "tile_m", c.tile_m, "the peak block tile is 32 x 16");
  if (c.tile_n != 0 && c.tile_n != tn)
    return config_error(pos, fam, "tile_n", c.tile_n, "the peak block tile is 32 x 16");
  TCGEMM_TRY(require_zero(pos, fam, "tile_k", c.tile_k, "must be 0"));
  TCGEMM_TRY(require_zero(pos, fam, "pad_a", c.pad_a, "must be 0"));
  TCGEMM_TRY(require_zero(pos, fam, "pad_b", c.pad_b, "must be 0"));
  TCGEMM_TRY(require_zero(pos, fam, "stages", c.stages, "must be 0"));
  out->tile_m = tm;
  out->tile_n = tn;
  return TCGEMM_SUCCESS;
}

int one_warp_threads(const tcgemm_config&) { return kWarpSize; }
int block_tile_threads(const tcgemm_config& r) { return (r.tile_m / kWmmaM) * (r.tile_n / kWmmaN) * kWarpSize; }
int peak_threads(const tcgemm_config&) { return kPeakWarpsM * kPeakWarpsN * kWarpSize; }

int64_t warp_scratch_bytes(const tcgemm_config& r) {
  // Operands come from global memory; shared memory is the per-warp staging tile. r.tile_m/tile_n are
  // resolved, so the thread count follows from the family's row.
  return kWarpScratchBytes * (find_family(r.family)->threads_per_block(r) / kWarpSize);
}

GridNeed block_rows_grid_need(const GemmProblem& p, const tcgemm_config& r) {
  return GridNeed{ceil_div_nonneg(p.m, r.tile_m), false};
}

tcgemm_status validate_peak(int64_t m, int64_t n, int32_t niter, const double* A, int64_t lda, const double* B,
                            int64_t ldb, const double* C, int64_t ldc) {
  // tcgemm_dmma_peak(m, n, niter, A, lda, B, ldb, C, ldc, stream)
  constexpr ArgPositions pos{0, 0, 1, 2, 0, 0, 4, 5, 6, 7, 0, 8, 9, 0, 0, 0, 0, 0, 0, 0, 3};
  const ArgNamer nm{ArgNaming::Named, pos};
  TCGEMM_TRY(check_size(nm, pos.m, "m", m));
  TCGEMM_TRY(check_size(nm, pos.n, "n", n));
  if (niter < 1)
    return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, pos.niter,
                         "niter=%d: must be >= 1 (number of mma_sync per load)", niter);
  TCGEMM_TRY(check_ld(nm, pos.lda, "lda", lda, kWmmaM, "8"));
  TCGEMM_TRY(check_ld(nm, pos.ldb, "ldb", ldb, kWmmaK, "4"));
  TCGEMM_TRY(check_ld(nm, pos.ldc, "ldc", ldc, m, "m"));
  if (m > 0 && n > 0) {
    if (!A) return nm.fail_null(pos.A, "A", "m, n > 0");
    if (!B) return nm.fail_null(pos.B, "B", "m, n > 0");
    if (!C) return nm.fail_null(pos.C, "C", "m, n > 0");
    TCGEMM_TRY(check_extent(nm, {"A", A, pos.A, "lda", lda, pos.lda, kWmmaK}));
    TCGEMM_TRY(check_extent(nm, {"B", B, pos.B, "ldb", ldb, pos.ldb, kWmmaN}));
    TCGEMM_TRY(check_extent(nm, {"C", C, pos.C, "ldc", ldc, pos.ldc, n}));
    // One block per kPeakWarpsM * 8 rows of C on gridDim.x (columns: grid-stride on gridDim.y).
    const int tile_m = kPeakWarpsM * kWmmaM, tile_n = kPeakWarpsN * kWmmaN;
    const int64_t blocks = ceil_div_nonneg(m, tile_m);
    if (blocks > kMaxBlocksPerLaunch) return fail_grid(nm, pos.m, "m", m, blocks, tile_m, tile_n, "peak");
  }
  return TCGEMM_SUCCESS;
}

}  // namespace tcgemm::detail
