// tcgemm-plan-check: how close the plan model's choice comes to the best measured candidate, shape by shape.
// Host only (no GPU): it reads tcgemm-bench CSV files of sm90_mma runs (--family sm90_mma with tiles, stages
// and --k-splits lists, one CSV row per measured candidate), and for every shape (form, m, n, k) with at least
// two measured candidates it lets the model choose among them as tcgemm_dgemm would (same filters, same order,
// same tie rule: api/dgemm_plan.hpp) and reports time(model's pick) / time(best measured). The geometric mean
// of that loss over the shapes is the calibration score docs/tuning.md quotes.
//   tcgemm-plan-check [--verbose | --candidates] [--fail-above LOSS] FILE.csv...
// (--candidates also prints the model's time and the measured one for every candidate.)
// Exit status: 0, 1 when --fail-above is given and the geometric mean loss exceeds it, 2 on a usage or input
// error.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "api/dgemm_plan.hpp"
#include "families/sm90/rules.hpp"
#include "sweep/sweep_format.hpp"

namespace {

using tcgemm::detail::PlanDevice;
using tcgemm::sweep::split_csv_record;

struct Measured {
  int shape = -1;
  int64_t requested = 1;  // --k-splits (1: none)
  double us = 0.0;        // mean over the rows of this candidate
  int rows = 0;
};
using ShapeKey = std::tuple<std::string, int64_t, int64_t, int64_t>;  // form, m, n, k

// Adds the sm90_mma rows of one tcgemm-bench CSV; false (with a message) on a malformed file.
bool read_csv(const char* path, std::map<ShapeKey, std::map<std::pair<int, int64_t>, Measured>>& shapes) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "tcgemm-plan-check: cannot read %s\n", path);
    return false;
  }
  std::string line;
  if (!std::getline(in, line)) {
    std::fprintf(stderr, "tcgemm-plan-check: %s is empty\n", path);
    return false;
  }
  const std::vector<std::string> head = split_csv_record(line);
  auto col = [&](const char* name) {
    const auto it = std::find(head.begin(), head.end(), name);
    return it == head.end() ? -1 : int(it - head.begin());
  };
  const int c_family = col("family"), c_config = col("config"), c_trans = col("trans"), c_m = col("m"),
            c_n = col("n"), c_k = col("k"), c_status = col("status"), c_ms = col("ms");
  if (std::min({c_family, c_config, c_trans, c_m, c_n, c_k, c_status, c_ms}) < 0) {
    std::fprintf(stderr, "tcgemm-plan-check: %s: not a tcgemm-bench CSV (family, config, trans, m, n, k, status, ms)\n",
                 path);
    return false;
  }
  int line_no = 1;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty()) continue;
    const std::vector<std::string> f = split_csv_record(line);
    if (int(f.size()) != int(head.size())) {
      std::fprintf(stderr, "tcgemm-plan-check: %s:%d: %zu fields, the header has %zu\n", path, line_no, f.size(),
                   head.size());
      return false;
    }
    if (f[c_family] != "sm90_mma" || f[c_status] != "pass") continue;
    int tm = 0, tn = 0, tk = 0;
    if (std::sscanf(f[c_config].c_str(), "%dx%dx%d", &tm, &tn, &tk) != 3) {
      std::fprintf(stderr, "tcgemm-plan-check: %s:%d: config '%s' has no MxNxK tile\n", path, line_no,
                   f[c_config].c_str());
      return false;
    }
    const int shape = tcgemm::detail::find_sm90_shape(tm, tn, tk);
    if (shape < 0) continue;  // a tile the library no longer has
    int64_t requested = 1;
    const size_t ks = f[c_config].find(" ks ");
    if (ks != std::string::npos) requested = std::max<int64_t>(1, std::atoll(f[c_config].c_str() + ks + 4));
    const ShapeKey key{f[c_trans], std::atoll(f[c_m].c_str()), std::atoll(f[c_n].c_str()), std::atoll(f[c_k].c_str())};
    Measured& c = shapes[key][{shape, requested}];
    c.shape = shape;
    c.requested = requested;
    c.us = (c.us * c.rows + std::atof(f[c_ms].c_str()) * 1000.0) / (c.rows + 1);
    ++c.rows;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  bool verbose = false, candidates = false;
  double fail_above = 0.0;
  std::vector<const char*> files;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--candidates") {
      verbose = candidates = true;
    } else if (a == "--verbose") {
      verbose = true;
    } else if (a == "--fail-above" && i + 1 < argc) {
      fail_above = std::atof(argv[++i]);
      if (!(fail_above >= 1.0)) {
        std::fprintf(stderr, "tcgemm-plan-check: --fail-above %s: a loss is >= 1\n", argv[i]);
        return 2;
      }
    } else if (a == "-h" || a == "--help" || a.rfind("--", 0) == 0) {
      std::fprintf(a == "-h" || a == "--help" ? stdout : stderr,
                   "usage: tcgemm-plan-check [--verbose | --candidates] [--fail-above LOSS] FILE.csv...\n"
                   "For each shape of the tcgemm-bench CSVs (sm90_mma rows) with >= 2 measured candidates: the "
                   "model's pick among them, as tcgemm_dgemm would choose, against the fastest; then the "
                   "geometric mean and the worst of time(pick) / time(best).\n");
      return a == "-h" || a == "--help" ? 0 : 2;
    } else {
      files.push_back(argv[i]);
    }
  }
  if (files.empty()) {
    std::fprintf(stderr, "tcgemm-plan-check: no CSV file given (--help)\n");
    return 2;
  }
  std::map<ShapeKey, std::map<std::pair<int, int64_t>, Measured>> shapes;
  for (const char* f : files)
    if (!read_csv(f, shapes)) return 2;

  // The H100 the model's constants describe (the measurements are from it).
  PlanDevice dev;
  dev.cc_major = 9;
  dev.sm_count = 132;
  dev.sm90_code = true;
  dev.cluster_room = &tcgemm::detail::kH100ClusterRoom;
  double log_sum = 0.0, worst = 1.0;
  int counted = 0;
  std::string worst_shape;
  for (const auto& [key, cands] : shapes) {
    if (cands.size() < 2) continue;
    const auto& [form, m, n, k] = key;
    if (form.size() != 2) continue;
    double best_us = 1e300;
    // plan_dgemm's order: kSm90Shapes order, then growing slice count (the map's order).
    bool have = false;
    tcgemm_plan pick{};
    double pick_us = 0.0;
    for (const auto& [id, c] : cands) {
      best_us = std::min(best_us, c.us);
      const bool shape_considered = tcgemm::detail::sm90_shape_considered(c.shape, form[0], form[1], m, n, k);
      const tcgemm_plan p = tcgemm::detail::plan_sm90_candidate(dev, c.shape, c.requested, form[0], form[1], m, n, k);
      const bool considered = shape_considered && tcgemm::detail::sm90_candidate_considered(p);
      if (candidates)
        std::printf("  %lldx%lldx%lld %s %dx%d %lld slices%s: model %.1f us, measured %.1f us%s\n",
                    static_cast<long long>(m), static_cast<long long>(n), static_cast<long long>(k), form.c_str(),
                    p.config.tile_m, p.config.tile_n, static_cast<long long>(p.k_slices),
                    p.cluster_split ? " (cluster)" : "", p.predicted_us, c.us, considered ? "" : " [not considered]");
      if (!considered) continue;
      if (!have || tcgemm::detail::plan_prefers(p, pick)) {
        pick = p;
        pick_us = c.us;
        have = true;
      }
    }
    if (!have) continue;
    const double loss = pick_us / best_us;
    log_sum += std::log(loss);
    ++counted;
    char name[96];
    std::snprintf(name, sizeof name, "%lldx%lldx%lld %s", static_cast<long long>(m), static_cast<long long>(n),
                  static_cast<long long>(k), form.c_str());
    if (loss > worst) {
      worst = loss;
      worst_shape = name;
    }
    if (verbose || loss > 1.02)
      std::printf("%-22s model: %dx%d, %lld slices, %.1f us; best measured %.1f us; loss %.3f\n", name,
                  pick.config.tile_m, pick.config.tile_n, static_cast<long long>(pick.k_slices), pick_us, best_us,
                  loss);
  }
  if (counted == 0) {
    std::fprintf(stderr, "tcgemm-plan-check: no shape with two or more measured sm90_mma candidates\n");
    return 2;
  }
  const double geomean = std::exp(log_sum / counted);
  std::printf("%d shapes: geometric mean loss %.4f, worst %.3f%s%s\n", counted, geomean, worst,
              worst_shape.empty() ? "" : " at ", worst_shape.c_str());
  return fail_above > 0.0 && geomean > fail_above ? 1 : 0;
}
