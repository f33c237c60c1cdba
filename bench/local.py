"""Local backend benchmark: prints medians measured in one run, with ratios
against baselines measured in the same run (this machine is noisy).

    PYTHONPATH=python python bench/local.py [--runs N]
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import subprocess
import time

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


async def main(runs: int) -> None:
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
    run_true = []
    for _ in range(runs):
        start = time.perf_counter()
        await machine.run(command)
        run_true.append(time.perf_counter() - start)
    await machine.close()

    base_sub, base_bwrap, run = median_ms(subprocess_true), median_ms(bare_bwrap), median_ms(run_true)
    print(f"runs per measurement: {runs}")
    print(f"subprocess.run(['true'])            median {base_sub:7.3f} ms")
    print(f"bare one-shot bwrap ... true        median {base_bwrap:7.3f} ms")
    print(f"machine.run(['true']) (live)        median {run:7.3f} ms  "
          f"= {run / base_sub:.2f}x subprocess, {run / base_bwrap:.2f}x bare bwrap  (target <= 1 ms)")
    print(f"factory.create(HostImage())         median {median_ms(creates):7.3f} ms  (target <= 15 ms)")
    print(f"machine.close()                     median {median_ms(closes):7.3f} ms  (target <= 10 ms)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    asyncio.run(main(parser.parse_args().runs))
