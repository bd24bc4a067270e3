// Shared steps of the lower-precision entry points (lowp_call.hpp).
#include "api/lowp_call.hpp"

#include <cinttypes>
#include <cstdio>
#include <initializer_list>

#include "core/checked_math.hpp"
#include "core/env.hpp"
#include "core/errors.hpp"
#include "core/memory_pool.hpp"
#include "families/mma_lowp/launch.hpp"
#include "families/mma_lowp/tf32_pack.hpp"
#include "families/mma_lowp/tma_map.hpp"
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

// Shared memory per block of the WMMA family with configuration r on problem p (its input type, accumulator and
// operand form): the one place the lower-precision entry points ask it.
int64_t lowp_problem_smem_bytes(const tcgemm_wmma_config& r, const LowpProblem& p) {
  return lowp_smem_bytes(r, datatype_bytes(p.input_type), p.compute == TCGEMM_TYPE_F16 ? 2 : 4, p.transa == 'T',
                         p.transb == 'T');
}

// The configuration's shared memory against the device's opt-in limit (blamed on `config_position`).
tcgemm_status check_lowp_shared_memory(const tcgemm_wmma_config& r, const LowpProblem& p, const DeviceContext& ctx,
                                       int config_position) {
  const int64_t bytes = lowp_problem_smem_bytes(r, p);
  if (bytes > ctx.smem_optin)
    return set_arg_error(TCGEMM_ERROR_SHARED_MEMORY, config_position,
                         "tile=%d, tile_n=%d, tile_k=%d, pad_a=%d, pad_b=%d, stages=%d: family wmma_lowp needs %" PRId64
                         " bytes of shared memory per block with %s inputs (transa '%c', transb '%c'); device %d "
                         "allows %" PRId64,
                         r.tile, r.tile_n, r.tile_k, r.pad_a, r.pad_b, r.stages, bytes,
                         p.input_type == TCGEMM_TYPE_F32 ? "TF32" : datatype_name(p.input_type), p.transa,
                         p.transb, ctx.device, ctx.smem_optin);
  return TCGEMM_SUCCESS;
}

// Packed copies above this size are taken only while the device has twice as much free memory, so that one
// product does not squeeze the caller's own allocations; below it the pool is simply asked.
constexpr int64_t kTf32PackCheckFreeBytes = int64_t(256) << 20;

// Whether the TF32 fast path's packed copies (bytes) should be attempted now.
tcgemm_status tf32_pack_worth_trying(int64_t bytes, bool* worth) {
  *worth = true;
  if (bytes <= kTf32PackCheckFreeBytes) return TCGEMM_SUCCESS;
  size_t free_bytes = 0, total_bytes = 0;
  TCGEMM_CUDA_TRY(cudaMemGetInfo(&free_bytes, &total_bytes));
  *worth = uint64_t(bytes) <= free_bytes / 2;
  return TCGEMM_SUCCESS;
}

// The problem the mma.sync kernel (or, for a fixed configuration, the WMMA family's pipelined kernel) runs on the
// TF32 packed copies a_pack and b_pack of p's operands: op(A)^T and op(B), both k-contiguous and rounded, k padded
// with zeros to tf32_pack_ld(k) (families/mma_lowp/tf32_pack.hpp).
LowpProblem tf32_packed_problem(const LowpProblem& p, const void* a_pack, const void* b_pack) {
  LowpProblem q = p;
  q.transa = 'T';
  q.transb = 'N';
  q.k = tf32_pack_ld(p.k);  // the padding is zeros in both copies
  q.A = a_pack;
  q.lda = q.k;
  q.B = b_pack;
  q.ldb = q.k;
  q.tf32_rounded = true;
  return q;
}

// A TF32 product on op(A)^T and op(B) packed and rounded into scratch memory ordered on `stream`
// (families/mma_lowp/tf32_pack.hpp), then the mma.sync kernel on the copies (wmma == nullptr: the fast path), or
// the WMMA family's pipelined kernel with the configuration *wmma (lowp_tf32_packs). *ran is false, with nothing
// launched, when the pool cannot supply the copies; the caller then runs the product in place.
tcgemm_status run_tf32_packed(const LowpProblem& p, int64_t a_bytes, int64_t b_bytes, const tcgemm_wmma_config* wmma,
                              const DeviceContext& ctx, cudaStream_t stream, bool* ran) {
  *ran = false;
  StreamScratch a_buf, b_buf;
  void* a_pack = nullptr;
  void* b_pack = nullptr;
  TCGEMM_TRY(a_buf.allocate_if_available(ctx, size_t(a_bytes), stream, &a_pack));
  if (a_pack) TCGEMM_TRY(b_buf.allocate_if_available(ctx, size_t(b_bytes), stream, &b_pack));
  if (!a_pack || !b_pack) return TCGEMM_SUCCESS;  // a_buf goes back to the pool on scope exit
  *ran = true;
  const float* A = static_cast<const float*>(p.A);
  const float* B = static_cast<const float*>(p.B);
  TCGEMM_TRY(launch_tf32_pack(A, p.lda, p.transa == 'T', p.k, p.m, static_cast<float*>(a_pack), stream));
  TCGEMM_TRY(launch_tf32_pack(B, p.ldb, p.transb == 'N', p.k, p.n, static_cast<float*>(b_pack), stream));
  const LowpProblem q = tf32_packed_problem(p, a_pack, b_pack);
  if (wmma) return launch_wmma_lowp(q, *wmma, ctx, stream);
  return launch_mma_lowp(q, ctx, stream);
}

}  // namespace

