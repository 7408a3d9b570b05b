#!/usr/bin/env python3
"""Runs a command and prints the peaks of its anonymous and file-backed resident memory.

    checker/scripts/rss-split.py COMMAND [ARG ...]

prints one line, `anon_mb file_mb`: the largest RssAnon and RssFile seen in the child's
/proc/PID/status, sampled every 2 ms until it exits (stdout and stderr discarded). GNU
time's peak RSS is their sum at one instant; the split says how much of it is the program's
heap and how much its mapped binary and libraries. Sampling can miss a short peak by a few
MB, so use it for the split, not in place of the peak. Exits with the command's status.
"""
import re
import subprocess
import sys
import time

FIELDS = re.compile(r"^(RssAnon|RssFile):\s+(\d+) kB$", re.MULTILINE)


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        child = subprocess.Popen(
            sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
    except OSError as e:
        print(f"rss-split.py: cannot run {sys.argv[1]}: {e}", file=sys.stderr)
        return 2
    peak = {"RssAnon": 0, "RssFile": 0}
    status = f"/proc/{child.pid}/status"
    while child.poll() is None:
        try:
            with open(status) as f:
                text = f.read()
        except OSError:
            break
        for name, kb in FIELDS.findall(text):
            peak[name] = max(peak[name], int(kb))
        time.sleep(0.002)
    code = child.wait()
    print(f"{peak['RssAnon'] / 1024:.0f} {peak['RssFile'] / 1024:.0f}")
    return code


if __name__ == "__main__":
    sys.exit(main())
