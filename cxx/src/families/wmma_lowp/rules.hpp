// Family wmma_lowp: the WMMA shapes of the CUDA Fortran tensor-core article's Table 1 other than FP64 8x8x4
// (16-bit inputs: 16x16x16, 32x8x16, 8x32x16; TF32: 16x16x8), behind tcgemm_gemm_ex. Host-only facts and
// rules: the configuration checks (CPU CI tests them) and the shared-memory layout the kernel's
// static_asserts and its launcher share.
#pragma once

#include <cstdint>

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

// Each warp computes a 32 x 32 block of C (a whole number of fragments in every shape); a block is a
// square of tile / 32 x tile / 32 warps.
constexpr int kLowpWarpTile = 32;
constexpr int kLowpDefaultTile = 64;
constexpr int kLowpDefaultTileK = 32;
constexpr int kLowpMaxTileK = 256;
constexpr int kLowpMaxPadBytes = 128;
// WMMA's load_matrix_sync wants leading dimensions of whole 16-byte units and 32-byte aligned fragment
// pointers; the layout below keeps both when every padding is a multiple of 16 bytes.
constexpr int kLowpPadQuantumBytes = 16;
constexpr int kLowpSmemAlign = 128;

// Bytes of one element of a tcgemm_datatype (0 for an unknown value).
constexpr int datatype_bytes(int32_t t) {
  return t == TCGEMM_TYPE_F64 ? 8 : t == TCGEMM_TYPE_F32 ? 4 : (t == TCGEMM_TYPE_F16 || t == TCGEMM_TYPE_BF16) ? 2 : 0;
}
const char* datatype_name(int32_t t);

// Dynamic shared memory of one block: the A tile (tile x tile_k of op(A), row-major, leading dimension
// tile_k + pad_a), then the B tile (tile_k x tile of op(B), column-major, tile_k + pad_b), each rounded up to
// kLowpSmemAlign bytes, then one accumulator fragment per warp for the epilogue (store_matrix_sync writes it,
// the warp's lanes read it back for the guarded alpha/beta update).
constexpr int64_t lowp_round_up(int64_t x, int64_t q) { return (x + q - 1) / q * q; }
constexpr int64_t lowp_a_tile_bytes(const tcgemm_wmma_config& r, int in_bytes) {
  return lowp_round_up(int64_t(r.tile) * (r.tile_k + r.pad_a) * in_bytes, kLowpSmemAlign);
}
constexpr int64_t lowp_b_tile_bytes(const tcgemm_wmma_config& r, int in_bytes) {
  return lowp_round_up(int64_t(r.tile) * (r.tile_k + r.pad_b) * in_bytes, kLowpSmemAlign);
}
constexpr int lowp_warps(const tcgemm_wmma_config& r) { return (r.tile / kLowpWarpTile) * (r.tile / kLowpWarpTile); }
constexpr int64_t lowp_smem_bytes(const tcgemm_wmma_config& r, int in_bytes, int acc_bytes) {
  const WmmaDims d = wmma_dims(r.shape);
  return lowp_a_tile_bytes(r, in_bytes) + lowp_b_tile_bytes(r, in_bytes) +
         int64_t(lowp_warps(r)) * d.m * d.n * acc_bytes;
}

// Checks the input / accumulator / output types of a tcgemm_gemm_ex call (positions as in its prototype).
tcgemm_status validate_lowp_types(int32_t a_type, int32_t b_type, int32_t c_type, int32_t compute);
// Checks a configuration for these inputs and accumulator (nullptr: all defaults) and resolves its zero
// fields into *out. `position`: the argument blamed for a bad field.
tcgemm_status validate_lowp_config(const tcgemm_wmma_config* in, int32_t input_type, int32_t compute, int position,
                                   tcgemm_wmma_config* out);

}  // namespace tcgemm::detail
