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
  app.footer(
      "Shape suite (--suite FILE): tcgemm_dgemm (family auto) against cuBLAS DGEMM for every shape and form the "
      "file lists, each row with both times, TFLOP/s and the ratio tcgemm/cuBLAS, then a summary (minimum and "
      "geometric mean of the ratios, shapes below 0.90). --reps, --warmup, --calls-per-run, --seed, --alpha, --beta and --csv "
      "apply. The file has one shape per line: '#' starts a comment, blank lines are ignored, and a line is\n"
      "  SIZE [FORMS]\n"
      "where SIZE is N (square) or MxNxK (each >= 1) and FORMS a comma-separated list of NN, NT, TN, TT "
      "(default NN), e.g.\n"
      "  2048 NN,NT,TN,TT\n"
      "  64x64x65536 NN\n"
      "A malformed line stops the program with 'FILE:LINE: <why>' (exit status 2) before any CUDA call; "
      "--dry-run lists the parsed shapes without a GPU. A ready suite: bench/suites/dgemm-shapes.txt.\n"
      "Batches of small DGEMMs: 'tcgemm-bench batched [--bytes B] [--beta 0|1] [--reps N] [--shapes "
      "m,n,k;...]' (see 'tcgemm-bench batched --help').\n"
      "Exit status: 0 when every point passed or was skipped, 1 when a check failed or CUDA reported an "
      "error, 2 on a usage error (reported before any CUDA call).");
  add_family_options(app, &command.families);
  CLI::Option* suite_opt = app.add_option_function<std::string>(
                                  "--suite",
                                  [&command](const std::string& path) {
                                    std::string error;
                                    if (!read_suite_file(path, &command.suite.shapes, &error))
                                      throw CLI::ValidationError(error);
                                    command.suite.path = path;
                                  },
                                  "run the shapes and forms listed in FILE (format below) with family auto")
                               ->type_name("FILE")
                               ->take_last();
  // The suite names the shapes and forms and runs tcgemm_dgemm as users call it (family auto).
  for (const char* name : {"--family", "--tile", "--tile-n", "--tile-k", "--pad-a", "--pad-b", "--stages",
                           "--k-splits", "--sizes", "--trans"})
    suite_opt->excludes(app.get_option(name));
  app.add_flag("--dry-run", command.suite.dry_run, "with --suite: list the parsed shapes and exit; no GPU needed")
      ->needs(suite_opt)
      ->disable_flag_override();
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
  } else if (suite_opt->count() > 0) {
    command.mode = Command::Mode::kSuite;
  }
  *out = std::move(command);
  return ParseResult::kRun;
}

}  // namespace tcgemm::bench
