// sm90_mma: Hopper FP64 GEMM on mma.sync.aligned.m16n8k{4,8,16}.row.col.f64 (DMMA.16 in SASS), fed by a
// multistage cp.async shared-memory pipeline; full BLAS semantics. This header holds the kernel template.
// The design (fragment ownership and its free permutations, the swizzled shared-memory layouts, the
// pipeline, edges, epilogue, rasterization) is described in README.md beside it; the parts are
// common.cuh, operand_tile.cuh, this file, plan.cuh and launch.cu.
#pragma once

#include <cstdint>

#include "arch/cluster_sm90.cuh"
#include "arch/dependent_launch_sm90.cuh"
#include "families/sm90/common.cuh"
#include "families/sm90/operand_tile.cuh"

namespace tcgemm::detail::sm90 {

// ---- the kernel --------------------------------------------------------------------------------------
template <int kTileM_, int kTileN_, int kTileK_, int kWarpsM_, int kWarpsN_, int kMmaK_, bool kAMnContiguous,
          bool kBMnContiguous, bool kVec16_, int kPipeline_ = 1, int kMinBlocks_ = 1, bool kTransposeC_ = false,
          bool kClusterSplit_ = false, int kMaxStages_ = kMaxStagesAnyShape>
struct Traits {
  // kMaxStages: the deepest pipeline a call may ask for (the shape's max_stages). cp.async.wait_group takes
  // an immediate; the k-tile waits are predicated for each run-time depth up to it (arch::
  // cp_async_wait_pending_upto). Measured at 2048^3-8192^3 (128x64, 3 stages): the switch used before, an
  // indirect branch per k-tile, ran 0.5-1.5% slower ('T','N' 2%); a depth fixed at compile time ran 'N','N'
  // up to 1% faster again but 'T','N' 6% slower (bench/results/2026-11-27-h100-tn-native/).
  static constexpr int kMaxStages = kMaxStages_;
  static_assert(kMaxStages >= 2 && kMaxStages <= kMaxStagesAnyShape, "wait counts 0..kWaitPendingMax");
  // kClusterSplit: the k-slices of a tile (gridDim.y) are one thread-block cluster and add their partial
  // tiles in distributed shared memory before storing C (rules.hpp, sm90_cluster_split). Its own instance,
  // so that the epilogue of every other instance stays as it was measured.
  static constexpr bool kClusterSplit = kClusterSplit_;
  static_assert(!(kClusterSplit_ && kTransposeC_),
                "a cluster split-K adds tiles staged in the 'N','N' layout; 'T','T' stages C's transpose");
  // kTransposeC: the kernel computes D = L R with L = op(B)^T, R = op(A)^T and stores D^T into C. The
  // launcher uses it for transa = transb = 'T': then L = B is mn-contiguous and R = A k-contiguous, the
  // layout pair whose 16-byte fragment loads land directly in the DMMA operand registers (as for 'N','N').
  static constexpr bool kTransposeC = kTransposeC_;
  // kVec16: both operands are copied in 16-byte chunks (both bases 16-byte aligned, both leading
  // dimensions even); otherwise both in 8-byte elements. Two instances rather than a run-time branch:
  // with both copy paths in one kernel the hoisted address arithmetic of the 8-byte path costs the
  // 16-byte path ~20 registers and pushed 64x32 warp tiles into spills.
  static constexpr bool kVec16 = kVec16_;
  // kPipeline: how fragment loads overlap the MMAs (shared memory -> registers).
  //   kPipeNone:  each k-group is loaded right before its MMAs; other warps hide the latency.
  //   kPipeGroup: the next k-group (8 or 16 k) is loaded before the current group's MMAs.
  //   kPipeStep:  the next k4 step is loaded before the current step's m16n8k4 MMAs. Per operand a ring
  //               of two buffers: one k row (mn-contiguous) or one k pair (k-contiguous, as delivered by
  //               a 16-byte load). Needs half the fragment registers of kPipeGroup.
  // kPipeGroup and kPipeStep load the first fragments of the next stage before the last MMAs of the
  // current one, so the tensor pipe has queued work while warps wait at the stage barrier.
  static constexpr int kPipeline = kPipeline_;
  static constexpr int kTileM = kTileM_, kTileN = kTileN_, kTileK = kTileK_;
  static constexpr int kWarpsM = kWarpsM_, kWarpsN = kWarpsN_;
  static constexpr int kThreads = kWarpsM * kWarpsN * 32;
  static constexpr int kWarpM = kTileM / kWarpsM;
  static constexpr int kWarpN = kTileN / kWarpsN;
  static constexpr int kMTiles = kWarpM / kMmaM;  // m16 tiles per warp
  static constexpr int kNTiles = kWarpN / kMmaN;  // n8 tiles per warp
  static constexpr int kRowsPerLane = kWarpM / 8;  // = 2 * kMTiles
  static constexpr int kColsPerLane = kNTiles;     // B columns per lane (C columns: 2 * kNTiles)
  static constexpr int kMmaKShape = kMmaK_;
  static constexpr int kGroupK = kMmaK_ > 8 ? kMmaK_ : 8;  // k per register-buffered fragment group
  static constexpr int kGroupKPerLane = kGroupK / kLanesPerGroup;    // physical k per lane per group
  static constexpr int kGroups = kTileK / kGroupK;        // groups per stage
  static constexpr int kStepsPerGroup = kGroupK / kMmaK_;
  using ATile = OperandTile<kTileM, kTileK, kThreads, kRowsPerLane, kAMnContiguous, kVec16_, /*kMmaLeft=*/true>;
  using BTile = OperandTile<kTileN, kTileK, kThreads, kColsPerLane, kBMnContiguous, kVec16_>;
  static constexpr int kStageBytes = ATile::kStageBytes + BTile::kStageBytes;
  static constexpr int kMinBlocksPerSm = kMinBlocks_;
  static constexpr int kSteps = kTileK / kLanesPerGroup;  // k4 steps per stage
  static_assert(kPipeline != kPipeStep || kMmaK_ == 4, "the k4-step pipeline issues m16n8k4 MMAs");

