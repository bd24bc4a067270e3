// Family shared_ab: the article's Example 6, "matrix multiply with multiple wmma_k blocks", with BLAS semantics and a
// cp.async pipeline of run-time depth.
//
// One thread block computes a tile x tile square of C with tile / 8 warps. The k dimension is walked in k-tiles
// of tile_k (a run-time multiple of 4): the block copies the tile x tile_k k-tile of op(A) and the tile_k x tile
// k-tile of op(B) into DYNAMIC shared memory, partitioned by offsets (the article's Cray pointers):
//   a_s: (tile + pad_a) x tile_k, column-major       b_s: (tile_k + pad_b) x tile, column-major
// and per stage buffer these two follow each other. Each warp owns one block ROW of C (8 x tile: tile / 8
// accumulators) and, with k as the outer fragment loop, loads one 8x4 A fragment per 4-deep k step and reuses
// it for the tile / 8 B fragments across the row (the article found block rows faster than block columns).
//
// Pipeline (config.stages, a run-time value):
//   1: the article's order: copy k-tile, __syncthreads, compute, __syncthreads before the next copy.
//   S >= 2: a ring of S buffers: k-tiles s + 1 .. s + S - 1 stream in with cp.async while k-tile s is multiplied,
//      so global-memory latency hides behind the tensor-core work; one barrier per k-tile. Shared memory: S x one
//      stage. S = 2 is double buffering.
// Bytes per block = stages * 8 * ((tile + pad_a) * tile_k + (tile_k + pad_b) * tile), exactly
// shared_ab_smem_bytes() of rules.hpp, which validation checks against the device's opt-in limit.
//
// Padding (bank conflicts): a lane of an 8x4 A fragment reads word r + c * lda_s (8 rows r, 4 k-columns c), a
// lane of a 4x8 B fragment word p + j * ldb_s (4 k-rows p, 8 columns j); shared memory has 16 double-wide
// banks and serves a warp's 8-byte loads half a warp (128 bytes) at a time. With a leading dimension that is a
// multiple of 16 doubles (tile, or tile_k = 16, 32, ...) the 4 columns a half-warp touches start in the same
// bank: 4-way conflicts. pad 4 moves each column 4 banks on and makes every half-warp conflict-free; 2 and 6
// leave 2-way conflicts. B fragments are loaded tile / 8 times per A fragment, so pad_b is what matters most
// (measurements: docs/tuning.md).
//
// Staging paths, chosen per block and per k-tile for each operand (the choice is block-uniform, so no divergence):
//   - fast: untransposed operand, k-tile fully inside the matrix, base 16-byte aligned and ld even: 16-byte
//     cp.async of row pairs, no bounds checks. This is the path of every interior k-tile of an aligned NN call.
//   - elementwise: 8-byte cp.async per element with bounds checks; out-of-range elements are written as zeros
//     (zero rows/columns of A and B add nothing to C, and no garbage such as NaN enters 0 * x). Used for
//     misaligned operands and for the edge k-tiles (m, n, k not multiples of the tiles).
//   - transposed: op(X) = X^T is contiguous in memory along the k-tile's columns but the k-tile is stored
//     column-major, so elements are copied one by one (8-byte cp.async); 4 consecutive lanes take 4 consecutive
//     memory elements (32-byte segments) and 8 lane groups take 8 k-tile rows, which keeps both the global reads
//     and the shared-memory writes close to conflict-free. Bounds checks as above.
#include <cstdint>

#include <cuda_runtime.h>

#include "core/device.hpp"
#include "core/errors.hpp"
#include "families/common/shared_gemm.cuh"
#include "families/common/wmma_fragments.cuh"
#include "families/ex6_shared_ab/rules.hpp"

