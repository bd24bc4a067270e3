// Configuration and type rules of wmma_lowp (rules.hpp).
#include "families/wmma_lowp/rules.hpp"

#include <utility>

#include "core/errors.hpp"

namespace tcgemm::detail {

const char* datatype_name(int32_t t) {
  switch (t) {
    case TCGEMM_TYPE_F64: return "F64";
    case TCGEMM_TYPE_F32: return "F32";
    case TCGEMM_TYPE_F16: return "F16";
    case TCGEMM_TYPE_BF16: return "BF16";
    default: return "unknown";
  }
}

namespace {
// Positions in tcgemm_gemm_ex's prototype.
constexpr int kPosAType = 8, kPosBType = 11, kPosCType = 15, kPosCompute = 17;

bool is_type(int32_t t) { return datatype_bytes(t) != 0; }
}  // namespace

tcgemm_status validate_lowp_types(int32_t a_type, int32_t b_type, int32_t c_type, int32_t compute) {
  if (!is_type(a_type) || a_type == TCGEMM_TYPE_F64)
    return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, kPosAType,
                         "argument 8 (a_type) = %d: must be TCGEMM_TYPE_F16, TCGEMM_TYPE_BF16 or TCGEMM_TYPE_F32 "
                         "(TF32); FP64 goes through tcgemm_dgemm",
                         a_type);
  if (b_type != a_type)
    return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, kPosBType,
                         "argument 11 (b_type) = %s: must be a_type's type (%s); WMMA multiplies two inputs of "
                         "one type",
                         datatype_name(b_type), datatype_name(a_type));
  if (!is_type(c_type) || c_type == TCGEMM_TYPE_F64)
    return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, kPosCType,
                         "argument 15 (c_type) = %d: must be TCGEMM_TYPE_F32, TCGEMM_TYPE_F16 or TCGEMM_TYPE_BF16",
                         c_type);
  if (compute != TCGEMM_TYPE_F32 && compute != TCGEMM_TYPE_F16)
    return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, kPosCompute,
                         "argument 17 (compute) = %d: the accumulator must be TCGEMM_TYPE_F32 or TCGEMM_TYPE_F16",
                         compute);
  if (compute == TCGEMM_TYPE_F16 && a_type != TCGEMM_TYPE_F16)
    return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, kPosCompute,
                         "argument 17 (compute) = F16: FP16 accumulation exists for F16 inputs only (got %s "
                         "inputs); use TCGEMM_TYPE_F32",
                         datatype_name(a_type));
  if (compute == TCGEMM_TYPE_F16 && c_type != TCGEMM_TYPE_F16)
    return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, kPosCType,
                         "argument 15 (c_type) = %s: an FP16 accumulator writes an F16 C", datatype_name(c_type));
  return TCGEMM_SUCCESS;
}

tcgemm_status validate_lowp_config(const tcgemm_wmma_config* in, int32_t input_type, int32_t compute, int position,
                                   tcgemm_wmma_config* out) {
  const tcgemm_wmma_config c = in ? *in : tcgemm_wmma_config{};
  const bool tf32 = input_type == TCGEMM_TYPE_F32;
  const int eb = datatype_bytes(input_type);
  const char* in_name = tf32 ? "TF32" : datatype_name(input_type);
  (void)compute;
  for (int i = 0; i < 1; ++i)
    if (c.reserved[i] != 0)
      return set_arg_error(TCGEMM_ERROR_INVALID_CONFIG, position, "reserved[%d]=%d: must be 0 (family wmma_lowp)", i,
                           c.reserved[i]);
  tcgemm_wmma_config r = c;
  if (r.shape == TCGEMM_WMMA_SHAPE_DEFAULT) r.shape = tf32 ? TCGEMM_WMMA_16x16x8 : TCGEMM_WMMA_16x16x16;
  const WmmaDims d = wmma_dims(r.shape);
  if (d.m == 0)
    return set_arg_error(TCGEMM_ERROR_INVALID_CONFIG, position,
                         "shape=%d: not a tcgemm_wmma_shape (1: 16x16x16, 2: 32x8x16, 3: 8x32x16, 4: 16x16x8) "
                         "(family wmma_lowp)",
                         c.shape);
  if (tf32 != (r.shape == TCGEMM_WMMA_16x16x8))
    return set_arg_error(TCGEMM_ERROR_INVALID_CONFIG, position,
                         "shape=%d (%dx%dx%d): %s inputs have WMMA shape%s %s (family wmma_lowp)", r.shape, d.m, d.n,
                         d.k, in_name, tf32 ? "" : "s", tf32 ? "16x16x8" : "16x16x16, 32x8x16 and 8x32x16");
  r.tile = r.tile ? r.tile : kLowpDefaultTile;
  r.tile_n = r.tile_n ? r.tile_n : r.tile;
  if (!lowp_tile_allowed(r.tile, r.tile_n))
    return set_arg_error(TCGEMM_ERROR_INVALID_CONFIG, position,
                         "tile=%d, tile_n=%d: the C tile must be 64 x 64 (4 warps of 32 x 32), 128 x 128 (4 warps "
                         "of 64 x 64), 256 x 128 or 128 x 256 (8 warps of 64 x 64) (family wmma_lowp)",
                         r.tile, r.tile_n);
  r.tile_k = r.tile_k ? r.tile_k : kLowpDefaultTileK;
  if (r.tile_k < d.k || r.tile_k > kLowpMaxTileK || r.tile_k % d.k != 0)
    return set_arg_error(TCGEMM_ERROR_INVALID_CONFIG, position,
                         "tile_k=%d: must be a multiple of the shape's k (%d) between %d and %d (family wmma_lowp)",
                         r.tile_k, d.k, d.k, kLowpMaxTileK);
  r.stages = r.stages ? r.stages : kLowpDefaultStages;
  if (r.stages < 1 || r.stages > kLowpMaxStages)
    return set_arg_error(TCGEMM_ERROR_INVALID_CONFIG, position,
                         "stages=%d: must be 1 (copy a k-tile, then compute it) or 2..%d (a ring of cp.async "
                         "buffers) (family wmma_lowp)",
                         r.stages, kLowpMaxStages);
  const int quantum = kLowpPadQuantumBytes / eb;  // elements per 16 bytes
  // Paddings are taken as given (0 is the article's "no padding"); no configuration at all means 16 bytes.
  if (!in) r.pad_a = r.pad_b = quantum;
  for (const auto& [field, pad] : {std::pair<const char*, int>{"pad_a", r.pad_a}, {"pad_b", r.pad_b}}) {
    if (pad < 0 || pad % quantum != 0 || pad * eb > kLowpMaxPadBytes)
      return set_arg_error(TCGEMM_ERROR_INVALID_CONFIG, position,
                           "%s=%d: shared-memory padding must be a multiple of %d %s elements (16 bytes) between 0 "
                           "and %d (family wmma_lowp)",
                           field, pad, quantum, in_name, kLowpMaxPadBytes / eb);
  }
  *out = r;
  return TCGEMM_SUCCESS;
}

}  // namespace tcgemm::detail
