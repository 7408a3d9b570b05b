#!/usr/bin/env python3
"""Two checker binaries on one corpus, in paired rounds (the order alternates per round):
the new binary's check time and peak RSS against the old one's, as the mean log-ratio with
its 95% interval, and the type counts of both.

    checker/scripts/paired.py OLD NEW CORPUS [--checkers N] [--rounds R]

OLD and NEW are `checker` binaries (copy target/release/checker aside before rebuilding);
CORPUS is what `--corpus` takes. Each run is `--json --no-fetch`: a named corpus must be
cached. For a whole bake-off, use compare; this is for a checker change's cost.
"""
import argparse
import json
import math
import statistics
import subprocess
import sys


def run(binary, corpus, checkers):
    try:
        p = subprocess.run(
            [binary, "--corpus", corpus, "--checkers", str(checkers), "--json", "--no-fetch"],
            capture_output=True,
            text=True,
        )
    except OSError as e:
        sys.exit(f"paired.py: cannot run {binary}: {e.strerror}")
    if p.returncode != 0:
        sys.exit(f"paired.py: {binary} failed on {corpus}: {p.stderr.strip()}")
    r = json.loads(p.stdout)
    return r["phases"]["check_s"], r["process"]["vm_hwm_kib"], r["counts"]["types"]


def interval(logs):
    m = statistics.mean(logs)
    h = 1.96 * statistics.stdev(logs) / math.sqrt(len(logs))
    pct = lambda x: f"{100 * (math.exp(x) - 1):+.1f}%"
    return f"{pct(m)} [{pct(m - h)}, {pct(m + h)}]"


def main():
    a = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    a.add_argument("old")
    a.add_argument("new")
    a.add_argument("corpus")
    a.add_argument("--checkers", type=int, default=1)
    a.add_argument("--rounds", type=int, default=20)
    args = a.parse_args()
    if args.rounds < 2 or args.checkers < 1:
        a.error("--rounds must be at least 2 and --checkers at least 1")
    time_logs, rss_logs = [], []
    for i in range(args.rounds):
        pair = {}
        for which in ("old", "new") if i % 2 == 0 else ("new", "old"):
            pair[which] = run(getattr(args, which), args.corpus, args.checkers)
        time_logs.append(math.log(pair["new"][0] / pair["old"][0]))
        rss_logs.append(math.log(pair["new"][1] / pair["old"][1]))
        print(f"\rround {i + 1}/{args.rounds}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(
        f"{args.corpus} at {args.checkers}: check time {interval(time_logs)}, "
        f"peak RSS {interval(rss_logs)}, types {pair['old'][2]:,} -> {pair['new'][2]:,}"
    )


if __name__ == "__main__":
    main()
