#!/usr/bin/env bash
# The bake-offs of docs/EXTERNAL.md: programs nobody here wrote, under every contender by
# LD_PRELOAD (`compare --command`). Each writes docs/external-<name>.json.
#
#   docs/external.sh [NAME...]     (default: cpython perl sqlite)
#
# Needs Debian's libmimalloc2.0 and libjemalloc2 (`apt-get install libmimalloc2.0
# libjemalloc2`), python3, perl and sqlite3.
set -euo pipefail
cd "$(dirname "$0")/.."
CONTENDERS=slice-nohuge,slice-hybrid,slice-huge,mimalloc,jemalloc,system
ROUNDS=(--min-runs 10 --max-runs 20 --precision 3 --warmup 1 --seed 17)

# CPython 3.11 (Debian), objects from malloc: parse the standard library's modules a-m into
# ASTs, all kept alive, and count their nodes.
CPYTHON='PYTHONMALLOC=malloc /usr/bin/python3 -c "import ast, glob; trees = [ast.parse(open(f, encoding=\"utf-8\").read()) for f in sorted(glob.glob(\"/usr/lib/python3.11/[a-m]*.py\"))]; print(sum(1 for t in trees for _ in ast.walk(t)))"'
# perl 5.36 (Debian): a hash of 300,000 keys, each an array of a number and a string.
PERL='perl -e '"'"'my %h; for my $i (1 .. 300000) { $h{"key$i"} = [$i, "v" x ($i % 100)] } my $n = 0; $n += length($h{$_}[1]) for keys %h; print "$n\n"'"'"
# sqlite3 3.40 (Debian): an in-memory table of 200,000 rows, an index on it, a grouped query.
SQLITE='sqlite3 :memory: "CREATE TABLE t(k TEXT, v INTEGER); WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 200000) INSERT INTO t SELECT printf(\"key%06d\", x * 7919 % 200000), x FROM c; CREATE INDEX i ON t(k); SELECT count(*), sum(v) FROM (SELECT k, sum(v) AS v FROM t GROUP BY substr(k, 1, 6));"'

for name in "${@:-cpython perl sqlite}"; do
  for one in $name; do
    case $one in
      cpython) command=$CPYTHON ;;
      perl) command=$PERL ;;
      sqlite) command=$SQLITE ;;
      *) echo "unknown bake-off $one (cpython, perl, sqlite)" >&2; exit 2 ;;
    esac
    # The script measures afresh: it replaces the committed file (git keeps the old one),
    # which compare itself never does. An interrupted bake-off is continued with
    # `cargo run --release -p compare -- --resume docs/external-$one.json`.
    rm -f "docs/external-$one.json"
    cargo run --release -p compare -- --command "$command" --contenders "$CONTENDERS" \
      "${ROUNDS[@]}" --json "docs/external-$one.json"
  done
done
