// Family skinny (rules.hpp): C' = alpha S G + beta C' for S with at most 8 rows, on the FP64 CUDA cores,
// streaming the large operand G once. Two kernels, by which way G is contiguous:
//   k-contiguous G: a warp per column of G (two or four columns at a time), its lanes sweeping the column's
//     k values with 16-byte loads (coalesced), each lane keeping one partial sum per row of S, then a warp
//     reduce-scatter of the rows;
//   cols-contiguous G: a lane per two columns of a 64-column block, the block's 8 warps taking the k rows
//     round robin (a warp loads 512 contiguous bytes of a row of G per step; S(:, k) is a broadcast read
//     from shared memory), then a fixed-order sum over the warps in shared memory.
// A block's k-chunk of S (rows x chunk_k) is staged in shared memory once and used by all of its columns.
// With several k-chunks, their partial sums are added by the chunks' cluster (cluster_add_and_store; up to
// kSkinnyMaxClusterChunks chunks of a k-contiguous G) or through workspace by the split-K reduction
// (rules.hpp, skinny_cluster_reduces). One or two rows over a k-contiguous G go to the column-stream
// kernel instead (column_stream.cu, skinny_streams_columns), and 5 to 8 rows over an aligned k-contiguous G to
// the tensor-core kernel (k_contiguous_mma.cu, skinny_on_tensor_cores). What the chunked kernels share (the
// stores, the cluster sum, the CUDA-core kernels' S staging) is in chunk_common.cuh.
#include "families/skinny/rules.hpp"

#include <cstdint>

#include "arch/cp_async_sm80.cuh"
#include "arch/dependent_launch_sm90.cuh"
#include "core/errors.hpp"
#include "core/memory_pool.hpp"
#include "families/common/split_k_reduce.hpp"
#include "families/skinny/chunk_common.cuh"
#include "families/skinny/params.hpp"
#include "families/sm90/rules.hpp"

