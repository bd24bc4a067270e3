// tcgemm-bench's default mode: times tcgemm's DGEMM families against cuBLAS DGEMM on the same data in the
// same process.
//
// For every point (family configuration x trans x size):
//   1. fresh random A, B, C (uniform in [-1, 1], a new seed per point);
//   2. one tcgemm call and one cuBLAS call on the same inputs, compared by the shared reference check
//      (bench/check/reference_check.hpp); a failed check prints FAIL and the point's timing is not reported;
//   3. warm-up (tcgemm and cuBLAS alternately, at least --warmup runs each and 100 ms of GPU time), then
//      --reps rounds of one CUDA-event timed tcgemm run and one cuBLAS run; the medians are reported.
// Output: a table on stdout, optionally the same rows as CSV (--csv FILE).
#pragma once

#include "family_options.hpp"
#include "suite_file.hpp"

namespace tcgemm::bench {

// Exit status: 0 when every point passed or was skipped, 1 when a check failed or CUDA reported an error.
int run_family_bench(const FamilyOptions& options);

// tcgemm-bench --suite FILE: every shape and form of the suite as one point of family auto (tcgemm_dgemm),
// checked and timed exactly as above; a table with the ratio tcgemm/cuBLAS per row, then a summary (minimum
// ratio and its shape, geometric mean of the ratios, rows below 0.90). --csv writes the family benchmark's
// CSV columns. Exit status as run_family_bench.
int run_suite_bench(const FamilyOptions& options, const SuiteOptions& suite);

// tcgemm-bench --suite FILE --dry-run: the parsed shapes on stdout (format_suite); no CUDA call. Returns 0.
int print_suite(const SuiteOptions& suite);

}  // namespace tcgemm::bench
