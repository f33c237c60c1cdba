"""Issue 10 §3 (local): a Python process that owns local machines dies by SIGKILL or leaves by os._exit;
its sandboxes must die with it and the next factory start must sweep its machine directories."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

import shellbox
from shellbox.backends.local.machine import LocalMachineFactory

CHILD = r"""
import asyncio, os, signal, sys
from shellbox.backends.local.machine import LocalMachineFactory
from shellbox.machine import Command, HostImage, MachineSpec

async def main():
    factory = LocalMachineFactory()
    machines = [await factory.create(MachineSpec(HostImage())) for _ in range(2)]
    for m in machines:
        await m.run(Command(["sh", "-c", "sleep 1000 > /dev/null 2>&1 & echo $! > /tmp/bg"]))
    # This process's launchers name its machine directories.
    dirs = set()
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
        except (OSError, ValueError):
            continue
        if ppid == os.getpid():
            dirs |= {part.decode() for a in argv for part in a.split(b"/") if part.startswith(b"shellbox-local-")}
    print("ready", *sorted(dirs), flush=True)
    if sys.argv[1] == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    os._exit(0)

asyncio.run(main())
"""


def machine_dirs() -> set[str]:
    return {n for n in os.listdir(tempfile.gettempdir()) if n.startswith("shellbox-local-")}


def processes_mentioning(words: set[str]) -> list[str]:
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z" and any(w in cmdline for w in words):
            out.append(f"{entry.name} {cmdline}")
    return out


def cgroups_named(words: set[str]) -> list[str]:
    found = []
    for root in (Path("/sys/fs/cgroup"), Path("/sys/fs/cgroup/pids"), Path("/sys/fs/cgroup/shellbox")):
        if root.is_dir():
            found += [str(p) for p in root.iterdir() if p.name in words]
    return found


@pytest.mark.parametrize("how", ["kill", "exit"])
def test_owner_death_leaves_nothing_after_next_factory_start(how, host_state):
    env = dict(os.environ, PYTHONPATH=str(Path(shellbox.__file__).resolve().parent.parent))
    child = subprocess.Popen([sys.executable, "-c", CHILD, how], stdout=subprocess.PIPE, env=env)
    line = child.stdout.readline().split()
    child.wait(timeout=30)
    assert line[0] == b"ready"
    ours = {d.decode() for d in line[1:]}
    assert len(ours) == 2 and ours <= machine_dirs(), (ours, machine_dirs())
    # The sandboxes die with their owner (the lifeline), bubblewrap and the helper included.
    deadline = time.monotonic() + 10
    while (left := processes_mentioning(ours)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not left, left
    # The launchers removed the machines' cgroups; the next factory start removes the directories.
    assert not cgroups_named(ours)
    LocalMachineFactory()
    assert not (machine_dirs() & ours), machine_dirs() & ours
    host_state.assert_unchanged()