  static_assert(kMmaK_ == 4 || kMmaK_ == 8 || kMmaK_ == 16, "mma k-shape is 4, 8 or 16");
  static_assert(kTileM % (kWarpsM * kMmaM) == 0, "tile_m must split into warps_m warp rows of whole m16 tiles");
  static_assert(kTileN % (kWarpsN * kMmaN) == 0, "tile_n must split into warps_n warp columns of whole n8 tiles");
  static_assert(kTileK % kGroupK == 0, "tile_k must be a multiple of the fragment group depth");
  static_assert(kThreads <= 1024, "at most 1024 threads per block");
};


// One column chunk of a staged epilogue: C[0] when `first` and C[1] when `second` <- alpha a + beta C, C read
// only when read_c (beta != 0: BLAS never reads C for beta = 0). One 16-byte access when C allows it (vec16)
// and both rows are written, else per element. A chunk loses its first row below a write floor (a tile moved
// by an odd count: its chunks then start at odd rows), its second past the matrix's edge. Shared by the
// staged and the cluster split-K epilogues.
__device__ __forceinline__ void store_c_pair(double* c, double2 a, double alpha, double beta, bool read_c, bool vec16,
                                             bool first, bool second) {
  if (vec16 && first && second) {
    double2 v = make_double2(alpha * a.x, alpha * a.y);
    if (read_c) {
      const double2 old = *reinterpret_cast<const double2*>(c);
      v.x = fma(beta, old.x, v.x);
      v.y = fma(beta, old.y, v.y);
    }
    *reinterpret_cast<double2*>(c) = v;
  } else {
    if (first) {
      double v = alpha * a.x;
      if (read_c) v = fma(beta, c[0], v);
      c[0] = v;
    }
    if (second) {
      double w = alpha * a.y;
      if (read_c) w = fma(beta, c[1], w);
      c[1] = w;
    }
  }
}

// Store side of a staged epilogue for a warp whose C block lies wholly inside C, at or past the write floors,
// with 16-byte C accesses: the lane's pointer moves `step_elems` doubles per step and slot(step) (a
// compile-time step) is the shared-memory address of the lane's chunk, so a step is one shared load, one
// global store (and one load when read_c) with no bounds checks or 64-bit index arithmetic. ncu at
// 16384 x 16384 x 64 counted 1.43x cuBLAS's instructions with the checked store loop. The values are those
// of store_c_pair (alpha a, then fma(beta, C, .)): bit for bit what the checked loop writes.
template <int kSteps, class Slot>
__device__ __forceinline__ void store_staged_interior(double* c, int64_t step_elems, Slot&& slot, double alpha,
                                                      double beta, bool read_c) {
  if (read_c) {
    static_for<0, kSteps>([&](auto step) {
      const double2 a = *reinterpret_cast<const double2*>(slot(step));
      const double2 old = *reinterpret_cast<const double2*>(c);
      *reinterpret_cast<double2*>(c) = make_double2(fma(beta, old.x, alpha * a.x), fma(beta, old.y, alpha * a.y));
      c += step_elems;
    });
  } else {
    static_for<0, kSteps>([&](auto step) {
      const double2 a = *reinterpret_cast<const double2*>(slot(step));
      *reinterpret_cast<double2*>(c) = make_double2(alpha * a.x, alpha * a.y);
      c += step_elems;
    });
  }
}

// Store side of a staged epilogue, general case: the warp's block of C staged column-major, kChunksPerCol
// 16-byte chunks per column, chunk `chunk` of column `col` at slot(col, chunk). Block column col is C column
// col0 + col and chunk h holds C rows row0 + 2h, row0 + 2h + 1; only those inside C (< col_end, < row_end)
// and at or past the write floors are written. Lane L takes chunk L % kChunksPerCol of column
// L / kChunksPerCol, and each step the next 32 chunks. Shared by the 'N','N' staging (C columns are the
// kernel's D columns) and the 'T','T' one (C columns are D rows).
template <int kSteps, int kChunksPerCol, class Slot>
__device__ __forceinline__ void store_staged_checked(const char* wtile, Slot&& slot, int lane, double* C, int64_t ldc,
                                                     int64_t col0, int64_t row0, int64_t col_end, int64_t col_floor,
                                                     int64_t row_end, int64_t row_floor, double alpha, double beta,
                                                     bool read_c, bool vec_c) {
#pragma unroll 4
  for (int step = 0; step < kSteps; ++step) {
    const int idx = step * kWarpSizeThreads + lane;
    const int col = idx / kChunksPerCol, chunk = idx % kChunksPerCol;
    const double2 a = *reinterpret_cast<const double2*>(wtile + (col * kChunksPerCol + slot(col, chunk)) * kChunkBytes);
    const int64_t gcol = col0 + col, grow = row0 + 2 * chunk;
    if (gcol >= col_end || gcol < col_floor || grow >= row_end || grow + 1 < row_floor) continue;
    store_c_pair(C + gcol * ldc + grow, a, alpha, beta, read_c, vec_c, grow >= row_floor, grow + 1 < row_end);
  }
}

template <class T>
__global__ void __launch_bounds__(T::kThreads, T::kMinBlocksPerSm) sm90_mma_kernel(const Params p) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  // The split-K reduction behind a sliced launch (launch.cu) may launch once every block of this grid has
  // started (programmatic dependent launch): no block of this grid waits for room then, and the reduction's
  // blocks take the room the last ones leave, waiting for the grid's end. Only then: a kernel of the caller's
  // that follows a call and was launched as a programmatic dependent must not be let in before C is written.
  if (p.reduction_follows) arch::launch_dependents();
  using ATile = typename T::ATile;
  using BTile = typename T::BTile;
  constexpr int kMTiles = T::kMTiles, kNTiles = T::kNTiles, kRowsPerLane = T::kRowsPerLane;
  constexpr int kGroupKPerLane = T::kGroupKPerLane;

  extern __shared__ __align__(128) unsigned char sm90_smem[];
  const int stages = p.stages;
  // Until the copies of the next k-tile to read have landed: at most stages - 2 groups still in flight.
  auto wait_k_tile = [](int depth) { arch::cp_async_wait_pending_upto<T::kMaxStages - 2>(depth - 2); };
  char* const a_smem = reinterpret_cast<char*>(sm90_smem);
  char* const b_smem = a_smem + stages * ATile::kStageBytes;

