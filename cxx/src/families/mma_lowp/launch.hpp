// Family mma_lowp: the fast path of tcgemm_gemm_ex and tcgemm_sgemm for F16 and BF16 inputs with FP32
// accumulation (kernel.cu), on mma.sync.m16n8k16 with a cp.async multistage pipeline. The WMMA family
// (wmma_lowp) stays the one for explicit configurations, TF32, FP16 accumulation and the layouts this one
// does not take (rules below).
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

#include "core/problem.hpp"
#include "families/wmma_lowp/launch.hpp"
#include "tcgemm/tcgemm.h"

namespace tcgemm::detail {

// Whether a validated, non-quick-return problem can take the fast path. Its loads copy 16-byte pieces (8
// elements) along each operand's contiguous dimension, so: F16 or BF16 inputs, FP32 accumulation; A and B
// 16-byte aligned with leading dimensions a multiple of 8; the contiguous extent of each operand (m for an
// untransposed A, k for a transposed A and an untransposed B, n for a transposed B) a multiple of 8, so no
// piece straddles an edge; alpha != 0 and k >= 1 (otherwise A and B are not read and the WMMA path scales C).
// Host-only: checks pointers by value, not the memory behind them.
bool mma_lowp_eligible(const LowpProblem& p);

// Enqueues the product on `stream` (the shared memory limit is raised once per context). Returns
// TCGEMM_SUCCESS or a CUDA error.
tcgemm_status launch_mma_lowp(const LowpProblem& p, const DeviceContext& ctx, cudaStream_t stream);

}  // namespace tcgemm::detail
