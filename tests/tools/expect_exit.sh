#!/usr/bin/env bash
# Runs a command that must end with a given exit status and say given things on a given stream.
#   expect_exit.sh STATUS stdout|stderr TEXT... -- COMMAND [ARG...]
# Each TEXT is a literal substring that must appear in that stream. stdin is /dev/null, so a command that
# waits for input fails instead of hanging.
set -uo pipefail

fail() { echo "expect_exit: $*" >&2; exit 1; }

[[ $# -ge 4 ]] || fail "usage: expect_exit.sh STATUS stdout|stderr TEXT... -- COMMAND [ARG...]"
status=$1 stream=$2
shift 2
[[ $stream == stdout || $stream == stderr ]] || fail "stream must be stdout or stderr, not '$stream'"
texts=()
while [[ $# -gt 0 && $1 != -- ]]; do texts+=("$1"); shift; done
[[ $# -ge 2 ]] || fail "no command after --"
shift

tmp=$(mktemp -d) || fail "mktemp failed"
trap 'rm -rf "$tmp"' EXIT
"$@" </dev/null >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
printf 'command: %s\nexit status: %s\n--- stdout\n%s\n--- stderr\n%s\n---\n' "$*" "$rc" \
  "$(cat "$tmp/stdout")" "$(cat "$tmp/stderr")"

[[ $rc == "$status" ]] || fail "expected exit status $status, got $rc"
for text in "${texts[@]}"; do
  grep -qF -- "$text" "$tmp/$stream" || fail "$stream does not contain: $text"
done
echo "ok: exit status $status, $stream has ${#texts[@]} expected text(s)"