  const int tid = threadIdx.x;
  const int lane = tid & 31;
  const int warp = tid >> 5;
  const int warp_m0 = (warp % T::kWarpsM) * T::kWarpM;
  const int warp_n0 = (warp / T::kWarpsM) * T::kWarpN;

  // Rasterization: groups of p.raster_rows tile rows, tile rows fastest inside a group.
  // 32-bit division when the tile grid allows it: 64-bit divisions are emulated (hundreds of instructions
  // per block, ~1% of a block's work at n = 2048). Validation (check_grid) caps the grid at 2^31 - 1 tiles
  // and raster_rows <= tiles_m, so the 64-bit branch is a guard that no validated call reaches.
  int64_t tile_row, tile_col;
  if (p.tiles_m * p.tiles_n <= INT32_MAX && p.raster_rows * p.tiles_n <= INT32_MAX) {
    const uint32_t bid = blockIdx.x, tiles_m = static_cast<uint32_t>(p.tiles_m);
    const uint32_t rows = static_cast<uint32_t>(p.raster_rows);
    const uint32_t per_group = rows * static_cast<uint32_t>(p.tiles_n);
    const uint32_t first_tm = (bid / per_group) * rows;
    const uint32_t group_rows = (tiles_m - first_tm) < rows ? (tiles_m - first_tm) : rows;
    const uint32_t in_group = bid % per_group;
    tile_row = first_tm + in_group % group_rows;
    tile_col = in_group / group_rows;
  } else {
    const int64_t bid = static_cast<int64_t>(blockIdx.x);
    const int64_t per_group = p.raster_rows * p.tiles_n;
    const int64_t first_tm = (bid / per_group) * p.raster_rows;
    const int64_t group_rows = (p.tiles_m - first_tm) < p.raster_rows ? (p.tiles_m - first_tm) : p.raster_rows;
    const int64_t in_group = bid % per_group;
    tile_row = first_tm + in_group % group_rows;
    tile_col = in_group / group_rows;
  }
  // A tile that crosses the m (n) edge is moved back to end exactly at the edge when the matrix is at least
  // a tile tall (wide): it then loads whole rows and columns and runs the edge-free copies like an interior
  // tile. Its rows (columns) below the original origin belong to the neighbouring tile; the epilogue does not
  // write them ("write floor"). An odd m (n) moves the tile by an odd count. That keeps the copies valid
  // where they move 8-byte units, and where the moved dimension is not the operand's contiguous one (a
  // k-contiguous row starts at mn * ld, ld even on the 16-byte path); a 16-byte mn-contiguous operand would
  // lose its alignment, so there an odd m (n) keeps the edge-handling path. The edge blocks were the
  // critical path of odd sizes: at 1001^3 the grid is one round and its 31 edge blocks ran the general copies
  // (59 us against 46 us for 1000^3 with the same odd leading dimensions, graph-timed on the H200).
  constexpr bool kOddMoveM = !T::kVec16 || !ATile::kMnContiguousLayout;
  constexpr bool kOddMoveN = !T::kVec16 || !BTile::kMnContiguousLayout;
  const int64_t m_floor = tile_row * T::kTileM;
  const int64_t n_floor = tile_col * T::kTileN;
  const bool move_m = m_floor + T::kTileM > p.m && p.m >= T::kTileM && (kOddMoveM || (p.m & 1) == 0);
  const bool move_n = n_floor + T::kTileN > p.n && p.n >= T::kTileN && (kOddMoveN || (p.n & 1) == 0);
  const int64_t m0 = move_m ? p.m - T::kTileM : m_floor;
  const int64_t n0 = move_n ? p.n - T::kTileN : n_floor;
  // The tile origin and write floor are parked in shared memory and read back after the first main loop:
  // kept in registers across it, they were spilled (the first loop holds 224 of 255 registers in
  // accumulators and fragments).
  __shared__ int64_t tile_origin[4];
  static_assert(sizeof(tile_origin) == kSm90StaticSmemBytes,
                "rules.hpp counts this static shared memory in sm90_smem_bytes()");
  if (tid == 0) {
    tile_origin[0] = m0;
    tile_origin[1] = n0;
    tile_origin[2] = m_floor;
    tile_origin[3] = n_floor;
  }

  // int: k tiles of a matrix that fits in device memory stay far below 2^31.
  // This form of the division makes ptxas spill 16 bytes in the 128x64 'N','N' and 'T','T' instances and
  // still runs 0.5-3% faster than (k + 15) / 16 without spills (docs/tuning.md).
  // Split-K: block row blockIdx.y computes the k-slice [y k_slice, (y + 1) k_slice) of the product, a
  // sub-problem with A and B advanced along k (host-computed steps) and its own depth; without a split
  // gridDim.y is 1 and the steps are 0. The host makes every slice non-empty.
  // The slice's operands and depth are recomputed from blockIdx.y (read through a volatile asm) where they
  // are used rather than kept in registers across the main loop: the 64 x 32 warp tiles use all 255.
  auto slice_a = [&] { return p.A + slice_index_reread() * p.a_slice_step; };
  auto slice_b = [&] { return p.B + slice_index_reread() * p.b_slice_step; };
  auto slice_k = [&] {
    const int64_t rest = p.k - slice_index_reread() * p.k_slice;
    return rest < p.k_slice ? rest : p.k_slice;
  };
  const int ktiles = static_cast<int>(ceil_div_nonneg(slice_k(), T::kTileK));

  const uint32_t a_smem_addr = arch::smem_address(a_smem), b_smem_addr = arch::smem_address(b_smem);
  // Copies of k-tile kt (k0 = kt * tile_k) into `stage` with full edge handling; the copiers step through
  // consecutive k-tiles. Past the last k-tile only an empty group is committed, which keeps the wait
  // counts uniform.
  auto issue_general = [&](typename ATile::Copier& ac, typename BTile::Copier& bc, int stage, int kt) {
    if (kt < ktiles) {
      const int64_t k0 = static_cast<int64_t>(kt) * T::kTileK;
      ATile::copy_stage(ac, a_smem_addr + stage * ATile::kStageBytes, slice_a(), p.lda, slice_k(), k0);
      BTile::copy_stage(bc, b_smem_addr + stage * BTile::kStageBytes, slice_b(), p.ldb, slice_k(), k0);
    }
    arch::cp_async_commit<kCopyClobber>();
  };

