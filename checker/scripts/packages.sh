#!/usr/bin/env bash
# Checks the declaration files of published npm packages at several checker counts and
# prints one TSV row per package and count: digest, files, types, relations, diagnostics,
# check seconds, wall seconds and peak RSS (GNU time), the three most frequent codes. A
# package whose digest differs between counts is named on stderr and the exit status is 1.
#
#   checker/scripts/packages.sh [--checkers "1 2 3 8"] [--timeout S] SPEC...
#
# SPEC is what `npm pack` takes (`type-fest@4.26.1`). Each package is packed once into the
# checkbench cache (`packages/NAME@VERSION`, its `.d.ts` files only, the files tsgo's
# side-by-side tsconfig includes); the checker is target/release/checker (built if absent).
set -euo pipefail

checkers="1 2 3 8"
limit=60
specs=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --checkers) checkers="$2"; shift 2 ;;
        --timeout) limit="$2"; shift 2 ;;
        -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
        -*) echo "packages.sh: unknown option $1" >&2; exit 2 ;;
        *) specs+=("$1"); shift ;;
    esac
done
[[ ${#specs[@]} -gt 0 ]] || { echo "packages.sh: name at least one package (type-fest@4.26.1)" >&2; exit 2; }
[[ "$limit" =~ ^[1-9][0-9]*$ ]] || { echo "packages.sh: --timeout must be a positive integer, got '$limit'" >&2; exit 2; }
for tool in npm tar python3 /usr/bin/time; do
    command -v "$tool" > /dev/null || { echo "packages.sh: $tool is needed" >&2; exit 2; }
done

root="$(cd "$(dirname "$0")/../.." && pwd)"
checker="$root/target/release/checker"
[[ -x "$checker" ]] || cargo build --release -p checker --manifest-path "$root/Cargo.toml" >&2
cache="${XDG_CACHE_HOME:-$HOME/.cache}/checkbench/packages"
mkdir -p "$cache"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The declaration files of SPEC in the cache; the directory appears only once complete.
unpack() {
    local spec="$1" dir="$cache/${1//\//+}"
    if [[ ! -d "$dir" ]]; then
        rm -rf "$work/pack" && mkdir -p "$work/pack"
        local tgz
        tgz=$(cd "$work/pack" && npm pack --loglevel=error "$spec" 2> "$work/npm.err" | tail -n 1) \
            || { echo "packages.sh: npm pack $spec failed: $(grep -m 1 . "$work/npm.err")" >&2; return 1; }
        tar -xzf "$work/pack/$tgz" -C "$work/pack"
        rm -rf "$dir.partial" && mkdir -p "$dir.partial"
        (cd "$work/pack/package" && find . -name node_modules -prune -o -name '*.d.ts' -print \
            | while read -r f; do mkdir -p "$dir.partial/$(dirname "$f")" && cp "$f" "$dir.partial/$f"; done)
        [[ -n "$(ls -A "$dir.partial")" ]] || { echo "packages.sh: $spec has no .d.ts files" >&2; rm -rf "$dir.partial"; return 1; }
        mv "$dir.partial" "$dir"
    fi
    echo "$dir"
}

printf 'package\tcheckers\tdigest\tfiles\ttypes\trelations\tdiagnostics\tcheck_s\twall_s\tmax_rss_mb\tcodes\n'
status=0
for spec in "${specs[@]}"; do
    dir=$(unpack "$spec") || { status=1; continue; }
    digests=()
    for n in $checkers; do
        if ! /usr/bin/time -o "$work/t" -f '%e %M' timeout "$limit" "$checker" --corpus "$dir" \
            --checkers "$n" --json > "$work/json" 2> "$work/err"; then
            echo "packages.sh: $spec at $n checkers failed or ran past ${limit} s: $(tail -n 1 "$work/err")" >&2
            status=1
            continue
        fi
        read -r wall rss < <(tail -n 1 "$work/t")
        row=$(python3 - "$work/json" "$spec" "$n" "$wall" "$rss" <<'PY'
import json, sys
path, spec, n, wall, rss = sys.argv[1:]
j = json.load(open(path))
c = j["counts"]
codes = sorted(c["diagnostics_by_code"].items(), key=lambda kv: -kv[1])[:3]
print("\t".join([spec, n, j["digest"][:8], str(c["files"]), str(c["types"]),
                 str(c["relations"]), str(c["diagnostics"]), f'{j["phases"]["check_s"]:.2f}',
                 wall, str(int(rss) // 1024), " ".join(f"{k}:{v}" for k, v in codes)]))
PY
        )
        echo "$row"
        digests+=("$(cut -f3 <<< "$row")")
    done
    if [[ ${#digests[@]} -gt 0 ]] && [[ $(printf '%s\n' "${digests[@]}" | sort -u | wc -l) -ne 1 ]]; then
        echo "packages.sh: $spec gives different digests by checker count: ${digests[*]}" >&2
        status=1
    fi
done
exit $status
