#!/usr/bin/env bash
# Builds 13 workloads of mimalloc-bench from YOUR checkout of it and runs each under glibc's
# malloc and under libslice_alloc.so with each policy, recording wall time, RSS, faults, whether
# the output is correct, and the slice allocator's statistics line of every run.
#
#   preload/scripts/mimalloc-bench.sh CHECKOUT [OUT_DIR]      (or MIMALLOC_BENCH=CHECKOUT)
#
# mimalloc-bench's sources are not fetched, vendored or committed here: CHECKOUT is a clone of
# the mimalloc-bench repository (daanx/mimalloc-bench on GitHub) that you provide; only its
# bench/ folder is read. The binaries are built with gcc/g++ from the same sources and
# definitions as its bench/CMakeLists.txt (no cmake needed) into OUT_DIR/bin, at -O2 without
# NDEBUG (its CMake Release build uses -O3 -DNDEBUG; here the programs' own asserts stay on), and
# run with the arguments of its bench.sh for this machine's CPU count (PROCS, default nproc).
#
# Workloads: cfrac espresso barnes larson-sized alloc-test xmalloc-test cache-thrash
#   cache-scratch malloc-large mstress rptest glibc-simple glibc-thread (sh6bench and sh8bench
#   are downloaded by mimalloc-bench's own build and are not in its repository: not run).
# Allocators: ALLOCATORS (default "glibc nohuge hybrid huge adaptive nohuge+drain hybrid+drain
#   huge+drain"); each name but glibc is a CHECKBENCH_SLICE policy (see alloc/README.md).
# Rounds: ROUNDS (default 3); each round runs every workload under every allocator, glibc first
#   (its output is the reference), the others in an order shuffled per round. WORKLOADS (default
#   all 13) picks some.
# Output is correct when the run exits 0 and, for the deterministic workloads (cfrac, espresso,
#   barnes), its output equals glibc's (barnes without its clock readings); for the others, when it
#   exits 0 and reports no corruption (mstress and alloc-test check their blocks themselves).
# Writes OUT_DIR/runs.tsv (one line a run), OUT_DIR/summary.md (medians and ranges over rounds),
#   the outputs and statistics lines (default OUT_DIR: target/mimalloc-bench). Needs gcc, g++,
#   GNU time (/usr/bin/time) and python3.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
SRC=${1:-${MIMALLOC_BENCH:-}}
if [[ -z $SRC || ! -f $SRC/bench/xmalloc-test/xmalloc-test.c ]]; then
  sed -n '2,/^set /p' "$0" | grep '^#' | sed 's/^# \{0,1\}//' >&2
  echo "error: give the path of your mimalloc-bench checkout (argument or MIMALLOC_BENCH)" >&2
  exit 2
fi
SRC=$(cd "$SRC" && pwd)
OUT=${2:-$ROOT/target/mimalloc-bench}
mkdir -p "$OUT/bin" "$OUT/runs"
OUT=$(cd "$OUT" && pwd)
PROCS=${PROCS:-$(nproc)}
ROUNDS=${ROUNDS:-3}
ALLOCATORS=${ALLOCATORS:-glibc nohuge hybrid huge adaptive nohuge+drain hybrid+drain huge+drain}
WORKLOADS=${WORKLOADS:-cfrac espresso barnes larson-sized alloc-test xmalloc-test cache-thrash cache-scratch malloc-large mstress rptest glibc-simple glibc-thread}
[[ -x /usr/bin/time ]] || { echo "apt-get install time" >&2; exit 2; }

cargo build --release --quiet -p slice-preload
LIB=$ROOT/target/release/libslice_alloc.so

