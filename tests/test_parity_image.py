"""prepare_image copies images with containers/image in Go (no skopeo, no daemon for a registry image):
from a real registry on loopback (TLS with its own CA, basic auth) and from the local dockerd; the layout
it makes runs as a local machine (issue 14)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from testimages import security_image

from shellbox.backends.local.machine import LocalMachineFactory
from shellbox.image import (
    DockerfileSource,
    ImageCache,
    RegistryImage,
    prepare_image,
    prepared_image_workdir,
    process_image_cache,
)
from shellbox.machine import Command, MachineSpec

ROOT = Path(__file__).resolve().parent.parent
CERTS_D = Path("/etc/containers/certs.d")
GO_TAGS = "containers_image_openpgp"  # lib/oci pulls only with the signature verifier built in (setup.py)


@pytest.fixture(scope="module")
def registry(tmp_path_factory):
    """ocitest-registry serving the busybox test image as shellbox/busybox:1; its CA is installed where
    containers/image (and skopeo) look for a registry's CA, removed afterwards."""
    work = tmp_path_factory.mktemp("registry")
    go = shutil.which("go") or "/usr/local/go/bin/go"
    subprocess.run([go, "build", "-tags", GO_TAGS, "-o", str(work / "ocitest-registry"),
                    "./lib/oci/ocitest/ocitest-registry"], cwd=ROOT, check=True)
    proc = subprocess.Popen(
        [str(work / "ocitest-registry"), str(work / "data"), f"docker-daemon:{security_image()}=shellbox/busybox:1"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    try:
        info = json.loads(proc.stdout.readline())
        certs = CERTS_D / info["host"]
        certs.mkdir(parents=True)
        shutil.copy(Path(info["cert_dir"]) / "ca.crt", certs / "ca.crt")
        try:
            yield info, proc
        finally:
            shutil.rmtree(certs)
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)


async def test_prepare_a_registry_image_and_run_it(registry, tmp_path):
    info, proc = registry
    source = RegistryImage(info["refs"]["shellbox/busybox:1"])
    cache = tmp_path / "cache"
    image = prepare_image(source, cache, authfile=Path(info["auth_file"]))
    assert image.source == source and image.manifest_digest.startswith("sha256:")
    assert image.layout == cache / image.manifest_digest.replace(":", "-")
    assert [p.name for p in cache.iterdir()] == [image.layout.name]  # no temporary directory is left
    index = json.loads((image.layout / "index.json").read_text())
    assert [m["digest"] for m in index["manifests"]] == [image.manifest_digest]
    assert index["manifests"][0]["annotations"]["org.opencontainers.image.ref.name"] == "image"
    assert prepared_image_workdir(image) == "/"

    # The same content prepared again is the same layout.
    again = prepare_image(source, cache, authfile=Path(info["auth_file"]))
    assert again == image

    machine = await LocalMachineFactory().create(MachineSpec(image, workdir="/workspace"))
    try:
        result = await machine.run(Command(["sh", "-c", "cat /etc/passwd; readlink /bin/sh; pwd"], timeout=60))
        assert result.exit_code == 0, result
        assert result.stdout == b"root:x:0:0:root:/root:/bin/sh\nbusybox\n/workspace\n"
    finally:
        await machine.close()


def test_registry_refusals(registry, tmp_path):
    info, _ = registry
    ref = info["refs"]["shellbox/busybox:1"]
    empty_auth = tmp_path / "auth.json"
    empty_auth.write_text('{"auths": {}}')
    with pytest.raises(RuntimeError, match="unauthorized|authentication required"):
        prepare_image(RegistryImage(ref), tmp_path / "cache", authfile=empty_auth)
    with pytest.raises(RuntimeError, match="manifest unknown|not found|unknown"):
        prepare_image(RegistryImage(f"{info['host']}/shellbox/absent:1"), tmp_path / "cache",
                      authfile=Path(info["auth_file"]))
    # A signature policy binds the copy: one that rejects everything refuses it, one that accepts passes.
    reject = tmp_path / "reject.json"
    reject.write_text('{"default": [{"type": "reject"}]}')
    with pytest.raises(RuntimeError, match="policy|rejected|not allowed"):
        prepare_image(RegistryImage(ref), tmp_path / "cache", authfile=Path(info["auth_file"]), policy=reject)
    with pytest.raises(ValueError, match="policy"):
        prepare_image(RegistryImage(ref), tmp_path / "cache", policy=tmp_path / "absent.json")
    with pytest.raises(ValueError, match="URL scheme"):
        prepare_image(RegistryImage("docker://" + ref), tmp_path / "cache")
    # Nothing half-made is left behind.
    assert list((tmp_path / "cache").iterdir()) == []
    accept = tmp_path / "accept.json"
    accept.write_text('{"default": [{"type": "insecureAcceptAnything"}]}')
    image = prepare_image(RegistryImage(ref), tmp_path / "cache", authfile=Path(info["auth_file"]), policy=accept)
    assert image.layout.is_dir()


def test_image_cache_pulls_a_registry_reference_once(tmp_path):
    """A separate registry, stopped after the first prepare: the cache answers without it."""
    go = shutil.which("go") or "/usr/local/go/bin/go"
    binary = tmp_path / "ocitest-registry"
    subprocess.run([go, "build", "-tags", GO_TAGS, "-o", str(binary), "./lib/oci/ocitest/ocitest-registry"],
                   cwd=ROOT, check=True)
    proc = subprocess.Popen([str(binary), str(tmp_path / "data"), f"docker-daemon:{security_image()}=shellbox/once:1"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    info = json.loads(proc.stdout.readline())
    certs = CERTS_D / info["host"]
    certs.mkdir(parents=True)
    try:
        shutil.copy(Path(info["cert_dir"]) / "ca.crt", certs / "ca.crt")
        source = RegistryImage(info["refs"]["shellbox/once:1"])
        cache = process_image_cache(tmp_path / "cache", Path(info["auth_file"]), None)
        assert isinstance(cache, ImageCache)
        assert cache is process_image_cache(tmp_path / "cache", Path(info["auth_file"]), None)
        first = cache.prepare(source)
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
        shutil.rmtree(certs)
    assert cache.prepare(source) == first
    # Without the cache, the stopped registry is needed again.
    with pytest.raises(RuntimeError):
        prepare_image(source, tmp_path / "other", authfile=Path(info["auth_file"]))


async def test_prepare_a_dockerfile_with_the_daemon_and_run_it(tmp_path):
    context = tmp_path / "ctx"
    context.mkdir()
    (context / "note").write_text("built here\n")
    (context / "Dockerfile").write_text(f"FROM {security_image()}\nCOPY note /srv/app/note\nWORKDIR /srv/app\n")
    source = DockerfileSource(context, context / "Dockerfile")
    reject = tmp_path / "reject.json"
    reject.write_text('{"default": [{"type": "reject"}]}')
    with pytest.raises(RuntimeError, match="policy|rejected|not allowed"):
        prepare_image(source, tmp_path / "cache", policy=reject)
    image = prepare_image(source, tmp_path / "cache")
    assert image.layout == tmp_path / "cache" / image.manifest_digest.replace(":", "-")
    assert prepared_image_workdir(image) == "/srv/app"
    machine = await LocalMachineFactory().create(MachineSpec(image, workdir="/srv/app"))
    try:
        result = await machine.run(Command(["cat", "note"], timeout=60))
        assert (result.exit_code, result.stdout) == (0, b"built here\n"), result
    finally:
        await machine.close()
