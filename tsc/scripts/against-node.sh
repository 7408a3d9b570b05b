#!/usr/bin/env bash
# Checks that the tsc workload reports what TypeScript reports under node: the same
# typescript.js, host and files, run once by QuickJS (tsc-quickjs) and once by node
# (node-check.js), and the two diagnostic lists compared line by line.
#
#   tsc/scripts/against-node.sh CORPUS [CORPUS...]      e.g. trpc typeorm
#
# Needs node on PATH and the release build of tsc-quickjs (built here if missing).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
cargo build --release -q -p tsc --bin tsc-quickjs
bin="$root/target/release/tsc-quickjs"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
status=0
for corpus in "$@"; do
  "$bin" --corpus "$corpus" --write-input "$work/$corpus.json"
  node "$root/tsc/scripts/node-check.js" "$work/$corpus.json" >"$work/$corpus.node" 2>"$work/$corpus.node.err"
  "$bin" --corpus "$corpus" --json --diagnostics >"$work/$corpus.report" 2>"$work/$corpus.quickjs"
  node_count=$(grep -c '^[^ ]' "$work/$corpus.node" || true)
  summary="$(cat "$work/$corpus.node.err")"
  types=$(sed -n 's/.*"types": \([0-9]*\).*/\1/p' "$work/$corpus.report" | head -1)
  if diff -u "$work/$corpus.node" "$work/$corpus.quickjs" >"$work/$corpus.diff"; then
    echo "$corpus: same $node_count diagnostics under QuickJS and node (QuickJS: $types types; $summary)"
  else
    echo "$corpus: the diagnostics differ (- node, + QuickJS):"
    head -40 "$work/$corpus.diff"
    status=1
  fi
done
exit $status
