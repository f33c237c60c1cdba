"""The QEMU backend when the Python process that owns machines dies by SIGKILL or leaves by os._exit: its QEMUs
die with it (Pdeathsig), and the next factory start removes their runtime directories (locked while an owner
lives, see lib/machinedir)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

import shellbox
from shellbox.backends.qemu.machine import Acceleration, QemuAssets, QemuMachineFactory

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from test_qemu_machine import busybox_layout  # noqa: E402

PREFIX = "shellbox-qemu-vm-"

CHILD = r"""
import asyncio, os, signal, sys, tempfile
from pathlib import Path
from shellbox.backends.qemu.machine import Acceleration, QemuAssets, QemuMachineFactory
from shellbox.image import PreparedImage, RegistryImage
from shellbox.machine import Command, MachineSpec

def dirs():
    return {n for n in os.listdir(tempfile.gettempdir()) if n.startswith("shellbox-qemu-vm-")}

async def main():
    how, layout, digest, cache = sys.argv[1:5]
    image = PreparedImage(Path(layout), digest, RegistryImage("busybox:shellbox-test"))
    factory = QemuMachineFactory(Acceleration.TCG, assets=QemuAssets(disk_size_mb=64), bundle_cache=Path(cache))
    before = dirs()
    machine = await factory.create(MachineSpec(image, startup_timeout=600))
    assert (await machine.run(Command(["true"]))).exit_code == 0
    print("ready", *sorted(dirs() - before), flush=True)
    if how == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    os._exit(0)

asyncio.run(main())
"""


def runtime_dirs() -> set[str]:
    return {n for n in os.listdir(tempfile.gettempdir()) if n.startswith(PREFIX)}


def qemus_using(names: set[str]) -> list[str]:
    """QEMU processes whose TMPDIR (the backend sets it to the machine's runtime directory) is one of names."""
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes().split(b"\0")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        tmpdirs = {e.split(b"=", 1)[1].decode(errors="replace") for e in environ if e.startswith(b"TMPDIR=")}
        if state != "Z" and any(Path(t).name in names for t in tmpdirs):
            out.append(entry.name)
    return out


@pytest.mark.parametrize("how", ["kill", "exit"])
def test_owner_death_leaves_no_qemu_and_next_factory_removes_its_directory(how, tmp_path, host_state):
    image = busybox_layout(tmp_path / "oci")
    env = dict(os.environ, PYTHONPATH=str(Path(shellbox.__file__).resolve().parent.parent))
    argv = [sys.executable, "-c", CHILD, how, str(image.layout), image.manifest_digest, str(tmp_path / "cache")]
    child = subprocess.Popen(argv, stdout=subprocess.PIPE, env=env)
    line = child.stdout.readline().split()
    child.wait(timeout=600)
    assert line and line[0] == b"ready", line
    ours = {d.decode() for d in line[1:]}
    assert len(ours) == 1 and ours <= runtime_dirs(), (ours, runtime_dirs())
    deadline = time.monotonic() + 10
    while (left := qemus_using(ours)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not left, f"QEMU outlived its owner: {left}"
    assert ours <= runtime_dirs()  # nobody removed it yet
    QemuMachineFactory(Acceleration.TCG)
    assert not (runtime_dirs() & ours), runtime_dirs() & ours
    host_state.assert_unchanged()