  const typename ATile::Lane a_lane = ATile::lane_offsets(lane, warp_m0);
  const typename BTile::Lane b_lane = BTile::lane_offsets(lane, warp_n0);

  double acc[kMTiles][kNTiles][4];
#pragma unroll
  for (int i = 0; i < kMTiles; ++i)
#pragma unroll
    for (int j = 0; j < kNTiles; ++j)
#pragma unroll
      for (int r = 0; r < 4; ++r) acc[i][j][r] = 0.0;

  struct Frag {
    double a[kGroupKPerLane][kRowsPerLane];
    double b[kGroupKPerLane][kNTiles];
  };
  auto load_group = [&](Frag& f, int stage, auto group_tag) {
    constexpr int kGroup = decltype(group_tag)::value;
    constexpr int kK = kGroup * T::kGroupK;
    constexpr int kBlock = kK / kKBlock, kV0 = (kK % kKBlock) / kLanesPerGroup;
    ATile::template load<kBlock, kV0, kGroupKPerLane>(f.a, a_smem + stage * ATile::kStageBytes, a_lane);
    BTile::template load<kBlock, kV0, kGroupKPerLane>(f.b, b_smem + stage * BTile::kStageBytes, b_lane);
  };
  auto mma_group = [&](const Frag& f) {
    using M = arch::Mma<T::kMmaKShape>;
    constexpr int kWPerStep = T::kMmaKShape / kLanesPerGroup;
#pragma unroll
    for (int s = 0; s < T::kStepsPerGroup; ++s)
#pragma unroll
      for (int i = 0; i < kMTiles; ++i) {
        double a[M::kARegs];
#pragma unroll
        for (int r = 0; r < M::kARegs; ++r) a[r] = f.a[s * kWPerStep + (r >> 1)][2 * i + (r & 1)];
#pragma unroll
        for (int j = 0; j < kNTiles; ++j) {
          double b[M::kBRegs];
#pragma unroll
          for (int r = 0; r < M::kBRegs; ++r) b[r] = f.b[s * kWPerStep + r][j];
          M::run(acc[i][j], a, b);
        }
      }
  };

  int read_stage = 0;
  int write_stage = stages - 1;

  // Which k-tiles can use the edge-free copies (whole copy units, one source pointer and one shared
  // offset per operand; see the two main loops below): those wholly inside k of an interior block (C tile
  // inside m x n).
  const bool mn_interior = m0 + T::kTileM <= p.m && n0 + T::kTileN <= p.n;
  const int full_ktiles = mn_interior ? static_cast<int>(slice_k() / T::kTileK) : 0;
  // The prologue's k-tiles are whole (or all k-tiles are, fewer than the prologue's stages - 1): it copies
  // them edge-free too. At small k the prologue is most of a block's copies (k = 64: 3 of 4 k-tiles), and
  // the edge-handling copies cost ~200 integer instructions per k-tile per thread (measured at k = 32: 4
  // stages, whose prologue then took the edge-handling copies, ran 0.85 of cuBLAS, 3 stages 0.93).
  // (full_ktiles == ktiles >= 1 only for an interior block: full_ktiles is 0 elsewhere.)
  const bool full_prologue = full_ktiles >= stages - 1 || full_ktiles == ktiles;
  typename ATile::FullCopier a_full =
      ATile::make_full_copier(slice_a(), p.lda, m0, full_prologue ? 0 : int64_t(stages - 1) * T::kTileK, tid);
  typename BTile::FullCopier b_full =
      BTile::make_full_copier(slice_b(), p.ldb, n0, full_prologue ? 0 : int64_t(stages - 1) * T::kTileK, tid);

  // Prologue: stages - 1 k-tiles in flight.
  if (full_prologue) {
    for (int s = 0; s < stages - 1; ++s) {
      if (s < full_ktiles) {  // past the last k-tile only an empty group (uniform wait counts)
        ATile::copy_stage_full(a_full, a_smem_addr, s * ATile::kStageBytes, p.lda);
        BTile::copy_stage_full(b_full, b_smem_addr, s * BTile::kStageBytes, p.ldb);
      }
      arch::cp_async_commit<kCopyClobber>();
    }
  } else {
    typename ATile::Copier ac = ATile::make_copier(slice_a(), p.lda, p.m, m0, 0, tid);
    typename BTile::Copier bc = BTile::make_copier(slice_b(), p.ldb, p.n, n0, 0, tid);
    for (int s = 0; s < stages - 1; ++s) issue_general(ac, bc, s, s);
  }
  wait_k_tile(stages);
  __syncthreads();

  // Fragment state carried from one main-loop iteration to the next (only the pipeline's own is used).
  Frag cur;
  typename ATile::Ring a_ring;
  typename BTile::Ring b_ring;
  if constexpr (T::kPipeline == kPipeStep) {
    ATile::template load_step<0>(a_ring, a_smem, a_lane);
    BTile::template load_step<0>(b_ring, b_smem, b_lane);
  } else if constexpr (T::kPipeline == kPipeGroup) {
    load_group(cur, 0, std::integral_constant<int, 0>{});
  }

