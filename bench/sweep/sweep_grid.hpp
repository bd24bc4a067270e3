// Sweep grids: parsing the command-line lists ("32,64,96,128", "0:6:2"), and expanding a sweep
// specification into points (one tcgemm_config + matrix sizes each), validated on the host.
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

// A C tile computed by one thread block.
struct TileShape {
  int32_t m = 0;
  int32_t n = 0;
};

// What to sweep. An empty list means "the family's default" (tcgemm_default_config): e.g. pad_b of
// shared_a stays 0 and its tile_k stays 4 unless asked otherwise.
struct SweepSpec {
  int32_t family = TCGEMM_FAMILY_SHARED_A;
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
  tcgemm_config config{};
  int64_t m = 0, n = 0, k = 0;
  // Empty when the configuration passed tcgemm_config_validate; otherwise tcgemm_last_error()'s text.
  std::string invalid_reason;
  int64_t smem_bytes = -1;  // tcgemm_config_shared_memory_bytes, -1 when invalid
  int32_t threads = -1;     // tcgemm_config_threads_per_block, -1 when invalid

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

// ---- the article's tables --------------------------------------------------------------------------
// Table 2: shared_a, tile 32/64/96/128 x pad_a 0/2/4/6, m = n = k = 3200.
SweepSpec table2_spec();
// Table 3: shared_ab, tile 32/64/96/128 x tile_k 32/64/96/128, pad_a = pad_b = 4, m = n = k = 3200,
// stages 1 (the article's load-sync-compute loop) and 2 (the library's double-buffered default).
SweepSpec table3_spec();

// ---- expansion -------------------------------------------------------------------------------------
// Every combination, tiles outermost, then tile_k, pad_a, pad_b, stages. Each point is checked with
// tcgemm_config_validate; an invalid one keeps the library's message in invalid_reason (never throws).
std::vector<SweepPoint> expand(const SweepSpec& spec);

// "shared_a 32x32x4 pad_a=0 pad_b=0 stages=1": what the progress line shows.
std::string point_label(const SweepPoint& point);
// "tcgemm-sweep:shared_a:3200x3200x3200:32x32x4:pad_a=0:pad_b=0:stages=1": the NVTX range name around
// a profiled point, and the key under which ncu's counters are merged back. Only [A-Za-z0-9_:=x-]. The
// prefix names the sweep, not a program: ncu exports made before the sweep became a mode of tcgemm-bench
// still merge.
std::string point_key(const SweepPoint& point);
constexpr const char* kPointKeyPrefix = "tcgemm-sweep:";

}  // namespace tcgemm::sweep
