"""Issue 10 §1: a hostile guest of a local (bubblewrap) machine, through the Python API, as root."""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

import pytest

from shellbox.backends.local.machine import LocalMachineFactory
from shellbox.machine import Command, ExitReason, HostImage, MachineSpec

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the escapes need a guest running as host root (CI runs as root)")


def sh(script: str, **kwargs) -> Command:
    return Command(("sh", "-c", script), **kwargs)


@pytest.fixture(scope="module")
def factory() -> LocalMachineFactory:
    return LocalMachineFactory()


@pytest.fixture
def restore_sysctls():
    """Puts back host sysctls a vulnerable build let the guest change, so the host stays usable."""
    paths = [Path("/proc/sys/kernel/core_pattern"), Path("/proc/sys/fs/lease-break-time")]
    saved = {p: p.read_text() for p in paths}
    yield
    for p, value in saved.items():
        if p.read_text() != value:
            p.write_text(value)


async def test_core_pattern_escape(factory, host_state, restore_sysctls):
    """The reproducer: the guest reads its host root from /proc/1/cmdline, points core_pattern at its own
    script and crashes; the script would run on the host as root."""
    m = await factory.create(MachineSpec(HostImage()))
    try:
        script = r"""
HOSTROOT=$(tr '\0' '\n' < /proc/1/cmdline | sed -n 's|^\(.*shellbox-local-[^/]*/root\)$|\1|p' | head -1)
printf '#!/bin/sh\ntouch %s\n' "$SENTINEL_DIR/pwned" > /tmp/h.sh; chmod 755 /tmp/h.sh
echo "|$HOSTROOT/tmp/h.sh" > /proc/sys/kernel/core_pattern; echo "core_pattern=$?"
echo 99 > /proc/sys/fs/lease-break-time; echo "lease=$?"
ulimit -c unlimited 2>/dev/null; sh -c 'kill -SEGV $$'; echo "root=$HOSTROOT"
"""
        result = await m.run(sh(script, env={"SENTINEL_DIR": str(host_state.sentinel_dir)}, timeout=30))
        out = result.stdout.decode()
        assert "core_pattern=0" not in out and "lease=0" not in out, out
        assert "root=\n" in out, f"the guest learnt its host root: {out}"
    finally:
        await m.close()
    host_state.assert_unchanged()


async def test_host_knobs_are_read_only(factory, host_state):
    m = await factory.create(MachineSpec(HostImage()))
    try:
        script = r"""
for f in $(find /proc/sys /proc/sysrq-trigger /proc/irq /proc/bus /proc/fs /sys -xdev -type f 2>/dev/null); do
  if true 2>/dev/null >>"$f"; then echo "writable: $f"; fi
done
echo ':shellbox:M::SBX::/tmp/x:' 2>/dev/null > /proc/sys/fs/binfmt_misc/register && echo "binfmt registered"
echo "sys-entries=$(ls -A /sys | wc -l)"
echo "proc-sys-files=$(find /proc/sys -type f 2>/dev/null | wc -l)"
"""
        out = (await m.run(sh(script, timeout=120))).stdout.decode()
        assert "writable:" not in out and "binfmt registered" not in out, out
        assert "sys-entries=0\n" in out, out
        assert int(re.search(r"proc-sys-files=(\d+)", out).group(1)) > 100, out
    finally:
        await m.close()
    host_state.assert_unchanged()


async def test_guest_sees_no_host_paths(factory, host_state):
    m = await factory.create(MachineSpec(HostImage()))
    try:
        out = (
            await m.run(sh(r"for f in /proc/[0-9]*/cmdline /proc/[0-9]*/environ /proc/self/mounts; do cat $f; echo; done | tr '\0' ' '"))
        ).stdout.decode()
        assert tempfile.gettempdir() + "/shellbox-" not in out, out
        assert "shellbox-local-" not in out, out
    finally:
        await m.close()
    host_state.assert_unchanged()


