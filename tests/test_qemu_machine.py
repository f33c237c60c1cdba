"""The QEMU backend through the Python API, on real QEMU (TCG) with a busybox image."""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import shutil
import stat
import tarfile
from pathlib import Path

import pytest

from shellbox.backends.qemu.machine import Acceleration, QemuAssets, QemuMachineFactory
from shellbox.image import PreparedImage, RegistryImage
from shellbox.machine import (
    Command,
    ExitReason,
    MachineSpec,
    HostImage,
    MachineStartupError,
    UnsupportedMachineSpec,
)


def busybox_layout(root: Path) -> PreparedImage:
    """An OCI layout of the host's static busybox with a link per applet."""
    busybox = shutil.which("busybox")
    assert busybox, "the QEMU tests need busybox-static"
    import subprocess

    applets = subprocess.run([busybox, "--list"], capture_output=True, check=True, text=True).stdout.split()
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for d in ("bin", "etc", "root"):
            info = tarfile.TarInfo(d)
            info.type, info.mode = tarfile.DIRTYPE, 0o755
            tar.addfile(info)
        tar.add(busybox, "bin/busybox")
        for applet in applets:
            if applet != "busybox":
                info = tarfile.TarInfo(f"bin/{applet}")
                info.type, info.linkname = tarfile.SYMTYPE, "busybox"
                tar.addfile(info)
        passwd = b"root:x:0:0:root:/root:/bin/sh\n"
        info = tarfile.TarInfo("etc/passwd")
        info.size, info.mode = len(passwd), 0o644
        tar.addfile(info, io.BytesIO(passwd))
    layer = gzip.compress(raw.getvalue(), mtime=0)
    blobs = root / "blobs" / "sha256"
    blobs.mkdir(parents=True)

    def put(data: bytes, media_type: str) -> dict:
        digest = hashlib.sha256(data).hexdigest()
        (blobs / digest).write_bytes(data)
        return {"mediaType": media_type, "digest": f"sha256:{digest}", "size": len(data)}

    config = {
        "os": "linux",
        "architecture": "amd64",
        "config": {"Env": ["PATH=/bin", "IMAGE_VAR=from-image"], "WorkingDir": "/root"},
        "rootfs": {"type": "layers", "diff_ids": [f"sha256:{hashlib.sha256(raw.getvalue()).hexdigest()}"]},
    }
    manifest = {
        "schemaVersion": 2,
        "mediaType": "application/vnd.oci.image.manifest.v1+json",
        "config": put(json.dumps(config).encode(), "application/vnd.oci.image.config.v1+json"),
        "layers": [put(layer, "application/vnd.oci.image.layer.v1.tar+gzip")],
    }
    desc = put(json.dumps(manifest).encode(), "application/vnd.oci.image.manifest.v1+json")
    (root / "index.json").write_text(json.dumps({"schemaVersion": 2, "manifests": [desc]}))
    (root / "oci-layout").write_text('{"imageLayoutVersion":"1.0.0"}')
    return PreparedImage(root, desc["digest"], RegistryImage("busybox:shellbox-test"))


@pytest.fixture(scope="module")
def image(tmp_path_factory) -> PreparedImage:
    return busybox_layout(tmp_path_factory.mktemp("oci"))


@pytest.fixture(scope="module")
def factory(tmp_path_factory) -> QemuMachineFactory:
    return QemuMachineFactory(
        Acceleration.TCG,
        assets=QemuAssets(disk_size_mb=64),
        bundle_cache=tmp_path_factory.mktemp("qemu-cache"),
    )


async def test_machine_runs_transfers_and_survives_timeouts(factory, image, tmp_path):
    machine = await factory.create(MachineSpec(image, env={"SPEC_VAR": "from-spec"}, startup_timeout=600))
    try:
        result = await machine.run(
            Command(("sh", "-c", 'pwd; echo "$IMAGE_VAR $SPEC_VAR"; cat; echo oops >&2; exit 5'), stdin=b"in\n")
        )
        assert (result.exit_code, result.stdout, result.stderr) == (5, b"/workspace\nfrom-image from-spec\nin\n", b"oops\n")

        timed = await machine.run(Command(("sh", "-c", "echo partial; sleep 1000"), timeout=0.5))
        assert timed.reason == ExitReason.TIMED_OUT and timed.exit_code is None and timed.stdout == b"partial\n"
        assert (await machine.run(Command(("echo", "still here")))).stdout == b"still here\n"

        tree = tmp_path / "tree"
        (tree / "sub").mkdir(parents=True)
        (tree / "sub" / "tool").write_bytes(b"#!/bin/sh\necho tool\n")
        (tree / "sub" / "tool").chmod(0o751)
        await machine.upload(tree, "/workspace/tree")
        assert (await machine.run(Command(("/workspace/tree/sub/tool",)))).stdout == b"tool\n"
        await machine.run(Command(("sh", "-c", "echo back > /workspace/tree/new")))
        await machine.download("/workspace/tree", tmp_path / "down")
        assert (tmp_path / "down" / "new").read_bytes() == b"back\n"
        assert stat.S_IMODE((tmp_path / "down" / "sub" / "tool").stat().st_mode) == 0o751

        async with await machine.open_process(Command(("sh", "-c", "read x; echo got:$x; exit 3"))) as proc:
            await proc.write(b"hello\n")
            await proc.close_stdin()
            assert await proc.read() == b"got:hello\n"
            assert await proc.wait() == 3
    finally:
        await machine.close()


async def test_refusals_and_startup_errors(factory, image, tmp_path):
    with pytest.raises(UnsupportedMachineSpec):
        await factory.create(MachineSpec(image, gpus=1))
    with pytest.raises(UnsupportedMachineSpec, match="source"):
        await factory.create(MachineSpec(HostImage()))
    broken = QemuMachineFactory(
        Acceleration.TCG,
        assets=QemuAssets(kernel=tmp_path / "missing-vmlinuz", disk_size_mb=64),
        bundle_cache=tmp_path / "cache",
    )
    with pytest.raises(MachineStartupError, match="missing-vmlinuz"):
        await broken.create(MachineSpec(image))


def test_factory_options_are_checked_in_go(tmp_path):
    with pytest.raises(ValueError, match="cache_max_mb"):
        QemuMachineFactory(Acceleration.TCG, cache_max_mb=-1)
    bounded = QemuMachineFactory(Acceleration.TCG, bundle_cache=tmp_path, authfile=tmp_path / "auth.json", cache_max_mb=64)
    assert bounded.authfile == tmp_path / "auth.json"


def test_factory_policy_is_read_in_go(tmp_path):
    """The signature policy reaches Go: a missing or unparsable file is refused as the ``policy`` option."""
    with pytest.raises(ValueError, match="absent.json") as missing:
        QemuMachineFactory(Acceleration.TCG, bundle_cache=tmp_path, policy=tmp_path / "absent.json")
    assert missing.value.field == "policy"
    broken = tmp_path / "broken.json"
    broken.write_text('{"default": [{"type": "trustEverything"}]}')
    with pytest.raises(ValueError, match="broken.json") as unparsable:
        QemuMachineFactory(Acceleration.TCG, bundle_cache=tmp_path, policy=broken)
    assert unparsable.value.field == "policy"
    good = tmp_path / "policy.json"
    good.write_text('{"default": [{"type": "reject"}]}')
    factory = QemuMachineFactory(Acceleration.TCG, bundle_cache=tmp_path, policy=good, registries_dir=tmp_path)
    assert factory.policy == good and factory.registries_dir == tmp_path
