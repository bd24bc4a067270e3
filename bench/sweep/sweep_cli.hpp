// Command line of tcgemm-sweep (host only, so the CPU tests check every rule).
#pragma once

#include <string>
#include <vector>

#include "sweep_grid.hpp"
#include "sweep_runner.hpp"

namespace tcgemm::sweep {

struct CliOptions {
  SweepSpec spec;
  RunnerOptions run;
  std::string csv_path;
  std::string md_path;
  std::string ncu_metrics_path;
  bool dry_run = false;  // list the points and their host-side validation; no GPU needed
  bool help = false;
};

// Parses argv[1..argc-1]. Options take a value as "--opt value" or "--opt=value". --table2 / --table3
// set the seed's grid first; any other option then overrides that part of it, wherever it appears.
// Returns false with a message on any error (unknown option, bad list, --reps < 10, ...).
bool parse_cli(const std::vector<std::string>& args, CliOptions* out, std::string* error);
std::string cli_usage();

}  // namespace tcgemm::sweep
