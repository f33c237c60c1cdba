"""The marin-shellbox names behave as there, on real backends (issue 14, section 1)."""

from __future__ import annotations

import json
import os
from pathlib import Path, PurePosixPath

import pytest
from testimages import security_image

from shellbox.backends.docker.machine import DockerCommandResult, DockerMachineFactory, docker
from shellbox.backends.local.machine import (
    LocalMachineFactory,
    SystemDirectories,
    check_local_environment,
    read_only_system_mounts,
)
from shellbox.image import (
    DockerfileSource,
    ImageCache,
    RegistryImage,
    image_source_key,
    prepare_image,
    prepared_image_workdir,
    process_image_cache,
)
from shellbox.machine import (
    LINUX_PROCESS_CAPABILITIES,
    Command,
    CommandSemantics,
    DockerImage,
    DownloadLimitExceeded,
    HostImage,
    MachineSpec,
    MachineTerminated,
    Mount,
    NetworkPolicy,
    Requirements,
    UnsupportedMachineSpec,
    check_execution_requirements,
)
from shellbox.transfer import DownloadRefused, download_files


def test_check_execution_requirements():
    spec = MachineSpec(HostImage())
    ok = Requirements(CommandSemantics.LINUX_PROCESS, ("shell", "process"))
    check_execution_requirements(ok, spec, semantics=CommandSemantics.LINUX_PROCESS, capabilities=LINUX_PROCESS_CAPABILITIES)
    with pytest.raises(UnsupportedMachineSpec):
        check_execution_requirements(ok, spec, semantics=CommandSemantics.SHELL_SIMULATOR, capabilities=LINUX_PROCESS_CAPABILITIES)
    with pytest.raises(UnsupportedMachineSpec, match="gpu_magic"):
        check_execution_requirements(
            Requirements(CommandSemantics.LINUX_PROCESS, ("gpu_magic",)), spec,
            semantics=CommandSemantics.LINUX_PROCESS, capabilities=LINUX_PROCESS_CAPABILITIES,
        )
    networked = Requirements(CommandSemantics.LINUX_PROCESS, ("network",))
    with pytest.raises(UnsupportedMachineSpec) as refused:
        check_execution_requirements(networked, spec, semantics=CommandSemantics.LINUX_PROCESS, capabilities=LINUX_PROCESS_CAPABILITIES)
    assert refused.value.field == "network"
    check_execution_requirements(
        networked, MachineSpec(HostImage(), network=NetworkPolicy.ALLOW),
        semantics=CommandSemantics.LINUX_PROCESS, capabilities=LINUX_PROCESS_CAPABILITIES,
    )
    with pytest.raises(UnsupportedMachineSpec):
        check_execution_requirements(
            Requirements(CommandSemantics.LINUX_PROCESS, (), "img:1"), spec,
            semantics=CommandSemantics.LINUX_PROCESS, capabilities=LINUX_PROCESS_CAPABILITIES, image_reference="img:2",
        )
    check_local_environment(ok, spec)
    with pytest.raises(UnsupportedMachineSpec):
        check_local_environment(ok, MachineSpec(DockerImage("x")))


def test_image_source_key_follows_context_contents(tmp_path):
    (tmp_path / "Dockerfile").write_text("FROM scratch\n")
    (tmp_path / "a").write_text("1")
    source = DockerfileSource(tmp_path, tmp_path / "Dockerfile")
    first = image_source_key(source)
    assert first == image_source_key(source) and first.startswith("dockerfile:")
    (tmp_path / "a").write_text("2")
    assert image_source_key(source) != first
    assert image_source_key(RegistryImage("busybox:1")) == "registry:busybox:1"


def test_prepare_image_from_a_dockerfile_and_cache(tmp_path):
    context = tmp_path / "ctx"
    context.mkdir()
    (context / "Dockerfile").write_text(f"FROM {security_image()}\nWORKDIR /srv/app\n")
    source = DockerfileSource(context, context / "Dockerfile")
    image = prepare_image(source, tmp_path / "cache")
    assert image.layout.parent == tmp_path / "cache" and image.manifest_digest.startswith("sha256:")
    assert image.layout.name == image.manifest_digest.replace(":", "-")
    assert json.loads((image.layout / "index.json").read_text())["manifests"]
    assert prepared_image_workdir(image) == "/srv/app"
    cache = process_image_cache(tmp_path / "cache", None, None)
    assert cache is process_image_cache(tmp_path / "cache", None, None) and isinstance(cache, ImageCache)
    assert cache.prepare(source).manifest_digest == image.manifest_digest
    with pytest.raises(ValueError):
        prepare_image(RegistryImage("docker://x"), tmp_path / "cache")
    # A tampered manifest is refused.
    blob = image.layout / "blobs" / "sha256" / image.manifest_digest.split(":")[1]
    blob.chmod(0o644)
    blob.write_bytes(blob.read_bytes() + b" ")
    with pytest.raises(ValueError):
        prepared_image_workdir(image)


