#!/usr/bin/env bash
# Checks that the tsc workload reports what TypeScript reports under node: the same
# typescript.js, host and files, run once by QuickJS (tsc-quickjs) and once by node
# (node-check.js), both with N checkers over one program, and the two diagnostic lists
# compared line by line. node-check.js also checks the host's N checkers against TypeScript's
# own program and checker (exit 1 when they differ).
#
#   tsc/scripts/against-node.sh [--checkers N] [--parse first|spread] CORPUS [CORPUS...]
#                                                   e.g. --checkers 8 --parse spread trpc typeorm
#
# Needs node on PATH and the release build of tsc-quickjs (built here if missing).
set -euo pipefail
checkers=1
parse=first
while [ $# -gt 0 ]; do
  case "$1" in
    --checkers) checkers="${2:?--checkers needs a number}"; shift 2 ;;
    --parse) parse="${2:?--parse needs first or spread}"; shift 2 ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || { echo "usage: $0 [--checkers N] [--parse first|spread] CORPUS [CORPUS...]" >&2; exit 2; }
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
cargo build --release -q -p tsc --bin tsc-quickjs
bin="$root/target/release/tsc-quickjs"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
status=0
for corpus in "$@"; do
  "$bin" --corpus "$corpus" --write-input "$work/$corpus.json"
  if ! node "$root/tsc/scripts/node-check.js" "$work/$corpus.json" "$checkers" "$parse" >"$work/$corpus.node" 2>"$work/$corpus.node.err"; then
    echo "$corpus: under node, the host's $checkers checker(s) and TypeScript's own program differ:"
    head -5 "$work/$corpus.node.err"
    status=1
    continue
  fi
  "$bin" --corpus "$corpus" --checkers "$checkers" --parse "$parse" --json --diagnostics >"$work/$corpus.report" 2>"$work/$corpus.quickjs"
  sed -i '/^collect /d; /^parse /d' "$work/$corpus.quickjs"
  node_count=$(grep -c '^[^ ]' "$work/$corpus.node" || true)
  summary="$(cat "$work/$corpus.node.err")"
  types=$(sed -n 's/.*"types": \([0-9]*\).*/\1/p' "$work/$corpus.report" | head -1)
  if diff -u "$work/$corpus.node" "$work/$corpus.quickjs" >"$work/$corpus.diff"; then
    echo "$corpus, $checkers checker(s): same $node_count diagnostics under QuickJS and node, and as TypeScript's own program under node (QuickJS: $types types; $summary)"
  else
    echo "$corpus: the diagnostics differ (- node, + QuickJS):"
    head -40 "$work/$corpus.diff"
    status=1
  fi
done
exit $status
