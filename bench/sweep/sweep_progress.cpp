#include "sweep_progress.hpp"

#include <algorithm>
#include <cmath>

#include <unistd.h>

namespace tcgemm::sweep {
namespace {

constexpr const char* kClearToEndOfLine = "\x1b[K";
constexpr int kSecondsPerMinute = 60;
constexpr int kSecondsPerHour = 3600;

std::string position_text(size_t position, size_t total) {
  return std::to_string(position) + "/" + std::to_string(total);
}

}  // namespace

std::string format_duration(double seconds) {
  if (std::isnan(seconds) || seconds < 0) return "--:--";
  const long long s = std::llround(seconds);
  char buf[32];
  if (s >= kSecondsPerHour)
    std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", s / kSecondsPerHour, (s % kSecondsPerHour) / kSecondsPerMinute,
                  s % kSecondsPerMinute);
  else
    std::snprintf(buf, sizeof buf, "%lld:%02lld", s / kSecondsPerMinute, s % kSecondsPerMinute);
  return buf;
}

std::string format_bar(double fraction, int width) {
  if (std::isnan(fraction)) fraction = 0;
  fraction = std::clamp(fraction, 0.0, 1.0);
  const int filled = static_cast<int>(std::floor(fraction * width));
  std::string bar = "[";
  for (int i = 0; i < width; ++i) bar += i < filled ? '=' : (i == filled ? '>' : ' ');
  return bar + "]";
}

double estimate_eta(double elapsed_s, size_t runnable_done, size_t runnable_left) {
  if (runnable_left == 0) return 0.0;
  if (runnable_done == 0) return NAN;
  return elapsed_s / double(runnable_done) * double(runnable_left);
}

std::string format_progress_terminal(size_t position, size_t total, const std::string& label, double elapsed_s,
                                     double eta_s, int bar_width) {
  const double fraction = total ? double(position - 1) / double(total) : 0.0;
  return "\r" + format_bar(fraction, bar_width) + " " + position_text(position, total) + " " + label +
         "  elapsed " + format_duration(elapsed_s) + "  ETA " + format_duration(eta_s) + kClearToEndOfLine;
}

std::string format_progress_plain(size_t position, size_t total, const std::string& label, double elapsed_s,
                                  double eta_s) {
  return "[" + position_text(position, total) + "] " + label + " (elapsed " + format_duration(elapsed_s) +
         ", ETA " + format_duration(eta_s) + ")";
}

std::string format_result_line(size_t position, size_t total, const SweepRow& row) {
  std::string line = "[" + position_text(position, total) + "] " + point_label(row.point) + ": ";
  if (row.status != RowStatus::kOk) return line + status_text(row);
  char buf[128];
  std::snprintf(buf, sizeof buf, "%.2f TFLOP/s", row.tflops);
  line += buf;
  if (!std::isnan(row.ratio_to_cublas)) {
    std::snprintf(buf, sizeof buf, ", %.2f of cuBLAS (%.2f TFLOP/s)", row.ratio_to_cublas, row.cublas_tflops);
    line += buf;
  }
  return line;
}

ProgressReporter::ProgressReporter(std::FILE* out, bool terminal, size_t total, size_t runnable)
    : out_(out), terminal_(terminal), total_(total), runnable_(runnable), start_(std::chrono::steady_clock::now()) {}

bool ProgressReporter::is_terminal(std::FILE* out) { return out && isatty(fileno(out)) == 1; }

double ProgressReporter::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void ProgressReporter::begin_point(size_t position, const std::string& label) {
  if (!out_) return;
  const double t = elapsed();
  const double eta = estimate_eta(t, runnable_done_, runnable_ - std::min(runnable_done_, runnable_));
  if (terminal_) {
    std::fputs(format_progress_terminal(position, total_, label, t, eta, kBarWidth).c_str(), out_);
    bar_shown_ = true;
  } else {
    std::fprintf(out_, "%s\n", format_progress_plain(position, total_, label, t, eta).c_str());
  }
  std::fflush(out_);
}

void ProgressReporter::end_point(size_t position, const SweepRow& row, bool runnable) {
  if (runnable) ++runnable_done_;
  if (!out_) return;
  // On a terminal the result replaces the bar and stays; the next begin_point draws a new bar below it.
  if (terminal_) std::fputs((std::string("\r") + kClearToEndOfLine).c_str(), out_);
  std::fprintf(out_, "%s\n", format_result_line(position, total_, row).c_str());
  bar_shown_ = false;
  std::fflush(out_);
}

void ProgressReporter::finish() {
  if (!out_) return;
  if (terminal_ && bar_shown_) std::fputs((std::string("\r") + kClearToEndOfLine).c_str(), out_);
  std::fprintf(out_, "done in %s\n", format_duration(elapsed()).c_str());
  std::fflush(out_);
}

}  // namespace tcgemm::sweep