# build NAME: compiles one workload as bench/CMakeLists.txt does.
build() {
  local b=$SRC/bench bin=$OUT/bin/$1 cc=(gcc -O2 -w) cxx=(g++ -O2 -w -std=c++17)
  [[ -x $bin ]] && return
  local old=(-std=gnu89 -Wno-implicit-function-declaration -Wno-implicit-int -Wno-int-conversion
    -Wno-incompatible-pointer-types)
  case $1 in
    cfrac)
      local s=(cfrac pops pconst pio pabs pneg pcmp podd phalf padd psub pmul pdivmod psqrt ppowmod
        atop ptoa itop utop ptou errorp pfloat pidiv pimod picmp primes pcfrac pgcd)
      "${cc[@]}" "${old[@]}" -DNOMEMOPT=1 $(printf "$b/cfrac/%s.c " "${s[@]}") -o "$bin" -lm ;;
    espresso)
      local s=(cofactor cols compl contain cubestr cvrin cvrm cvrmisc cvrout dominate equiv espresso
        essen exact expand gasp getopt gimpel globals hack indep irred main map matrix mincov opo
        pair part primes reduce rows set setc sharp sminterf solution sparse unate utility verify)
      "${cc[@]}" "${old[@]}" $(printf "$b/espresso/%s.c " "${s[@]}") -o "$bin" -lm ;;
    barnes)
      "${cc[@]}" "${old[@]}" $(printf "$b/barnes/%s.c " code code_io load grav getparam util) \
        -o "$bin" -lm ;;
    larson-sized)
      "${cxx[@]}" -fsized-deallocation -DCPP=1 -DSIZED=1 "$b/larson/larson.cpp" -o "$bin" -pthread ;;
    alloc-test)
      "${cxx[@]}" -DBENCH=4 "$b/alloc-test/test_common.cpp" "$b/alloc-test/allocator_tester.cpp" \
        -o "$bin" -pthread ;;
    xmalloc-test) "${cc[@]}" "$b/xmalloc-test/xmalloc-test.c" -o "$bin" -pthread ;;
    cache-thrash | cache-scratch) "${cxx[@]}" "$b/$1/$1.cpp" -o "$bin" -pthread ;;
    malloc-large) "${cxx[@]}" "$b/malloc-large/malloc-large.cpp" -o "$bin" -pthread ;;
    mstress) "${cc[@]}" "$b/mstress/mstress.c" -o "$bin" -pthread ;;
    rptest)
      "${cxx[@]}" -fpermissive -x c++ -I"$b/rptest" "$b/rptest/rptest.c" "$b/rptest/thread.c" \
        "$b/rptest/timer.c" -o "$bin" -pthread -lm ;;
    glibc-simple) "${cc[@]}" "$b/glibc-bench/bench-malloc-simple.c" -o "$bin" -pthread ;;
    glibc-thread) "${cc[@]}" "$b/glibc-bench/bench-malloc-thread.c" -o "$bin" -pthread ;;
    *) echo "unknown workload $1" >&2; exit 2 ;;
  esac
}

# command NAME: the arguments bench.sh gives it (stdin is /dev/null unless said).
command_of() {
  local b=$SRC/bench bin=$OUT/bin/$1
  case $1 in
    cfrac) echo "$bin 17545186520507317056371138836327483792789528" ;;
    espresso) echo "$bin $b/espresso/largest.espresso" ;;
    barnes) echo "$bin" ;;
    larson-sized) echo "$bin 5 8 1000 5000 100 4141 $PROCS" ;;
    alloc-test) echo "$bin $PROCS" ;;
    xmalloc-test) echo "$bin -w $PROCS -t 5 -s 64" ;;
    cache-thrash | cache-scratch) echo "$bin $PROCS 1000 1 2000000 $PROCS" ;;
    malloc-large) echo "$bin" ;;
    mstress) echo "$bin $PROCS 50 25" ;;
    rptest) echo "$bin $PROCS 0 1 2 500 1000 100 8 16000" ;;
    glibc-simple) echo "$bin" ;;
    glibc-thread) echo "$bin $PROCS" ;;
  esac
}

for w in $WORKLOADS; do build "$w"; done

TSV=$OUT/runs.tsv
printf 'round\tworkload\tallocator\trc\twall_s\tmax_rss_kib\tuser_s\tsys_s\tminor_faults\toutput\tsmall_requests\tremote_frees\tremote_drained\tcarved_bytes\tfallbacks\n' >"$TSV"

