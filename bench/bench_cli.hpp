// The command line of tcgemm-bench, parsed with CLI11:
//   tcgemm-bench [options]          the family benchmark (family_options.hpp)
//   tcgemm-bench --suite FILE [...]  the family benchmark over a shape suite (suite_file.hpp)
//   tcgemm-bench sweep [options]    the padding / tile sweep (sweep/sweep_cli.hpp)
// Host only: every value is checked here, before any CUDA call, and the CPU tests check the rules.
#pragma once

#include <string>
#include <vector>

#include "family_options.hpp"
#include "suite_file.hpp"
#include "sweep/sweep_cli.hpp"

namespace tcgemm::bench {

struct Command {
  enum class Mode { kFamilies, kSuite, kSweep };
  Mode mode = Mode::kFamilies;
  FamilyOptions families;  // kSuite too: its --reps, --warmup, --seed, --alpha, --beta, --csv
  SuiteOptions suite;
  sweep::CliOptions sweep;
};

enum class ParseResult {
  kRun,        // *out is complete
  kHelp,       // *text is the help asked for (the program's or the sweep's): print it, exit 0
  kUsageError  // *text says what is wrong, naming the option and its value: exit 2
};

// Parses the arguments after the program name.
ParseResult parse_command_line(const std::vector<std::string>& args, Command* out, std::string* text);

}  // namespace tcgemm::bench
