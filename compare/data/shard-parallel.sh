#!/bin/sh
# `compare reproduce` in four shards run by GNU parallel, then one merge. compare starts no
# process on another machine itself: parallel (or Slurm, or Kubernetes) does.
#
#   sh compare/data/shard-parallel.sh                      # here, one shard after another
#   HOSTS=host1,host2,host3,host4 sh compare/data/shard-parallel.sh   # one shard per host, by ssh
#
# K counts from 1 (`--shard 1/4` .. `--shard 4/4`). Every shard must be measured by one build:
# install compare and its four children from one revision wherever a shard runs
# (`cargo install --path compare --locked`); `compare merge` refuses shards of other
# revisions, sources, plans or workloads. A cell (corpus x checker count) never spans
# machines; shards from different kinds of machine merge side by side, never into one figure.
set -eu

if [ -n "${HOSTS:-}" ]; then
    # --return brings each shard's results file back here, --cleanup removes it there;
    # -j1: one shard at a time per host, so a shard's wall times are not its neighbour's.
    parallel -j1 --sshlogin "$HOSTS" --return shard-{}.json --cleanup compare reproduce --shard {}/4 --seed 2026 --json shard-{}.json ::: 1 2 3 4
else
    # One machine: -j1 runs the shards one after another (shards at once on a machine with
    # fewer cores than their checkers would measure each other).
    parallel -j1 compare reproduce --shard {}/4 --seed 2026 --json shard-{}.json ::: 1 2 3 4
fi

compare merge shard-1.json shard-2.json shard-3.json shard-4.json --json results.json --markdown RESULTS.md --svg results.svg
