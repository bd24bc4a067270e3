// TF32 packing for family mma_lowp (launch.hpp): the kernel reads TF32 operands k-contiguous and already
// rounded, so tcgemm copies op(A)^T and op(B) into scratch memory first (tf32_pack.cu), each element rounded
// to TF32 (nearest, ties away from zero, as cvt.rna does) and k padded with zeros to a multiple of 4 so that
// every k-line starts on 16 bytes. The copies cost a read and a write of A and B, small beside the product's
// 2mnk flops once m and n are in the hundreds.
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

#include "families/wmma_lowp/launch.hpp"
#include "tcgemm/tcgemm.h"

namespace tcgemm::detail {

// Leading dimension of a packed copy: k rounded up to a multiple of 4 (16 bytes).
inline int64_t tf32_pack_ld(int64_t k) { return (k + 3) / 4 * 4; }
// Bytes of the packed copies of op(A) (m lines) and op(B) (n lines); false when either size, or their sum,
// does not fit int64 (the routes that pack ask nothing else of the sizes).
bool tf32_pack_bytes(const LowpProblem& p, int64_t* a_bytes, int64_t* b_bytes);

// dst (ld_out x lines, ld_out = tf32_pack_ld(k)) <- the k x lines view of x in which element (kk, c) is
// x[kk + c * ld] when k_contiguous, else x[c + kk * ld]; rows k..ld_out-1 are zeros. On `stream`.
tcgemm_status launch_tf32_pack(const float* x, int64_t ld, bool k_contiguous, int64_t k, int64_t lines, float* dst,
                               cudaStream_t stream);

}  // namespace tcgemm::detail
