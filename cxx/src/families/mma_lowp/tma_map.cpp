// Family mma_lowp's TMA route (tma_map.hpp): the device rule and the tensor maps.
#include "families/mma_lowp/tma_map.hpp"

#include <cuda_runtime.h>

#include "core/env.hpp"
#include "families/mma_lowp/launch.hpp"
#include "families/sm90/rules.hpp"
#include "families/wmma_lowp/rules.hpp"

namespace tcgemm::detail {
namespace {

using EncodeTiled = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                                 const cuuint64_t*, const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave,
                                 CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

// The driver's cuTensorMapEncodeTiled, reached through the runtime (the library links no libcuda); looked up
// once per process. nullptr when the driver does not have it.
EncodeTiled encoder() {
  static const EncodeTiled fn = [] {
    void* f = nullptr;
    cudaDriverEntryPointQueryResult found{};
    // 12000: the function exists since CUDA 12.0.
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000, cudaEnableDefault, &found) !=
            cudaSuccess ||
        found != cudaDriverEntryPointSuccess) {
      (void)cudaGetLastError();  // a failed lookup must not surface later as the fallback kernel's launch error
      return EncodeTiled(nullptr);
    }
    return reinterpret_cast<EncodeTiled>(f);
  }();
  return fn;
}

// One operand stored column-major with `inner` contiguous elements per column, `outer` columns, leading
// dimension ld: boxes of box_inner x box_outer elements.
bool encode(EncodeTiled fn, const void* base, int elem_bytes, int64_t inner, int64_t outer, int64_t ld, int box_inner,
            int box_outer, CUtensorMap* map) {
  const cuuint64_t dims[2] = {cuuint64_t(inner), cuuint64_t(outer)};
  const cuuint64_t strides[1] = {cuuint64_t(ld) * cuuint64_t(elem_bytes)};
  const cuuint32_t box[2] = {cuuint32_t(box_inner), cuuint32_t(box_outer)};
  const cuuint32_t element_strides[2] = {1, 1};
  // The bits are copied as they are: 16-bit types as UINT16, FP32 (TF32-rounded) as UINT32.
  const CUtensorMapDataType type = elem_bytes == 2 ? CU_TENSOR_MAP_DATA_TYPE_UINT16 : CU_TENSOR_MAP_DATA_TYPE_UINT32;
  return fn(map, type, 2, const_cast<void*>(base), dims, strides, box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
            CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
            CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

}  // namespace

bool mma_lowp_tma_layout_ok(const LowpProblem& p) {
  constexpr int64_t kMaxExtent = (int64_t(1) << 31) - 512;
  if (p.m < 1 || p.n < 1 || p.k < 1 || p.m > kMaxExtent || p.n > kMaxExtent || p.k > kMaxExtent) return false;
  const int elem = datatype_bytes(p.input_type);
  constexpr int64_t kMaxStride = int64_t(1) << 40;
  for (const int64_t ld : {p.lda, p.ldb})
    if (ld < 1 || ld >= kMaxStride / elem) return false;
  return lowp_vec16_ok(p.A, p.lda, elem) && lowp_vec16_ok(p.B, p.ldb, elem);
}

bool mma_lowp_tma_applies(const LowpProblem& p, const DeviceContext& ctx) {
  static const bool enabled = env_int("TCGEMM_LOWP_TMA", 0, 1, 1) == 1;
  return enabled && ctx.smem_optin >= kMmaLowpTmaSmemBytes && mma_lowp_tma_layout_ok(p) && sm90_code_available(ctx);
}

bool encode_lowp_tma_maps(const LowpProblem& p, int tile_m, int tile_n, int tile_k, LowpTmaMaps* maps) {
  const EncodeTiled fn = encoder();
  if (!fn) return false;
  const int elem = datatype_bytes(p.input_type);
  const bool a_kmajor = p.transa == 'T', b_kmajor = p.transb == 'N';
  const bool a_ok = a_kmajor ? encode(fn, p.A, elem, p.k, p.m, p.lda, tile_k, tile_m, &maps->a)
                             : encode(fn, p.A, elem, p.m, p.k, p.lda, 64, tile_k, &maps->a);
  const bool b_ok = b_kmajor ? encode(fn, p.B, elem, p.k, p.n, p.ldb, tile_k, tile_n, &maps->b)
                             : encode(fn, p.B, elem, p.n, p.k, p.ldb, 64, tile_k, &maps->b);
  return a_ok && b_ok;
}

}  // namespace tcgemm::detail