LowpRoute lowp_route(const LowpProblem& p, bool configured) {
  if (configured) return LowpRoute::Wmma;
  if (mma_lowp_eligible(p)) return LowpRoute::MmaInPlace;
  int64_t a_bytes = 0, b_bytes = 0;
  if (mma_lowp_tf32_eligible(p) && tf32_pack_bytes(p, &a_bytes, &b_bytes)) return LowpRoute::Tf32Packed;
  return LowpRoute::Wmma;
}

const char* lowp_route_name(LowpRoute r) {
  switch (r) {
    case LowpRoute::MmaInPlace: return "mma_lowp in place";
    case LowpRoute::Tf32Packed: return "mma_lowp on TF32-rounded packed copies";
    case LowpRoute::Wmma: return "wmma_lowp";
    case LowpRoute::WmmaTf32Packed: return "wmma_lowp on TF32-rounded packed copies";
  }
  return "?";
}

namespace {

// TCGEMM_PLAN_LOG set (and not "0"): every lower-precision call prints the kernel it ran to stderr.
void log_lowp_route(const LowpProblem& p, const DeviceContext& ctx, LowpRoute route, const char* note = "") {
  static const bool enabled = env_flag("TCGEMM_PLAN_LOG");
  if (!enabled) return;
  const bool wmma = route == LowpRoute::Wmma || route == LowpRoute::WmmaTf32Packed;
  const char* tiles = wmma ? ""
                      : mma_lowp_tiling(p, ctx) == MmaLowpTiling::Large ? ", 256x128 tiles"
                                                                          : ", 128x128 tiles";
  // The kernel's operands: the call's own, or the packed TF32 copies (pool blocks, aligned: stood in for by null).
  const LowpProblem operands = route == LowpRoute::Tf32Packed ? tf32_packed_problem(p, nullptr, nullptr) : p;
  const char* loads = wmma                                              ? ""
                      : mma_lowp_tma_applies(operands, ctx) ? ", TMA loads"
                                                            : ", cp.async loads";
  std::fprintf(stderr, "tcgemm lowp: %c%c m=%lld n=%lld k=%lld %s inputs: %s%s%s%s\n", p.transa, p.transb,
               static_cast<long long>(p.m), static_cast<long long>(p.n), static_cast<long long>(p.k),
               p.input_type == TCGEMM_TYPE_F32 ? "TF32" : datatype_name(p.input_type), lowp_route_name(route),
               tiles, loads, note);
}

}  // namespace

tcgemm_wmma_config fit_default_to_device(tcgemm_wmma_config r, const LowpProblem& p, const DeviceContext& ctx) {
  const auto fits = [&] { return lowp_problem_smem_bytes(r, p) <= ctx.smem_optin; };
  // The given tile, then 64 x 64 from the default depth: each with fewer stages until it fits.
  for (const int tile : {r.tile, 64}) {
    if (tile != r.tile) {
      r.tile = r.tile_n = tile;
      r.stages = kLowpDefaultStages;
    }
    while (!fits() && r.stages > 1) --r.stages;
    if (fits()) break;
  }
  return r;  // still too large on a tiny device: check_lowp_shared_memory says so
}

tcgemm_status run_lowp_product(const LowpProblem& p, bool configured, const tcgemm_wmma_config& given,
                               int config_position, const DeviceContext& ctx, cudaStream_t stream) {
  const tcgemm_wmma_config resolved = configured ? given : fit_default_to_device(given, p, ctx);
  LowpRoute route = lowp_route(p, configured);
  // The packed copies' sizes, for both packed routes (false: they do not fit int64, and neither route is taken).
  int64_t a_bytes = 0, b_bytes = 0;
  const bool pack_fits = tf32_pack_bytes(p, &a_bytes, &b_bytes);
  // A configured TF32 call with a fixed configuration runs the WMMA family on packed copies when they fit in
  // int64 and the configuration fits the device in the copies' form.
  if (configured && route == LowpRoute::Wmma && pack_fits && lowp_tf32_packs(p, resolved) &&
      lowp_problem_smem_bytes(resolved, tf32_packed_problem(p, nullptr, nullptr)) <= ctx.smem_optin)
    route = LowpRoute::WmmaTf32Packed;
  if (route == LowpRoute::Wmma) TCGEMM_TRY(check_lowp_shared_memory(resolved, p, ctx, config_position));
  TCGEMM_TRY(take_pending_cuda_error());
  if (route == LowpRoute::Tf32Packed || route == LowpRoute::WmmaTf32Packed) {
    const bool wmma = route == LowpRoute::WmmaTf32Packed;
    const int64_t pack_bytes = a_bytes + b_bytes;  // fits: both routes require pack_fits (lowp_route for Tf32Packed)
    bool worth = false, ran = false;
    TCGEMM_TRY(tf32_pack_worth_trying(pack_bytes, &worth));
    if (worth) TCGEMM_TRY(run_tf32_packed(p, a_bytes, b_bytes, wmma ? &resolved : nullptr, ctx, stream, &ran));
    if (ran) {
      log_lowp_route(p, ctx, route);
      return TCGEMM_SUCCESS;
    }
    // No room for the copies: the same product in place on the WMMA family (the run-time kernel; same TF32
    // rounding, done as each fragment is loaded).
    TCGEMM_TRY(check_lowp_shared_memory(resolved, p, ctx, config_position));
    log_lowp_route(p, ctx, LowpRoute::Wmma, " (no device memory for the TF32 packed copies)");
    return launch_wmma_lowp(p, resolved, ctx, stream);
  }
  log_lowp_route(p, ctx, route);
  if (route == LowpRoute::MmaInPlace) return launch_mma_lowp(p, ctx, stream);
  return launch_wmma_lowp(p, resolved, ctx, stream);
}

}  // namespace tcgemm::detail
