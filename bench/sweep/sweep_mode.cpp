#include "sweep_mode.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sweep_format.hpp"
#include "sweep_grid.hpp"
#include "sweep_ncu.hpp"
#include "sweep_runner.hpp"

namespace tcgemm::sweep {
namespace {

constexpr int kExitOk = 0;
constexpr int kExitPointFailed = 1;
constexpr int kExitUsage = 2;

bool read_file(const std::string& path, std::string* text, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return *error = "cannot open " + path + " for reading", false;
  std::ostringstream ss;
  ss << in.rdbuf();
  *text = ss.str();
  return true;
}

bool write_file(const std::string& path, const std::string& text, std::string* error) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return *error = "cannot open " + path + " for writing", false;
  out << text;
  out.close();
  if (!out) return *error = "writing " + path + " failed", false;
  return true;
}

void print_dry_run(const std::vector<SweepPoint>& points) {
  std::printf("%zu points (host-side validation only; the device check happens when the sweep runs):\n",
              points.size());
  for (const SweepPoint& p : points) {
    if (p.valid())
      std::printf("  %3zu  %-48s  %7lld bytes shared, %4d threads\n", p.index + 1, point_label(p).c_str(),
                  static_cast<long long>(p.smem_bytes), p.threads);
    else
      std::printf("  %3zu  %-48s  invalid: %s\n", p.index + 1, point_label(p).c_str(), p.invalid_reason.c_str());
  }
}

struct Counts {
  size_t ok = 0, skipped = 0, failed = 0, error = 0, profiled = 0, not_run = 0;
};

Counts count(const std::vector<SweepRow>& rows) {
  Counts c;
  for (const SweepRow& r : rows) {
    switch (r.status) {
      case RowStatus::kOk: ++c.ok; break;
      case RowStatus::kSkipped: ++c.skipped; break;
      case RowStatus::kFailed: ++c.failed; break;
      case RowStatus::kError: ++c.error; break;
      case RowStatus::kProfiled: ++c.profiled; break;
      case RowStatus::kNotRun: ++c.not_run; break;
    }
  }
  return c;
}

}  // namespace

int run_sweep(const CliOptions& opt) {
  std::string error;
  const std::vector<SweepPoint> points = expand(opt.spec);
  if (opt.dry_run) {
    print_dry_run(points);
    return kExitOk;
  }

  NcuMetrics ncu;
  if (!opt.ncu_metrics_path.empty()) {
    std::string text;
    if (!read_file(opt.ncu_metrics_path, &text, &error) || !parse_ncu_metrics(text, &ncu, &error)) {
      std::fprintf(stderr, "tcgemm-bench sweep: --ncu-metrics %s: %s\n", opt.ncu_metrics_path.c_str(), error.c_str());
      return kExitUsage;
    }
  }

  SweepRunner runner(opt.run);
  if (!runner.init(&error)) {
    std::fprintf(stderr, "tcgemm-bench sweep: cannot run on the GPU: %s\n", error.c_str());
    return kExitUsage;
  }
  const std::string family = points.empty() ? std::string(family_name(opt.spec.family)) : family_text(points.front());
  std::fprintf(stderr, "tcgemm-bench sweep: %s, family %s, M = %lld, N = %lld, K = %lld, %zu points, %s\n",
               runner.device_name().c_str(), family.c_str(), static_cast<long long>(opt.spec.m),
               static_cast<long long>(opt.spec.n), static_cast<long long>(opt.spec.k), points.size(),
               opt.run.profile_once ? "each run once for profiling"
                                    : ("warm-up " + std::to_string(opt.run.warmup) + ", median of " +
                                       std::to_string(opt.run.reps) + " timed runs")
                                          .c_str());

  std::vector<SweepRow> rows = run_points(runner, points, stderr);
  const Counts c = count(rows);

  if (!opt.run.profile_once) {
    if (!opt.ncu_metrics_path.empty()) merge_ncu_metrics(ncu, &rows);
    const std::string markdown = format_markdown(rows, MarkdownOptions{opt.run.reps});
    std::fputs(markdown.c_str(), stdout);
    if (!opt.csv_path.empty() && !write_file(opt.csv_path, format_csv(rows), &error))
      std::fprintf(stderr, "tcgemm-bench sweep: %s\n", error.c_str());
    if (!opt.md_path.empty() && !write_file(opt.md_path, markdown, &error))
      std::fprintf(stderr, "tcgemm-bench sweep: %s\n", error.c_str());
  } else if (!opt.csv_path.empty() && !write_file(opt.csv_path, format_csv(rows), &error)) {
    std::fprintf(stderr, "tcgemm-bench sweep: %s\n", error.c_str());
  }

  std::fprintf(stderr, "tcgemm-bench sweep: %zu points: %zu ok, %zu skipped, %zu failed, %zu errors", rows.size(),
               c.ok, c.skipped, c.failed, c.error);
  if (c.profiled) std::fprintf(stderr, ", %zu profiled", c.profiled);
  if (c.not_run) std::fprintf(stderr, ", %zu not run", c.not_run);
  std::fprintf(stderr, "\n");
  if (!opt.csv_path.empty()) std::fprintf(stderr, "tcgemm-bench sweep: CSV written to %s\n", opt.csv_path.c_str());
  if (!opt.md_path.empty() && !opt.run.profile_once)
    std::fprintf(stderr, "tcgemm-bench sweep: Markdown written to %s\n", opt.md_path.c_str());
  return c.failed || c.error || c.not_run ? kExitPointFailed : kExitOk;
}

}  // namespace tcgemm::sweep
