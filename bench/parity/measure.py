"""One side of bench/parity: times the slow paths of issue 14 through whichever ``shellbox`` package is
importable (ours, or marin-shellbox in its own venv) and prints one JSON object of medians in seconds.

    python bench/parity/measure.py [--runs N] [--docker-image IMAGE] [--skip-docker]
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.metadata
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

from shellbox.machine import Command, DockerImage, HostImage, MachineSpec

IDLE = 0.05  # seconds between commands in the *_after_idle measurements


def which() -> str:
    try:
        return "marin-shellbox " + importlib.metadata.version("marin-shellbox")
    except importlib.metadata.PackageNotFoundError:
        return "shellbox (this tree)"


async def timed(runs: int, step) -> float:
    await step()  # warm-up
    samples = []
    for _ in range(runs):
        began = time.perf_counter()
        await step()
        samples.append(time.perf_counter() - began)
    return statistics.median(samples)


async def local(runs: int, out: dict) -> None:
    from shellbox.backends.local.machine import LocalMachineFactory

    machine = await LocalMachineFactory().create(MachineSpec(HostImage(), workdir="/workspace"))
    try:
        true = Command(("true",))
        out["local_run_true"] = await timed(runs * 5, lambda: machine.run(true))
        with tempfile.TemporaryDirectory() as scratch:
            source = Path(scratch) / "payload"
            source.write_bytes(os.urandom(10 << 20))
            back = Path(scratch) / "back"

            async def round_trip() -> None:
                await machine.upload(source, "/workspace/payload")
                await machine.download("/workspace/payload", back)
                back.unlink()

            out["local_upload_download_10mib"] = await timed(runs, round_trip)
    finally:
        await machine.close()


async def docker(runs: int, image: str, out: dict) -> None:
    from shellbox.backends.docker.machine import DockerMachineFactory

    machine = await DockerMachineFactory().create(MachineSpec(DockerImage(image), workdir="/workspace"))
    try:
        true = Command(("true",))
        out["docker_run_true"] = await timed(runs * 2, lambda: machine.run(true))

        async def after_idle() -> None:
            # As between an agent's commands: the backend may use the pause.
            await asyncio.sleep(IDLE)
            began = time.perf_counter()
            await machine.run(true)
            idle_samples.append(time.perf_counter() - began)

        idle_samples: list[float] = []
        for _ in range(runs):
            await after_idle()
        out["docker_run_true_after_idle"] = statistics.median(idle_samples)
    finally:
        await machine.close()


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--docker-image", default="shellbox-security/busybox:1")
    parser.add_argument("--skip-docker", action="store_true")
    args = parser.parse_args()
    out: dict = {"package": which()}
    await local(args.runs, out)
    if not args.skip_docker:
        await docker(args.runs, args.docker_image, out)
    print(json.dumps(out))


if __name__ == "__main__":
    asyncio.run(main())
