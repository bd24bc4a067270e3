#!/usr/bin/env bash
# tools/device-run.sh must never delete what the user's LOG_DIR holds: a run with LOG_DIR pointing at a
# directory with a file in it leaves the file alone and writes its logs into a new directory of its own.
# No steps are given, so nothing needs a GPU; the summary and the log archive still go to $OUT.
#   test_device_run.sh path/to/device-run.sh
set -uo pipefail

fail() { echo "test_device_run: $*" >&2; exit 1; }

script=${1:?path to device-run.sh}
work=$(mktemp -d) || fail "mktemp failed"
trap 'rm -rf "$work"' EXIT
mkdir "$work/logs" "$work/out"
echo "the user's file" >"$work/logs/marker.txt"

LOG_DIR="$work/logs" OUT="$work/out" timeout 60 bash "$script" "$work/no-build-needed" </dev/null
rc=$?
[[ $rc == 0 ]] || fail "device-run.sh exited with $rc"

[[ -f "$work/logs/marker.txt" ]] || fail "LOG_DIR's marker.txt was deleted"
[[ $(cat "$work/logs/marker.txt") == "the user's file" ]] || fail "LOG_DIR's marker.txt was changed"
run_dirs=("$work"/logs/tcgemm-device-logs.*)
[[ ${#run_dirs[@]} == 1 && -d ${run_dirs[0]} ]] || fail "no fresh log directory under LOG_DIR: ${run_dirs[*]}"
grep -qF "logs in ${run_dirs[0]}" "$work/out/summary.txt" || fail "summary.txt does not say where the logs are"
tar tzf "$work/out/logs.tgz" >/dev/null || fail "no readable logs.tgz in OUT"
echo "ok: LOG_DIR's file kept, logs in ${run_dirs[0]#"$work"/}"