  // Main-loop iterations [kt_begin, kt_end): iteration kt multiplies k-tile kt and issues the copies of
  // k-tile kt + stages - 1 through issue(stage, kt).
  auto main_loop = [&](int kt_begin, int kt_end, auto&& issue, auto pipeline_tag) {
    constexpr int kPipeline = decltype(pipeline_tag)::value;
    // The copies of k-tile kt + stages - 1 into the next write stage, issued first in each k-tile: their
    // address arithmetic then dies before the fragment buffers fill up.
    auto issue_next = [&](int kt) {
      issue(write_stage, kt + stages - 1);
      write_stage = (write_stage + 1 == stages) ? 0 : write_stage + 1;
    };
    if constexpr (kPipeline == kPipeStep) {
      for (int kt = kt_begin; kt < kt_end; ++kt) {
        static_for<0, T::kSteps>([&](auto step_tag) {
          constexpr int kStep = decltype(step_tag)::value;
          if constexpr (kStep == 0) issue_next(kt);
          if constexpr (kStep == T::kSteps - 1) {
            // k-tile kt + 1 must have landed, and every warp must be done reading k-tile kt - 1's buffer
            // (the next copy target) before the barrier is passed.
            wait_k_tile(stages);
            __syncthreads();
            read_stage = (read_stage + 1 == stages) ? 0 : read_stage + 1;
            if (kt + 1 < ktiles) {
              ATile::template load_step<0>(a_ring, a_smem + read_stage * ATile::kStageBytes, a_lane);
              BTile::template load_step<0>(b_ring, b_smem + read_stage * BTile::kStageBytes, b_lane);
            }
          } else {
            ATile::template load_step<kStep + 1>(a_ring, a_smem + read_stage * ATile::kStageBytes, a_lane);
            BTile::template load_step<kStep + 1>(b_ring, b_smem + read_stage * BTile::kStageBytes, b_lane);
          }
#pragma unroll
          for (int i = 0; i < kMTiles; ++i) {
            const double a[2] = {ATile::template step_value<kStep>(a_ring, 2 * i),
                                 ATile::template step_value<kStep>(a_ring, 2 * i + 1)};
#pragma unroll
            for (int j = 0; j < kNTiles; ++j) {
              const double b[1] = {BTile::template step_value<kStep>(b_ring, j)};
              arch::Mma<4>::run(acc[i][j], a, b);
            }
          }
        });
      }
    } else if constexpr (kPipeline == kPipeGroup) {
      for (int kt = kt_begin; kt < kt_end; ++kt) {
        // Groups of this stage, unrolled; the last one crosses over to the next stage.
        static_for<0, T::kGroups>([&](auto group_tag) {
          constexpr int kGroup = decltype(group_tag)::value;
          if constexpr (kGroup == 0) issue_next(kt);
          Frag next;
          if constexpr (kGroup == T::kGroups - 1) {
            // k-tile kt + 1 must have landed, and every warp must be done reading k-tile kt - 1's buffer
            // (the next copy target) before the barrier is passed.
            wait_k_tile(stages);
            __syncthreads();
            read_stage = (read_stage + 1 == stages) ? 0 : read_stage + 1;
            if (kt + 1 < ktiles) load_group(next, read_stage, std::integral_constant<int, 0>{});
          } else {
            load_group(next, read_stage, std::integral_constant<int, kGroup + 1>{});
          }
          mma_group(cur);
          cur = next;
        });
      }
    } else {
      for (int kt = kt_begin; kt < kt_end; ++kt) {
        static_for<0, T::kGroups>([&](auto group_tag) {
          constexpr int kGroup = decltype(group_tag)::value;
          if constexpr (kGroup == 0) issue_next(kt);
          Frag f;
          load_group(f, read_stage, group_tag);
          mma_group(f);
        });
        // k-tile kt + 1 must have landed, and every warp must be done reading k-tile kt (the buffer the
        // next iteration's copy overwrites once stages - 1 iterations later) before the barrier is passed.
        wait_k_tile(stages);
        __syncthreads();
        read_stage = (read_stage + 1 == stages) ? 0 : read_stage + 1;
      }
    }
  };

  // Two copies of the main loop. The first runs while every k-tile it copies is wholly inside the matrix
  // (interior blocks: C tile inside m x n, k-tile inside k) with the edge-free copies, whose state is one
  // source pointer and one offset per operand: ncu at n = 4096 showed the edge-handling copies costing
  // ~200 integer instructions per k-tile per thread (64-bit compares and selects; 1.6x cuBLAS's
  // instructions per DMMA), and keeping both kinds live in one loop pushed 64x32 warp tiles into spills.
  // When every k-tile of an interior block is whole (k a multiple of tile_k), the first loop runs to the
  // end: its last stages - 1 iterations have nothing left to copy and commit empty groups. Otherwise the
  // second loop covers the rest (edge blocks: all of it; interior blocks: the last stages - 1 k-tiles and
  // a partial k-tile) with the general copies, set up afresh where the first loop stopped. It loads
  // fragments right before use (kPipeNone; any pipeline may hand over to it, as each leaves the barrier
  // after k-tile kt - 1 passed and reads k-tile kt from read_stage): the general copies' state and
  // double-buffered fragments together exceed 255 registers for 64x32 warp tiles.
  constexpr int kEdgePipeline = kPipeNone;
  int split = full_ktiles == ktiles ? ktiles : full_ktiles - (stages - 1);
  split = split < 0 ? 0 : split;
  // k-tile kt_copy < full_ktiles whenever it is < ktiles inside [0, split + stages - 1): one compare with the
  // loop's own bound serves both cases.
  main_loop(0, split, [&](int stage, int kt_copy) {
    if (kt_copy < ktiles) {
      ATile::copy_stage_full(a_full, a_smem_addr, stage * ATile::kStageBytes, p.lda);
      BTile::copy_stage_full(b_full, b_smem_addr, stage * BTile::kStageBytes, p.ldb);
    }
    arch::cp_async_commit<kCopyClobber>();
  }, std::integral_constant<int, T::kPipeline>{});
  // Reload the tile origin (written before the prologue's barrier); the loops' "memory" clobbers keep
  // the compiler from carrying the old registers across.
  const int64_t tile_m0 = tile_origin[0], tile_n0 = tile_origin[1];
  const int tid_reread = thread_index_reread();
  if (split < ktiles) {
    const int64_t k_next = int64_t(split + stages - 1) * T::kTileK;
    typename ATile::Copier ac = ATile::make_copier(slice_a(), p.lda, p.m, tile_m0, k_next, tid_reread);
    typename BTile::Copier bc = BTile::make_copier(slice_b(), p.ldb, p.n, tile_n0, k_next, tid_reread);
    main_loop(split, ktiles, [&](int stage, int kt) { issue_general(ac, bc, stage, kt); },
              std::integral_constant<int, kEdgePipeline>{});
  }
  arch::cp_async_wait<0>();  // nothing may be in flight into shared memory when the block exits

