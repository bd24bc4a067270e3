// Family wmma_lowp: the WMMA shapes of the CUDA Fortran tensor-core article's Table 1 other than FP64 8x8x4
// (16-bit inputs: 16x16x16, 32x8x16, 8x32x16; TF32: 16x16x8), behind tcgemm_gemm_ex. Host-only facts and
// rules: the configuration checks (CPU CI tests them) and the shared-memory layout the kernel's
// static_asserts and its launcher share.
#pragma once

#include <cstdint>

#include "arch/shared_memory_limits.hpp"
#include "core/host_device.hpp"
#include "tcgemm/tcgemm.h"

namespace tcgemm::detail {

// Fragment dimensions of a tcgemm_wmma_shape (0 x 0 x 0 for an unknown value).
struct WmmaDims {
  int m, n, k;
};
TCGEMM_HOST_DEVICE constexpr WmmaDims wmma_dims(int shape) {
  return shape == TCGEMM_WMMA_16x16x16 ? WmmaDims{16, 16, 16}
         : shape == TCGEMM_WMMA_32x8x16 ? WmmaDims{32, 8, 16}
         : shape == TCGEMM_WMMA_8x32x16 ? WmmaDims{8, 32, 16}
         : shape == TCGEMM_WMMA_16x16x8 ? WmmaDims{16, 16, 8}
                                         : WmmaDims{0, 0, 0};
}

// Block tiles (tile x tile_n of C) and their warps: 64 x 64 is 2 x 2 warps of 32 x 32; the others are warps
// of 64 x 64 (16 accumulator fragments per warp: every fragment loaded from shared memory feeds 4 MMAs, 8
// for the 8-wide shapes' other operand, which keeps shared-memory traffic per MMA under what the SM serves).
// 128 x 128 is 2 x 2 warps and fits two blocks per SM; 256 x 128 and 128 x 256 are 4 x 2 and 2 x 4 warps, one
// block per SM, and read a third less from L2 per flop (128 x 128 tiles need about 64 bytes per 2048 flop
// from L2, which caps them near 0.6 of the F16 WMMA ceiling on an H100).
TCGEMM_HOST_DEVICE constexpr bool lowp_tile_allowed(int tile_m, int tile_n) {
  return (tile_m == 64 && tile_n == 64) || (tile_m == 128 && tile_n == 128) || (tile_m == 256 && tile_n == 128) ||
         (tile_m == 128 && tile_n == 256);
}
TCGEMM_HOST_DEVICE constexpr int lowp_warp_tile(int tile_m, int tile_n) {
  return tile_m == 64 && tile_n == 64 ? 32 : 64;
}
TCGEMM_HOST_DEVICE constexpr int lowp_warps(int tile_m, int tile_n) {
  return (tile_m / lowp_warp_tile(tile_m, tile_n)) * (tile_n / lowp_warp_tile(tile_m, tile_n));
}
constexpr int kLowpDefaultTile = 128;
constexpr int kLowpDefaultTileK = 32;
constexpr int kLowpMaxTileK = 256;
constexpr int kLowpMaxPadBytes = 128;
// stages 1: the article's loop (copy a k-tile, wait, compute it); 2 .. kLowpMaxStages: a ring of buffers,
// the next stages - 1 k-tiles copied with cp.async while the current one is multiplied.
constexpr int kLowpDefaultStages = 3;
constexpr int kLowpMaxStages = 4;
// WMMA's load_matrix_sync wants leading dimensions of whole 16-byte units and 32-byte aligned fragment
// pointers; the layout below keeps both when every padding is a multiple of 16 bytes.
constexpr int kLowpPadQuantumBytes = 16;
constexpr int kLowpSmemAlign = 128;

// Bytes of one element of a tcgemm_datatype (0 for an unknown value).
constexpr int datatype_bytes(int32_t t) {
  return t == TCGEMM_TYPE_F64 ? 8 : t == TCGEMM_TYPE_F32 ? 4 : (t == TCGEMM_TYPE_F16 || t == TCGEMM_TYPE_BF16) ? 2 : 0;
}
const char* datatype_name(int32_t t);

constexpr int64_t lowp_round_up(int64_t x, int64_t q) { return (x + q - 1) / q * q; }

// The shared-memory tile of one operand in one pipeline stage. It keeps the operand's order in memory, so
// cp.async copies 16-byte pieces without touching them and WMMA reads it with the matching layout:
//   k-contiguous (A transposed, B not): element (o, k) at o * ld + k, ld = tile_k + pad (o: m for A, n for B);
//   o-contiguous (A not transposed, B transposed): element (o, k) at k * ld + stretch(o), ld = tile * s + pad.
// s = 2 only for an o-contiguous operand whose fragments are 8 wide along o (A of 8x32x16, B of 32x8x16) and
// loaded by load_matrix_sync (the run-time kernel): a fragment pointer must be 32-byte aligned and 8 16-bit
// elements are 16 bytes, so each group of 8 is placed at the start of a 16-element slot (stretch(o) =
// 16 (o / 8) + o % 8); the other half of the slot is never written or read. Otherwise s = 1 and
// stretch(o) = o. by_ldmatrix: the fragments are filled by ldmatrix (the pipelined kernel,
// fragment_ldmatrix.cuh), whose lines need 16-byte alignment only: never stretched. A configuration is
// validated, and its shared memory reported, with the stretch (the run-time kernel may run it); the pipelined
// kernel then uses less.
struct LowpOperandTile {
  bool k_contiguous;
  int stretch;  // 1 or 2
  int ld;       // elements
};
TCGEMM_HOST_DEVICE constexpr LowpOperandTile lowp_operand_tile(bool k_contiguous, int frag_o, int tile, int tile_k,
                                                                int pad, bool by_ldmatrix = false) {
  const int s = (frag_o == 8 && !by_ldmatrix) ? 2 : 1;
  return k_contiguous ? LowpOperandTile{true, 1, tile_k + pad} : LowpOperandTile{false, s, tile * s + pad};
}
// Bytes of one stage's tile, rounded up to kLowpSmemAlign so the next one starts aligned.
constexpr int64_t lowp_operand_tile_bytes(const LowpOperandTile& t, int tile, int tile_k, int in_bytes) {
  return lowp_round_up(int64_t(t.ld) * (t.k_contiguous ? tile : tile_k) * in_bytes, kLowpSmemAlign);
}

// The operand tiles of a configuration for one operand form (trans_a, trans_b).
struct LowpTiles {
  LowpOperandTile a, b;
  int64_t a_bytes, b_bytes;  // one stage each
};
// (A resolved configuration: tile_n set.)
constexpr LowpTiles lowp_tiles(const tcgemm_wmma_config& r, int in_bytes, bool trans_a, bool trans_b,
                               bool by_ldmatrix = false) {
  const WmmaDims d = wmma_dims(r.shape);
  LowpTiles t{lowp_operand_tile(trans_a, d.m, r.tile, r.tile_k, r.pad_a, by_ldmatrix),
              lowp_operand_tile(!trans_b, d.n, r.tile_n, r.tile_k, r.pad_b, by_ldmatrix), 0, 0};
  t.a_bytes = lowp_operand_tile_bytes(t.a, r.tile, r.tile_k, in_bytes);
  t.b_bytes = lowp_operand_tile_bytes(t.b, r.tile_n, r.tile_k, in_bytes);
  return t;
}

// The family's fixed configurations, which run the pipelined kernel (kernel_pipelined.cuh) with every field a
// compile-time constant: C tiles of 128 x 128, 256 x 128 or 128 x 256, k-tiles of four k steps (64 16-bit
// elements, 32 TF32), 16-byte paddings and 3 stages. The launcher takes the pipelined kernel only for exactly
// such a configuration (lowp_fixed_instance_applies, launch.hpp); any other runs the run-time kernel.
constexpr int kLowpFixedStages = 3;
TCGEMM_HOST_DEVICE constexpr bool lowp_fixed_tile(int tile_m, int tile_n) {
  return lowp_tile_allowed(tile_m, tile_n) && lowp_warp_tile(tile_m, tile_n) == 64;
}
TCGEMM_HOST_DEVICE constexpr int lowp_fixed_tile_k(int in_bytes) { return 4 * 32 / in_bytes; }
constexpr tcgemm_wmma_config lowp_fixed_config(int shape, int in_bytes, int tile_m, int tile_n) {
  const int pad = kLowpPadQuantumBytes / in_bytes;
  return tcgemm_wmma_config{shape, tile_m, lowp_fixed_tile_k(in_bytes), pad, pad, kLowpFixedStages, tile_n, {0}};
}
// Whether a resolved configuration r, for inputs of in_bytes, is exactly its tile's fixed configuration (the one
// the pipelined kernel runs; TF32 there on its packed copies, launch.hpp's lowp_tf32_packs). The sweep marks
// such points with it too.
constexpr bool lowp_is_fixed_config(const tcgemm_wmma_config& r, int in_bytes) {
  if (!lowp_fixed_tile(r.tile, r.tile_n)) return false;
  const tcgemm_wmma_config f = lowp_fixed_config(r.shape, in_bytes, r.tile, r.tile_n);
  return r.tile_k == f.tile_k && r.pad_a == f.pad_a && r.pad_b == f.pad_b && r.stages == f.stages;
}
// The tcgemm_wmma_shape of fragment dimensions (0 for none): the inverse of wmma_dims.
TCGEMM_HOST_DEVICE constexpr int wmma_shape_of(int fm, int fn, int fk) {
  const int shapes[4] = {TCGEMM_WMMA_16x16x16, TCGEMM_WMMA_32x8x16, TCGEMM_WMMA_8x32x16, TCGEMM_WMMA_16x16x8};
  for (int i = 0; i < 4; ++i) {
    const WmmaDims d = wmma_dims(shapes[i]);
    if (d.m == fm && d.n == fn && d.k == fk) return shapes[i];
  }
  return 0;
}

// Dynamic shared memory of one block for one operand form: stages x (A tile + B tile), then one accumulator
// fragment per warp for the epilogue (store_matrix_sync writes it, the warp's lanes read it back for the
// guarded alpha/beta update).
constexpr int64_t lowp_smem_bytes(const tcgemm_wmma_config& r, int in_bytes, int acc_bytes, bool trans_a,
                                  bool trans_b, bool by_ldmatrix = false) {
  const WmmaDims d = wmma_dims(r.shape);
  const LowpTiles t = lowp_tiles(r, in_bytes, trans_a, trans_b, by_ldmatrix);
  return int64_t(r.stages) * (t.a_bytes + t.b_bytes) + int64_t(lowp_warps(r.tile, r.tile_n)) * d.m * d.n * acc_bytes;
}
// The most any operand form needs (what tcgemm_wmma_config_resolve reports).
constexpr int64_t lowp_smem_bytes_any_form(const tcgemm_wmma_config& r, int in_bytes, int acc_bytes) {
  int64_t most = 0;
  for (int f = 0; f < 4; ++f) {
    const int64_t b = lowp_smem_bytes(r, in_bytes, acc_bytes, (f & 1) != 0, (f & 2) != 0);
    most = b > most ? b : most;
  }
  return most;
}

// The most dynamic shared memory a block may opt in to on any device the library builds for (cc 9.x: 227 KB;
// cc 8.0 allows 163 KB): pipelined instances that would need more are not built. A call whose configuration
// needs more than its own device allows is refused before launch (check_lowp_shared_memory, against the
// device's opt-in), so no such instance is ever asked for.
constexpr int64_t kLowpMaxSmemOptin = arch::kSm90MaxSmemOptinBytes;
// The largest ldc (elements) for which C's fragments go straight from registers: WMMA's leading dimension is
// a 32-bit unsigned, and a fragment spans up to 32 columns of C, so 2^24 keeps every offset it forms from a
// fragment's start below 2^31 bytes. Larger ones go through the scratch, which indexes C in 64 bits.
constexpr int64_t kLowpMaxDirectLdc = int64_t(1) << 24;

// Checks the input / accumulator / output types of a tcgemm_gemm_ex call (positions as in its prototype).
tcgemm_status validate_lowp_types(int32_t a_type, int32_t b_type, int32_t c_type, int32_t compute);
// Checks a configuration for these inputs and accumulator (nullptr: all defaults) and resolves its zero
// fields into *out. `position`: the argument blamed for a bad field.
tcgemm_status validate_lowp_config(const tcgemm_wmma_config* in, int32_t input_type, int32_t compute, int position,
                                   tcgemm_wmma_config* out);

}  // namespace tcgemm::detail
