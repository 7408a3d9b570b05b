#!/usr/bin/env bash
# Runs this checker and the native TypeScript checker (typescript@7, the Go port) on the
# same real corpora, alternating, and prints one TSV row per tool: median wall seconds,
# peak RSS and minor faults (GNU time), and type counts (`--json` here,
# `--extendedDiagnostics` there), the native checker's Go heap in use at exit, and, from one
# more run of each sampled by rss-split.py, the peak RSS split into anonymous memory (the
# heap) and file-backed pages (the binary and libraries).
#
#   checker/scripts/side-by-side.sh [--runs N] [--checkers "1 8"] [corpus ...]
#
# Corpora default to trpc typeorm excalidraw (fetched and cached by `corpora` on first
# use); a directory is checked as it is. The native compiler is installed with npm into the checkbench cache once.
set -euo pipefail

runs=3
checkers="1 8"
corpora=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --runs) runs="$2"; shift 2 ;;
        --checkers) checkers="$2"; shift 2 ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        -*) echo "side-by-side.sh: unknown option $1" >&2; exit 2 ;;
        *) corpora+=("$1"); shift ;;
    esac
done
[[ ${#corpora[@]} -gt 0 ]] || corpora=(trpc typeorm excalidraw)
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "side-by-side.sh: --runs must be a positive integer, got '$runs'" >&2; exit 2; }

for tool in npm node python3 /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "side-by-side.sh: needs $tool" >&2; exit 2; }
done

root="$(cd "$(dirname "$0")/../.." && pwd)"
cache="${CHECKBENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/checkbench}"
native_version=7.0.2
native_dir="$cache/native/typescript-$native_version"
native="$native_dir/node_modules/.bin/tsc"
if [[ ! -x "$native" ]]; then
    echo "installing typescript@$native_version into $native_dir" >&2
    mkdir -p "$native_dir.partial"
    npm install --silent --no-audit --no-fund --prefix "$native_dir.partial" "typescript@$native_version" >&2
    rm -rf "$native_dir" && mv "$native_dir.partial" "$native_dir"
fi

# The package's `tsc` is a node script that runs the native binary as a child on node 20;
# time the binary itself, so node's start-up adds neither wall time nor faults.
native_exe="$(node --input-type=module -e "import exe from '$native_dir/node_modules/typescript/lib/getExePath.js'; console.log(exe())")" \
    || { echo "side-by-side.sh: cannot find the native binary of typescript@$native_version in $native_dir" >&2; exit 2; }

(cd "$root" && cargo build --release --quiet -p checker -p corpora)
checker="$root/target/release/checker"
corpora_bin="$root/target/release/corpora"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Median of the numbers on stdin.
median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

printf 'corpus\ttool\tcheckers\twall_s\tmax_rss_mb\tminor_faults\ttypes\tdiagnostics\theap_in_use_mb\trss_anon_mb\trss_file_mb\n'
for corpus in "${corpora[@]}"; do
    # A directory is checked as it is (`--corpus DIR` here); a name is fetched and cached.
    if [[ -d "$corpus" ]]; then dir="$(cd "$corpus" && pwd)"; else dir="$("$corpora_bin" --quiet path "$corpus")"; fi
    extra=''
    [[ "$corpus" == typeorm ]] && extra='"experimentalDecorators": true, "emitDecoratorMetadata": true,'
    # strict, noEmit, target es2022 with its default library (lib.es2022.full.d.ts, the files
    # the checker loads too), declaration files checked: the reference table's settings.
    cat > "$work/tsconfig.json" <<JSON
{ "compilerOptions": { "strict": true, "noEmit": true, "target": "es2022",
    "skipLibCheck": false, "module": "esnext", "moduleResolution": "bundler", "jsx": "react-jsx",
    $extra "types": [] },
  "include": ["$dir/**/*.ts", "$dir/**/*.tsx"] }
JSON
    for n in $checkers; do
        : > "$work/ours" && : > "$work/native"
        for ((r = 0; r < runs; r++)); do
            /usr/bin/time -o "$work/t" -f '%e %M %R' "$checker" --corpus "$corpus" --checkers "$n" --json > "$work/json"
            types=$(python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["counts"]; print(c["types"], c["diagnostics"])' "$work/json")
            echo "$(tail -n 1 "$work/t") $types -" >> "$work/ours"
            /usr/bin/time -o "$work/t" -f '%e %M %R' "$native_exe" -p "$work/tsconfig.json" --checkers "$n" --extendedDiagnostics > "$work/out" 2>&1 || true
            types=$(awk '/^Types:/ {print $2}' "$work/out")
            # The Go runtime's heap in use at exit (`Memory used`), without the collector's
            # headroom that peak RSS includes.
            heap=$(awk '/^Memory used:/ {sub(/K$/, "", $3); printf "%.0f\n", $3 / 1024}' "$work/out")
            errors=$(grep -c 'error TS' "$work/out" || true)
            [[ -n "$types" ]] || { echo "side-by-side.sh: the native checker printed no type count on $corpus:" >&2; tail -5 "$work/out" >&2; exit 1; }
            echo "$(tail -n 1 "$work/t") $types $errors ${heap:-0}" >> "$work/native"
        done
        split_ours=$(python3 "$root/checker/scripts/rss-split.py" "$checker" --corpus "$corpus" --checkers "$n") || true
        split_native=$(python3 "$root/checker/scripts/rss-split.py" "$native_exe" -p "$work/tsconfig.json" --checkers "$n") || true
        for tool in ours native; do
            wall=$(awk '{print $1}' "$work/$tool" | median)
            rss=$(awk '{print $2/1024}' "$work/$tool" | median)
            faults=$(awk '{print $3}' "$work/$tool" | median)
            types=$(awk '{print $4}' "$work/$tool" | median)
            diags=$(awk '{print $5}' "$work/$tool" | median)
            heap=-
            [[ $tool == native ]] && heap=$(awk '{print $6}' "$work/$tool" | median)
            name=checker; split=$split_ours
            [[ $tool == native ]] && name="tsgo-$native_version" && split=$split_native
            read -r anon file <<< "${split:-- -}"
            printf '%s\t%s\t%s\t%s\t%.0f\t%s\t%s\t%s\t%s\t%s\t%s\n' "$corpus" "$name" "$n" "$wall" "$rss" "$faults" "$types" "$diags" "$heap" "$anon" "$file"
        done
    done
done
