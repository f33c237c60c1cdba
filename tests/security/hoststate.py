"""Host facts an attack must not change: a sentinel file outside every sandbox, sysctl values,
process, zombie and mount counts, and shellbox temp dirs."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from leaks import descendants, mounts, temp_entries  # noqa: E402

# Host-global knobs a guest has tried to write (values compared before and after).
SYSCTLS = (
    "/proc/sys/kernel/core_pattern",
    "/proc/sys/kernel/modprobe",
    "/proc/sys/kernel/hostname",
    "/proc/sys/kernel/domainname",
    "/proc/sys/fs/lease-break-time",
    "/proc/sys/vm/drop_caches",
    "/proc/sys/kernel/sysrq",
    "/proc/sys/net/ipv4/ip_forward",
)


def read_sysctls() -> dict[str, str]:
    out = {}
    for p in SYSCTLS:
        try:
            out[p] = Path(p).read_text()
        except OSError as e:
            out[p] = f"<{type(e).__name__}>"
    return out


def zombies() -> set[int]:
    """Zombie processes whose parent is this process or host PID 1 (reparented orphans). containerd's
    shims are left out: containerd daemonizes them to PID 1 itself, whatever shellbox does, and reaping
    them is PID 1's business (this host's init reaps late)."""
    out = set()
    me = os.getpid()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        comm = stat[stat.index("(") + 1 : stat.rindex(")")]
        if fields[0] == "Z" and int(fields[1]) in (1, me) and comm != "containerd-shim":
            out.add(int(entry.name))
    return out


def describe(pids: set[int]) -> list[str]:
    """'pid ppid comm' of each process, for failure messages."""
    out = []
    for pid in sorted(pids):
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            out.append(f"{pid} ppid={stat.rsplit(')', 1)[1].split()[1]} {stat[stat.index('(') + 1:stat.rindex(')')]}")
        except OSError:
            out.append(f"{pid} (gone)")
    return out


class HostState:
    def __init__(self, sentinel_dir: Path):
        self.sentinel = sentinel_dir / "sentinel"
        self.sentinel.write_text("untouched\n")
        self.sentinel_dir = sentinel_dir
        self.sysctls = read_sysctls()
        self.children = descendants()
        self.mounts = mounts()
        self.temps = temp_entries()
        self.zombies = zombies()
        self.binfmt = sorted(os.listdir("/proc/sys/fs/binfmt_misc")) if os.path.isdir("/proc/sys/fs/binfmt_misc") else []

    def assert_unchanged(self, settle: float = 5.0) -> None:
        """Fails unless the host looks as it did; processes get `settle` seconds to go away."""
        assert self.sentinel.read_text() == "untouched\n", "sentinel file changed"
        assert sorted(os.listdir(self.sentinel_dir)) == ["sentinel"], "files planted beside the sentinel"
        assert read_sysctls() == self.sysctls, "a host sysctl changed"
        binfmt = sorted(os.listdir("/proc/sys/fs/binfmt_misc")) if os.path.isdir("/proc/sys/fs/binfmt_misc") else []
        assert binfmt == self.binfmt, "binfmt_misc changed"
        deadline = time.monotonic() + settle
        while True:
            extra = descendants() - self.children
            new_zombies = zombies() - self.zombies
            if not extra and not new_zombies or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert not extra, f"processes left behind: {sorted(extra)}"
        assert not new_zombies, f"zombies left behind: {describe(new_zombies)}"
        assert mounts() == self.mounts, "mounts changed"
        assert temp_entries() - self.temps == set(), f"temp dirs left behind: {temp_entries() - self.temps}"
