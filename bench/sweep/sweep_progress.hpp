// Progress of a running sweep: on a terminal, one redrawn line with a bar, the point being run and an ETA;
// otherwise (a log file, a pipe, ctest) plain lines, one when a point starts and one with its result.
// The formatting functions are pure, so the CPU tests check their exact text.
#pragma once

#include <chrono>
#include <cstdio>
#include <string>

#include "sweep_format.hpp"

namespace tcgemm::sweep {

// "0:07", "12:34", "1:02:03"; "--:--" when unknown (NaN or negative).
std::string format_duration(double seconds);
// "[=====>    ]" with `width` cells between the brackets; fraction is clamped to [0, 1].
std::string format_bar(double fraction, int width);
// Remaining time from the points run so far: elapsed / done * left. NaN before the first point finishes.
double estimate_eta(double elapsed_s, size_t runnable_done, size_t runnable_left);

// Terminal line (starts with '\r', ends with "\x1b[K" to clear what a longer previous line left):
// "\r[===>      ] 3/16 shared_a 32x32x4 pad_a=4 pad_b=0 stages=1  elapsed 0:05  ETA 0:20\x1b[K"
// position is 1-based.
std::string format_progress_terminal(size_t position, size_t total, const std::string& label, double elapsed_s,
                                     double eta_s, int bar_width);
// Plain line, no newline: "[3/16] shared_a 32x32x4 pad_a=4 pad_b=0 stages=1 (elapsed 0:05, ETA 0:20)"
std::string format_progress_plain(size_t position, size_t total, const std::string& label, double elapsed_s,
                                  double eta_s);
// Result line, no newline: "[3/16] shared_a ... stages=1: 9.23 TFLOP/s, 0.17 of cuBLAS (55.61 TFLOP/s)"
// or "[3/16] shared_a ...: skipped: <reason>".
std::string format_result_line(size_t position, size_t total, const SweepRow& row);

// Writes progress to `out` (normally stderr). terminal = isatty(fileno(out)) unless forced.
class ProgressReporter {
 public:
  static constexpr int kBarWidth = 24;
  // total: all points; runnable: those expected to run (the ETA is spread over these only, skipped points
  // take no time).
  ProgressReporter(std::FILE* out, bool terminal, size_t total, size_t runnable);
  void begin_point(size_t position, const std::string& label);
  // runnable: whether this point was one of the `runnable` ones (it counts towards the ETA).
  void end_point(size_t position, const SweepRow& row, bool runnable);
  void finish();
  static bool is_terminal(std::FILE* out);

 private:
  double elapsed() const;
  std::FILE* out_;
  bool terminal_;
  size_t total_, runnable_, runnable_done_ = 0;
  std::chrono::steady_clock::time_point start_;
  bool bar_shown_ = false;
};

}  // namespace tcgemm::sweep