namespace tcgemm::detail {
namespace {

// Default per-block dynamic shared memory a kernel may use without cudaFuncSetAttribute.
constexpr int64_t kDefaultDynamicSmemBytes = 48 * 1024;
// Lanes that copy consecutive memory elements of a transposed operand (4 doubles = one 32-byte sector).
constexpr int kTransLanes = 4;

template <int kTile, int kStages>
struct SharedABShape {
  static_assert(is_shared_tile(kTile), "shared_ab: tile must be one of kSharedTiles (32, 64, 96, 128)");
  static_assert(kTile % kWarpSize == 0,
                "shared_ab: tile must be a multiple of 32 (whole warps per tile column when staging, and a "
                "multiple of the 4-lane groups of the transposed copy)");
  // kStages: 1 is the article's loop, 2 double buffering, 0 every deeper ring (its depth is the kernel's
  // run-time argument). Double buffering keeps its own instance: with the depth a run-time value, tile 64 under
  // its register cap spilled.
  static_assert(kStages >= 0 && kStages <= 2, "shared_ab: instances for stages = 1, 2 and the deeper rings");
  static constexpr int kWarps = kTile / kWmmaM;         // one warp per 8-row block row of C
  static constexpr int kThreads = kWarps * kWarpSize;   // = 4 * tile
  static constexpr int kFragsPerRow = kTile / kWmmaN;   // accumulators per warp
  // Blocks per SM asked of the register allocator and k-step unroll (see "Tuning" below).
  // Tile 64 with a deeper ring fits 2 blocks per SM at most (3 stages of tile_k 32 take 107 KB), so that
  // instance is capped for 2.
  static constexpr int kMinBlocksPerSm = kTile == 32 ? 4 : kTile == 64 ? (kStages == 0 ? 2 : 3) : 1;
  static constexpr int kKStepUnroll = kStages != 1 ? 2 : 1;
  static_assert(kThreads <= 1024, "shared_ab: at most 1024 threads per block");
  static_assert(kThreads % kTransLanes == 0, "shared_ab: the transposed copy needs whole 4-lane groups");
  // The coordinate table (64 doubles) is written into the first stage buffer, whose smallest size is
  // (tile + 0) * 4 + (4 + 0) * tile doubles.
  static_assert(2 * kTile * kSharedABMinTileK >= kCoordTableDoubles,
                "shared_ab: the coordinate table must fit in the smallest stage buffer");
};

// Walks the positions idx = start, start + step, ... of an h-row column-major index space as (r, c) =
// (idx % h, idx / h) with two divisions up front instead of one per position (h is a run-time value).
struct IndexWalk {
  int r, c, dr, dc, h;
  __device__ __forceinline__ IndexWalk(int start, int step, int rows) : h(rows) {
    c = start / h;
    r = start - c * h;
    dc = step / h;
    dr = step - dc * h;
  }
  __device__ __forceinline__ void advance() {
    r += dr;
    c += dc;
    if (r >= h) {
      r -= h;
      ++c;
    }
  }
};

// One operand as the staging code sees it: the k-tile is `rows x cols` of op(X) starting at (r0, c0); op(X) is
// r_lim x c_lim. Untransposed: element (r, c) of op(X) is data[r + c * ld]; transposed: data[c + r * ld].
struct OperandView {
  const double* data;
  int64_t ld;
  int64_t r_lim, c_lim;
  bool trans;
  bool vec16;
};

// Issues the cp.async copies (and zero stores) of one k-tile into `dst` (leading dimension ld_s). Every thread of
// the block takes part; the caller commits and waits.
template <int kThreads>
__device__ __forceinline__ void stage_k_tile(double* dst, int ld_s, int rows, int cols, const OperandView& x,
                                           int64_t r0, int64_t c0, int tid) {
  const bool inside = r0 + rows <= x.r_lim && c0 + cols <= x.c_lim;
  if (!x.trans) {
    const double* src = x.data + r0 + c0 * x.ld;
    if (inside && x.vec16) {
      // Fast path: pairs of rows, consecutive threads along a column (coalesced, conflict-free writes).
      const int pairs = rows / 2;
      IndexWalk w(tid, kThreads, pairs);
#pragma unroll 1
      for (int idx = tid; idx < pairs * cols; idx += kThreads, w.advance()) {
        const int r = 2 * w.r;
        arch::cp_async<16, kCopyClobber>(dst + r + w.c * ld_s, src + r + w.c * x.ld);
      }
      return;
    }
    IndexWalk w(tid, kThreads, rows);
#pragma unroll 1
    for (int idx = tid; idx < rows * cols; idx += kThreads, w.advance()) {
      double* d = dst + w.r + w.c * ld_s;
      if (inside || (r0 + w.r < x.r_lim && c0 + w.c < x.c_lim))
        arch::cp_async<8, kCopyClobber>(d, src + w.r + w.c * x.ld);
      else
        *d = 0.0;
    }
    return;
  }
  // Transposed: (r, c) lives at src[c + r * ld]. Lane group of 4 -> 4 consecutive c; groups walk r first.
  const double* src = x.data + c0 + r0 * x.ld;
  const int c_lane = tid % kTransLanes;
  IndexWalk w(tid / kTransLanes, kThreads / kTransLanes, rows);  // (r, group of 4 columns)
#pragma unroll 1
  for (int idx = tid / kTransLanes; idx < rows * (cols / kTransLanes); idx += kThreads / kTransLanes, w.advance()) {
    const int c = w.c * kTransLanes + c_lane;
    double* d = dst + w.r + c * ld_s;
    if (inside || (r0 + w.r < x.r_lim && c0 + c < x.c_lim))
      arch::cp_async<8, kCopyClobber>(d, src + c + w.r * x.ld);
    else
      *d = 0.0;
  }
}

// The warp's share of one k-tile: its 8 rows of A times all of B, k outermost so the A fragment is loaded once
// per 4-deep step and reused across the block row.
template <int kFragsPerRow, int kUnroll = 1>
__device__ __forceinline__ void multiply_k_tile(DmmaFragC (&acc)[kFragsPerRow], const double* a_w, int lda_s,
                                              const FragOffsets<DmmaFragA::num_elements>& a_off,
                                              const double* b_s, int ldb_s,
                                              const FragOffsets<DmmaFragB::num_elements>& b_off, int k_steps) {
#pragma unroll(kUnroll)
  for (int s = 0; s < k_steps; ++s) {
    DmmaFragA a_frag;
    fill_fragment_from_shared(a_frag, a_w + s * kWmmaK * lda_s, a_off);
    const double* b_k = b_s + s * kWmmaK;
#pragma unroll
    for (int j = 0; j < kFragsPerRow; ++j) {
      DmmaFragB b_frag;  // every warp reads the same B fragments
      fill_fragment_from_shared(b_frag, b_k + j * kWmmaN * ldb_s, b_off);
      wmma::mma_sync(acc[j], a_frag, b_frag, acc[j]);
    }
  }
}

// The pipelined kernel: one barrier per k-tile, a register cap and the 4-deep k steps unrolled by 2 (each step
// measured, docs/tuning.md). The register cap (Shape::kMinBlocksPerSm) lets 3 blocks of tile 64 (at most 80
// registers) share an SM, so other blocks keep the tensor cores busy while one waits at its barrier; tile 128 is
// one 512-thread block at 128 registers either way, and tile 96 one 384-thread block (capped for 2 blocks, 85
// registers, it spilled 76-108 bytes). Unrolling lets the compiler issue the next step's fragment loads before
// the current step's mma_sync calls. The single-stage kernel keeps the cap and no unrolling (the combination
// that measured fastest for it).
template <int kTile, int kStages, typename Shape = SharedABShape<kTile, kStages>>
__global__ void __launch_bounds__(Shape::kThreads, Shape::kMinBlocksPerSm)
    dmma_shared_ab_kernel(const SharedGemmArgs p, int ring_stages) {
  const int stages = kStages == 0 ? ring_stages : kStages;
  double* smem = shared_gemm_smem();
  const int tile_k = p.tile_k;
  const PaddedTile a_tile = shared_ab_a_tile(kTile, tile_k, p.pad_a);  // a_s at offset 0 of a stage buffer
  const PaddedTile b_tile = shared_ab_b_tile(kTile, tile_k, p.pad_b);  // b_s right after it
  const int lda_s = a_tile.ld(), ldb_s = b_tile.ld();
  const int a_doubles = static_cast<int>(a_tile.doubles());
  const int stage_doubles = a_doubles + static_cast<int>(b_tile.doubles());
  const int tid = static_cast<int>(threadIdx.x);
  const int warp = tid / kWarpSize;

  write_coord_table(smem, tid, Shape::kThreads);
  __syncthreads();
  const AccCoords c_xy = load_acc_coords(smem);
  const FragOffsets<DmmaFragA::num_elements> a_off = fragment_offsets(load_a_coords(smem), lda_s);
  const FragOffsets<DmmaFragB::num_elements> b_off = fragment_offsets(load_b_coords(smem), ldb_s);
  __syncthreads();  // the table is read before the first k-tile overwrites it

  const OperandView a_view{p.A, p.lda, p.m, p.k, p.trans_a, p.a_vec16};
  const OperandView b_view{p.B, p.ldb, p.k, p.n, p.trans_b, p.b_vec16};
  const int64_t k_tiles = ceil_div_bounded(p.k, tile_k);

  for (int64_t t = blockIdx.x; t < p.total_tiles; t += gridDim.x) {
    const int64_t row0 = (t % p.m_tiles) * kTile;
    const int64_t col0 = (t / p.m_tiles) * kTile;
    const int64_t row_w = row0 + warp * kWmmaM;  // this warp's block row of C
    const bool warp_active = row_w < p.m;        // rows past m only multiply zeros

    DmmaFragC acc[Shape::kFragsPerRow];
#pragma unroll
    for (int j = 0; j < Shape::kFragsPerRow; ++j) wmma::fill_fragment(acc[j], 0.0);

    auto stage = [&](int64_t k_tile, int buffer) {
      double* a_s = smem + buffer * stage_doubles;
      const int64_t k0 = k_tile * tile_k;
      stage_k_tile<Shape::kThreads>(a_s, lda_s, kTile, tile_k, a_view, row0, k0, tid);
      stage_k_tile<Shape::kThreads>(a_s + a_doubles, ldb_s, tile_k, kTile, b_view, k0, col0, tid);
      arch::cp_async_commit<kCopyClobber>();
    };
    auto multiply = [&](int64_t k_tile, int buffer) {
      if (!warp_active) return;
      const double* a_s = smem + buffer * stage_doubles;
      // The last k-tile of a k that is not a multiple of tile_k stops at the last 4-deep step with data.
      const int64_t k_left = p.k - k_tile * tile_k;
      const int k_steps = static_cast<int>(ceil_div_bounded(k_left < tile_k ? k_left : tile_k, kWmmaK));
      multiply_k_tile<Shape::kFragsPerRow, Shape::kKStepUnroll>(acc, a_s + warp * kWmmaM, lda_s, a_off,
                                                              a_s + a_doubles, ldb_s, b_off, k_steps);
    };

    if constexpr (kStages == 1) {
      for (int64_t s = 0; s < k_tiles; ++s) {
        __syncthreads();  // every warp is done with the previous k-tile
        stage(s, 0);
        arch::cp_async_wait<0>();
        __syncthreads();  // the k-tile is complete and visible to all warps
        multiply(s, 0);
      }
    } else {
      // A ring of `stages` buffers; k-tile s lives in buffer s % stages. Prologue: k-tiles 0 .. stages - 2 in
      // flight, one commit group per k-tile (empty past the last one), so that "k-tile s has landed" is always
      // "at most stages - 2 groups pending".
      __syncthreads();  // the previous tile's last multiply may still be reading the buffers
      for (int s = 0; s < stages - 1; ++s) {
        if (s < k_tiles) stage(s, s);
        else arch::cp_async_commit<kCopyClobber>();
      }
      for (int64_t s = 0; s < k_tiles; ++s) {
        // Buffers from s (one 32-bit remainder per k-tile) rather than two counters: tile 64 has no register to
        // spare under its cap of 3 blocks per SM.
        // (k-tiles stay below 2^32: that would take k >= 2^34, operands of 128 GB at least.)
        const int read_buf = static_cast<int>(static_cast<uint32_t>(s) % static_cast<uint32_t>(stages));
        const int write_buf = read_buf == 0 ? stages - 1 : read_buf - 1;
        // This thread's copies of k-tile s have landed (stages - 2 groups may still be in flight).
        if constexpr (kStages == 2) arch::cp_async_wait<0>();
        else arch::cp_async_wait_pending_upto<kSharedABMaxStages - 2>(stages - 2);
        // One barrier per k-tile: after it, k-tile s is visible to every warp AND every warp has finished
        // k-tile s - 1, so its buffer (write_buf) can take k-tile s + stages - 1 while k-tile s is multiplied.
        __syncthreads();
        if (s + stages - 1 < k_tiles) stage(s + stages - 1, write_buf);  // streams in during the multiply
        else arch::cp_async_commit<kCopyClobber>();
        multiply(s, read_buf);
      }
      arch::cp_async_wait<0>();  // nothing in flight when the next tile reuses the buffers
    }

    if (warp_active) {
#pragma unroll
      for (int j = 0; j < Shape::kFragsPerRow; ++j) store_c_guarded(acc[j], c_xy, p, row_w, col0 + j * kWmmaN);
    }
  }
}

template <int kTile, int kStages>
tcgemm_status launch_shared_ab_instance(const SharedGemmArgs& args, int stages, int64_t smem_bytes,
                                        const DeviceContext& ctx, cudaStream_t stream) {
  auto* kernel = dmma_shared_ab_kernel<kTile, kStages>;
  if (smem_bytes > kDefaultDynamicSmemBytes) {
    // Once per (kernel instance, CUDA context); validation has already checked smem_bytes against the opt-in
    // limit.
    const tcgemm_status s = ensure_dynamic_smem_limit(reinterpret_cast<const void*>(kernel), ctx,
                                                      "dmma_shared_ab_kernel");
    if (s != TCGEMM_SUCCESS) return s;
  }
  kernel<<<shared_gemm_grid(args), SharedABShape<kTile, kStages>::kThreads, static_cast<size_t>(smem_bytes),
           stream>>>(args, stages);
  TCGEMM_CHECK_LAUNCH("dmma_shared_ab_kernel");
  return TCGEMM_SUCCESS;
}

template <int kTile>
tcgemm_status launch_shared_ab_tile(const SharedGemmArgs& args, int stages, int64_t smem_bytes,
                                    const DeviceContext& ctx, cudaStream_t stream) {
  if (stages == 1) return launch_shared_ab_instance<kTile, 1>(args, 1, smem_bytes, ctx, stream);
  if (stages == 2) return launch_shared_ab_instance<kTile, 2>(args, 2, smem_bytes, ctx, stream);
  return launch_shared_ab_instance<kTile, 0>(args, stages, smem_bytes, ctx, stream);
}

}  // namespace

tcgemm_status launch_shared_ab(const GemmProblem& problem, const tcgemm_config& config, const DeviceContext& ctx,
                               cudaStream_t stream) {
  const int tile = config.tile_m;
  if (config.stages < 1 || config.stages > kSharedABMaxStages)
    return set_error(TCGEMM_ERROR_INVALID_CONFIG, "stages=%d: family shared_ab has no kernel for it", config.stages);
  const SharedGemmArgs args = make_shared_gemm_args(problem, tile, config.tile_k, config.pad_a, config.pad_b);
  const int64_t smem_bytes = shared_ab_smem_bytes(tile, config.tile_k, config.pad_a, config.pad_b, config.stages);
  switch (tile) {
    case 32: return launch_shared_ab_tile<32>(args, config.stages, smem_bytes, ctx, stream);
    case 64: return launch_shared_ab_tile<64>(args, config.stages, smem_bytes, ctx, stream);
    case 96: return launch_shared_ab_tile<96>(args, config.stages, smem_bytes, ctx, stream);
    case 128: return launch_shared_ab_tile<128>(args, config.stages, smem_bytes, ctx, stream);
    default:
      return set_error(TCGEMM_ERROR_INVALID_CONFIG, "tile=%d: family shared_ab has no kernel for this tile", tile);
  }
}

}  // namespace tcgemm::detail
