// Options of tcgemm-bench's sweep mode (`tcgemm-bench sweep ...`). Host only, so the CPU tests check every
// rule without a GPU.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

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
};

// Adds the sweep's options to `app` (the sweep subcommand). --table2 / --table3 set the article's grid
// first; every other option then overrides that part of it, wherever it appears on the command line
// (CLI11 runs the options' callbacks in the order they are added here, the shortcuts first). Likewise
// --m, --n and --k override --size. Lists are "32,64,96,128" or ranges "first:last[:step]".
void add_sweep_options(CLI::App& app, CliOptions* out);

}  // namespace tcgemm::sweep