namespace tcgemm::detail {
namespace {

using namespace skinny_chunked;

constexpr int kColsPerWarp = kSkinnyColsPerBlock / kWarps;
static_assert(kSkinnyColsPerBlock % kWarps == 0, "k-contiguous columns must split evenly over the warps");
static_assert(kSkinnyColsPerBlock == 2 * kWarp, "cols-contiguous kernel: two columns per lane");

// Warp reduce-scatter of kN per-lane partial sums: at each level the lanes of one half keep the low rows and
// the other half the high rows, each adding its partner's copy (one shuffle per kept row), then the last row
// is summed over the remaining lanes. 9 shuffles for 8 rows instead of 40 for a butterfly per row. Every
// total is the same expression on every run. On return acc[0] is the total of row `row`.
template <int kN>
__device__ __forceinline__ void reduce_scatter(double* acc, int lane, int offset, int& row) {
  if constexpr (kN > 1) {
    constexpr int kHalf = kN / 2;
    const bool upper = (lane & offset) != 0;
#pragma unroll
    for (int i = 0; i < kHalf; ++i) {
      const double send = upper ? acc[i] : acc[i + kHalf];
      const double keep = upper ? acc[i + kHalf] : acc[i];
      acc[i] = keep + __shfl_xor_sync(0xffffffffu, send, offset);
    }
    if (upper) row += kHalf;
    reduce_scatter<kHalf>(acc, lane, offset / 2, row);
  } else {
    for (; offset > 0; offset /= 2) acc[0] += __shfl_xor_sync(0xffffffffu, acc[0], offset);
  }
}

template <int kRows, bool kVec, bool kCluster>
__global__ void __launch_bounds__(kSkinnyThreads, 2) skinny_k_contiguous_kernel(const SkinnyParams p) {
  // The split-K reduction behind this kernel (launch_skinny) may launch once every block has started: it then
  // takes the room the last blocks leave and waits for the grid's end. (Issued later, the hint cost the 8-row
  // kernel spills.) Only with that reduction behind it: a kernel of the caller's launched as a programmatic
  // dependent of the call must not start before C is written.
  if (p.reduction_follows) arch::launch_dependents();
  __shared__ __align__(16) double s_sm[kRows * kSRowPitch];
  __shared__ double part[kCluster ? kRows * kSkinnyColsPerBlock : 1];  // the cluster's partial sums
  const int64_t k0 = int64_t(blockIdx.y) * p.chunk_k;
  const int len = int((p.k - k0) < p.chunk_k ? (p.k - k0) : p.chunk_k);
  const int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
  const int64_t col0 = int64_t(blockIdx.x) * kSkinnyColsPerBlock + warp * kColsPerWarp;
  // kPass columns at a time, all of their loads issued before any arithmetic (kPass x kSweeps loads in flight
  // per lane); each S value read from shared memory serves the kPass columns.
  constexpr int kPass = (kRows >= 8 && !kVec) ? 1 : 2;  // within 128 registers (two blocks per SM)
  constexpr int kPerLoad = kVec ? 2 : 1;
  constexpr int kSweeps = kSkinnyMaxChunkK / (kPerLoad * kWarp);
  static_assert(kColsPerWarp % kPass == 0, "a warp's columns split into whole passes");
  double v[kPass][kSweeps][kPerLoad];
  // The loads of the pass of columns col0 + c .. col0 + c + kPass - 1 (zero past the columns and the chunk).
  auto load_pass = [&](int c) {
#pragma unroll
    for (int q = 0; q < kPass; ++q) {
      const bool valid = col0 + c + q < p.cols;
      const double* g = p.G + (col0 + c + q) * p.g_col + k0;
#pragma unroll
      for (int t = 0; t < kSweeps; ++t) {
        const int kk = kPerLoad * (t * kWarp + lane);
#pragma unroll
        for (int h = 0; h < kPerLoad; ++h) v[q][t][h] = 0.0;
        if (!valid || kk >= len) continue;
        if constexpr (kVec) {
          if (kk + 1 < len) {
            const double2 x = __ldcs(reinterpret_cast<const double2*>(g + kk));
            v[q][t][0] = x.x;
            v[q][t][kPerLoad - 1] = x.y;
            continue;
          }
        }
        v[q][t][0] = __ldcs(g + kk);
      }
    }
  };
  // Loads go out early: the first pass's before S is staged (its HBM reads overlap the staging and the
  // barrier), each next pass's before the current pass's reduction and stores. Not with 8 rows, where the
  // registers they hold slowed the staging (8 x 8192 x 8192: 0.216 ms against 0.209) and the pass's sums
  // and the next loads together would spill.
  constexpr bool kEarlyLoads = kRows < 8;
  if (kEarlyLoads && col0 < p.cols) load_pass(0);
  stage_s<kRows, true, (kRows < 8)>(p, k0, len, s_sm);  // batched up to 4 rows (chunk_common.cuh)
  __syncthreads();
  if (!kEarlyLoads && col0 < p.cols) load_pass(0);
  for (int c = 0; c < kColsPerWarp; c += kPass) {
    if (col0 + c >= p.cols) break;
    double acc[kPass][kRows];
#pragma unroll
    for (int q = 0; q < kPass; ++q)
#pragma unroll
      for (int i = 0; i < kRows; ++i) acc[q][i] = 0.0;
#pragma unroll
    for (int t = 0; t < kSweeps; ++t) {
      const int kk = kPerLoad * (t * kWarp + lane);
      if (kk >= len) break;
#pragma unroll
      for (int i = 0; i < kRows; ++i) {
        if constexpr (kVec) {
          const double2 sv = *reinterpret_cast<const double2*>(s_sm + i * kSRowPitch + kk);
#pragma unroll
          for (int q = 0; q < kPass; ++q)
            acc[q][i] = fma(sv.y, v[q][t][kPerLoad - 1], fma(sv.x, v[q][t][0], acc[q][i]));
        } else {
          const double sv = s_sm[i * kSRowPitch + kk];
#pragma unroll
          for (int q = 0; q < kPass; ++q) acc[q][i] = fma(sv, v[q][t][0], acc[q][i]);
        }
      }
    }
    const bool next = c + kPass < kColsPerWarp && col0 + c + kPass < p.cols;
    if (kEarlyLoads && next) load_pass(c + kPass);
#pragma unroll
    for (int q = 0; q < kPass; ++q) {
      int row = 0;
      reduce_scatter<kRows>(acc[q], lane, kWarp / 2, row);
      const int64_t j = col0 + c + q;
      if (lane % (kWarp / kRows) == 0 && row < p.rows && j < p.cols) {
        if constexpr (kCluster) part[row * kSkinnyColsPerBlock + (warp * kColsPerWarp + c + q)] = acc[q][0];
        else store_out(p, row, j, acc[q][0]);
      }
    }
    if (!kEarlyLoads && next) load_pass(c + kPass);
  }
  if constexpr (kCluster) cluster_add_and_store<kRows>(p, part, int64_t(blockIdx.x) * kSkinnyColsPerBlock);
}

template <int kRows, bool kVec>
__global__ void __launch_bounds__(kSkinnyThreads) skinny_cols_contiguous_kernel(const SkinnyParams p) {
  // The S chunk [k][row]; after the k loop the same memory holds the warps' partial sums.
  __shared__ __align__(16) double buf[kSkinnyMaxChunkK * kRows];
  static_assert(kWarps * kRows * kSkinnyColsPerBlock <= kSkinnyMaxChunkK * kRows,
                "the warps' partial sums must fit in the S chunk's shared memory");
  const int64_t k0 = int64_t(blockIdx.y) * p.chunk_k;
  const int len = int((p.k - k0) < p.chunk_k ? (p.k - k0) : p.chunk_k);
  const int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
  // A lane's columns: c0, c0 + 1 (kVec: one 16-byte load) or c0, c0 + 32 (two coalesced 8-byte loads). The
  // warps take the chunk's k rows round robin, so each warp step reads 512 contiguous bytes of one row of G.
  const int64_t base = int64_t(blockIdx.x) * kSkinnyColsPerBlock;
  const int c0 = kVec ? 2 * lane : lane, c1 = kVec ? c0 + 1 : c0 + kWarp;
  const bool has0 = base + c0 < p.cols, has1 = base + c1 < p.cols;
  const double* g = p.G + k0 * p.g_k + base + c0;
  // Rows are read kBatch at a time (rows kk, kk + kWarps, ...), the next batch's loads in flight while the
  // current one is multiplied. Rows past the chunk read as zero. (8 per batch for one or two rows took 90-96
  // registers, 2 blocks per SM, and measured the same: 4096 x 1 x 4096 0.0509 ms with 4 and with 8, both
  // before the reduction became a dependent launch.)
  constexpr int kBatch = 4;
  constexpr int kBatchRows = kBatch * kWarps;
  double2 v[kBatch];
  auto load_batch = [&](int kk0) {
#pragma unroll
    for (int b = 0; b < kBatch; ++b) {
      const int kk = kk0 + b * kWarps;
      v[b] = make_double2(0.0, 0.0);
      if (!has0 || kk >= len) continue;
      const double* row = g + kk * p.g_k;
      if (kVec && has1) {
        v[b] = __ldcs(reinterpret_cast<const double2*>(row));
      } else {
        v[b].x = __ldcs(row);
        v[b].y = has1 ? __ldcs(row + (c1 - c0)) : 0.0;
      }
    }
  };
  // The first batch goes out before S is staged (its latency overlaps the staging and the barrier).
  load_batch(warp);
  stage_s<kRows, false, (kRows < 8)>(p, k0, len, buf);
  __syncthreads();
  double acc[kRows][2];
#pragma unroll
  for (int i = 0; i < kRows; ++i) acc[i][0] = acc[i][1] = 0.0;
  if (has0) {
    for (int kk0 = warp; kk0 < len; kk0 += kBatchRows) {
      double2 cur[kBatch];
#pragma unroll
      for (int b = 0; b < kBatch; ++b) cur[b] = v[b];
      if (kk0 + kBatchRows < len) load_batch(kk0 + kBatchRows);
#pragma unroll
      for (int b = 0; b < kBatch; ++b) {
        const int kk = kk0 + b * kWarps;
        if (kk >= len) break;
#pragma unroll
        for (int i = 0; i < kRows; ++i) {
          const double s = buf[kk * kRows + i];
          acc[i][0] = fma(s, cur[b].x, acc[i][0]);
          acc[i][1] = fma(s, cur[b].y, acc[i][1]);
        }
      }
    }
  }
  // The split-K reduction behind this kernel may launch (launch_skinny): only the warps' sum and the stores
  // are left. (Issued at the start instead, as the k-contiguous kernel does, 4096 x 1 x 4096 took 0.0499 ms
  // against 0.0490-0.0493 and 2048 x 1 x 2048 0.0165 against 0.0117-0.0127.)
  if (p.reduction_follows) arch::launch_dependents();
  __syncthreads();  // every warp is done with the S chunk
#pragma unroll
  for (int i = 0; i < kRows; ++i) {
    buf[(warp * kRows + i) * kSkinnyColsPerBlock + c0] = acc[i][0];
    buf[(warp * kRows + i) * kSkinnyColsPerBlock + c1] = acc[i][1];
  }
  __syncthreads();
  // Column sums over the warps, always in warp order.
  for (int idx = threadIdx.x; idx < kRows * kSkinnyColsPerBlock; idx += kSkinnyThreads) {
    const int i = idx / kSkinnyColsPerBlock, c = idx % kSkinnyColsPerBlock;
    if (i >= p.rows || base + c >= p.cols) continue;
    double sum = 0.0;
#pragma unroll
    for (int w = 0; w < kWarps; ++w) sum += buf[(w * kRows + i) * kSkinnyColsPerBlock + c];
    store_out(p, i, base + c, sum);
  }
}

// `cluster` (skinny_cluster_reduces) comes with a k-contiguous G only. The 8-row instance never clusters 16-byte
// pairs of G: a cluster needs the build's sm_90 code, and with it those products run on the tensor cores
// (skinny_on_tensor_cores), so that instance is not compiled.
template <int kRows>
cudaError_t launch_rows(const SkinnyParams& p, bool k_contiguous, bool vec, bool cluster, dim3 grid,
                        cudaStream_t stream) {
  if (!k_contiguous)
    return launch_kernel(vec ? skinny_cols_contiguous_kernel<kRows, true> : skinny_cols_contiguous_kernel<kRows, false>,
                         p, grid, false, stream);
  if (cluster) {
    if constexpr (kRows == kSkinnyMaxRows) {
      if (vec) return cudaErrorInvalidValue;  // unreachable (above)
      return launch_kernel(skinny_k_contiguous_kernel<kRows, false, true>, p, grid, true, stream);
    } else {
      return launch_kernel(vec ? skinny_k_contiguous_kernel<kRows, true, true>
                               : skinny_k_contiguous_kernel<kRows, false, true>,
                           p, grid, true, stream);
    }
  }
  return launch_kernel(vec ? skinny_k_contiguous_kernel<kRows, true, false>
                           : skinny_k_contiguous_kernel<kRows, false, false>,
                       p, grid, false, stream);
}

// The product as C' = alpha S G + beta C' (rules.hpp): S, G and C' with their strides.
SkinnyParams skinny_params(const GemmProblem& p, const SkinnyShape& shape) {
  SkinnyParams q{};
  q.rows = static_cast<int>(shape.rows);
  q.cols = shape.cols;
  q.k = shape.k;
  const bool a_n = p.transa == 'N', b_n = p.transb == 'N';
  if (!shape.transpose_c) {  // S = op(A), G = op(B), C' = C
    q.S = p.A;
    q.s_row = a_n ? 1 : p.lda;
    q.s_k = a_n ? p.lda : 1;
    q.G = p.B;
    q.g_k = b_n ? 1 : p.ldb;
    q.g_col = b_n ? p.ldb : 1;
    q.c_row = 1;
    q.c_col = p.ldc;
  } else {  // S = op(B)^T, G = op(A)^T, C' = C^T
    q.S = p.B;
    q.s_row = b_n ? p.ldb : 1;
    q.s_k = b_n ? 1 : p.ldb;
    q.G = p.A;
    q.g_k = a_n ? p.lda : 1;
    q.g_col = a_n ? 1 : p.lda;
    q.c_row = p.ldc;
    q.c_col = 1;
  }
  q.alpha = p.alpha;
  q.beta = p.beta;
  q.C = p.C;
  return q;
}

// 16-byte loads of G: its base aligned and its stride across the loaded pairs' starts even (the stride between
// columns for k-contiguous G, between k rows for cols-contiguous G).
bool g_pairs(const SkinnyParams& q, const SkinnyShape& shape) {
  return arch::cp_async16_aligned(q.G, shape.g_k_contiguous ? q.g_col : q.g_k);
}

// S is compact for the column stream: k-contiguous rows, or dense columns (rows doubles apart).
bool s_compact(const SkinnyParams& q, const SkinnyShape& shape) {
  return q.s_k == 1 || (q.s_row == 1 && q.s_k == shape.rows);
}

SkinnyRoute route_of(const SkinnyShape& shape, const SkinnyParams& q, const tcgemm_config& cfg, int sm_count) {
  return skinny_streams_columns(shape, cfg.k_splits, sm_count, s_compact(q, shape)) ? SkinnyRoute::kColumnStream
                                                                                      : SkinnyRoute::kChunked;
}

}  // namespace

SkinnyRoute skinny_route(const GemmProblem& p, const tcgemm_config& cfg, int sm_count) {
  if (!skinny_applies(p.m, p.n, p.k)) return SkinnyRoute::kChunked;
  const SkinnyShape shape = skinny_shape(p.transa, p.transb, p.m, p.n, p.k);
  return route_of(shape, skinny_params(p, shape), cfg, sm_count);
}

tcgemm_status launch_skinny(const GemmProblem& p, const tcgemm_config& cfg, const DeviceContext& ctx,
                            cudaStream_t stream) {
  if (!skinny_applies(p.m, p.n, p.k))
    return set_arg_error(TCGEMM_ERROR_INVALID_CONFIG, TCGEMM_ARG_CONFIG,
                         "family skinny computes products with m <= %d or n <= %d and k <= %lld; got m=%lld, "
                         "n=%lld, k=%lld",
                         kSkinnyMaxRows, kSkinnyMaxRows, static_cast<long long>(kSkinnyMaxK),
                         static_cast<long long>(p.m), static_cast<long long>(p.n), static_cast<long long>(p.k));
  const SkinnyShape shape = skinny_shape(p.transa, p.transb, p.m, p.n, p.k);
  SkinnyParams q = skinny_params(p, shape);
  const bool vec = g_pairs(q, shape);

  // One or two rows over a k-contiguous G: whole columns, each read by one warp or shared by a few
  // (column_stream.cu).
  if (route_of(shape, q, cfg, ctx.sm_count) == SkinnyRoute::kColumnStream) {
    // S(i, kk..kk+1) in one 16-byte load: k-contiguous rows whose starts are all 16-byte aligned, and G's
    // pairs at even k (every column 16-byte aligned).
    const bool s_pairs = vec && q.s_k == 1 && reinterpret_cast<uintptr_t>(q.S) % 16 == 0 &&
                         (shape.rows == 1 || q.s_row % 2 == 0);
    q.stream_warps = skinny_stream_warps_per_column(shape, ctx.sm_count);
    const cudaError_t e = launch_skinny_column_stream(q, s_pairs, stream);
    return e == cudaSuccess ? TCGEMM_SUCCESS : set_cuda_error(e, "launch of the skinny column-stream kernel");
  }

  const bool sm90_code = sm90_code_available(ctx);
  const bool tensor_cores = skinny_on_tensor_cores(shape, vec, sm90_code);
  q.chunk_k = tensor_cores ? skinny_mma_chunk_k(shape, cfg.k_splits, ctx.sm_count)
                           : skinny_chunk_k(shape, cfg.k_splits, ctx.sm_count);
  const int64_t chunks = skinny_chunks(shape, q.chunk_k);
  const dim3 grid(static_cast<unsigned>(skinny_blocks_per_chunk(shape)), static_cast<unsigned>(chunks));

  // Up to kSkinnyMaxClusterChunks k-chunks of a k-contiguous G (kSkinnyWideClusterMaxChunks with 5-8 rows,
  // kSkinnyMmaClusterMaxChunks on the tensor cores) add up inside a cluster (no workspace, no second kernel);
  // otherwise they go through workspace and the split-K reduction. Both add the chunks in the same order: the
  // same bits. Both the cluster and the reduction's dependent launch need the build's sm_90 code on the device.
  const bool cluster = skinny_cluster_reduces(shape, chunks, sm90_code, tensor_cores);
  StreamScratch scratch;
  double* workspace = nullptr;
  SkinnyParams run = q;
  if (chunks > 1 && !cluster) {
    // Partial products of the chunks, rows x cols each (leading dimension rows), reduced in chunk order.
    TCGEMM_TRY(allocate_partials(ctx, shape.rows, shape.cols, chunks, cfg.k_splits, "skinny", stream, &scratch,
                                 &workspace));
    run.C = workspace;
    run.c_row = 1;
    run.c_col = shape.rows;
    run.c_slice_step = shape.rows * shape.cols;
    run.alpha = 1.0;
    run.beta = 0.0;
    run.reduction_follows = sm90_code ? 1 : 0;
  }
  if (tensor_cores) {
    TCGEMM_TRY(launch_skinny_k_contiguous_mma(run, cluster, grid, ctx, stream));
  } else {
    cudaError_t e;
    if (shape.rows <= 1) e = launch_rows<1>(run, shape.g_k_contiguous, vec, cluster, grid, stream);
    else if (shape.rows <= 2) e = launch_rows<2>(run, shape.g_k_contiguous, vec, cluster, grid, stream);
    else if (shape.rows <= 4) e = launch_rows<4>(run, shape.g_k_contiguous, vec, cluster, grid, stream);
    else e = launch_rows<8>(run, shape.g_k_contiguous, vec, cluster, grid, stream);
    if (e != cudaSuccess)
      return set_cuda_error(e, cluster ? "launch of the skinny kernel (cluster reduction)"
                                       : "launch of the skinny kernel");
  }
  if (chunks == 1 || cluster) return TCGEMM_SUCCESS;
  // A programmatic dependent launch where the build's sm_90 code runs (run.reduction_follows: the kernels let
  // it launch early): the reduction starts as the chunks end, not one launch latency later (4096 x 1 x 4096:
  // the chunks take ~47 us, the reduction with its launch ~4 us).
  return launch_split_k_reduce(shape.rows, shape.cols, chunks, workspace, shape.rows * shape.cols,
                               SplitKOutput{q.alpha, q.beta, q.C, q.c_row, q.c_col}, run.reduction_follows != 0,
                               stream);
}

}  // namespace tcgemm::detail
