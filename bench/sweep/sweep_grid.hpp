// Sweep grids: parsing the command-line lists ("32,64,96,128", "0:6:2"), and expanding a sweep
// specification into points (one configuration + matrix sizes each), validated on the host. FP64 points
// carry a tcgemm_config (tcgemm_dgemm_config); points of a lower precision (--precision) carry a
// tcgemm_wmma_config of the WMMA family (tcgemm_gemm_ex), with their tile, tile_k and paddings mirrored in
// the tcgemm_config fields so that the tables and the CSV read both alike.
// Host only: no CUDA call here, so the CPU test suite checks all of it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tcgemm/tcgemm.h"

namespace tcgemm::sweep {

// The article's problem size (Examples 5 and 6 use m = n = k = 3200).
constexpr int64_t kArticleSize = 3200;
// No list may expand to more values than this (a typo such as "0:100000" should not start a day-long run).
constexpr size_t kMaxListValues = 1024;

// What the points multiply in: FP64 (the DGEMM families) or one of the WMMA family's lower precisions.
enum class Precision { kFp64, kF16, kF16Acc16, kBf16, kTf32 };

// A C tile computed by one thread block.
struct TileShape {
  int32_t m = 0;
  int32_t n = 0;
};

// What to sweep. An empty list means "the family's default" (tcgemm_default_config): e.g. pad_b of
// shared_a stays 0 and its tile_k stays 4 unless asked otherwise.
struct SweepSpec {
  Precision precision = Precision::kFp64;
  int32_t wmma_shape = TCGEMM_WMMA_SHAPE_DEFAULT;  // lower precisions only
  int32_t family = TCGEMM_FAMILY_SHARED_A;           // FP64 only
  std::vector<TileShape> tiles;
  std::vector<int32_t> tile_k;
  std::vector<int32_t> pad_a;
  std::vector<int32_t> pad_b;
  std::vector<int32_t> stages;
  // --pad: pad_b takes pad_a's value at every point (one padding axis, pad_a = pad_b), as in the article's
  // Table 3 where smPadA = smPadB.
  bool pad_b_follows_pad_a = false;
  int64_t m = kArticleSize;
  int64_t n = kArticleSize;
  int64_t k = kArticleSize;
};

// One point of the grid: the configuration as it will be passed to tcgemm_dgemm_config (every field
// explicit, no zeros left for "default") and the problem size.
struct SweepPoint {
  size_t index = 0;  // position in the expanded grid, 0-based
  Precision precision = Precision::kFp64;
  tcgemm_config config{};   // FP64: what runs; lower precisions: tile, tile_k and pads mirrored (family 0)
  tcgemm_wmma_config wmma{};  // lower precisions: what runs (every field resolved when valid)
  int64_t m = 0, n = 0, k = 0;
  // Empty when the configuration passed tcgemm_config_validate (tcgemm_wmma_config_resolve for a lower
  // precision); otherwise tcgemm_last_error()'s text.
  std::string invalid_reason;
  int64_t smem_bytes = -1;  // tcgemm_config_shared_memory_bytes, -1 when invalid
  int32_t threads = -1;     // tcgemm_config_threads_per_block, -1 when invalid
  // Lower precisions: the resolved configuration is its tile's fixed one, which the WMMA family runs on its
  // pipelined kernel (compile-time tile_k, paddings and stages; TF32 on operand copies rounded once) instead
  // of the run-time kernel every other point runs (lowp_is_fixed_config).
  bool fixed_kernel = false;

