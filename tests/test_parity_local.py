"""The local backend's features from issue 14 section 2 on real bubblewrap and real cgroups."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from shellbox.backends.local.machine import LocalMachineFactory
from shellbox.machine import Command, HostImage, MachineSpec, UnsupportedMachineSpec


def own_cgroup(controller: str) -> str:
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        if controller in controllers.split(","):
            return path
    raise AssertionError(f"no {controller} cgroup")


@pytest.fixture
def v1_parent():
    """A cgroup_parent inside this process's own memory cgroup of the v1 hierarchy (these hosts run the
    hybrid layout); the same relative path is used in the cpu and cpuacct hierarchies."""
    if not Path("/sys/fs/cgroup/memory/memory.limit_in_bytes").exists():
        pytest.fail("this host has no cgroup v1 memory hierarchy (the hybrid layout CI runs)", pytrace=False)
    rel = own_cgroup("memory").strip("/")
    parent = Path("/sys/fs/cgroup/memory") / rel / f"shellbox-parity-{os.getpid()}"
    yield parent
    for controller in ("memory", "cpu", "cpuacct"):
        directory = Path("/sys/fs/cgroup") / controller / rel / parent.name
        if directory.exists():
            assert not [d for d in directory.iterdir() if d.is_dir()], f"machine cgroups left in {directory}"
            directory.rmdir()


def children(directory: Path) -> list[Path]:
    return [d for d in directory.iterdir() if d.is_dir()] if directory.exists() else []


async def test_cgroup_v1_limits_are_enforced_and_removed(v1_parent):
    factory = LocalMachineFactory(cgroup_parent=v1_parent)
    rel = v1_parent.relative_to("/sys/fs/cgroup/memory")
    cpu_parent = Path("/sys/fs/cgroup/cpu") / rel
    machine = await factory.create(MachineSpec(HostImage(), cpus=1, memory_mb=64))
    try:
        [memory] = children(v1_parent)
        [cpu] = children(cpu_parent)
        assert (memory / "memory.limit_in_bytes").read_text().strip() == str(64 << 20)
        assert (memory / "memory.memsw.limit_in_bytes").read_text().strip() == str(64 << 20)  # no swap
        assert (cpu / "cpu.cfs_quota_us").read_text().strip() == "100000"
        # Every process of the machine is inside, the helper and the commands alike.
        probe = await machine.run(Command(("sh", "-c", "cat /proc/self/cgroup")))
        assert probe.exit_code == 0
        inside = {int(p) for p in (memory / "cgroup.procs").read_text().split()}
        assert len(inside) >= 2  # the launcher, bubblewrap and the helper
        # Memory: a command that takes more than the limit is killed.
        hog = await machine.run(Command(("python3", "-c", "b = bytearray(200 << 20); print('survived')")))
        assert hog.exit_code != 0 and b"survived" not in hog.stdout, hog
        small = await machine.run(Command(("python3", "-c", "b = bytearray(8 << 20); print('ok')")))
        assert small.stdout == b"ok\n", small
        # CPU: two busy processes get at most about one CPU between them.
        cpuacct = Path("/sys/fs/cgroup/cpuacct") / rel / memory.name
        before = int((cpuacct / "cpuacct.usage").read_text())
        began = time.monotonic()
        spin = "end=$(($(date +%s) + 2)); while [ $(date +%s) -lt $end ]; do :; done"
        busy = await machine.run(Command(("sh", "-c", f"({spin}) & ({spin}) & wait")))
        wall = time.monotonic() - began
        used = (int((cpuacct / "cpuacct.usage").read_text()) - before) / 1e9
        assert busy.exit_code == 0
        assert used <= wall * 1.15 + 0.1, (used, wall)
        await machine.run(Command(("sh", "-c", "sleep 1000 & echo started")))
    finally:
        await machine.close()
    assert not children(v1_parent) and not children(cpu_parent), "the machine's cgroups outlived close"


async def test_cgroup_parent_refusals(tmp_path):
    with pytest.raises(UnsupportedMachineSpec) as refused:
        LocalMachineFactory(cgroup_parent=tmp_path)
    assert refused.value.field == "cgroup_parent"
    # The hybrid layout's v2 tree has no controllers delegated: said, not ignored.
    if Path("/sys/fs/cgroup/unified/cgroup.controllers").exists():
        with pytest.raises(UnsupportedMachineSpec, match="controller"):
            LocalMachineFactory(cgroup_parent=Path("/sys/fs/cgroup/unified"))
    factory = LocalMachineFactory()
    with pytest.raises(UnsupportedMachineSpec) as refused:
        await factory.create(MachineSpec(HostImage(), memory_mb=64))
    assert refused.value.field == "memory_mb"


async def test_copy_on_write_system_directories(tmp_path):
    from shellbox.backends.local.machine import SystemDirectories

    factory = LocalMachineFactory(system_directories=SystemDirectories.COPY_ON_WRITE)
    first = await factory.create(MachineSpec(HostImage(), workdir="/usr/local/shellbox-work"))
    second = await factory.create(MachineSpec(HostImage()))
    marker = "/usr/bin/shellbox-parity-cow"
    try:
        wrote = await first.run(Command(("sh", "-c", f"pwd; echo mine > {marker}; rm /usr/bin/true; echo '10.9.9.9 cow' >> /etc/hosts")))
        assert (wrote.exit_code, wrote.stdout) == (0, b"/usr/local/shellbox-work\n"), wrote
        # The machine keeps its writes between commands; the host and other machines never see them.
        seen = await first.run(Command(("sh", "-c", f"cat {marker}; test -e /usr/bin/true || echo gone; grep -c cow /etc/hosts")))
        assert seen.stdout == b"mine\ngone\n1\n", seen
        assert not Path(marker).exists() and Path("/usr/bin/true").exists()
        assert "10.9.9.9 cow" not in Path("/etc/hosts").read_text()
        other = await second.run(Command(("sh", "-c", f"test -e {marker} || echo absent; /usr/bin/true && echo true")))
        assert other.stdout == b"absent\ntrue\n", other
        # Transfers see the machine's layer.
        (tmp_path / "f").write_text("uploaded")
        await first.upload(tmp_path / "f", "/usr/share/shellbox-parity-upload")
        assert (await first.run(Command(("cat", "/usr/share/shellbox-parity-upload")))).stdout == b"uploaded"
        await first.download(marker, tmp_path / "back")
        assert (tmp_path / "back").read_text() == "mine\n"
        assert not Path("/usr/share/shellbox-parity-upload").exists()
    finally:
        await first.close()
        await second.close()
    # A read-only factory still refuses writes there.
    plain = await LocalMachineFactory().create(MachineSpec(HostImage()))
    try:
        refused = await plain.run(Command(("sh", "-c", f"echo x > {marker}")))
        assert refused.exit_code != 0
    finally:
        await plain.close()


async def test_per_command_resource_usage(v1_parent):
    machine = await LocalMachineFactory(cgroup_parent=v1_parent).create(MachineSpec(HostImage(), memory_mb=256))
    try:
        busy = await machine.run(
            Command(("python3", "-c", "import time\nb = bytearray(48 << 20)\nend = time.process_time() + 0.3\nwhile time.process_time() < end: pass"))
        )
        assert busy.exit_code == 0, busy
        assert busy.usage is not None and busy.usage.cpu_seconds >= 0.25, busy.usage
        assert busy.usage.peak_memory_bytes >= 48 << 20, busy.usage
        quiet = await machine.run(Command(("true",)))
        # The peak is the command's own: measured afresh for each one.
        assert quiet.usage is not None and quiet.usage.peak_memory_bytes < 48 << 20, quiet.usage
        assert quiet.usage.cpu_seconds < busy.usage.cpu_seconds
        assert quiet.exit_code == 0
    finally:
        await machine.close()
    plain = await LocalMachineFactory().create(MachineSpec(HostImage()))
    try:
        assert (await plain.run(Command(("true",)))).usage is None
    finally:
        await plain.close()


async def test_package_spec_builds_a_locked_venv_with_uv_from_pypi(tmp_path):
    import subprocess

    from shellbox.backends.local.python_environment import UvError, resolve_python_environment
    from shellbox.machine import PackageSpec

    # The host's own /usr/bin/python3 version: no interpreter download (GitHub is not reachable here).
    version = subprocess.run(
        ["/usr/bin/python3", "-c", "import platform; print(platform.python_version())"], capture_output=True, text=True, check=True
    ).stdout.strip()
    factory = LocalMachineFactory(package_cache=tmp_path / "cache", python_version=version, hash_seed="0")
    machine = await factory.create(MachineSpec(PackageSpec(pypi_packages=("six==1.16.0",), tools=("python3",)), workdir="/work"))
    try:
        result = await machine.run(Command(("python3", "-c", "import six, sys, os; print(six.__version__, sys.prefix.endswith('/venv'), os.environ['PYTHONHASHSEED'])")))
        assert result.stdout == b"1.16.0 True 0\n", result
    finally:
        await machine.close()
    lock = next((tmp_path / "cache").glob("*/requirements.lock"))
    assert "--hash=sha256:" in lock.read_text()
    # Built once: a second resolve reuses the same environment.
    again = resolve_python_environment(tmp_path / "cache", ("six==1.16.0",), version)
    assert (again.root / ".complete").exists()
    with pytest.raises(ValueError):
        resolve_python_environment(tmp_path / "cache", ("--index-url=http://x",), version)
    with pytest.raises(UvError):
        resolve_python_environment(tmp_path / "cache2", ("no-such-package-shellbox-parity==0.0.1",), version)
    with pytest.raises(UnsupportedMachineSpec):
        await factory.create(MachineSpec(PackageSpec(tools=("no-such-tool-shellbox",)), workdir="/work"))
