// What the chunked kernels of the skinny family (rules.hpp) share: the store of C', the cluster's fixed-order sum
// of the k-chunks' partial sums and the launch, with the tensor-core kernel (k_contiguous_mma.cu); the S chunk
// staged in shared memory and the launch, among the CUDA-core kernels (kernel.cu).
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "arch/cluster_sm90.cuh"
#include "families/skinny/params.hpp"
#include "families/skinny/rules.hpp"

namespace tcgemm::detail::skinny_chunked {

constexpr int kWarp = 32;
constexpr int kWarps = kSkinnyThreads / kWarp;
// k-contiguous kernels: S staged row-major [row][k] with 2 doubles of padding per row, so that rows stay 16-byte
// aligned and a quarter warp's 16-byte reads of neighbouring rows fall in different banks.
constexpr int kSRowPitch = kSkinnyMaxChunkK + 2;
static_assert(kSkinnyMaxChunkK % (2 * kWarp) == 0, "a chunk is whole double2 sweeps of a warp");
static_assert(kSkinnyChunkQuantum % (2 * kWarp) == 0, "chunks start on a warp sweep (16-byte aligned k)");

// *v = *src where `in`, else 0, as one predicated load: no branch, so that a thread's staging loads all go out
// before the first one returns.
__device__ __forceinline__ double load_or_zero(const double* src, bool in) {
  double v;
  asm volatile(
      "{\n .reg .pred p;\n setp.ne.b32 p, %2, 0;\n mov.f64 %0, 0d0000000000000000;\n"
      " @p ld.global.nc.f64 %0, [%1];\n}\n"
      : "=d"(v)
      : "l"(src), "r"(int(in)));
  return v;
}

// Stage S(:, k0 .. k0 + len) into shared memory, zero beyond rows and len. The global reads follow the
// contiguous direction of S. kBatched: a thread's reads go out kStageBatch at a time, all before their stores
// (a plain loop of load, store pairs waits for L2 once per element or so). The CUDA-core kernels batch up to 4
// rows: 4 x 8192 x 8192 0.1856 -> 0.1816 ms, 3 x 7777 x 9999 0.2194 -> 0.2161; with 8 rows, at 128 registers,
// the batch made the k-contiguous kernel spill (8 x 8192 x 8192 'T','N' 0.196 -> 0.214 ms). (The tensor-core
// kernel copies S with cp.async, a segment at a time.)
template <int kRows, bool kKMajor, bool kBatched>
__device__ __forceinline__ void stage_s(const SkinnyParams& p, int64_t k0, int len, double* s_sm) {
  const int total = kRows * int(p.chunk_k);
  // Element idx of the chunk: S(i, kk) with consecutive idx along S's contiguous direction.
  auto element = [&](int idx, int& i, int& kk) {
    if (p.s_k == 1) {
      i = idx / int(p.chunk_k);
      kk = idx - i * int(p.chunk_k);
    } else {
      kk = idx / kRows;
      i = idx - kk * kRows;
    }
  };
  if constexpr (!kBatched) {
    for (int idx = threadIdx.x; idx < total; idx += kSkinnyThreads) {
      int i, kk;
      element(idx, i, kk);
      const double v = (i < p.rows && kk < len) ? p.S[i * p.s_row + (k0 + kk) * p.s_k] : 0.0;
      if (kKMajor) s_sm[i * kSRowPitch + kk] = v;
      else s_sm[kk * kRows + i] = v;
    }
    return;
  }
  constexpr int kStageBatch = 4;
  for (int base = int(threadIdx.x); base < total; base += kStageBatch * kSkinnyThreads) {
    double v[kStageBatch];
#pragma unroll
    for (int u = 0; u < kStageBatch; ++u) {
      const int idx = base + u * kSkinnyThreads;
      int i, kk;
      element(idx, i, kk);
      const bool in = idx < total && i < p.rows && kk < len;
      v[u] = load_or_zero(p.S + (in ? i * p.s_row + (k0 + kk) * p.s_k : 0), in);
    }
#pragma unroll
    for (int u = 0; u < kStageBatch; ++u) {
      const int idx = base + u * kSkinnyThreads;
      int i, kk;
      element(idx, i, kk);
      if (idx < total) s_sm[kKMajor ? i * kSRowPitch + kk : kk * kRows + i] = v[u];
    }
  }
}

// C'(i, j) <- alpha sum + beta C'(i, j) of the block's chunk slice (beta == 0: C' not read).
__device__ __forceinline__ void store_out(const SkinnyParams& p, int i, int64_t j, double sum) {
  double* c = p.C + static_cast<int64_t>(blockIdx.y) * p.c_slice_step + i * p.c_row + j * p.c_col;
  *c = p.beta == 0.0 ? p.alpha * sum : fma(p.beta, *c, p.alpha * sum);
}

// Cluster reduction (skinny_cluster_reduces): the k-chunks of a column block are one cluster (gridDim.y =
// cluster height). Each block has left its partial sums of the block's columns in `part` ([row][column],
// kSkinnyColsPerBlock columns); after a cluster barrier, block y adds the partial sums of outputs y x
// kSkinnyThreads + threadIdx.x, ... from every block of the cluster, in chunk order (the workspace route's
// order: the same bits), and writes C'. A second barrier keeps each block's `part` alive until all are read.
template <int kRows>
__device__ __forceinline__ void cluster_add_and_store(const SkinnyParams& p, const double* part, int64_t base) {
#if __CUDA_ARCH__ >= 900
  arch::cluster_sync();
  const int chunks = int(gridDim.y), rank = int(blockIdx.y);
  for (int idx = rank * kSkinnyThreads + int(threadIdx.x); idx < kRows * kSkinnyColsPerBlock;
       idx += chunks * kSkinnyThreads) {
    const int i = idx / kSkinnyColsPerBlock, c = idx % kSkinnyColsPerBlock;
    if (i >= p.rows || base + c >= p.cols) continue;
    double sum = 0.0;
    for (int s = 0; s < chunks; ++s) sum += arch::cluster_load_double(part + idx, s);
    store_out(p, i, base + c, sum);
  }
  arch::cluster_sync();
#else
  __trap();  // launched only where the build has sm_90 code (skinny_cluster_reduces)
#endif
}

// One launch of `kernel` on `grid` with `dynamic_smem` bytes of dynamic shared memory (the tensor-core kernel's
// ring; the caller has raised the kernel's limit); with `cluster`, the grid's k-chunks of a column block
// (gridDim.y) are one thread-block cluster.
inline cudaError_t launch_kernel(void (*kernel)(SkinnyParams), const SkinnyParams& p, dim3 grid, bool cluster,
                                 cudaStream_t stream, size_t dynamic_smem = 0) {
  if (cluster) return arch::launch_in_column_clusters(kernel, grid, dim3(kSkinnyThreads), dynamic_smem, stream, p);
  kernel<<<grid, kSkinnyThreads, dynamic_smem, stream>>>(p);
  return cudaGetLastError();
}

}  // namespace tcgemm::detail::skinny_chunked
