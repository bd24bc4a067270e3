// Shape suites of tcgemm-bench (`tcgemm-bench --suite FILE`): a list of GEMM shapes and operand forms, each
// run as tcgemm_dgemm (family auto) against cuBLAS DGEMM by the family benchmark's timing and check.
//
// File format, one shape per line:
//   # a comment: '#' starts one anywhere on a line; blank lines are ignored
//   SIZE [FORMS]
// SIZE is N (square: M = N = K = N) or MxNxK, each dimension a whole integer in [1, 2^31 - 1] (cuBLAS takes
// int dimensions); FORMS is a comma-separated list of NN, NT, TN, TT (op(A) op(B); default NN), each at most
// once. Fields are separated by blanks; anything after FORMS is an error. Examples:
//   2048 NN,NT,TN,TT
//   64x64x65536 NN
//   3000x5000x700
// A malformed line, or a file without any shape, is rejected as "FILE:LINE: <why>" before any CUDA call.
// Host only, so the CPU tests check every rule without a GPU.
#pragma once

#include <string>
#include <vector>

#include "family_options.hpp"

namespace tcgemm::bench {

struct SuiteShape {
  Size size{};
  std::vector<std::string> forms;  // "NN", "NT", "TN", "TT", in the file's order
  int line = 0;                    // 1-based line of the file
};

// tcgemm-bench --suite FILE [--dry-run]: the family benchmark's --reps, --warmup, --seed, --alpha, --beta and
// --csv apply; its configuration and shape lists do not (the suite names the shapes; the family is auto).
struct SuiteOptions {
  std::string path;
  std::vector<SuiteShape> shapes;  // parsed when the command line is, so a bad file is a usage error
  bool dry_run = false;            // list the parsed shapes; no GPU needed
};

// Parses the text of a suite file; `name` is the file name used in the messages. On failure returns false
// with *error = "<name>:<line>: <why>" and leaves *out alone.
bool parse_suite_text(const std::string& text, const std::string& name, std::vector<SuiteShape>* out,
                      std::string* error);

// Reads and parses the file at `path` (an unreadable file: "<path>: cannot read: <system's reason>").
bool read_suite_file(const std::string& path, std::vector<SuiteShape>* out, std::string* error);

// The number of (size, form) pairs, i.e. rows of a suite run: the "shapes" its summary counts.
size_t suite_points(const std::vector<SuiteShape>& shapes);

// The dry run's listing: a header line, then one line per point ("M x N x K  FORM  (line L)").
std::string format_suite(const std::string& name, const std::vector<SuiteShape>& shapes);

}  // namespace tcgemm::bench
