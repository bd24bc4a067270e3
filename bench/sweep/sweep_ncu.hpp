// Bank-conflict counters from Nsight Compute, merged into the sweep's rows.
//
// tools/sweep-ncu.sh runs `tcgemm-bench sweep --profile-once <grid>` under ncu. In that mode every point's GEMM
// call sits inside an NVTX range named point_key(point) ("tcgemm-sweep:shared_a:3200x3200x3200:..."),
// and the report is exported with `--csv --page raw --print-nvtx-rename kernel`, so each profiled kernel
// is listed under the name of the range it ran in. This file reads that export and sums the counters of
// all kernels of one range (one GEMM call). When ncu is missing, or profiling failed, the script writes a
// single marker line instead ("# tcgemm-sweep-ncu: ncu not available"), and the merged columns carry
// that text. Host only.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "sweep_format.hpp"

namespace tcgemm::sweep {

constexpr const char* kMetricBankConflictsLd = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
constexpr const char* kMetricBankConflictsSt = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
// Optional: the blocks-per-SM limit from registers (the one limit the sweep cannot compute itself).
constexpr const char* kMetricRegisterLimit = "launch__occupancy_limit_registers";
constexpr const char* kNcuMarker = "# tcgemm-sweep-ncu:";
// Column text for a point the ncu file has no record of (e.g. skipped, or a different grid).
constexpr const char* kNotProfiled = "not profiled";

struct NcuCounters {
  double ld = 0;
  double st = 0;
  double register_block_limit = -1;  // min over the range's kernels; -1 when not collected
  int kernels = 0;
};

struct NcuMetrics {
  bool available = false;
  std::string unavailable_text;                // the marker's text when !available
  std::map<std::string, NcuCounters> by_key;   // point_key -> summed counters
};

// Parses the file's text (the ncu raw-page CSV export, or a marker line). Returns false with a message
// when it is neither, or names no tcgemm-sweep range.
bool parse_ncu_metrics(const std::string& text, NcuMetrics* out, std::string* error);

// Fills bank_conflicts_ld/st of every row (counts, the marker text, or kNotProfiled) and lowers
// blocks_per_sm to the register limit when ncu measured one.
void merge_ncu_metrics(const NcuMetrics& metrics, std::vector<SweepRow>* rows);

}  // namespace tcgemm::sweep
