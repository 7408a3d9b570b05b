#!/usr/bin/env python3
"""Does running two children at once (a duet) measure wall time better than running them one
after the other? The question of issue 40, asked before `compare --pairing duet` exists.

Runs the same child command A/A in two pairings, interleaved so that both see the same
machine: a *sequential* pair (A then B, alone on the machine, the first alternating), and a
*duet* pair (A and B started together, each pinned to its own CPU with taskset, the CPU and
the start order counterbalanced over every four duets). Each block is one sequential pair and
two duet pairs, about the same machine time each. Every run's wall time (parent's clock),
user and sys time and minor faults (wait4) are written to --out as JSON, rewritten after each
block, and the summary compares the two pairings at equal machine time:

  spread     standard deviation of the per-pair log ratio wall(B) / wall(A)
  bias       mean log ratio of the run started second (sequential: run second) over the other
  half-width at equal time: the 95% interval of the mean log ratio if the whole machine time
             of both pairings had gone to this one

A/A: A and B are the same command, so any mean log ratio is bias and any spread is noise.

    compare/scripts/duet-probe.py --minutes 50 --out docs/tsc-quiet/duet-trpc.json -- \\
        env CHECKBENCH_SLICE=nohuge target/release/checkbench-slice --workload tsc \\
        --corpus trpc --checkers 1 --cache-dir DIR --no-fetch --json

Run it on an otherwise idle machine with at least two CPUs; it measures nothing else.
"""
import argparse
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time


def start(command, cpu):
    """Starts the child, pinned to `cpu` unless None; its output to a file kept for the digest."""
    out = tempfile.TemporaryFile()
    argv = (["taskset", "-c", str(cpu)] if cpu is not None else []) + command
    proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.DEVNULL)
    return proc, out, time.monotonic()


def finish(proc, out, began):
    """Waits for one run; its wall ends when it is reaped."""
    _, status, usage = os.wait4(proc.pid, 0)
    return measured(proc, out, began, status, usage)


def finish_both(started):
    """Waits for both runs of a duet, **each reaped as it ends**, so that each wall is its own:
    waiting for them in start order would end the wall of a run that finished first at its
    partner's end (the fault of this probe's first version, whose duet figures were wrong)."""
    waiting = {proc.pid: (label, proc, out, began) for label, (proc, out, began) in started.items()}
    runs = {}
    while waiting:
        pid, status, usage = os.wait4(-1, 0)
        if pid in waiting:
            label, proc, out, began = waiting.pop(pid)
            runs[label] = measured(proc, out, began, status, usage)
    return runs


def measured(proc, out, began, status, usage):
    wall = time.monotonic() - began
    proc.returncode = status
    out.seek(0)
    text = out.read()
    out.close()
    digest = None
    try:
        digest = json.loads(text).get("digest")
    except (ValueError, AttributeError):
        pass
    if status != 0 or digest is None:
        sys.exit(f"duet-probe: a run failed (wait status {status}); its output began: {text[:200]!r}")
    return {
        "wall_s": wall,
        "user_s": usage.ru_utime,
        "sys_s": usage.ru_stime,
        "minor_faults": usage.ru_minflt,
        "digest": digest,
    }


def sequential(command, a_first):
    runs = {}
    began = time.monotonic()
    for label in ("A", "B") if a_first else ("B", "A"):
        runs[label] = finish(*start(command, None))
    return runs, time.monotonic() - began


def duet(command, a_cpu, a_first):
    began = time.monotonic()
    order = ("A", "B") if a_first else ("B", "A")
    cpus = {"A": a_cpu, "B": 1 - a_cpu}
    started = {label: start(command, cpus[label]) for label in order}
    return finish_both(started), time.monotonic() - began


def summary(pairs, total_time):
    if len(pairs) < 3:
        return None
    ratios = [math.log(p["runs"]["B"]["wall_s"] / p["runs"]["A"]["wall_s"]) for p in pairs]
    later = [
        math.log(p["runs"][p["second"]]["wall_s"] / p["runs"][p["first"]]["wall_s"]) for p in pairs
    ]
    sd = statistics.stdev(ratios)
    pair_time = statistics.mean(p["elapsed_s"] for p in pairs)
    n_equal = total_time / pair_time
    return {
        "pairs": len(pairs),
        "machine_s": sum(p["elapsed_s"] for p in pairs),
        "pair_s": pair_time,
        "spread": sd,
        "mean_log_ratio": statistics.mean(ratios),
        "bias_second_over_first": statistics.mean(later),
        "bias_sd": statistics.stdev(later),
        "wall_median_s": statistics.median(
            r["wall_s"] for p in pairs for r in p["runs"].values()
        ),
        "half_width_now_pct": 100 * (math.exp(1.96 * sd / math.sqrt(len(pairs))) - 1),
        "half_width_equal_time_pct": 100 * (math.exp(1.96 * sd / math.sqrt(n_equal)) - 1),
    }


def write(path, record):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(record, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, required=True, help="machine time for both pairings together")
    parser.add_argument("--out", required=True, help="JSON file, rewritten after every block")
    parser.add_argument("--seed", type=int, default=2040)
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- then the child command")
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        sys.exit("duet-probe: no child command after --")
    if os.cpu_count() < 2:
        sys.exit("duet-probe: a duet needs two CPUs")
    rng = random.Random(args.seed)
    record = {"command": command, "seed": args.seed, "sequential": [], "duet": []}
    deadline = time.monotonic() + args.minutes * 60
    block = 0
    while time.monotonic() < deadline:
        # Which pairing goes first in a block is random, so that neither always follows the other.
        jobs = ["sequential", "duet", "duet"]
        rng.shuffle(jobs)
        for job in jobs:
            if job == "sequential":
                k = len(record["sequential"])
                a_first = k % 2 == 0
                runs, elapsed = sequential(command, a_first)
            else:
                k = len(record["duet"])
                a_cpu, a_first = k % 2, (k // 2) % 2 == 0
                runs, elapsed = duet(command, a_cpu, a_first)
            first, second = ("A", "B") if a_first else ("B", "A")
            entry = {"block": block, "first": first, "second": second, "elapsed_s": elapsed, "runs": runs}
            if job == "duet":
                entry["a_cpu"] = a_cpu
            record[job].append(entry)
        total = sum(p["elapsed_s"] for j in ("sequential", "duet") for p in record[j])
        record["summary"] = {j: summary(record[j], total / 2) for j in ("sequential", "duet")}
        write(args.out, record)
        s, d = record["summary"]["sequential"], record["summary"]["duet"]
        line = f"block {block}: {len(record['sequential'])} sequential, {len(record['duet'])} duet pairs"
        if s and d:
            line += (
                f"; spread {s['spread']:.3f} / {d['spread']:.3f}, bias {100 * s['bias_second_over_first']:+.1f}%"
                f" / {100 * d['bias_second_over_first']:+.1f}%, half-width at equal time"
                f" ±{s['half_width_equal_time_pct']:.1f}% / ±{d['half_width_equal_time_pct']:.1f}%"
            )
        print(line, flush=True)
        block += 1
    digests = {r["digest"] for j in ("sequential", "duet") for p in record[j] for r in p["runs"].values()}
    if len(digests) != 1:
        sys.exit(f"duet-probe: the runs disagree: {len(digests)} digests")


if __name__ == "__main__":
    main()
