"""Host assets of QEMU machines and staged bundles, with marin-shellbox's names."""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path

from shellbox.image import PreparedImage
from shellbox.machine import QemuBundle

__all__ = ["IMAGE_METADATA_FILE", "IMAGE_REFERENCE_KEY", "QemuAssets", "load_qemu_bundle", "stage_qemu_image"]

IMAGE_METADATA_FILE = "image.json"
IMAGE_REFERENCE_KEY = "image_reference"


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


def _shellbox(*args: str) -> str:
    """Runs the shellbox command (lib/cli) and returns its stdout; a failure
    raises RuntimeError with the end of its stderr, as marin-shellbox's
    staging reports a failed tool."""
    from shellbox._native import bin_dir

    command = bin_dir() / "shellbox"
    if not command.exists():
        raise RuntimeError(f"{command} is missing; reinstall shellbox")
    done = subprocess.run([str(command), *args], stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"shellbox {args[0]} failed: {done.stderr[-2000:]}")
    return done.stdout.strip()


def stage_qemu_image(image: PreparedImage, assets: QemuAssets, cache: Path) -> Path:
    """Stage a prepared image as a reusable QEMU bundle in ``cache`` and return its path.

    Staging runs in Go (``shellbox stage``): the disk is keyed by the manifest
    digest and ``assets.disk_size_mb``, built once under a per-key lock and
    renamed into place. A factory whose ``bundle_cache`` is ``cache`` finds it
    when it creates a machine of the same image. Synchronous, as marin-shellbox's
    (its factory calls it in a thread)."""
    out = _shellbox(
        "stage",
        "--cache-dir",
        str(Path(cache).absolute()),
        "--disk-size-mb",
        str(assets.disk_size_mb),
        f"oci:{Path(image.layout).absolute()}@{image.manifest_digest}",
    )
    return Path(out)


def load_qemu_bundle(path: Path) -> QemuBundle:
    """A QemuBundle of a staged bundle directory, with the registry reference its image.json records."""
    path = Path(path)
    metadata_path = path / IMAGE_METADATA_FILE
    metadata = json.loads(metadata_path.read_text()) if metadata_path.exists() else {}
    return QemuBundle(path, image_reference=metadata.get(IMAGE_REFERENCE_KEY))
