// Results of a sweep and their output formats: one CSV row per point, and Markdown tables laid out like
// the article's Table 2 (rows = tile, columns = padding) and Table 3 (rows = tile, columns = tile_k).
// Host only (no CUDA call), so the CPU tests check the exact text.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "sweep_grid.hpp"

namespace tcgemm::sweep {

enum class RowStatus {
  kOk,        // correct result, timed
  kSkipped,   // configuration invalid, or does not fit this device: not run
  kFailed,    // ran, but the result disagrees with cuBLAS beyond the tolerance
  kError,     // the library or CUDA reported an error while running it
  kProfiled,  // --profile-once: run exactly once, not checked or timed
  kNotRun     // not attempted (e.g. the CUDA context was lost at an earlier point)
};

// Text of the bank-conflict columns when no ncu file was merged.
constexpr const char* kNotMeasured = "not measured";

struct SweepRow {
  SweepPoint point;
  std::string device;
  int32_t blocks_per_sm = -1;  // -1: unknown (point not run)
  double median_ms = NAN, min_ms = NAN, max_ms = NAN;
  double tflops = NAN;
  double cublas_tflops = NAN;
  double ratio_to_cublas = NAN;
  double max_rel_err = NAN;  // max |C - C_cublas| / (||row_i(A)|| ||col_j(B)||)
  std::string bank_conflicts_ld = kNotMeasured;
  std::string bank_conflicts_st = kNotMeasured;
  RowStatus status = RowStatus::kNotRun;
  std::string reason;  // why skipped / failed / errored; empty when ok
};

// A row for a point: sizes, configuration and shared memory copied; status skipped (with the validation
// message) when the point is invalid, else not run.
SweepRow make_row(const SweepPoint& point, const std::string& device);

// "ok", "skipped: <reason>", "failed: <reason>", "error: <reason>", "profiled", "not run: <reason>".
std::string status_text(const SweepRow& row);

// ---- CSV -------------------------------------------------------------------------------------------
// Quotes a field when it holds a comma, quote or line break (RFC 4180).
std::string csv_quote(const std::string& field);
// Splits one CSV record (quoted fields with "" escapes). Line breaks inside quotes are not supported.
std::vector<std::string> split_csv_record(const std::string& line);
// The header line, without a trailing newline:
// device,family,kernel,M,N,K,tile_m,tile_n,tile_k,pad_a,pad_b,stages,smem_bytes,blocks_per_sm,median_ms,
// min_ms,max_ms,tflops,cublas_tflops,ratio_to_cublas,max_rel_err,bank_conflicts_ld,bank_conflicts_st,status
// kernel: for a lower-precision point, the WMMA family's kernel that runs it ("pipelined" for its tile's fixed
// configuration, "run-time" otherwise); empty for the FP64 families and for a configuration the library refuses.
// smem_bytes is the configuration's shared memory as the library validates it (for the WMMA family the most any
// operand form needs, with the run-time kernel's stretched 8-wide tiles); blocks_per_sm follows from it.
std::string csv_header();
// One record, without a trailing newline; unknown numbers are empty fields.
std::string csv_record(const SweepRow& row);
// Header plus one record per row, each line ending in '\n'.
std::string format_csv(const std::vector<SweepRow>& rows);

// ---- Markdown --------------------------------------------------------------------------------------
// The axis that becomes the table's columns (rows are always the tile shape).
enum class ColumnAxis { kPadA, kPadB, kPadBoth, kTileK, kStages };
// tile_k when it varies (Table 3), else the padding (pad_a = pad_b when both vary together, else pad_a,
// else pad_b; Table 2), else stages; pad_a when nothing varies.
ColumnAxis choose_column_axis(const std::vector<SweepRow>& rows);

struct MarkdownOptions {
  int reps = 0;  // timed runs per point, for the caption
};

// One table per combination of the axes that are neither rows nor columns (e.g. one per stages value),
// each with a caption, TFLOP/s cells (best of each row in bold), the cuBLAS yardstick and the best point.
// Cells that did not produce a timing show "–" (skipped), "FAIL" or "error" with a footnote holding the
// reason; footnotes are numbered once per document. When ncu counters were merged, a second table per
// group shows the shared-memory bank conflicts (ld / st).
std::string format_markdown(const std::vector<SweepRow>& rows, const MarkdownOptions& options);

// 3 significant digits with k/M/G suffixes: 0 -> "0", 950 -> "950", 12345 -> "12.3k", 1.5e6 -> "1.50M".
std::string format_count(double value);

}  // namespace tcgemm::sweep