  // Epilogue. Lane (g, t) owns rows [kRowsPerLane*g, kRowsPerLane*g + kRowsPerLane) and columns
  // [2*kNTiles*t, 2*kNTiles*t + 2*kNTiles) of the warp tile: row index 2i + h (m-tile i, half h), column
  // index kNTiles*e + j (n-tile j, accumulator column e).
  const int g = (tid_reread & 31) >> 2, t = tid_reread & 3;
  const int64_t row0 = tile_m0 + ((tid_reread >> 5) % T::kWarpsM) * T::kWarpM + kRowsPerLane * g;
  const int64_t col0 = tile_n0 + ((tid_reread >> 5) / T::kWarpsM) * T::kWarpN + 2 * kNTiles * t;
  const bool read_c = p.beta != 0.0;
  const int64_t floor_m = tile_origin[2], floor_n = tile_origin[3];  // write floors (see the tile origin)
  // 16-byte C accesses hold two consecutive elements of C's contiguous dimension (m; D's n for 'T','T', whose
  // D is C^T). They need that dimension's origin even: a tile moved by an odd count stores element by element.
  const bool c_vec16 = p.c_vec16 != 0 && ((T::kTransposeC ? tile_n0 : tile_m0) & 1) == 0;
  // A split-K slice writes its partial product into its own slice of the workspace (p.C is then the
  // workspace, alpha 1 and beta 0); the reduction kernel sums the slices in a fixed order.
  double* const C = p.C + slice_index_reread() * p.c_slice_step;
  // Staged epilogue (not 'T','T'; when the pipeline's shared memory holds every warp's tile): each warp
  // writes its accumulators to shared memory as a column-major warp tile, then stores whole columns with
  // consecutive lanes on consecutive 16-byte chunks. The direct stores below leave every 32-byte sector
  // half written per instruction (a lane's 16-byte pairs are 32 bytes apart), which doubles the L2 write
  // requests: at small k (C-write bound) ncu showed L2 at 86% against cuBLAS's 67% on the same tile.
  constexpr int kWarpTileBytes = T::kWarpM * T::kWarpN * int(sizeof(double));
  constexpr int kChunksPerCol = T::kWarpM / kChunkDoubles;
  static_assert(kChunksPerCol >= kBankLineChunks &&
                    (kWarpSizeThreads % kChunksPerCol == 0 || kChunksPerCol % kWarpSizeThreads == 0),
                "a warp column is whole bank lines, and lanes split evenly over columns");
  // Deep products skip it: their epilogue is a small part of the block's time, and the extra barrier and
  // shared-memory round trip cost ~0.5% at 8192^3 (measured; +2.5% at 2048^3, +11-18% at small k).
  constexpr int kStagedEpilogueMaxKTiles = 256;
  // The 'T','T' staging's swizzle is laid out for 16 chunks per C column (32-wide warp tiles); narrower ones
  // ('T','T' on 32x32 blocks, 16 x 16 warp tiles) store directly.
  constexpr bool kStagedTransposeC = T::kTransposeC && T::kWarpN == 32 && kNTiles == 4;
  if constexpr (T::kClusterSplit) {
    // Cluster split-K (a separate instance, so that the other instances keep their epilogue unchanged: a
    // shared one with run-time cluster branches measured 1-3% slower at 4096^3 and at small k). Its write
    // and store sides repeat the staged epilogue's below on purpose: with the two factored into shared
    // lambdas, the other instances no longer compiled to the PTX that was measured (checked by diffing
    // PTX). Each slice parks its warp tiles in its shared memory as the staged epilogue below does (the
    // host checked that the buffers hold them); after a cluster barrier, slice (cluster rank) r stores the
    // steps r, r + S, ... (S = slices = gridDim.y, one cluster) of every warp tile, each chunk the sum of
    // the S slices' chunks added in rank order 0, 1, ..., S - 1: the sum of the workspace reduction
    // (split_k_reduce), in the same order, so the bits do not depend on the route or on the run.
    constexpr int kGBit = log2_exact(kRowsPerLane / 2);
    constexpr int kLoBit = kGBit == 0 ? 1 : 0, kHiBit = kGBit == 2 ? 1 : 2;
    auto swizzle = [](int tq) { return ((tq & 1) << kLoBit) | (((tq >> 1) & 1) << kHiBit); };
    __syncthreads();  // every warp has finished reading the pipeline's stages
    const int warp = tid_reread >> 5, lane = tid_reread & 31;
    char* const wtile = reinterpret_cast<char*>(sm90_smem) + warp * kWarpTileBytes;
#pragma unroll
    for (int e = 0; e < 2; ++e)
#pragma unroll
      for (int j = 0; j < kNTiles; ++j) {
        const int col = 2 * kNTiles * t + kNTiles * e + j;
#pragma unroll
        for (int i = 0; i < kMTiles; ++i) {
          const int chunk = (kRowsPerLane / 2) * g + i;
          *reinterpret_cast<double2*>(wtile + (col * kChunksPerCol + (chunk ^ swizzle(t))) * kChunkBytes) =
              make_double2(acc[i][j][e], acc[i][j][2 + e]);
        }
      }
    arch::cluster_sync();  // every slice's tile is in its shared memory before any slice reads it
    const int64_t wrow0 = tile_m0 + (warp % T::kWarpsM) * T::kWarpM;
    const int64_t wcol0 = tile_n0 + (warp / T::kWarpsM) * T::kWarpN;
    const bool vec_c = c_vec16;
    const int slices = static_cast<int>(gridDim.y);
    constexpr int kSteps = T::kWarpN * kChunksPerCol / kWarpSizeThreads;
    for (int step = static_cast<int>(slice_index_reread()); step < kSteps; step += slices) {
      const int idx = step * kWarpSizeThreads + lane;
      const int col = idx / kChunksPerCol, chunk = idx % kChunksPerCol;
      const char* const slot = wtile + (col * kChunksPerCol + (chunk ^ swizzle(col / (2 * kNTiles)))) * kChunkBytes;
      double2 a = make_double2(0.0, 0.0);
      for (int q = 0; q < slices; ++q) {
        const double2 w = arch::cluster_load_double2(slot, q);
        a.x += w.x;
        a.y += w.y;
      }
      const int64_t gcol = wcol0 + col, grow = wrow0 + 2 * chunk;
      if (gcol >= p.n || gcol < floor_n || grow >= p.m || grow + 1 < floor_m) continue;
      store_c_pair(C + gcol * p.ldc + grow, a, p.alpha, p.beta, read_c, vec_c, grow >= floor_m, grow + 1 < p.m);
    }
    // No slice may exit (and release its shared memory) while the others still read its tile.
    arch::cluster_sync();
  } else if (!T::kTransposeC && ktiles <= kStagedEpilogueMaxKTiles &&
      int64_t(stages) * T::kStageBytes >= int64_t(T::kThreads / kWarpSizeThreads) * kWarpTileBytes) {
    // Write side: lane (g, t) owns rows [RT g, RT g + RT) of warp columns 2 NT t + NT e + j; its chunk
    // (RT / 2) g + i is XOR-swizzled by t into the two chunk bits (of the three that pick a 16-byte slot in
    // a bank line) that g's parity does not use, so a quarter-warp's 8 stores hit 8 distinct slots.
    constexpr int kGBit = log2_exact(kRowsPerLane / 2);
    constexpr int kLoBit = kGBit == 0 ? 1 : 0, kHiBit = kGBit == 2 ? 1 : 2;
    auto swizzle = [](int tq) { return ((tq & 1) << kLoBit) | (((tq >> 1) & 1) << kHiBit); };
    __syncthreads();  // every warp has finished reading the pipeline's stages
    const int warp = tid_reread >> 5, lane = tid_reread & 31;
    char* const wtile = reinterpret_cast<char*>(sm90_smem) + warp * kWarpTileBytes;
#pragma unroll
    for (int e = 0; e < 2; ++e)
#pragma unroll
      for (int j = 0; j < kNTiles; ++j) {
        const int col = 2 * kNTiles * t + kNTiles * e + j;
#pragma unroll
        for (int i = 0; i < kMTiles; ++i) {
          const int chunk = (kRowsPerLane / 2) * g + i;
          *reinterpret_cast<double2*>(wtile + (col * kChunksPerCol + (chunk ^ swizzle(t))) * kChunkBytes) =
              make_double2(acc[i][j][e], acc[i][j][2 + e]);
        }
      }
    __syncwarp();
    // Store side: lane L takes chunk L % kChunksPerCol of column L / kChunksPerCol (+ the step's columns).
    const int64_t wrow0 = tile_m0 + (warp % T::kWarpsM) * T::kWarpM;
    const int64_t wcol0 = tile_n0 + (warp / T::kWarpsM) * T::kWarpN;
    const bool vec_c = c_vec16;
    constexpr int kSteps = T::kWarpN * kChunksPerCol / kWarpSizeThreads;
    bool stored = false;
    if constexpr (kChunksPerCol <= kWarpSizeThreads) {
      // The warp's block inside C and past the floors: the unchecked store side. A step covers
      // kColsPerStep whole columns; a column's swizzle group col / (2 NT) is then the step's alone.
      constexpr int kColsPerStep = kWarpSizeThreads / kChunksPerCol;
      static_assert((2 * kNTiles) % kColsPerStep == 0, "a step's columns share one swizzle group");
      if (vec_c && wrow0 >= floor_m && wcol0 >= floor_n && wrow0 + T::kWarpM <= p.m && wcol0 + T::kWarpN <= p.n) {
        const int lcol = lane / kChunksPerCol, chunk = lane % kChunksPerCol;
        const char* const lane_tile = wtile + lcol * kChunksPerCol * kChunkBytes;
        store_staged_interior<kSteps>(
            C + (wcol0 + lcol) * p.ldc + wrow0 + 2 * chunk, kColsPerStep * p.ldc,
            [&](auto step) {
              constexpr int kCol = decltype(step)::value * kColsPerStep;
              return lane_tile + (kCol * kChunksPerCol + (chunk ^ swizzle(kCol / (2 * kNTiles)))) * kChunkBytes;
            },
            p.alpha, p.beta, read_c);
        stored = true;
      }
    }
    if (!stored)
      store_staged_checked<kSteps, kChunksPerCol>(
          wtile, [&](int col, int chunk) { return chunk ^ swizzle(col / (2 * kNTiles)); }, lane, C, p.ldc, wcol0,
          wrow0, p.n, floor_n, p.m, floor_m, p.alpha, p.beta, read_c, vec_c);
  } else if (kStagedTransposeC && ktiles <= kStagedEpilogueMaxKTiles &&
             int64_t(stages) * T::kStageBytes >= int64_t(T::kThreads / kWarpSizeThreads) * kWarpTileBytes) {
    if constexpr (kStagedTransposeC) {  // (the condition above is false for the other instances)
      // 'T','T' (the kernel's D is C^T): the same staging, with the warp tile parked as a column-major block
      // of C (a C column is a D row), so that the stores again write whole C columns with consecutive lanes on
      // consecutive 16-byte chunks. The direct 'T','T' stores below leave half of every 32-byte sector to the
      // next instruction, as the 'N','N' ones do.
      // Write side: for each (i, h, e), lane (g, t) holds C column RT g + 2i + h (D row) and the NT
      // consecutive C rows 2 NT t + NT e + j (D columns); the pairs (j, j + 1) are chunks NT t + (NT / 2) e +
      // j / 2 of that column. A quarter-warp (g in {2q, 2q + 1}, t in 0..3) writes one chunk position
      // (fixed bits 0-1) of two columns at four t: chunk bits 2 and 3 follow t, and XOR-ing bit 3 and the
      // column's g parity into bits 0-1 gives its 8 stores 8 distinct 16-byte slots of a bank line. The store
      // side reads 8 consecutive chunks of one column per quarter-warp, a permutation of the slots.
      // (Compiled for the instances with 32-wide warp tiles only: kStagedTransposeC.)
      constexpr int kTChunksPerCol = T::kWarpN / kChunkDoubles;
      constexpr int kColParityBit = log2_exact(kRowsPerLane);
      auto swizzle_t = [](int col, int chunk) {
        return chunk ^ (((chunk >> 3) & 1) | (((col >> kColParityBit) & 1) << 1));
      };
      __syncthreads();  // every warp has finished reading the pipeline's stages
      const int warp = tid_reread >> 5, lane = tid_reread & 31;
      char* const wtile = reinterpret_cast<char*>(sm90_smem) + warp * kWarpTileBytes;
#pragma unroll
      for (int i = 0; i < kMTiles; ++i)
#pragma unroll
        for (int h = 0; h < 2; ++h)
#pragma unroll
          for (int e = 0; e < 2; ++e)
#pragma unroll
            for (int jp = 0; jp < kNTiles / 2; ++jp) {
              const int col = kRowsPerLane * g + 2 * i + h;
              const int chunk = kNTiles * t + (kNTiles / 2) * e + jp;
              *reinterpret_cast<double2*>(wtile + (col * kTChunksPerCol + swizzle_t(col, chunk)) * kChunkBytes) =
                  make_double2(acc[i][2 * jp][2 * h + e], acc[i][2 * jp + 1][2 * h + e]);
            }
      __syncwarp();
      // Store side: lane L takes chunk L % 16 of C column L / 16 (+ the step's columns). D rows are C columns,
      // D columns C rows: the bounds and write floors are D's.
      const int64_t wrow0 = tile_m0 + (warp % T::kWarpsM) * T::kWarpM;
      const int64_t wcol0 = tile_n0 + (warp / T::kWarpsM) * T::kWarpN;
      const bool vec_c = c_vec16;
      constexpr int kSteps = T::kWarpM * kTChunksPerCol / kWarpSizeThreads;
      if (vec_c && wrow0 >= floor_m && wcol0 >= floor_n && wrow0 + T::kWarpM <= p.m && wcol0 + T::kWarpN <= p.n) {
        // Unchecked store side (store_staged_interior). Column col = 2 step + lane / 16: its parity bit
        // (bit kColParityBit >= 1) is the step's, and the chunk bit 3 the lane's.
        constexpr int kColsPerStep = kWarpSizeThreads / kTChunksPerCol;
        static_assert(kColsPerStep == 2 && kColParityBit >= 1, "the swizzle's column bit must come from the step");
        const int lcol = lane / kTChunksPerCol, chunk = lane % kTChunksPerCol;
        const int lane_chunk = chunk ^ ((chunk >> 3) & 1);
        const char* const lane_tile = wtile + lcol * kTChunksPerCol * kChunkBytes;
        store_staged_interior<kSteps>(
            C + (wrow0 + lcol) * p.ldc + wcol0 + 2 * chunk, kColsPerStep * p.ldc,
            [&](auto step) {
              constexpr int kCol = decltype(step)::value * kColsPerStep;
              constexpr int kColSwizzle = ((kCol >> kColParityBit) & 1) << 1;
              return lane_tile + (kCol * kTChunksPerCol + (lane_chunk ^ kColSwizzle)) * kChunkBytes;
            },
            p.alpha, p.beta, read_c);
      } else {
        store_staged_checked<kSteps, kTChunksPerCol>(wtile, swizzle_t, lane, C, p.ldc, wrow0, wcol0, p.m, floor_m, p.n,
                                                     floor_n, p.alpha, p.beta, read_c, vec_c);
      }
    }
  } else if constexpr (!T::kTransposeC) {
    // C column col: the lane's kRowsPerLane rows are contiguous; pairs (2i, 2i + 1) are 16-byte stores.
    const bool vec_c = c_vec16 && row0 + kRowsPerLane <= p.m;
#pragma unroll
    for (int e = 0; e < 2; ++e)
#pragma unroll
      for (int j = 0; j < kNTiles; ++j) {
        const int64_t col = col0 + kNTiles * e + j;
        if (col >= p.n || col < floor_n) continue;
        double* c = C + col * p.ldc + row0;
        if (vec_c) {
#pragma unroll
          for (int i = 0; i < kMTiles; ++i) {
            if (row0 + 2 * i < floor_m) continue;  // row0 (vec_c) and floor_m even: the pair is on one side
            double2 v;
            v.x = p.alpha * acc[i][j][e];
            v.y = p.alpha * acc[i][j][2 + e];
            if (read_c) {
              const double2 old = *reinterpret_cast<const double2*>(c + 2 * i);
              v.x = fma(p.beta, old.x, v.x);
              v.y = fma(p.beta, old.y, v.y);
            }
            *reinterpret_cast<double2*>(c + 2 * i) = v;
          }
        } else {
#pragma unroll
          for (int i = 0; i < kMTiles; ++i)
#pragma unroll
            for (int h = 0; h < 2; ++h) {
              if (row0 + 2 * i + h >= p.m || row0 + 2 * i + h < floor_m) continue;
              double v = p.alpha * acc[i][j][2 * h + e];
              if (read_c) v = fma(p.beta, c[2 * i + h], v);
              c[2 * i + h] = v;
            }
        }
      }
  } else {
    // D row r is C column r: the lane's 2 kNTiles D columns are contiguous C rows; pairs (j, j + 1) of one
    // accumulator column e are 16-byte stores.
    const bool vec_c = c_vec16 && col0 + 2 * kNTiles <= p.n;
#pragma unroll
    for (int i = 0; i < kMTiles; ++i)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int64_t row = row0 + 2 * i + h;
        if (row >= p.m || row < floor_m) continue;
        double* c = C + row * p.ldc + col0;
        if (vec_c) {
#pragma unroll
          for (int e = 0; e < 2; ++e)
#pragma unroll
            for (int j = 0; j < kNTiles; j += 2) {
              if (col0 + kNTiles * e + j < floor_n) continue;  // even pairs (vec_c): one side of the floor
              double2 v;
              v.x = p.alpha * acc[i][j][2 * h + e];
              v.y = p.alpha * acc[i][j + 1][2 * h + e];
              if (read_c) {
                const double2 old = *reinterpret_cast<const double2*>(c + kNTiles * e + j);
                v.x = fma(p.beta, old.x, v.x);
                v.y = fma(p.beta, old.y, v.y);
              }
              *reinterpret_cast<double2*>(c + kNTiles * e + j) = v;
            }
        } else {
#pragma unroll
          for (int e = 0; e < 2; ++e)
#pragma unroll
            for (int j = 0; j < kNTiles; ++j) {
              if (col0 + kNTiles * e + j >= p.n || col0 + kNTiles * e + j < floor_n) continue;
              double v = p.alpha * acc[i][j][2 * h + e];
              if (read_c) v = fma(p.beta, c[kNTiles * e + j], v);
              c[kNTiles * e + j] = v;
            }
        }
      }
  }
#else
  // Built for an architecture without m16n8k*.f64: the device rules (sm90_code_available) keep this from
  // ever running; trap loudly if it does.
  __trap();
#endif
}

}  // namespace tcgemm::detail::sm90
