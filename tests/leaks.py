"""Leak accounting for tests: host processes, mounts and temp dirs."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path



def host_processes() -> set[tuple[int, str]]:
    """(pid, comm) of every host process except this test process's threads."""
    out = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                out.add((int(entry.name), (entry / "comm").read_text().strip()))
            except OSError:
                pass
    return out


def descendants(root: int | None = None) -> set[tuple[int, str]]:
    """(pid, comm) of every live (non-zombie) descendant of root (default: this process)."""
    root = os.getpid() if root is None else root
    parents: dict[int, list[tuple[int, str]]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            comm = (entry / "comm").read_text().strip()
        except OSError:
            continue
        if fields[0] != "Z":
            parents.setdefault(int(fields[1]), []).append((int(entry.name), comm))
    out: set[tuple[int, str]] = set()
    todo = [root]
    while todo:
        for child in parents.get(todo.pop(), ()):
            out.add(child)
            todo.append(child[0])
    return out


def sandbox_processes() -> set[tuple[int, str]]:
    return descendants()


def mounts() -> list[str]:
    """Mount points of this mount namespace, without dockerd's own (it mounts and
    unmounts container layers on its own schedule)."""
    points = []
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        point = line.split()[4]
        if not point.startswith(("/var/lib/docker/", "/run/docker/", "/run/containerd/", "/run/netns/")):
            points.append(point)
    return sorted(points)


def temp_entries(prefix: str = "shellbox-") -> set[str]:
    return {name for name in os.listdir(tempfile.gettempdir()) if name.startswith(prefix) and not name.startswith("shellbox-test-helpers")}
