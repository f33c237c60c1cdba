"""Python part of the ShellSim harness benchmark: Environment.run("echo hi")
through the C ABI, against a baseline measured in the same run (a no-op
call through the same ABI: reading ``Environment.terminated``).

    PYTHONPATH=python python3 bench/shellsim_harness/bench.py [-n 5000]
"""

from __future__ import annotations

import argparse
import statistics
import time

from shellbox.shellsim import Environment

TARGET_US = 30.0


def median_us(fn, n: int) -> float:
    for _ in range(n // 10):
        fn()
    times = []
    for _ in range(n):
        began = time.perf_counter_ns()
        fn()
        times.append(time.perf_counter_ns() - began)
    return statistics.median(times) / 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("-n", type=int, default=5000)
    args = parser.parse_args()
    env = Environment(cpu=10**15, output=10**12)
    result = env.run("echo hi")
    assert result.stdout == b"hi\n", result
    run = median_us(lambda: env.run("echo hi"), args.n)
    base = median_us(lambda: env.terminated, args.n)
    status = "meets" if run <= TARGET_US else "MISSES"
    label = 'Python Environment.run("echo hi")'
    print(
        f"{label:48} median {run:9.1f} µs  target {TARGET_US:6.0f} µs ({status})  "
        f"baseline no-op ABI call: {base:.1f} µs  ratio {run / base:.2f}x"
    )


if __name__ == "__main__":
    main()
