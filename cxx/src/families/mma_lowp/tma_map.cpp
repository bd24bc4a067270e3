// Family mma_lowp's TMA route (tma_map.hpp): the device rule and the tensor maps.
#include "families/mma_lowp/tma_map.hpp"

#include <cuda_runtime.h>

#include "arch/tma_encode.hpp"
#include "core/env.hpp"
#include "families/mma_lowp/launch.hpp"
#include "families/sm90/rules.hpp"
#include "families/wmma_lowp/rules.hpp"

namespace tcgemm::detail {
namespace {

// One operand stored column-major with `inner` contiguous elements per column, `outer` columns, leading
// dimension ld: boxes of box_inner x box_outer elements, 128-byte swizzle.
bool encode(const void* base, int elem_bytes, int64_t inner, int64_t outer, int64_t ld, int box_inner, int box_outer,
            CUtensorMap* map) {
  const uint64_t dims[2] = {uint64_t(inner), uint64_t(outer)};
  const uint64_t strides[1] = {uint64_t(ld) * uint64_t(elem_bytes)};
  const uint32_t box[2] = {uint32_t(box_inner), uint32_t(box_outer)};
  return tma_encode_tiled(map, base, elem_bytes, 2, dims, strides, box, TmaSwizzle::k128B);
}

// An MN-major operand of `extent` (a multiple of 64) contiguous elements per column, `k` columns, leading
// dimension ld, viewed as 64 x k x (extent / 64): box 64 x tile_k x (tile / 64), the tile's pieces in one copy.
bool encode_mn_blocks(const void* base, int elem_bytes, int64_t extent, int64_t k, int64_t ld, int tile_k, int tile,
                      CUtensorMap* map) {
  const uint64_t dims[3] = {64, uint64_t(k), uint64_t(extent / 64)};
  const uint64_t strides[2] = {uint64_t(ld) * uint64_t(elem_bytes), uint64_t(64 * elem_bytes)};
  const uint32_t box[3] = {64, uint32_t(tile_k), uint32_t(tile / 64)};
  return tma_encode_tiled(map, base, elem_bytes, 3, dims, strides, box, TmaSwizzle::k128B);
}

// An MN-major operand: one 3-D box per tile where its extent is whole 64-element blocks and the driver takes
// the view (and TCGEMM_LOWP_TMA_ONE_BOX is not 0, the switch that measures the 2-D pieces on the same build),
// 2-D pieces otherwise.
bool encode_mn_major(const void* base, int elem_bytes, int64_t extent, int64_t k, int64_t ld,
                     int tile_k, int tile, CUtensorMap* map, bool* one_box) {
  static const bool one_box_enabled = env_int("TCGEMM_LOWP_TMA_ONE_BOX", 0, 1, 1) == 1;
  *one_box = one_box_enabled && elem_bytes == 2 && extent % 64 == 0 && tile % 64 == 0 &&
             encode_mn_blocks(base, elem_bytes, extent, k, ld, tile_k, tile, map);
  return *one_box || encode(base, elem_bytes, extent, k, ld, 64, tile_k, map);
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
  const int elem = datatype_bytes(p.input_type);
  const bool a_kmajor = p.transa == 'T', b_kmajor = p.transb == 'N';
  maps->a_one_box = maps->b_one_box = false;
  const bool a_ok = a_kmajor ? encode(p.A, elem, p.k, p.m, p.lda, tile_k, tile_m, &maps->a)
                             : encode_mn_major(p.A, elem, p.m, p.k, p.lda, tile_k, tile_m, &maps->a, &maps->a_one_box);
  const bool b_ok = b_kmajor ? encode(p.B, elem, p.k, p.n, p.ldb, tile_k, tile_n, &maps->b)
                             : encode_mn_major(p.B, elem, p.n, p.k, p.ldb, tile_k, tile_n, &maps->b, &maps->b_one_box);
  return a_ok && b_ok;
}

}  // namespace tcgemm::detail
