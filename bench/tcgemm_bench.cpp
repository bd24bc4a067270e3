// tcgemm-bench: tcgemm against cuBLAS DGEMM on the same data in the same process, in two modes.
//
//   tcgemm-bench [options]         the family benchmark (family_bench.hpp), e.g.
//     tcgemm-bench --family shared_ab --tile 64,128 --tile-k 16,32,64 --pad-a 0,4 --pad-b 0,4 --sizes 4096
//     tcgemm-bench --family auto,shared_ab --trans NN,NT,TN,TT --sizes 1000x2000x300
//     tcgemm-bench --suite bench/suites/dgemm-shapes.txt --csv suite.csv   (shapes from a file: suite_file.hpp)
//   tcgemm-bench sweep [options]   the padding / tile sweep (sweep/sweep_mode.hpp), e.g.
//     tcgemm-bench sweep --table2 --csv table2.csv --md table2.md
//     tcgemm-bench sweep --family shared_ab --tiles 64 --tile-k 32,64 --pad 0:6:2 --size 4096
//   tcgemm-bench batched [options]  batches of small DGEMMs against cuBLAS's batched calls and the memory
//     roofline (batched_bench.cu), e.g. tcgemm-bench batched --shapes "8,8,8;32,32,32;64,32,16"
//
// Both modes check every point with the shared reference check (bench/check/reference_check.hpp) before
// timing it, and reject a bad command line with exit status 2 before any CUDA call. See --help.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "batched_bench.hpp"
#include "bench_cli.hpp"
#include "family_bench.hpp"
#include "sweep/sweep_mode.hpp"

int main(int argc, char** argv) {
  // The batched benchmark has its own small command line: everything after "batched" is its.
  if (argc > 1 && std::string(argv[1]) == "batched") {
    std::string name = std::string(argv[0]) + " batched";
    argv[1] = name.data();
    return tcgemm::bench::run_batched_bench(argc - 1, argv + 1);
  }
  using tcgemm::bench::Command;
  using tcgemm::bench::ParseResult;
  Command command;
  std::string text;
  switch (tcgemm::bench::parse_command_line(std::vector<std::string>(argv + 1, argv + argc), &command, &text)) {
    case ParseResult::kHelp:
      std::fputs(text.c_str(), stdout);
      return 0;
    case ParseResult::kUsageError:
      std::fprintf(stderr, "tcgemm-bench: %s (see --help)\n", text.c_str());
      return 2;
    case ParseResult::kRun:
      break;
  }
  try {
    switch (command.mode) {
      case Command::Mode::kSweep:
        return tcgemm::sweep::run_sweep(command.sweep);
      case Command::Mode::kSuite:
        return command.suite.dry_run ? tcgemm::bench::print_suite(command.suite)
                                     : tcgemm::bench::run_suite_bench(command.families, command.suite);
      case Command::Mode::kFamilies:
        break;
    }
    return tcgemm::bench::run_family_bench(command.families);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tcgemm-bench: %s\n", e.what());
    return 1;
  }
}
