#include "bench_cli.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>

namespace tcgemm::bench {

ParseResult parse_command_line(const std::vector<std::string>& args, Command* out, std::string* text) {
  Command command;
  CLI::App app{"Times tcgemm's DGEMM families against cuBLAS DGEMM on the same data; every point is checked "
               "against cuBLAS first. Lists (tile, tile-k, pad-a, pad-b, stages, sizes, trans, family) are "
               "comma-separated: every combination is measured.",
               "tcgemm-bench"};
  app.footer("Exit status: 0 when every point passed or was skipped, 1 when a check failed or CUDA reported an "
             "error, 2 on a usage error (reported before any CUDA call).");
  add_family_options(app, &command.families);
  CLI::App* sweep = app.add_subcommand(
      "sweep",
      "The padding / tile sweep of the article's Tables 2 and 3, or any grid: each point checked against cuBLAS, "
      "timed beside it, written as CSV and Markdown tables (see 'tcgemm-bench sweep --help').");
  sweep->footer("Lists: 32,64,96,128 or ranges first:last[:step] such as 0:6:2; a tile is T or MxN.\n"
                "Exit status: 0 when every point ran correctly or was skipped with a reason, 1 when a point failed "
                "its check or hit an error, 2 on a usage error or when no GPU can be used.");
  sweep::add_sweep_options(*sweep, &command.sweep);

  // CLI11 takes the arguments last first.
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    *text = app.help();  // the sweep's help when "sweep --help" was asked for
    return ParseResult::kHelp;
  } catch (const CLI::ParseError& e) {
    *text = e.what();
    return ParseResult::kUsageError;
  }
  if (sweep->parsed()) {
    // The family benchmark's options before "sweep" would be read and then ignored.
    for (const CLI::Option* opt : app.get_options())
      if (opt->count() > 0 && opt != app.get_help_ptr()) {
        *text = opt->get_name() + " is an option of the family benchmark, not of 'sweep' (give the sweep's options "
                                  "after 'sweep')";
        return ParseResult::kUsageError;
      }
    command.mode = Command::Mode::kSweep;
  }
  *out = std::move(command);
  return ParseResult::kRun;
}

}  // namespace tcgemm::bench
