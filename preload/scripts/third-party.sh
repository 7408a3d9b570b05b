#!/usr/bin/env bash
# Runs the own test suites of three third-party programs under glibc's malloc and under
# libslice_alloc.so with each policy (nohuge, hybrid, huge), checks that each allocator passes the
# same tests as glibc, and that the statistics show the slice allocator served small requests.
#
#   preload/scripts/third-party.sh [OUT_DIR]        (default target/third-party)
#
# Suites (see "Preloading" in alloc/README.md):
#   cpython  CPython 3.11's regression tests (python -m unittest), 25 modules, PYTHONMALLOC=malloc
#   numpy    numpy's own tests (Debian python3-numpy, pytest), 3 modules, PYTHONMALLOC=malloc
#   glib     GLib's installed tests (Debian libglib2.0-tests), 60 GTest programs, --tap
# Needs: apt-get install libglib2.0-tests python3-numpy python3-pytest python3-hypothesis;
# CPython's full test package (a python3.11 whose lib has test/, as a pyenv build: PYTHON=...).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
OUT=${1:-$ROOT/target/third-party}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

cargo build --release --quiet -p slice-preload
LIB=$ROOT/target/release/libslice_alloc.so

# CPython with its test package: $PYTHON, else the first python3.11 that has test.test_json.
if [[ -z "${PYTHON:-}" ]]; then
  for p in "$HOME"/.pyenv/versions/3.11*/bin/python3.11 /usr/local/bin/python3.11 /usr/bin/python3.11; do
    if [[ -x $p ]] && "$p" -c 'import test.test_json' 2>/dev/null; then PYTHON=$p; break; fi
  done
fi
[[ -n "${PYTHON:-}" ]] || { echo "no python3.11 with its test package (set PYTHON)" >&2; exit 2; }
DEBIAN_PYTHON=/usr/bin/python3
GLIB_TESTS=/usr/libexec/installed-tests/glib
[[ -d $GLIB_TESTS ]] || { echo "apt-get install libglib2.0-tests" >&2; exit 2; }
"$DEBIAN_PYTHON" -c 'import numpy, pytest, hypothesis' 2>/dev/null ||
  { echo "apt-get install python3-numpy python3-pytest python3-hypothesis" >&2; exit 2; }

CPYTHON_MODULES="json re dict list set unicode bytes collections itertools pickle sqlite3 zlib
  lzma bz2 gzip math fork1 thread queue threading_local weakref struct array heapq functools"
NUMPY_MODULES="numpy.core.tests.test_multiarray numpy.core.tests.test_numeric
  numpy.lib.tests.test_function_base"
GLIB_PROGRAMS="array-test asyncqueue atomic autoptr base64 bitlock bookmarkfile bytes cache
  checksum collate cond convert dataset date dir environment error fileutils gdatetime guuid
  gvariant hash hmac hook hostutils keyfile list logging mainloop mappedfile markup-parse
  mutex node once option-context pattern private protocol queue rand rcbox rec-mutex refcount
  refstring regex rwlock scannerapi sequence shell slice slist sort spawn-singlethread strfuncs
  string thread thread-pool timer tree unicode uri utf8-misc utf8-validate utils"

# run ALLOC SUITE: runs one suite under one allocator; prints "passed failed skipped".
run() {
  local alloc=$1 suite=$2 log=$OUT/$2.$1.log stats=$OUT/$2.$1.jsonl
  rm -f "$stats" "$log"
  local -a env=(env)
  if [[ $alloc != glibc ]]; then
    env+=(LD_PRELOAD="$LIB" CHECKBENCH_SLICE="$alloc" CHECKBENCH_SLICE_STATS="$stats")
  fi
  local work; work=$(mktemp -d)
  case $suite in
    cpython)
      local mods=(); for m in $CPYTHON_MODULES; do mods+=("test.test_$m"); done
      (cd "$work" && "${env[@]}" PYTHONMALLOC=malloc timeout 900 "$PYTHON" -m unittest "${mods[@]}") >"$log" 2>&1 || true
      "$DEBIAN_PYTHON" - "$log" <<'PY'
