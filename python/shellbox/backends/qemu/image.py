"""Host assets of QEMU machines, with marin-shellbox's names."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

__all__ = ["QemuAssets"]


@dataclass(frozen=True)
class QemuAssets:
    """What QEMU machines boot with; every field left ``None`` is found on the host.

    ``qemu`` is qemu-system-x86_64, ``kernel`` a bzImage or vmlinux with a PVH
    entry (default: Debian's linux-image-cloud-amd64) and ``modules`` its
    /lib/modules/<release> directory, ``guest`` the shellbox-guest program.
    ``busybox``, ``firmware``, ``libraries`` and ``umoci`` are marin-shellbox's
    staging inputs: the guest agent is a static Go program booted without
    firmware and images are unpacked in Go, so they are accepted and unused.
    ``runtime_id`` is likewise unused: the kernel's and guest's contents key the cache."""

    qemu: Path | None = None
    kernel: Path | None = None
    busybox: Path | None = None
    firmware: Path | None = None
    libraries: Path | None = None
    umoci: Path | None = None
    disk_size_mb: int = 2048
    runtime_id: str = ""
    modules: Path | None = None
    guest: Path | None = None

    def __post_init__(self) -> None:
        if self.disk_size_mb <= 0:
            raise ValueError("disk_size_mb must be positive")