# run ROUND WORKLOAD ALLOCATOR: one measured run, one line of runs.tsv.
run() {
  local round=$1 w=$2 alloc=$3 tag=$OUT/runs/$2.$3.$1
  local stats=$tag.jsonl input=/dev/null
  rm -f "$stats"
  [[ $w == barnes ]] && input=$SRC/bench/barnes/input
  local -a env=(env)
  [[ $alloc != glibc ]] && env+=(LD_PRELOAD="$LIB" CHECKBENCH_SLICE="$alloc" CHECKBENCH_SLICE_STATS="$stats")
  local rc=0
  # The run's directory is its own (cache files, core dumps); GNU time measures the program.
  (cd "$OUT/runs" && "${env[@]}" /usr/bin/time -o "$tag.time" -f '%e %M %U %S %R' \
    timeout 600 $(command_of "$w") <"$input" >"$tag.out" 2>"$tag.err") || rc=$?
  python3 - "$TSV" "$round" "$w" "$alloc" "$rc" "$tag" "$OUT/runs/$w.glibc.$round.out" <<'PY'
import json, re, sys
tsv, rnd, w, alloc, rc, tag, reference = sys.argv[1:]
try:
    wall, rss, user, sys_s, minor = open(tag + ".time").read().split()[-5:]
except (OSError, ValueError):
    wall = rss = user = sys_s = minor = "-"
out = open(tag + ".out", errors="replace").read()
err = open(tag + ".err", errors="replace").read()
def shown(text):
    # barnes prints its own clock readings (COMPUTESTART, COMPUTEEND, ...TIME); everything
    # else it prints is the simulation's result.
    return [l for l in text.splitlines() if not re.search(r"time|start|end", l, re.I)]
if rc != "0":
    ok = "failed"
elif re.search(r"corrupt|error|abort|assert|segmentation", out + err, re.I):
    ok = "failed"
elif w in ("cfrac", "espresso", "barnes"):
    try:
        ok = "same" if shown(out) == shown(open(reference, errors="replace").read()) else "differs"
    except OSError:
        ok = "ok"
else:
    ok = "ok"
small = remote = drained = carved = fallbacks = 0
try:
    for line in open(tag + ".jsonl"):
        s = json.loads(line)
        if not s["served"]:
            continue
        assert s["policy"].split("@")[0].split("+")[0] == alloc.split("@")[0].split("+")[0], s["policy"]
        small += s["small_requests"]; remote += s["remote_frees"]
        drained += s.get("remote_drained", 0); carved += sum(s["class_carved_bytes"])
        fallbacks += s["fallbacks"]["total"]
    stats = [small, remote, drained, carved, fallbacks]
except OSError:
    stats = ["-"] * 5
row = [rnd, w, alloc, rc, wall, rss, user, sys_s, minor, ok] + stats
open(tsv, "a").write("\t".join(map(str, row)) + "\n")
print("\t".join(map(str, row)))
PY
}

for round in $(seq 1 "$ROUNDS"); do
  for w in $WORKLOADS; do
    # glibc first: it is the reference output of the deterministic workloads.
    order=$(printf '%s\n' $ALLOCATORS | grep -vx glibc | shuf)
    grep -qx glibc <(printf '%s\n' $ALLOCATORS) && order="glibc $order"
    for alloc in $order; do run "$round" "$w" "$alloc"; done
  done
done

python3 - "$TSV" "$OUT/summary.md" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
allocs = list(dict.fromkeys(r["allocator"] for r in rows))
works = list(dict.fromkeys(r["workload"] for r in rows))
def cell(rs, key, scale):
    vals = [float(r[key]) / scale for r in rs if r[key] not in ("-", "")]
    if not vals:
        return "-"
    m = statistics.median(vals)
    return f"{m:.1f} [{min(vals):.1f}, {max(vals):.1f}]" if len(vals) > 1 else f"{m:.1f}"
lines = ["Median [min, max] over rounds. RSS in MiB (GNU time's maximum resident set), wall in s; "
         "output: runs whose output was correct / runs.", ""]
lines.append("| workload | " + " | ".join(allocs) + " |")
lines.append("|---|" + "---|" * len(allocs))
for w in works:
    cells = []
    for a in allocs:
        rs = [r for r in rows if r["workload"] == w and r["allocator"] == a]
        good = sum(r["output"] in ("ok", "same") for r in rs)
        cells.append(f"{cell(rs, 'max_rss_kib', 1024)} MiB, {cell(rs, 'wall_s', 1)} s, {good}/{len(rs)}")
    lines.append(f"| {w} | " + " | ".join(cells) + " |")
open(sys.argv[2], "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
echo "runs: $TSV; summary: $OUT/summary.md"
