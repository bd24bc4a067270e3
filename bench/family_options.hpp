// Options of tcgemm-bench's default mode, which times tcgemm's DGEMM families (every configuration the
// lists ask for x trans x size) against cuBLAS DGEMM, and the configurations they expand to. Host only, so
// the CPU tests check the command line without a GPU.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "tcgemm/tcgemm.h"

namespace tcgemm::bench {

constexpr int kFamilyDefaultReps = 20;
constexpr int kMaxCallsPerRun = 100000;
constexpr int kFamilyDefaultWarmup = 3;
constexpr uint64_t kFamilyDefaultSeed = 2024;

struct Size {
  int64_t m, n, k;
};

struct FamilyOptions {
  std::vector<int32_t> families{TCGEMM_FAMILY_SHARED_AB};
  std::vector<int> tiles, tiles_n, tile_ks, pads_a, pads_b, stages, k_splits;  // empty: the family's default
  std::vector<Size> sizes{{2048, 2048, 2048}, {3200, 3200, 3200}, {4096, 4096, 4096}, {8192, 8192, 8192}};
  std::vector<std::string> trans{"NN"};
  double alpha = 1.0, beta = 0.0;
  int reps = kFamilyDefaultReps;
  int warmup = kFamilyDefaultWarmup;
  // Calls per timed run: each run's events enclose this many back-to-back calls and the time per call is
  // reported. 1 times single calls; more keep the GPU's queue full, so host time and launch latency hide
  // behind the previous call as they do in a code that calls DGEMM in a loop.
  int calls_per_run = 1;
  uint64_t seed = kFamilyDefaultSeed;
  std::string csv;
};

// One size, N (square) or MxNxK, each dimension a whole integer in [1, INT_MAX] (cuBLAS takes int
// dimensions): the items of --sizes and the SIZE of a suite line. *why: "'12x' is neither N nor MxNxK" or
// "'<dimension>': <parse_integer's reason>".
bool parse_shape(const std::string& item, Size* out, std::string* why);

// Adds the mode's options to `app` (the program itself: this mode needs no subcommand name).
void add_family_options(CLI::App& app, FamilyOptions* out);

// Every configuration of `family` that the options ask for (the family's default where a list is empty),
// each once. AUTO stays a single configuration: tcgemm_dgemm picks per shape.
std::vector<tcgemm_config> expand_configs(const FamilyOptions& o, int32_t family);

// "128x64x32 pad 0/0 st 4", or "(default)" for AUTO.
std::string config_label(const tcgemm_config& c);

}  // namespace tcgemm::bench
