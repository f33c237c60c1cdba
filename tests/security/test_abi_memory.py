"""Large output is held once (issue 10, 2.5): `output_limit_bytes=2 GiB` with 1.5 GB printed once took
7.6 GB of host RSS and kept it. Go writes output off its heap, the ABI copies it straight into the
bytes object Python keeps (returning Go's pages as it goes), and the memory is returned afterwards.
Measured in a child process: peak RSS growth (VmHWM) at most 1.3x the output + 64 MiB."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from testimages import security_image

PYTHON_DIR = Path(__file__).resolve().parents[2] / "python"
SIZE = 512 << 20
MIB = 1 << 20

CHILD = textwrap.dedent(
    """
    import asyncio, gc, json, sys
    from shellbox.machine import Command, DockerImage, HostImage, MachineSpec

    SIZE, BACKEND = int(sys.argv[1]), sys.argv[2]

    def status(key):
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(key):
                    return int(line.split()[1]) * 1024

    async def main():
        if BACKEND == "local":
            from shellbox.backends.local.machine import LocalMachineFactory

            machine = await LocalMachineFactory().create(MachineSpec(HostImage()))
        else:
            from shellbox.backends.docker.machine import DockerMachineFactory

            machine = await DockerMachineFactory().create(MachineSpec(DockerImage(sys.argv[3])))
        try:
            for _ in range(3):  # warm up: threads, buffers, the sandbox helper
                await machine.run(Command(("sh", "-c", "yes warm | head -c 4000000"), output_limit_bytes=8 << 20))
            gc.collect()
            with open("/proc/self/clear_refs", "w") as f:
                f.write("5")  # resets VmHWM to the current RSS
            base = status("VmRSS:")
            result = await machine.run(
                Command(("sh", "-c", f"yes abcdefghijklmnop | head -c {SIZE}"), output_limit_bytes=2 << 30, timeout=300)
            )
            peak = status("VmHWM:")
            ok = len(result.stdout) == SIZE and result.stdout[:17] == b"abcdefghijklmnop\\n" and not result.stdout_truncated
            ok = ok and result.stdout[-1:] in b"abcdefghijklmnop\\n"
            del result
            gc.collect()
            after = status("VmRSS:")
        finally:
            await machine.close()
        print(json.dumps({"ok": ok, "base": base, "peak": peak, "after": after}))

    asyncio.run(main())
    """
)


@pytest.mark.parametrize("backend", ["local", "docker"])
def test_large_output_is_held_once_and_returned(backend):
    env = {**os.environ, "PYTHONPATH": str(PYTHON_DIR)}
    image = security_image() if backend == "docker" else ""
    child = subprocess.run(
        [sys.executable, "-c", CHILD, str(SIZE), backend, image], env=env, capture_output=True, text=True, timeout=600
    )
    assert child.returncode == 0, child.stderr[-3000:]
    m = json.loads(child.stdout)
    assert m["ok"], "the output came back wrong"
    growth = m["peak"] - m["base"]
    assert growth <= 1.3 * SIZE + 64 * MIB, f"peak RSS grew {growth / MIB:.0f} MiB for {SIZE / MIB:.0f} MiB of output"
    kept = m["after"] - m["base"]
    assert kept <= 64 * MIB, f"{kept / MIB:.0f} MiB still resident after the result was dropped"
