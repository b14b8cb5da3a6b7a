#!/usr/bin/env python3
"""Interleaved A/B runs of `doc-bridge index` (cold, or warm) for two or more binaries.

On a shared virtual machine the speed drifts by a quarter within the hour and single runs jump
by more than that, so two binaries measured one after the other say little. This script runs
them in turn, round after round, each cold (`.doc-bridge/` removed first) with
`DOC_BRIDGE_TIMINGS=1`, and prints for the wall time, the CPU time (user and system, of the
process and its threads) and every phase the minimum and the median over the rounds, side by
side. On two cores the CPU time tells a change that saves work from one that only moves it.

Usage: bench/compare.py DIR ROUNDS BINARY [BINARY ...]
  DIR      a repository (for example a corpus written by bench/index-speed.sh)
  ROUNDS   runs per binary (12 is a good start; the minimum settles before the median)
  WARM=1   measure warm runs instead: each measured run follows an unmeasured cold one and is
           forced (`--force`, where the binary has it) so that it runs in full
"""

import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from collections import defaultdict

PHASE = re.compile(r"^timing (.*): ([0-9.]+) ms", re.MULTILINE)


def supports_force(binary):
    """Whether `binary index` has `--force` (older builds always ran in full)."""
    help_text = subprocess.run([binary, "index", "--help"], capture_output=True, text=True).stdout
    return "--force" in help_text


def run(binary, root, warm):
    """One index, cold (or warm: after a cold one): wall milliseconds and the phase timings it
    printed."""
    shutil.rmtree(os.path.join(root, ".doc-bridge"), ignore_errors=True)
    if warm:
        subprocess.run([binary, "index", "--root", root, "--quiet"], capture_output=True, check=True)
    env = dict(os.environ, DOC_BRIDGE_TIMINGS="1")
    # A warm run is a full one: forced where the binary would otherwise find nothing changed.
    force = ["--force"] if warm and supports_force(binary) else []
    start = time.perf_counter()
    process = subprocess.Popen(
        [binary, "index", "--root", root, "--quiet", *force],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    stderr = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    wall = (time.perf_counter() - start) * 1000.0
    cpu = (usage.ru_utime + usage.ru_stime) * 1000.0
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"compare: {binary} failed ({os.waitstatus_to_exitcode(status)}):\n{stderr}")
    return wall, cpu, [(m.group(1), float(m.group(2))) for m in PHASE.finditer(stderr)]


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    root, rounds, binaries = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    warm = os.environ.get("WARM") == "1"
    times = {binary: defaultdict(list) for binary in binaries}
    order = []
    for _ in range(rounds):
        for binary in binaries:
            wall, cpu, phases = run(binary, root, warm)
            times[binary]["wall"].append(wall)
            times[binary]["cpu (user + system)"].append(cpu)
            for name, ms in phases:
                if name not in order:
                    order.append(name)
                times[binary][name].append(ms)
    width = max(len(name) for name in ["cpu (user + system)", *order])
    names = [os.path.basename(binary) for binary in binaries]
    kind = "warm" if warm else "cold"
    print(f"min / median ms over {rounds} interleaved rounds, {kind}")
    print(f"{'':{width}}" + "".join(f"{name:>22}" for name in names))
    for phase in ["wall", "cpu (user + system)", *order]:
        cells = []
        for binary in binaries:
            values = times[binary].get(phase)
            cells.append(
                f"{min(values):.1f} / {statistics.median(values):.1f}" if values else "-"
            )
        print(f"{phase:{width}}" + "".join(f"{cell:>22}" for cell in cells))


if __name__ == "__main__":
    main()
