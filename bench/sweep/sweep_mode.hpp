// tcgemm-bench's sweep mode: the padding / tile sweep of the article's Tables 2 and 3 (or any grid), on
// any GPU, in one command:
//
//   tcgemm-bench sweep --table2 --csv table2.csv --md table2.md
//   tcgemm-bench sweep --family shared_ab --tiles 64 --tile-k 32,64 --pad 0:6:2 --size 4096
//
// Every point goes through the public API (tcgemm_dgemm_config), is checked against cuBLAS once and
// timed beside cuBLAS on the same data (sweep_runner.hpp). Markdown goes to stdout, progress to stderr.
#pragma once

#include "sweep_cli.hpp"

namespace tcgemm::sweep {

// Exit status: 0 when every point ran correctly or was skipped with a reason, 1 when a point failed its
// check or hit an error, 2 when the --ncu-metrics file cannot be used or no GPU can be used.
int run_sweep(const CliOptions& options);

}  // namespace tcgemm::sweep
