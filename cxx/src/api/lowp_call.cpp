// Shared steps of the lower-precision entry points (lowp_call.hpp).
#include "api/lowp_call.hpp"

#include <cinttypes>

#include "core/checked_math.hpp"
#include "core/errors.hpp"
#include "core/memory_pool.hpp"
#include "families/mma_lowp/launch.hpp"
#include "families/mma_lowp/tf32_pack.hpp"
#include "families/wmma_lowp/rules.hpp"

namespace tcgemm::detail {

tcgemm_status validate_lowp_problem(const LowpProblem& in, const ArgPositions& pos, LowpProblem* out) {
  const ArgNamer nm{ArgNaming::Blas, pos};
  GemmProblem shape;
  shape.transa = in.transa;
  shape.transb = in.transb;
  shape.m = in.m;
  shape.n = in.n;
  shape.k = in.k;
  TCGEMM_TRY(validate_shape(shape, ArgNaming::Blas, pos, &shape));
  LowpProblem p = in;
  p.transa = shape.transa;
  p.transb = shape.transb;
  TCGEMM_TRY(validate_operand_layout({p.transa, p.transb, p.m, p.n, p.k, p.A, p.lda, p.B, p.ldb, p.C, p.ldc,
                                      p.alpha != 0.0f, datatype_bytes(p.input_type), datatype_bytes(p.c_type)},
                                     nm, pos));
  *out = p;
  return TCGEMM_SUCCESS;
}

namespace {

// The configuration's shared memory against the device's opt-in limit (blamed on `config_position`).
tcgemm_status check_lowp_shared_memory(const tcgemm_wmma_config& r, const LowpProblem& p, const DeviceContext& ctx,
                                       int config_position) {
  const int64_t bytes = lowp_smem_bytes(r, datatype_bytes(p.input_type), p.compute == TCGEMM_TYPE_F16 ? 2 : 4);
  if (bytes > ctx.smem_optin)
    return set_arg_error(TCGEMM_ERROR_SHARED_MEMORY, config_position,
                         "tile=%d, tile_k=%d, pad_a=%d, pad_b=%d: family wmma_lowp needs %" PRId64
                         " bytes of shared memory per block with %s inputs; device %d allows %" PRId64,
                         r.tile, r.tile_k, r.pad_a, r.pad_b, bytes,
                         p.input_type == TCGEMM_TYPE_F32 ? "TF32" : datatype_name(p.input_type), ctx.device,
                         ctx.smem_optin);
  return TCGEMM_SUCCESS;
}

// Packed copies above this size are taken only while the device has twice as much free memory; otherwise
// the TF32 product runs in place on the WMMA family rather than fail for want of scratch memory.
constexpr int64_t kTf32PackCheckFreeBytes = int64_t(256) << 20;

// Whether the TF32 fast path's packed copies (bytes) may be taken from the pool now.
tcgemm_status tf32_pack_fits(int64_t bytes, bool* fits) {
  *fits = true;
  if (bytes <= kTf32PackCheckFreeBytes) return TCGEMM_SUCCESS;
  size_t free_bytes = 0, total_bytes = 0;
  TCGEMM_CUDA_TRY(cudaMemGetInfo(&free_bytes, &total_bytes));
  *fits = uint64_t(bytes) <= free_bytes / 2;
  return TCGEMM_SUCCESS;
}

// The TF32 fast path: op(A)^T and op(B) packed and rounded into scratch memory ordered on `stream`, then the
// mma.sync kernel on the copies (families/mma_lowp/tf32_pack.hpp).
tcgemm_status run_tf32_packed(const LowpProblem& p, int64_t a_bytes, int64_t b_bytes, const DeviceContext& ctx,
                              cudaStream_t stream) {
  StreamScratch a_buf, b_buf;
  void* a_pack = nullptr;
  void* b_pack = nullptr;
  TCGEMM_TRY(a_buf.allocate(ctx, size_t(a_bytes), stream, &a_pack));
  TCGEMM_TRY(b_buf.allocate(ctx, size_t(b_bytes), stream, &b_pack));
  const float* A = static_cast<const float*>(p.A);
  const float* B = static_cast<const float*>(p.B);
  TCGEMM_TRY(launch_tf32_pack(A, p.lda, p.transa == 'T', p.k, p.m, static_cast<float*>(a_pack), stream));
  TCGEMM_TRY(launch_tf32_pack(B, p.ldb, p.transb == 'N', p.k, p.n, static_cast<float*>(b_pack), stream));
  LowpProblem q = p;
  q.transa = 'T';
  q.transb = 'N';
  q.k = tf32_pack_ld(p.k);  // the padding is zeros in both copies
  q.A = a_pack;
  q.lda = q.k;
  q.B = b_pack;
  q.ldb = q.k;
  return launch_mma_lowp(q, ctx, stream);
}

}  // namespace

tcgemm_status run_lowp_product(const LowpProblem& p, bool configured, const tcgemm_wmma_config& resolved,
                               int config_position, const DeviceContext& ctx, cudaStream_t stream) {
  // Which kernel: the mma.sync fast path in place (F16/BF16), on packed copies (TF32), or the WMMA family.
  int64_t a_bytes = 0, b_bytes = 0, pack_bytes = 0;
  bool tf32 = !configured && mma_lowp_tf32_eligible(p) && tf32_pack_bytes(p, &a_bytes, &b_bytes) &&
              checked_add(a_bytes, b_bytes, &pack_bytes);
  const bool fast = !configured && mma_lowp_eligible(p);
  if (!fast && !tf32) TCGEMM_TRY(check_lowp_shared_memory(resolved, p, ctx, config_position));
  TCGEMM_TRY(take_pending_cuda_error());
  if (tf32) {
    TCGEMM_TRY(tf32_pack_fits(pack_bytes, &tf32));
    if (tf32) return run_tf32_packed(p, a_bytes, b_bytes, ctx, stream);
    TCGEMM_TRY(check_lowp_shared_memory(resolved, p, ctx, config_position));  // the in-place fallback
  }
  if (fast) return launch_mma_lowp(p, ctx, stream);
  return launch_wmma_lowp(p, resolved, ctx, stream);
}

}  // namespace tcgemm::detail
