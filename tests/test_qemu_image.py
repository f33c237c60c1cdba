"""Staging QEMU bundles: shellbox.backends.qemu.image and the shellbox-stage command, on real QEMU (TCG)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import shellbox
from shellbox.backends.qemu.image import QemuAssets, load_qemu_bundle, stage_qemu_image
from shellbox.backends.qemu.machine import Acceleration, QemuMachineFactory
from shellbox.machine import Command, MachineSpec, QemuBundle
from test_qemu_machine import busybox_layout


async def test_stage_load_and_boot(tmp_path):
    image = busybox_layout(tmp_path / "oci")
    cache = tmp_path / "bundles"
    assets = QemuAssets(disk_size_mb=64)
    # Concurrent stages of one image build it once and agree on the bundle.
    first, second = await asyncio.gather(
        asyncio.to_thread(stage_qemu_image, image, assets, cache),
        asyncio.to_thread(stage_qemu_image, image, assets, cache),
    )
    assert first == second and first.parent.parent == cache
    assert (first / "rootfs.ext4").stat().st_size == 64 << 20
    assert json.loads((first / "image.json").read_text())["manifest_digest"] == image.manifest_digest
    assert not [p for p in first.parent.iterdir() if p.name.startswith(".stage-")]

    bundle = load_qemu_bundle(first)
    assert bundle == QemuBundle(first, image_reference=None)
    factory = QemuMachineFactory(Acceleration.TCG, assets=assets, bundle_cache=cache, restore=False)
    machine = await factory.create(MachineSpec(bundle, startup_timeout=600))
    try:
        result = await machine.run(Command(("sh", "-c", "echo hi; echo $IMAGE_VAR")))
        assert (result.exit_code, result.stdout, result.stderr) == (0, b"hi\nfrom-image\n", b"")
    finally:
        await machine.close()


def test_stage_refuses_bad_images(tmp_path):
    image = busybox_layout(tmp_path / "oci")
    (tmp_path / "oci" / "blobs" / "sha256" / image.manifest_digest.removeprefix("sha256:")).write_bytes(b"{}")
    with pytest.raises(RuntimeError, match="does not match its digest"):
        stage_qemu_image(image, QemuAssets(disk_size_mb=64), tmp_path / "bundles")


def test_shellbox_stage_compat_flags(tmp_path):
    image = busybox_layout(tmp_path / "oci")
    out = tmp_path / "bundle"
    # The shellbox-stage console script's function, as pip installs it.
    command = [
        sys.executable, "-c", "from shellbox._cli import shellbox_stage; shellbox_stage()",
        "--qemu", "/usr/bin/qemu-system-x86_64", "--busybox", "/bin/busybox",
        "--output", str(out), "--oci-layout", str(image.layout), "--disk-size-mb", "32",
        "--image-reference", f"example.com/busybox@{image.manifest_digest}",
    ]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(Path(shellbox.__file__).parent.parent)}
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert "ignoring --busybox --qemu" in done.stderr
    assert done.stdout.strip() == str(out)
    bundle = load_qemu_bundle(out)
    assert bundle.image_reference == f"example.com/busybox@{image.manifest_digest}"
    assert (out / "rootfs.ext4").stat().st_size == 32 << 20