import re, sys
text = open(sys.argv[1], errors="replace").read()
ran = re.findall(r"^Ran (\d+) tests?", text, re.M)
tail = re.findall(r"^(OK|FAILED)(?: \((.*)\))?$", text, re.M)
if not ran or not tail:
    print("0 1 0"); sys.exit()
counts = dict(kv.split("=") for kv in (tail[-1][1] or "").split(", ") if kv)
bad = int(counts.get("failures", 0)) + int(counts.get("errors", 0))
skipped = int(counts.get("skipped", 0))
print(int(ran[-1]) - bad - skipped, bad, skipped)
PY
      ;;
    numpy)
      (cd "$work" && "${env[@]}" PYTHONMALLOC=malloc timeout 900 "$DEBIAN_PYTHON" -m pytest -q -p no:cacheprovider --pyargs $NUMPY_MODULES) >"$log" 2>&1 || true
      "$DEBIAN_PYTHON" - "$log" <<'PY'
import re, sys
text = open(sys.argv[1], errors="replace").read()
line = [l for l in text.splitlines() if re.search(r"\d+ passed", l)]
if not line:
    print("0 1 0"); sys.exit()
get = lambda word: sum(int(n) for n in re.findall(r"(\d+) " + word, line[-1]))
print(get("passed") + get("xpassed"), get("failed") + get("error"), get("skipped") + get("xfailed"))
PY
      ;;
    glib)
      local p
      for p in $GLIB_PROGRAMS; do
        [[ -x $GLIB_TESTS/$p ]] || continue
        echo "## $p"
        (cd "$work" && "${env[@]}" G_TEST_SRCDIR="$GLIB_TESTS" G_TEST_BUILDDIR="$GLIB_TESTS" \
          timeout 300 "$GLIB_TESTS/$p" --tap 2>&1) || echo "## exit $? $p"
      done >"$log" 2>&1
      "$DEBIAN_PYTHON" - "$log" <<'PY'
import re, sys
passed = failed = skipped = 0
for line in open(sys.argv[1], errors="replace"):
    if re.match(r"ok \d+", line):
        if "# SKIP" in line: skipped += 1
        else: passed += 1
    elif re.match(r"not ok \d+", line):
        if "# TODO" in line: skipped += 1
        else: failed += 1
    elif line.startswith("## exit"):
        failed += 1
print(passed, failed, skipped)
PY
      ;;
  esac
  rm -rf "$work"
}

# served SUITE ALLOC: "processes small_requests fallbacks" summed over the statistics lines.
served() {
  local stats=$OUT/$1.$2.jsonl
  [[ -f $stats ]] || { echo "- - -"; return; }
  "$DEBIAN_PYTHON" - "$stats" "$2" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
served = [l for l in lines if l["served"]]
assert all(l["policy"].startswith(sys.argv[2]) for l in served), "a line of another policy"
print(len(lines), sum(l["small_requests"] for l in lines), sum(l["fallbacks"]["total"] for l in lines))
PY
}

TABLE=$OUT/results.tsv
printf 'suite\tallocator\tpassed\tfailed\tskipped\tseconds\tprocesses\tsmall_requests\tfallbacks\n' >"$TABLE"
status=0
for suite in cpython numpy glib; do
  expected=
  for alloc in glibc nohuge hybrid huge; do
    start=$SECONDS
    counts=$(run "$alloc" "$suite")
    secs=$((SECONDS - start))
    read -r processes small fallbacks <<<"$(served "$suite" "$alloc")"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$suite" "$alloc" ${counts// /$'\t'} "$secs" \
      "$processes" "$small" "$fallbacks" | tee -a "$TABLE"
    if [[ -z $expected ]]; then
      expected=$counts
    elif [[ $counts != "$expected" ]]; then
      echo "!! $suite under $alloc: passed/failed/skipped $counts, glibc $expected" >&2
      status=1
    fi
    if [[ $alloc != glibc && ! ${small:-0} -gt 0 ]]; then
      echo "!! $suite under $alloc: the slice allocator served no small request" >&2
      status=1
    fi
  done
done
echo "results: $TABLE (logs and statistics lines beside it)"
exit $status