  bool valid() const { return invalid_reason.empty(); }
};

// ---- parsing ---------------------------------------------------------------------------------------
// Integer list: comma-separated items, each a value ("4") or an inclusive range "first:last[:step]"
// ("0:6:2" = 0,2,4,6; step defaults to 1). Repeated values are kept once, in first-seen order.
// On error returns false and says what is wrong in *error (the text names the offending item).
bool parse_int_list(const std::string& text, std::vector<int32_t>* out, std::string* error);
// Tile list: like parse_int_list, and an item may also be "MxN" (e.g. "128x64"); a plain value T
// means the square tile T x T.
bool parse_tile_list(const std::string& text, std::vector<TileShape>* out, std::string* error);
// A single positive 64-bit size ("3200").
bool parse_size(const std::string& text, int64_t* out, std::string* error);
// "shared_a" | "shared_ab" | "sm90_mma" (the families a sweep can run: those tcgemm_dgemm_config takes).
bool parse_family(const std::string& text, int32_t* family, std::string* error);
const char* family_name(int32_t family);
// "fp64" | "f16" (F16 inputs, FP32 accumulation) | "f16acc16" (FP16 accumulation and output) | "bf16" | "tf32".
bool parse_precision(const std::string& text, Precision* out, std::string* error);
const char* precision_name(Precision p);
// Whether a resolved WMMA configuration of a lower precision is its tile's fixed configuration: the library's
// rule (families/wmma_lowp/rules.hpp, lowp_is_fixed_config) for this precision's input size.
bool lowp_is_fixed_config(Precision p, const tcgemm_wmma_config& resolved);
// The WMMA shape of a lower precision: "16x16x16" | "32x8x16" | "8x32x16" | "16x16x8" (TF32's only one).
bool parse_wmma_shape(const std::string& text, int32_t* shape, std::string* error);
const char* wmma_shape_name(int32_t shape);
// tcgemm's input, accumulator and output types of a lower precision (F32 inputs for TF32).
int32_t input_type_of(Precision p);
int32_t compute_type_of(Precision p);
int32_t output_type_of(Precision p);
// Bytes of one input element: 8 for FP64, 2 for F16/BF16, 4 for TF32 (whose inputs are FP32).
int32_t input_bytes_of(Precision p);
// What a point's caption and the CSV's family column call it: "shared_ab", or "wmma_lowp f16 16x16x16".
std::string family_text(const SweepPoint& point);
// The yardstick the runner times beside it: "cuBLAS DGEMM", "cuBLAS GemmEx F16 (FP32 accumulation)", ...
std::string reference_text(const SweepPoint& point);

// ---- the article's tables --------------------------------------------------------------------------
// Table 2: shared_a, tile 32/64/96/128 x pad_a 0/2/4/6, m = n = k = 3200.
// Table 3: shared_ab, tile 32/64/96/128 x tile_k 32/64/96/128, pad_a = pad_b = 4, m = n = k = 3200,
// stages 1 (the article's load-sync-compute loop) to 4 (cp.async rings of 2, 3 and 4 buffers; points whose
// buffers exceed the device's shared memory are reported as such).
// In a lower precision both run on the WMMA family (A and B in shared memory, no stages axis) with the same
// paddings in bytes: Table 2 pads both tiles by 0/16/32/48 bytes (pad_a = pad_b, in elements of the input
// type), Table 3 by 32 bytes; its tiles (64 and 128; 32 and 96 are kept and shown as not valid) and tile_k
// are the article's.
SweepSpec table2_spec(Precision precision = Precision::kFp64, int32_t wmma_shape = TCGEMM_WMMA_SHAPE_DEFAULT);
SweepSpec table3_spec(Precision precision = Precision::kFp64, int32_t wmma_shape = TCGEMM_WMMA_SHAPE_DEFAULT);

// ---- expansion -------------------------------------------------------------------------------------
// Every combination, tiles outermost, then tile_k, pad_a, pad_b, stages. Each point is checked with
// tcgemm_config_validate (lower precisions: tcgemm_wmma_config_resolve, where a tile must be square); an
// invalid one keeps the library's message in invalid_reason (never throws).
std::vector<SweepPoint> expand(const SweepSpec& spec);

// "shared_a 32x32x4 pad_a=0 pad_b=0 stages=1" ("wmma_lowp f16 16x16x16 64x64x32 pad_a=8 pad_b=8"): what the
// progress line shows.
std::string point_label(const SweepPoint& point);
// "tcgemm-sweep:shared_a:3200x3200x3200:32x32x4:pad_a=0:pad_b=0:stages=1": the NVTX range name around
// a profiled point, and the key under which ncu's counters are merged back. Only [A-Za-z0-9_:=x-]. The
// prefix names the sweep, not a program: ncu exports made before the sweep became a mode of tcgemm-bench
// still merge.
std::string point_key(const SweepPoint& point);
constexpr const char* kPointKeyPrefix = "tcgemm-sweep:";

}  // namespace tcgemm::sweep