async def test_inherited_descriptor_does_not_reach_guest(factory, host_state, tmp_path):
    """Issue 10 §1.2: a non-CLOEXEC descriptor of the embedding process (a host directory) must not appear
    in a guest command, which could otherwise fchdir into it and walk the host tree."""
    (tmp_path / "secret").write_text("host secret")
    fd = os.open(tmp_path, os.O_RDONLY | os.O_DIRECTORY)
    os.set_inheritable(fd, True)
    try:
        m = await factory.create(MachineSpec(HostImage()))
        try:
            result = await m.run(sh(f"ls /proc/self/fd | tr '\\n' ' '; echo; cat /proc/self/fd/{fd}/secret 2>&1; cd /proc/self/fd/{fd}/.. 2>&1 && pwd"))
        finally:
            await m.close()
    finally:
        os.close(fd)
    lines = result.stdout.decode().split("\n")
    assert lines[0] == "0 1 2 3 ", lines  # ls holds 3 on /proc/self/fd
    assert b"host secret" not in result.stdout and str(tmp_path).encode() not in result.stdout
    host_state.assert_unchanged()


async def test_private_etc_and_machine_owned_dirs(factory, host_state):
    m = await factory.create(MachineSpec(HostImage()))
    try:
        script = r"""
for f in /etc/shadow /etc/gshadow /etc/environment /etc/sudoers /etc/ssl/private; do [ -e $f ] && echo "present: $f"; done
awk -F: 'length($2) > 1 { print "hash: " $1 }' /etc/passwd
echo "opt=$(ls -A /opt | wc -l)"
for d in /opt /app /tests /tmp /home/shellbox; do mkdir -p $d && touch $d/mine && echo "own: $d"; done
test -s /etc/resolv.conf && echo dns
python3 -c 'print("python")'; bash -c 'echo bash'; ls / > /dev/null && echo ls
"""
        out = (await m.run(sh(script))).stdout.decode()
    finally:
        await m.close()
    assert "present:" not in out and "hash:" not in out, out
    for want in ("opt=0", "own: /opt", "own: /app", "own: /tests", "own: /tmp", "own: /home/shellbox", "dns", "python", "bash", "ls"):
        assert want in out, out
    assert not Path("/opt/mine").exists() and not Path("/app/mine").exists()
    host_state.assert_unchanged()


async def test_limits_and_fork_bomb(factory, host_state):
    m = await factory.create(MachineSpec(HostImage()))
    try:
        limits = (await m.run(sh("cat /proc/self/limits"))).stdout.decode()
        assert re.search(r"Max file size\s+1073741824\s+1073741824", limits), limits
        assert re.search(r"Max core file size\s+0\s+0", limits), limits
        result = await m.run(Command(("bash", "-c", "f(){ f|f& };f"), timeout=5))  # bash retries failed forks
        assert result.reason == ExitReason.TIMED_OUT
        assert (await m.run(Command(["true"]))).exit_code == 0
    finally:
        await m.close()
    host_state.assert_unchanged()


async def test_no_zombies_after_cycles(factory, host_state):
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    PR_SET_CHILD_SUBREAPER = 36
    # Orphans come to this process, as they would to a container's PID 1 that does not reap.
    assert libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    try:
        for _ in range(60):
            m = await factory.create(MachineSpec(HostImage()))
            await m.run(sh("sleep 100 & true"))
            await m.close()
        host_state.assert_unchanged()
    finally:
        libc.prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)


async def test_pids_limit_option(host_state):
    factory = LocalMachineFactory(pids_limit=64)
    m = await factory.create(MachineSpec(HostImage()))
    try:
        result = await m.run(sh("i=0; while [ $i -lt 100 ]; do sleep 30 & i=$((i+1)); done; echo spawned", timeout=3))
        assert b"fork" in result.stderr.lower(), result
        assert result.reason == ExitReason.TIMED_OUT  # its jobs ran the machine out of processes
        assert (await m.run(Command(["true"]))).exit_code == 0
    finally:
        await m.close()
    host_state.assert_unchanged()