async def test_download_files_on_local(tmp_path):
    machine = await LocalMachineFactory().create(MachineSpec(HostImage(), workdir="/work"))
    try:
        setup = "mkdir -p d/e && echo one > d/a && echo two > d/e/b && ln -s /etc/passwd d/link && ln -s d linked"
        assert (await machine.run(Command(("sh", "-c", setup)))).exit_code == 0
        files = await download_files(machine, ["/work/d", "/work/missing"], timeout=30, max_files=10, max_bytes=1000, max_file_bytes=100)
        assert files == {"/work/d/a": b"one\n", "/work/d/e/b": b"two\n"}
        files = await download_files(machine, ["/work/d/a"], timeout=30, max_files=10, max_bytes=1000, max_file_bytes=100)
        assert files == {"/work/d/a": b"one\n"}
        with pytest.raises(DownloadRefused) as refused:
            await download_files(machine, ["/work/linked/a"], timeout=30, max_files=10, max_bytes=1000, max_file_bytes=100)
        assert isinstance(refused.value, RuntimeError)
        with pytest.raises(DownloadLimitExceeded):
            await download_files(machine, ["/work/d"], timeout=30, max_files=1, max_bytes=1000, max_file_bytes=100)
        with pytest.raises(ValueError):
            await download_files(machine, ["work/d"], timeout=30, max_files=1, max_bytes=1000, max_file_bytes=100)
        # marin-shellbox raises RuntimeError for a missing download source.
        with pytest.raises(RuntimeError):
            await machine.download("/work/nothing-here", tmp_path / "x")
    finally:
        await machine.close()


async def test_docker_name_and_helper():
    machine = await DockerMachineFactory().create(MachineSpec(DockerImage(security_image())))
    try:
        assert machine.name and machine.name == machine.name
        done = await docker("exec", "-i", "-w", "/tmp", "-e", "A=b", machine.name, "sh", "-c", 'pwd; echo "$A"; cat', stdin=b"in")
        assert done == DockerCommandResult(0, b"/tmp\nb\nin", b"")
        failed = await docker("exec", machine.name, "sh", "-c", "exit 3")
        assert failed.exit_code == 3
        with pytest.raises(TimeoutError):
            await docker("exec", machine.name, "sleep", "30", timeout=0.5)
        with pytest.raises(ValueError):
            await docker("pull", "busybox")
        assert (await docker("exec", "nonexistent-container", "true")).exit_code != 0
        await docker("rm", "-f", machine.name)
        with pytest.raises(Exception):
            await machine.run(Command(("true",)))
    finally:
        await machine.close()


async def test_hash_seed_and_mounts(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "f").write_text("mounted")
    factory = LocalMachineFactory(hash_seed="7")
    spec = MachineSpec(HostImage(mounts=(Mount(tmp_path / "data", PurePosixPath("/data")),)))
    machine = await factory.create(spec)
    try:
        result = await machine.run(Command(("sh", "-c", 'cat /data/f; echo " $PYTHONHASHSEED"; echo x > /data/g')))
        assert result.stdout == b"mounted 7\n" and result.exit_code != 0, result
        assert not (tmp_path / "data" / "g").exists()
    finally:
        await machine.close()
    for bad in (Mount(tmp_path, PurePosixPath("/usr/x")), Mount(tmp_path / "nope", PurePosixPath("/y"))):
        with pytest.raises(ValueError):
            await factory.create(MachineSpec(HostImage(mounts=(bad,))))


async def test_ttl_closes_a_forgotten_machine():
    machine = await LocalMachineFactory(ttl=1.0).create(MachineSpec(HostImage()))
    try:
        assert (await machine.run(Command(("true",)))).exit_code == 0
        import asyncio

        for _ in range(100):
            await asyncio.sleep(0.1)
            try:
                await machine.run(Command(("true",)))
            except MachineTerminated as ended:
                assert "ttl" in str(ended)
                break
        else:
            pytest.fail("the machine outlived its ttl")
    finally:
        await machine.close()


def test_read_only_system_mounts_are_mount_points():
    points = read_only_system_mounts()
    mounted = {line.split()[4] for line in Path("/proc/self/mountinfo").read_text().splitlines()}
    assert all(p in mounted for p in points)
    assert SystemDirectories("copy_on_write") is SystemDirectories.COPY_ON_WRITE


def test_launch_applies_limits_and_niceness():
    import resource
    import subprocess
    import sys

    from shellbox.backends.local import launch

    source = Path(launch.__file__).read_text()
    limits = json.dumps([[resource.RLIMIT_NOFILE, 64], [resource.RLIMIT_CORE, 0]])
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", source, limits, "/bin/sh", "-c", "ulimit -n; ulimit -c; nice"],
        capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stderr
    n, core, niceness = done.stdout.split()
    assert (n, core) == ("64", "0") and int(niceness) == min(19, os.nice(0) + launch.COMMAND_NICENESS)
