"""Local backend benchmark: prints medians measured in one run, with ratios
against baselines measured in the same run (this machine is noisy). The
same Run(["true"]) made from Go (bench/local -run-only) is measured between
the Python rounds and printed beside it.

    PYTHONPATH=python python bench/local.py [--runs N] [--rounds R]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from shellbox.backends.local.machine import LocalMachineFactory
from shellbox.machine import Command, HostImage, MachineSpec


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def timed(fn, n: int) -> list[float]:
    out = []
    for _ in range(n):
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return out


ROOT = Path(__file__).resolve().parents[1]


def go_run_true(binary: str, runs: int) -> float:
    """The Go median of Run(["true"]) in ms (bench/local -run-only)."""
    # The Go bench uses this tree's helper, as the Python package does.
    env = {**os.environ, "SHELLBOX_BIN_DIR": str(ROOT / "python" / "shellbox" / "_bin")}
    out = subprocess.run([binary, "-run-only", "-n", str(runs)], capture_output=True, text=True, check=True,
                         cwd=ROOT, env=env).stdout
    return float(re.search(r"Run\(\[\"true\"\]\) on a live machine:\s+([0-9.]+) ms", out).group(1))


async def main(runs: int, rounds: int) -> None:
    bwrap = shutil.which("bwrap")
    subprocess_true = timed(lambda: subprocess.run(["true"], check=True), runs)
    bare_bwrap = timed(
        lambda: subprocess.run(
            [bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-pid", "--unshare-net",
             "--die-with-parent", "true"],
            check=True,
        ),
        runs,
    )
    factory = LocalMachineFactory()
    spec = MachineSpec(HostImage())
    creates, closes = [], []
    for _ in range(runs):
        start = time.perf_counter()
        machine = await factory.create(spec)
        creates.append(time.perf_counter() - start)
        start = time.perf_counter()
        await machine.close()
        closes.append(time.perf_counter() - start)
    machine = await factory.create(spec)
    command = Command(["true"])
    for _ in range(20):
        await machine.run(command)
    go_dir = tempfile.mkdtemp(prefix="shellbox-bench-")
    go_bench = os.path.join(go_dir, "local")
    subprocess.run(["go", "build", "-tags", "containers_image_openpgp", "-o", go_bench, "./bench/local"], cwd=ROOT,
                   check=True)
    py_rounds, go_rounds = [], []
    try:
        for _ in range(rounds):  # interleaved: load on the machine falls on both alike
            run_true = []
            for _ in range(runs):
                start = time.perf_counter()
                await machine.run(command)
                run_true.append(time.perf_counter() - start)
            py_rounds.append(median_ms(run_true))
            go_rounds.append(go_run_true(go_bench, runs))
    finally:
        shutil.rmtree(go_dir, ignore_errors=True)
    await machine.close()

    base_sub, base_bwrap, run = median_ms(subprocess_true), median_ms(bare_bwrap), statistics.median(py_rounds)
    go = statistics.median(go_rounds)
    print(f"runs per measurement: {runs}")
    print(f"subprocess.run(['true'])            median {base_sub:7.3f} ms")
    print(f"bare one-shot bwrap ... true        median {base_bwrap:7.3f} ms")
    print(f"machine.run(['true']) (live)        median {run:7.3f} ms  "
          f"= {run / base_sub:.2f}x subprocess, {run / base_bwrap:.2f}x bare bwrap  (target <= 1 ms)")
    print(f"Run(['true']) from Go (bench/local)  median {go:7.3f} ms  python/go {run / go:.2f}  "
          f"(medians of {rounds} interleaved rounds; load average {os.getloadavg()[0]:.1f})")
    print(f"factory.create(HostImage())         median {median_ms(creates):7.3f} ms  (target <= 15 ms)")
    print(f"machine.close()                     median {median_ms(closes):7.3f} ms  (target <= 10 ms)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    asyncio.run(main(args.runs, args.rounds))
