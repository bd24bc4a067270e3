#!/usr/bin/env bash
# Shared-memory bank-conflict counters for the points of a sweep grid, measured with Nsight Compute.
#
#   tools/sweep-ncu.sh [-b BENCH_BINARY] [-o OUT.csv] -- <tcgemm-bench sweep grid options>
#   e.g. tools/sweep-ncu.sh -b build/bench/tcgemm-bench -o table2-ncu.csv -- --table2
#        build/bench/tcgemm-bench sweep --table2 --ncu-metrics table2-ncu.csv --csv table2.csv --md table2.md
#
# It runs `tcgemm-bench sweep --profile-once <grid>` under ncu: every point's GEMM runs exactly once,
# untimed, inside an NVTX range named after the point, and ncu collects
#   l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum / _st.sum   (bank conflicts of shared loads/stores)
#   launch__occupancy_limit_registers                                      (blocks/SM allowed by registers)
# with --clock-control none (the GPU keeps its normal clocks). The report is exported as CSV with each
# kernel renamed to its NVTX range, which is the file --ncu-metrics reads. Give the same grid options
# (and size) as the timed sweep, so that the points match.
#
# When ncu is not installed, OUT gets the single line "# tcgemm-sweep-ncu: ncu not available" and the
# sweep's bank-conflict columns say so. When profiling fails (e.g. no permission to read the GPU's
# performance counters), OUT says "ncu failed: ..." and the script exits 1; ncu's log is kept in OUT.log.
# Environment: NCU=/path/to/ncu to pick a specific ncu.
set -euo pipefail

usage() { sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; }
# A usage error says what is wrong, then shows the usage: on stderr, exit status 2.
usage_error() { echo "sweep-ncu: $*" >&2; usage >&2; exit 2; }
# Called with the remaining arguments: without it, a missing value trips set -u on "$2" with an obscure
# "unbound variable".
need_value() { [[ $# -ge 2 && -n "$2" ]] || usage_error "$1 needs a value"; }

bench=""
out="sweep-ncu.csv"
while [[ $# -gt 0 ]]; do
  case "$1" in
    -b|--bench) need_value "$@"; bench="$2"; shift 2 ;;
    -o|--out) need_value "$@"; out="$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    --) shift; break ;;
    # The sweep's own options go after "--": a typo here must not reach ncu as a sweep option.
    *) usage_error "unknown option '$1' (the sweep's options go after --)" ;;
  esac
done

# Default binary: in a build directory in the usual places.
if [[ -z "$bench" ]]; then
  for candidate in build/bench/tcgemm-bench build-*/bench/tcgemm-bench; do
    if [[ -x "$candidate" ]]; then bench="$candidate"; break; fi
  done
fi
if [[ -z "$bench" || ! -x "$bench" ]]; then
  echo "sweep-ncu: tcgemm-bench not found; pass it with -b path/to/tcgemm-bench" >&2
  exit 2
fi
# The grid options are checked by the sweep itself (host only, no GPU) before ncu gets to run it, so that
# a bad option is reported here and not buried in ncu's log as a failed profile.
if ! "$bench" sweep --dry-run "$@" >/dev/null; then
  echo "sweep-ncu: tcgemm-bench sweep rejected the grid options: $*" >&2
  exit 2
fi

ncu_bin="${NCU:-ncu}"
marker="# tcgemm-sweep-ncu:"
if ! command -v "$ncu_bin" >/dev/null 2>&1; then
  echo "$marker ncu not available" > "$out"
  echo "sweep-ncu: '$ncu_bin' not found; wrote $out (the sweep's bank-conflict columns will say 'ncu not available')" >&2
  exit 0
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
bank_metrics="l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"
register_metric="launch__occupancy_limit_registers"

profile() {  # $1 = metric list; the rest = sweep options
  local metrics="$1"; shift
  rm -f "$tmp/report.ncu-rep"
  # The sweep's exit status is not ncu's concern here: a point that errors is reported in its own row;
  # success is judged by whether a report was written.
  "$ncu_bin" --clock-control none --nvtx --metrics "$metrics" --force-overwrite -o "$tmp/report" \
    "$bench" sweep --profile-once "$@" >> "$tmp/ncu.log" 2>&1 || true
  [[ -s "$tmp/report.ncu-rep" ]]
}

echo "sweep-ncu: profiling with $("$ncu_bin" --version 2>/dev/null | tail -n 1)" >&2
if ! profile "$bank_metrics,$register_metric" "$@"; then
  echo "sweep-ncu: no report with $register_metric; retrying with the bank-conflict counters only" >&2
  if ! profile "$bank_metrics" "$@"; then
    cp "$tmp/ncu.log" "$out.log"
    reason="see $out.log"
    if grep -q "ERR_NVGPUCTRPERM" "$tmp/ncu.log"; then
      reason="no permission to read GPU performance counters (ERR_NVGPUCTRPERM); $reason"
    fi
    echo "$marker ncu failed: $reason" > "$out"
    echo "sweep-ncu: ncu failed: $reason" >&2
    tail -n 20 "$tmp/ncu.log" >&2
    exit 1
  fi
fi
cp "$tmp/ncu.log" "$out.log"

# One row per profiled kernel, named after the NVTX range (the point) it ran in; counters in base units.
# The ranges and the marker keep the name "tcgemm-sweep": it names the sweep's data format, not a program.
"$ncu_bin" --import "$tmp/report.ncu-rep" --csv --page raw --print-units base --print-nvtx-rename kernel > "$out"
ranges=$(grep -c 'tcgemm-sweep:' "$out" || true)
echo "sweep-ncu: wrote $out ($ranges kernel records inside the sweep's NVTX ranges); ncu log in $out.log" >&2
if [[ "$ranges" -eq 0 ]]; then
  echo "sweep-ncu: warning: no kernel was renamed after a sweep NVTX range; --ncu-metrics will refuse $out" >&2
  exit 1
fi
