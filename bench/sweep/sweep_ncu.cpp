#include "sweep_ncu.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace tcgemm::sweep {
namespace {

constexpr const char* kKernelNameColumn = "Kernel Name";

std::string trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t\r\n");
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(" \t\r\n") - a + 1);
}

// ncu may print counters with thousands separators ("1,234,567") inside the quoted field.
bool parse_counter(const std::string& raw, double* v) {
  std::string s;
  for (char c : raw)
    if (c != ',' && c != ' ') s += c;
  if (s.empty()) return false;
  char* end = nullptr;
  *v = std::strtod(s.c_str(), &end);
  return end != s.c_str() && *end == '\0';
}

// The point key inside a (renamed) kernel name: from the prefix up to the first character a key cannot
// hold (ncu may decorate the range name, e.g. with a trailing '/').
std::string extract_key(const std::string& kernel_name) {
  const size_t pos = kernel_name.find(kPointKeyPrefix);
  if (pos == std::string::npos) return "";
  size_t end = pos;
  while (end < kernel_name.size()) {
    const unsigned char c = static_cast<unsigned char>(kernel_name[end]);
    if (!(std::isalnum(c) || c == '_' || c == ':' || c == '=' || c == '-')) break;
    ++end;
  }
  return kernel_name.substr(pos, end - pos);
}

int find_column(const std::vector<std::string>& header, const std::string& name) {
  for (size_t i = 0; i < header.size(); ++i)
    if (trim(header[i]) == name) return int(i);
  return -1;
}

}  // namespace

bool parse_ncu_metrics(const std::string& text, NcuMetrics* out, std::string* error) {
  NcuMetrics m;
  std::istringstream in(text);
  std::string line;
  std::vector<std::string> header;
  int col_name = -1, col_ld = -1, col_st = -1, col_regs = -1;
  while (std::getline(in, line)) {
    const std::string t = trim(line);
    if (t.rfind(kNcuMarker, 0) == 0) {
      m.available = false;
      m.unavailable_text = trim(t.substr(std::string(kNcuMarker).size()));
      if (m.unavailable_text.empty()) m.unavailable_text = "ncu not available";
      *out = m;
      return true;
    }
    if (t.empty()) continue;
    const std::vector<std::string> fields = split_csv_record(t);
    if (header.empty()) {
      // Lines before the header (e.g. "==PROF==" messages) are skipped.
      if (find_column(fields, kKernelNameColumn) < 0) continue;
      header = fields;
      col_name = find_column(header, kKernelNameColumn);
      col_ld = find_column(header, kMetricBankConflictsLd);
      col_st = find_column(header, kMetricBankConflictsSt);
      col_regs = find_column(header, kMetricRegisterLimit);
      if (col_ld < 0 || col_st < 0) {
        *error = std::string("the ncu CSV has no column ") + (col_ld < 0 ? kMetricBankConflictsLd : kMetricBankConflictsSt) +
                 " (was it collected with --metrics " + kMetricBankConflictsLd + "," + kMetricBankConflictsSt + "?)";
        return false;
      }
      continue;
    }
    if (fields.size() != header.size()) continue;
    const std::string key = extract_key(fields[col_name]);
    double ld = 0, st = 0;
    // The raw page's second line holds units, not numbers: skipped by the number check.
    if (key.empty() || !parse_counter(fields[col_ld], &ld) || !parse_counter(fields[col_st], &st)) continue;
    NcuCounters& c = m.by_key[key];
    c.ld += ld;
    c.st += st;
    ++c.kernels;
    double regs = 0;
    if (col_regs >= 0 && parse_counter(fields[col_regs], &regs))
      c.register_block_limit = c.register_block_limit < 0 ? regs : std::min(c.register_block_limit, regs);
  }
  if (header.empty()) {
    *error = "not an ncu CSV export (no 'Kernel Name' column) and no '# tcgemm-sweep-ncu:' marker line";
    return false;
  }
  if (m.by_key.empty()) {
    *error = "the ncu CSV lists no kernel inside a tcgemm-sweep NVTX range; make it with tools/sweep-ncu.sh "
             "(profile with --nvtx, export with --print-nvtx-rename kernel)";
    return false;
  }
  m.available = true;
  *out = m;
  return true;
}

void merge_ncu_metrics(const NcuMetrics& metrics, std::vector<SweepRow>* rows) {
  for (SweepRow& r : *rows) {
    if (!metrics.available) {
      r.bank_conflicts_ld = r.bank_conflicts_st = metrics.unavailable_text;
      continue;
    }
    const auto it = metrics.by_key.find(point_key(r.point));
    if (it == metrics.by_key.end()) {
      r.bank_conflicts_ld = r.bank_conflicts_st = kNotProfiled;
      continue;
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.0f", it->second.ld);
    r.bank_conflicts_ld = buf;
    std::snprintf(buf, sizeof buf, "%.0f", it->second.st);
    r.bank_conflicts_st = buf;
    const double limit = it->second.register_block_limit;
    if (limit >= 0 && r.blocks_per_sm >= 0) r.blocks_per_sm = std::min<int32_t>(r.blocks_per_sm, int32_t(limit));
  }
}

}  // namespace tcgemm::sweep
