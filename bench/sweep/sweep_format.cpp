#include "sweep_format.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>

namespace tcgemm::sweep {
namespace {

// "ok" cells: numbers with one decimal, as in the article's tables.
constexpr const char* kTflopsCellFormat = "%.1f";
constexpr const char* kTimes = "\xC3\x97";       // U+00D7 multiplication sign, as in the article's row labels
constexpr const char* kEnDash = "\xE2\x80\x93";  // U+2013, the "no value" cell

std::string fmt(const char* format, double v) {
  if (std::isnan(v)) return "";
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string int_or_empty(int64_t v) { return v < 0 ? "" : std::to_string(v); }

// ---- Markdown helpers -------------------------------------------------------------------------------

int32_t column_value(const SweepRow& r, ColumnAxis axis) {
  const tcgemm_config& c = r.point.config;
  switch (axis) {
    case ColumnAxis::kPadA:
    case ColumnAxis::kPadBoth: return c.pad_a;
    case ColumnAxis::kPadB: return c.pad_b;
    case ColumnAxis::kTileK: return c.tile_k;
    case ColumnAxis::kStages: return c.stages;
  }
  return 0;
}

std::string column_header(ColumnAxis axis, int32_t v) {
  const std::string s = std::to_string(v);
  switch (axis) {
    case ColumnAxis::kPadA: return "pad_a = " + s;
    case ColumnAxis::kPadB: return "pad_b = " + s;
    case ColumnAxis::kPadBoth: return "pad_a = pad_b = " + s;
    case ColumnAxis::kTileK: return "tile_k = " + s;
    case ColumnAxis::kStages: return "stages = " + s;
  }
  return s;
}

std::string size_text(int64_t m, int64_t n, int64_t k) {
  if (m == n && n == k) return "M = N = K = " + std::to_string(m);
  return "M = " + std::to_string(m) + ", N = " + std::to_string(n) + ", K = " + std::to_string(k);
}

// The row label: the tile, plus tile_k when tile_k is not the column axis (it is then the same for every
// row, as the article's "32×32×4").
std::string row_label(const SweepRow& r, ColumnAxis axis) {
  const tcgemm_config& c = r.point.config;
  std::string label = std::to_string(c.tile_m) + kTimes + std::to_string(c.tile_n);
  if (axis != ColumnAxis::kTileK) label += kTimes + std::to_string(c.tile_k);
  return label;
}

// Caption parts for the axes that are neither rows nor columns. Knobs a family does not have are left
// out (shared_a has no B tile and one stage; sm90_mma has a fixed shared-memory layout).
std::string group_caption(const SweepRow& r, ColumnAxis axis) {
  const tcgemm_config& c = r.point.config;
  const bool fp64 = r.point.precision == Precision::kFp64;  // else the WMMA family: both pads and stages
  const bool has_pad_a = !fp64 || c.family != TCGEMM_FAMILY_SM90_MMA;
  const bool has_pad_b = !fp64 || c.family == TCGEMM_FAMILY_SHARED_AB;
  const bool has_stages = !fp64 || c.family != TCGEMM_FAMILY_SHARED_A;
  std::vector<std::string> parts;
  const bool pads_are_columns = axis == ColumnAxis::kPadBoth;
  if (!pads_are_columns) {
    const bool show_a = has_pad_a && axis != ColumnAxis::kPadA;
    const bool show_b = has_pad_b && axis != ColumnAxis::kPadB;
    if (show_a && show_b && c.pad_a == c.pad_b) {
      parts.push_back("pad_a = pad_b = " + std::to_string(c.pad_a));
    } else {
      if (show_a) parts.push_back("pad_a = " + std::to_string(c.pad_a));
      if (show_b) parts.push_back("pad_b = " + std::to_string(c.pad_b));
    }
  }
  if (has_stages && axis != ColumnAxis::kStages) parts.push_back("stages = " + std::to_string(c.stages));
  std::string caption = family_text(r.point) + ", " + size_text(r.point.m, r.point.n, r.point.k);
  for (size_t i = 0; i < parts.size(); ++i) caption += (i == 0 ? ": " : ", ") + parts[i];
  return caption;
}

bool parse_number(const std::string& s, double* v) {
  if (s.empty()) return false;
  char* end = nullptr;
  *v = std::strtod(s.c_str(), &end);
  return end != s.c_str() && *end == '\0';
}

double median_of(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  const size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

// Numbered footnotes, one per distinct reason text, shared by the whole document.
class Footnotes {
 public:
  std::string mark(const std::string& text) {
    auto it = numbers_.find(text);
    if (it == numbers_.end()) {
      it = numbers_.emplace(text, int(order_.size()) + 1).first;
      order_.push_back(text);
    }
    return "[^" + std::to_string(it->second) + "]";
  }
  std::string render() const {
    std::string out;
    for (size_t i = 0; i < order_.size(); ++i) out += "[^" + std::to_string(i + 1) + "]: " + order_[i] + "\n";
    return out;
  }

 private:
  std::map<std::string, int> numbers_;
  std::vector<std::string> order_;
};

// The CSV's kernel column: which of the WMMA family's kernels a lower-precision point runs (the pipelined one for
// its tile's fixed configuration, the Markdown tables' footnoted cell); empty for the FP64 families and for a
// configuration the library refuses.
std::string kernel_text(const SweepPoint& p) {
  if (p.precision == Precision::kFp64 || !p.valid()) return "";
  return p.fixed_kernel ? "pipelined" : "run-time";
}

// The note on a cell that runs another kernel than its neighbours: a lower precision's fixed configuration.
std::string fixed_kernel_text(const SweepPoint& p) {
  std::string text =
      "this tile's fixed configuration (tile_k of four k steps, 16-byte paddings, 3 stages), which the WMMA family "
      "runs on its pipelined kernel (every one of these fields a compile-time constant); the other cells run the "
      "run-time kernel";
  if (p.precision == Precision::kTf32)
    text += ", and on operand copies rounded to TF32 once, where the run-time kernel rounds each element of each "
            "fragment it loads";
  return text + ".";
}

struct Group {
  std::string caption;
  std::vector<const SweepRow*> rows;
};

std::string table_header(ColumnAxis axis, const std::vector<int32_t>& columns) {
  std::string out = std::string("| tile_m") + kTimes + "tile_n";
  if (axis != ColumnAxis::kTileK) out += std::string(kTimes) + "tile_k";
  out += " |";
  for (int32_t c : columns) out += " " + column_header(axis, c) + " |";
  out += "\n|---|";
  for (size_t i = 0; i < columns.size(); ++i) out += "---:|";
  return out + "\n";
}

void render_group(const Group& g, ColumnAxis axis, const MarkdownOptions& opt, Footnotes* notes, std::string* out) {
  std::vector<int32_t> columns;
  std::vector<std::string> row_labels;
  for (const SweepRow* r : g.rows) {
    const int32_t c = column_value(*r, axis);
    if (std::find(columns.begin(), columns.end(), c) == columns.end()) columns.push_back(c);
    const std::string label = row_label(*r, axis);
    if (std::find(row_labels.begin(), row_labels.end(), label) == row_labels.end()) row_labels.push_back(label);
  }
  std::sort(columns.begin(), columns.end());
  const auto find_cell = [&](const std::string& label, int32_t col) -> const SweepRow* {
    for (const SweepRow* r : g.rows)
      if (row_label(*r, axis) == label && column_value(*r, axis) == col) return r;
    return nullptr;
  };

  const SweepRow& first = *g.rows.front();
  *out += "### " + g.caption + "\n\n";
  *out += "TFLOP/s";
  if (opt.reps > 0) *out += ", median of " + std::to_string(opt.reps) + " timed runs";
  if (!first.device.empty()) *out += ", on " + first.device;
  *out += " (best of each row in bold).\n\n";

  *out += table_header(axis, columns);
  std::vector<double> cublas;
  const SweepRow* best = nullptr;
  for (const std::string& label : row_labels) {
    const SweepRow* row_best = nullptr;
    int ok_cells = 0;
    for (int32_t col : columns) {
      const SweepRow* r = find_cell(label, col);
      if (r && r->status == RowStatus::kOk && !std::isnan(r->tflops)) {
        ++ok_cells;
        if (!row_best || r->tflops > row_best->tflops) row_best = r;
        if (!best || r->tflops > best->tflops) best = r;
        if (!std::isnan(r->cublas_tflops)) cublas.push_back(r->cublas_tflops);
      }
    }
    *out += "| " + label + " |";
    for (int32_t col : columns) {
      const SweepRow* r = find_cell(label, col);
      std::string cell;
      if (!r) {
        cell = "";
      } else if (r->status == RowStatus::kOk && !std::isnan(r->tflops)) {
        cell = fmt(kTflopsCellFormat, r->tflops);
        if (r == row_best && ok_cells > 1) cell = "**" + cell + "**";
        if (r->point.fixed_kernel) cell += notes->mark(fixed_kernel_text(r->point));
      } else if (r->status == RowStatus::kFailed) {
        cell = "FAIL" + notes->mark(status_text(*r));
      } else if (r->status == RowStatus::kError) {
        cell = "error" + notes->mark(status_text(*r));
      } else {
        cell = std::string(kEnDash) + notes->mark(status_text(*r));
      }
      *out += " " + cell + " |";
    }
    *out += "\n";
  }
  *out += "\n";
  // Each note is its own paragraph (Markdown joins consecutive lines).
  if (!cublas.empty())
    *out += reference_text(first.point) + " on the same data: " + fmt("%.1f", median_of(cublas)) +
            " TFLOP/s (median over this table's timed points).\n\n";
  if (best) {
    *out += "Best: " + fmt("%.1f", best->tflops) + " TFLOP/s at " + row_label(*best, axis) + ", " +
            column_header(axis, column_value(*best, axis));
    if (!std::isnan(best->ratio_to_cublas)) *out += " (" + fmt("%.2f", best->ratio_to_cublas) + " of cuBLAS)";
    *out += ".\n\n";
  }

  // Bank-conflict evidence, when ncu counters were merged.
  bool any_counts = false;
  std::set<std::string> texts;
  for (const SweepRow* r : g.rows) {
    double v = 0;
    if (parse_number(r->bank_conflicts_ld, &v) || parse_number(r->bank_conflicts_st, &v))
      any_counts = true;
    else if (r->status == RowStatus::kOk && r->bank_conflicts_ld != kNotMeasured)
      texts.insert(r->bank_conflicts_ld);
  }
  if (any_counts) {
    *out += "Shared-memory bank conflicts per GEMM call (ncu, loads / stores):\n\n";
    *out += table_header(axis, columns);
    for (const std::string& label : row_labels) {
      *out += "| " + label + " |";
      for (int32_t col : columns) {
        const SweepRow* r = find_cell(label, col);
        double ld = 0, st = 0;
        std::string cell = kEnDash;
        if (r && parse_number(r->bank_conflicts_ld, &ld) && parse_number(r->bank_conflicts_st, &st))
          cell = format_count(ld) + " / " + format_count(st);
        *out += " " + cell + " |";
      }
      *out += "\n";
    }
    *out += "\n";
  } else if (!texts.empty()) {
    std::string joined;
    for (const std::string& t : texts) joined += (joined.empty() ? "" : "; ") + t;
    *out += "Shared-memory bank conflicts: " + joined + ".\n\n";
  }
}

}  // namespace

SweepRow make_row(const SweepPoint& point, const std::string& device) {
  SweepRow row;
  row.point = point;
  row.device = device;
  if (!point.valid()) {
    row.status = RowStatus::kSkipped;
    row.reason = point.invalid_reason;
  }
  return row;
}

std::string status_text(const SweepRow& row) {
  switch (row.status) {
    case RowStatus::kOk: return "ok";
    case RowStatus::kSkipped: return "skipped: " + row.reason;
    case RowStatus::kFailed: return "failed: " + row.reason;
    case RowStatus::kError: return "error: " + row.reason;
    case RowStatus::kProfiled: return "profiled";
    case RowStatus::kNotRun: return row.reason.empty() ? "not run" : "not run: " + row.reason;
  }
  return "unknown";
}

std::string csv_quote(const std::string& field) {
  if (field.find_first_of(",\"\r\n") == std::string::npos) return field;
  std::string out = "\"";
  for (char ch : field) {
    if (ch == '"') out += '"';
    out += ch;
  }
  return out + "\"";
}

std::vector<std::string> split_csv_record(const std::string& line) {
  std::vector<std::string> fields;
  std::string cur;
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char ch = line[i];
    if (quoted) {
      if (ch == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cur += '"';
        ++i;
      } else if (ch == '"') {
        quoted = false;
      } else {
        cur += ch;
      }
    } else if (ch == '"') {
      quoted = true;
    } else if (ch == ',') {
      fields.push_back(cur);
      cur.clear();
    } else if (ch != '\r' && ch != '\n') {
      cur += ch;
    }
  }
  fields.push_back(cur);
  return fields;
}

std::string csv_header() {
  return "device,family,kernel,M,N,K,tile_m,tile_n,tile_k,pad_a,pad_b,stages,smem_bytes,blocks_per_sm,median_ms,"
         "min_ms,max_ms,tflops,cublas_tflops,ratio_to_cublas,max_rel_err,bank_conflicts_ld,bank_conflicts_st,status";
}

std::string csv_record(const SweepRow& r) {
  const tcgemm_config& c = r.point.config;
  const std::vector<std::string> fields = {
      r.device,
      family_text(r.point),
      kernel_text(r.point),
      std::to_string(r.point.m),
      std::to_string(r.point.n),
      std::to_string(r.point.k),
      std::to_string(c.tile_m),
      std::to_string(c.tile_n),
      std::to_string(c.tile_k),
      std::to_string(c.pad_a),
      std::to_string(c.pad_b),
      std::to_string(c.stages),
      int_or_empty(r.point.smem_bytes),
      int_or_empty(r.blocks_per_sm),
      fmt("%.6g", r.median_ms),
      fmt("%.6g", r.min_ms),
      fmt("%.6g", r.max_ms),
      fmt("%.3f", r.tflops),
      fmt("%.3f", r.cublas_tflops),
      fmt("%.4f", r.ratio_to_cublas),
      fmt("%.3e", r.max_rel_err),
      r.bank_conflicts_ld,
      r.bank_conflicts_st,
      status_text(r),
  };
  std::string line;
  for (size_t i = 0; i < fields.size(); ++i) line += (i ? "," : "") + csv_quote(fields[i]);
  return line;
}

std::string format_csv(const std::vector<SweepRow>& rows) {
  std::string out = csv_header() + "\n";
  for (const SweepRow& r : rows) out += csv_record(r) + "\n";
  return out;
}

ColumnAxis choose_column_axis(const std::vector<SweepRow>& rows) {
  std::set<int32_t> tile_k, pad_a, pad_b, stages;
  bool pads_equal = true;
  for (const SweepRow& r : rows) {
    const tcgemm_config& c = r.point.config;
    tile_k.insert(c.tile_k);
    pad_a.insert(c.pad_a);
    pad_b.insert(c.pad_b);
    stages.insert(c.stages);
    pads_equal = pads_equal && c.pad_a == c.pad_b;
  }
  if (tile_k.size() > 1) return ColumnAxis::kTileK;
  if (pad_a.size() > 1 && pad_b.size() > 1 && pads_equal) return ColumnAxis::kPadBoth;
  if (pad_a.size() > 1) return ColumnAxis::kPadA;
  if (pad_b.size() > 1) return ColumnAxis::kPadB;
  if (stages.size() > 1) return ColumnAxis::kStages;
  return ColumnAxis::kPadA;
}

std::string format_markdown(const std::vector<SweepRow>& rows, const MarkdownOptions& options) {
  if (rows.empty()) return "No sweep points.\n";
  const ColumnAxis axis = choose_column_axis(rows);
  std::vector<Group> groups;
  for (const SweepRow& r : rows) {
    const std::string caption = group_caption(r, axis);
    auto it = std::find_if(groups.begin(), groups.end(), [&](const Group& g) { return g.caption == caption; });
    if (it == groups.end()) {
      groups.push_back(Group{caption, {}});
      it = groups.end() - 1;
    }
    it->rows.push_back(&r);
  }
  Footnotes notes;
  std::string out;
  for (const Group& g : groups) render_group(g, axis, options, &notes, &out);
  out += notes.render();
  return out;
}

std::string format_count(double v) {
  if (std::isnan(v)) return "";
  const double a = std::fabs(v);
  char buf[32];
  // Thresholds sit half a unit below 1000 so that 999,999 prints as "1.00M", not "1000k".
  constexpr double kRoundUp = 999.5;
  if (a < kRoundUp) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
  } else {
    const char* suffix = "k";
    double scaled = v / 1e3;
    if (a >= kRoundUp * 1e6) {
      suffix = "G";
      scaled = v / 1e9;
    } else if (a >= kRoundUp * 1e3) {
      suffix = "M";
      scaled = v / 1e6;
    }
    const double s = std::fabs(scaled);
    std::snprintf(buf, sizeof buf, s >= 99.95 ? "%.0f%s" : s >= 9.995 ? "%.1f%s" : "%.2f%s", scaled, suffix);
  }
  return buf;
}

}  // namespace tcgemm::sweep
