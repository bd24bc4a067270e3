// The skinny family's kernel arguments (rules.hpp): one product C' = alpha S G + beta C' with its strides,
// shared by the chunked kernels (kernel.cu, k_contiguous_mma.cu) and the column-stream kernel (column_stream.cu).
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "core/device.hpp"

namespace tcgemm::detail {

struct SkinnyParams {
  int rows;  // rows of S and C' (<= the kernel's kRows; the chunked kernels zero-pad the rest, unwritten)
  int64_t cols, k, chunk_k;
  const double* S;
  int64_t s_row, s_k;  // S(i, kk) = S[i s_row + kk s_k]
  const double* G;
  int64_t g_k, g_col;  // G(kk, j) = G[kk g_k + j g_col]
  double alpha, beta;  // beta == 0: C' not read
  double* C;
  int64_t c_row, c_col;  // C'(i, j) = C[i c_row + j c_col] (+ blockIdx.y c_slice_step)
  int64_t c_slice_step;  // split: the workspace slice of chunk y; else 0
  int stream_warps = 1;       // column stream: warps per column (skinny_stream_warps_per_column): 1, 2, 4 or 8
  int reduction_follows = 0;  // 1: the split-K reduction runs behind this kernel as its programmatic dependent
};

// The column-stream route (rules.hpp, skinny_streams_columns) for a k-contiguous G: p.rows <=
// kSkinnyStreamMaxRows, no k-chunks (chunk_k, c_slice_step unused). s_pairs: S(i, kk..kk+1) is one aligned
// 16-byte load for every even kk (s_k == 1, S and every row start 16-byte aligned) and every column of G
// starts 16-byte aligned (its pairs start at even k).
cudaError_t launch_skinny_column_stream(const SkinnyParams& p, bool s_pairs, cudaStream_t stream);

// 5 to 8 rows over a k-contiguous G whose columns start 16-byte aligned, on the FP64 tensor cores
// (k_contiguous_mma.cu, skinny_on_tensor_cores): the chunked kernels' grid (64 columns by k-chunks) with chunks of
// its own (skinny_mma_chunk_k, as deep as k), a cluster for up to kSkinnyMmaClusterMaxChunks of them, else
// workspace. Only where the build's sm_90 code runs; raises the kernel's dynamic shared-memory limit first.
tcgemm_status launch_skinny_k_contiguous_mma(const SkinnyParams& p, bool cluster, dim3 grid, const DeviceContext& ctx,
                                             cudaStream_t stream);

}  // namespace tcgemm::detail
