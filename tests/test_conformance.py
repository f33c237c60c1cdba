"""The machine contract through the public Python API, the same checks on every backend
(the Python twin of lib/machine/machinetest): run, timeouts, output bounds, transfers,
open_process, network, close. Every factory runs it: local, Docker, gVisor, ShellSim, QEMU
(TCG), Daytona (shellbox-daytona-server) and Iris (shellbox-iris-controller). Where a backend
legitimately differs (ShellSim: virtual time, background jobs in groups of their own, batch
processes, no network "allow"; Daytona: batch processes; Iris: no process sessions), the test
asserts the backend's documented behaviour or its refusal instead of skipping."""

from __future__ import annotations

import asyncio
import os
import stat
import subprocess
import time
from pathlib import Path

import pytest
from test_qemu_machine import busybox_layout
from testimages import BACKENDS, busybox_image

from shellbox.backends.daytona.machine import DaytonaMachineFactory
from shellbox.backends.docker.machine import DockerMachineFactory
from shellbox.backends.gvisor.machine import GvisorMachineFactory
from shellbox.backends.iris.machine import IrisMachineFactory
from shellbox.backends.local.machine import LocalMachineFactory
from shellbox.backends.qemu.machine import Acceleration, QemuAssets, QemuMachineFactory
from shellbox.backends.shellsim.machine import ShellSimMachineFactory
from shellbox.image import RegistryImage
from shellbox.machine import (
    Command,
    DockerImage,
    DownloadLimitExceeded,
    ExitReason,
    HostImage,
    MachineClosed,
    MachineSpec,
    NetworkPolicy,
    Requirements,
    Result,
    ShellSimBuiltins,
    UnsupportedMachineSpec,
)

IMAGE = "shellbox-conformance/busybox:1"
SIMULATED = {"shellsim"}  # virtual time, simulated processes (lib/machine/machinetest Capabilities.Simulated)


# The remote and VM backends run here too (their own params, not testimages.BACKENDS, which the
# security suite uses): each starts what it needs once per session, on first use.
REMOTE = ("qemu", "daytona", "iris")
NO_PROCESSES = {"iris"}  # no process sessions: open_process is refused (Capabilities.NoProcesses)
BATCH_PROCESSES = SIMULATED  # input seen at close, output at the end (Capabilities.BatchProcesses)
NETWORK_REFUSED = SIMULATED  # network "allow" is refused, not honoured (Capabilities.NetworkAllow false)
JOB_GROUPS = SIMULATED  # a timeout leaves background jobs running (Capabilities.JobGroups)
ROOT = Path(__file__).resolve().parents[1]
DAYTONA_KEY = "conformance-key"
IRIS_TOKEN = "conformance-token"


def serve(binary: str, args: list[str], env: dict[str, str]) -> tuple[subprocess.Popen, str]:
    """Start one of our loopback servers; it prints its URL as the last word of its first line."""
    proc = subprocess.Popen(
        [str(ROOT / "python" / "shellbox" / "_bin" / binary), "-listen", "127.0.0.1:0", *args],
        env={**os.environ, **env},
        stdout=subprocess.PIPE,
        text=True,
    )
    line = proc.stdout.readline()
    assert "http://" in line, line
    return proc, line.split()[-1]


@pytest.fixture(scope="session")
def backends(tmp_path_factory):
    """backend -> (factory, source maker); remote parts started lazily, stopped at session end."""
    servers: list[subprocess.Popen] = []
    made: dict[str, tuple] = {}

    def make(backend: str):
        if backend in made:
            return made[backend]
        if backend == "qemu":
            # One staged image for the session; later machines restore the first one's booted state.
            image = busybox_layout(tmp_path_factory.mktemp("conformance-oci"))
            factory = QemuMachineFactory(
                Acceleration.TCG,
                assets=QemuAssets(disk_size_mb=64),
                bundle_cache=tmp_path_factory.mktemp("conformance-qemu"),
            )
            made[backend] = (factory, lambda: image)
        elif backend == "daytona":
            busybox_image(IMAGE)
            proc, url = serve("shellbox-daytona-server", ["-backend", "docker"], {"SHELLBOX_DAYTONA_SERVER_KEY": DAYTONA_KEY})
            servers.append(proc)
            made[backend] = (DaytonaMachineFactory(api_key=DAYTONA_KEY, api_url=url), lambda: RegistryImage(IMAGE))
        elif backend == "iris":
            busybox_image(IMAGE)
            proc, url = serve("shellbox-iris-controller", [], {"SHELLBOX_IRIS_CONTROLLER_TOKEN": IRIS_TOKEN})
            servers.append(proc)
            made[backend] = (IrisMachineFactory(controller_url=url, token=IRIS_TOKEN), lambda: RegistryImage(IMAGE))
        else:
            factory = {
                "local": LocalMachineFactory,
                "docker": DockerMachineFactory,
                "gvisor": GvisorMachineFactory,
                "shellsim": ShellSimMachineFactory,
            }[backend]()
            source = {
                "local": HostImage,
                "docker": lambda: DockerImage(busybox_image(IMAGE)),
                "gvisor": lambda: DockerImage(busybox_image(IMAGE)),
                "shellsim": ShellSimBuiltins,
            }[backend]
            made[backend] = (factory, source)
        return made[backend]

    yield make
    for proc in servers:
        proc.terminate()
        assert proc.wait(timeout=60) == 0


def spec_of(backend: str, source, **kw) -> MachineSpec:
    """A spec for `backend`; QEMU VMs are kept small and given time for the first (TCG) boot."""
    if backend == "qemu":
        kw.setdefault("memory_mb", 256)
        kw.setdefault("startup_timeout", 600)
    return MachineSpec(source, **kw)


@pytest.fixture(params=(*BACKENDS, *REMOTE))
def backend(request) -> str:
    return request.param


@pytest.fixture
async def machine(backend, backends):
    factory, source = backends(backend)
    m = await factory.create(spec_of(backend, source(), env={"SPEC": "from-spec", "ANSWER": "overridden"}))
    m.name = backend
    yield m
    await m.close()


def sh(script: str, **kwargs) -> Command:
    return Command(("sh", "-c", script), **kwargs)


def block(m) -> str:
    """A command that runs until it is stopped (sleep does not wait in virtual time)."""
    return "while :; do :; done" if m.name in SIMULATED else "sleep 1000"


async def alive(m, pid_file: str) -> bool:
    script = (
        f"p=$(cat {pid_file}); if kill -0 \"$p\" 2>/dev/null; then s=$(cut -d' ' -f3 /proc/$p/stat 2>/dev/null); "
        'if [ "$s" = Z ]; then echo gone; else echo alive; fi; else echo gone; fi'
    )
    out = (await m.run(sh(script))).stdout
    assert out in (b"alive\n", b"gone\n"), out
    return out == b"alive\n"


async def wait_gone(m, pid_file: str) -> None:
    deadline = time.monotonic() + 10
    while await alive(m, pid_file):
        assert time.monotonic() < deadline, f"{pid_file}: still running"
        await asyncio.sleep(0.1)


async def test_run_status_streams_env_cwd(machine):
    payload = b"SHELLBOX_PGID:7\nanswer\x00\xff\r\n"
    result = await machine.run(
        sh(
            'pwd; printf "%s %s\\n" "$SPEC" "$ANSWER"; cat; printf "err\\000or" >&2; exit 3',
            cwd="/tmp",
            env={"ANSWER": "42"},
            stdin=payload,
        )
    )
    assert result == Result(3, b"/tmp\nfrom-spec 42\n" + payload, b"err\x00or", False, False, ExitReason.EXITED)
    assert await machine.run(Command(["pwd"])) == Result(0, b"/workspace\n", b"", False, False, ExitReason.EXITED)
    missing = await machine.run(Command(["no-such-program"]))
    assert missing.exit_code == 127 and missing.stderr and missing.reason is ExitReason.EXITED
    killed = await machine.run(sh("kill -KILL $$"))
    assert killed.exit_code == 137
    args = ["a b", "it's", "new\nline\n", "", "$HOME `id`", "ünï"]
    quoted = await machine.run(Command(("sh", "-c", 'for a in "$@"; do printf "[%s]" "$a"; done', "x", *args)))
    assert quoted.stdout == "".join(f"[{a}]" for a in args).encode()


async def test_timeout_stops_the_command_and_keeps_the_machine(machine):
    await machine.run(sh("echo keep > kept"))
    started = time.monotonic()
    result = await machine.run(
        sh(f"echo partial; echo e >&2; sleep 1000 & echo $! > child.pid; {block(machine)}", timeout=1, stdin=b"x" * (1 << 20))
    )
    assert result == Result(None, b"partial\n", b"e\n", False, False, ExitReason.TIMED_OUT)
    assert time.monotonic() - started < 15
    if machine.name in JOB_GROUPS:
        # ShellSim's background jobs have process groups of their own: a timeout leaves them running.
        assert await alive(machine, "child.pid")
    else:
        await wait_gone(machine, "child.pid")
    assert await machine.run(sh("cat kept")) == Result(0, b"keep\n", b"", False, False, ExitReason.EXITED)


async def test_output_bounds(machine):
    result = await machine.run(sh("echo 0123456789; printf ab >&2", output_limit_bytes=4))
    assert result == Result(0, b"0123", b"ab", True, False, ExitReason.EXITED)
    result = await machine.run(sh("printf 0123; printf abcd >&2", output_limit_bytes=4))
    assert result == Result(0, b"0123", b"abcd", False, False, ExitReason.EXITED)
    result = await machine.run(sh("echo out; echo err >&2", output_limit_bytes=0))
    assert result == Result(0, b"", b"", True, True, ExitReason.EXITED)
    big = await machine.run(sh("head -c 8388608 /dev/zero; head -c 8388608 /dev/zero >&2", output_limit_bytes=1 << 20))
    assert (len(big.stdout), len(big.stderr), big.stdout_truncated, big.stderr_truncated) == (1 << 20, 1 << 20, True, True)


async def test_persistence_of_files_and_background_processes(machine):
    started = time.monotonic()
    result = await machine.run(sh("echo data > file; sleep 1000 & echo $! > bg.pid; echo started"))
    assert result.stdout == b"started\n" and time.monotonic() - started < 10
    assert (await machine.run(sh("cat file"))).stdout == b"data\n"
    assert await alive(machine, "bg.pid")


async def test_transfer_files(machine, tmp_path):
    data = bytes([0, 1, 2, 13, 10, 255]) + b"x" * (3 << 20)
    tool = tmp_path / "tool"
    tool.write_bytes(data)
    tool.chmod(0o751)
    await machine.upload(tool, "/workspace/new/dir/tool")
    result = await machine.run(sh("stat -c %a new/dir/tool; wc -c < new/dir/tool | tr -d ' '"))
    assert result.stdout == b"751\n3145734\n"
    back = tmp_path / "dl" / "new" / "tool"
    await machine.download("/workspace/new/dir/tool", back)
    assert back.read_bytes() == data and stat.S_IMODE(back.stat().st_mode) == 0o751
    with pytest.raises(FileNotFoundError):
        await machine.download("/no/such/file", tmp_path / "x")
    with pytest.raises(FileNotFoundError):
        await machine.upload(tmp_path / "missing", "/workspace/x")
    for bad in ("relative", "/workspace/../etc/passwd"):
        with pytest.raises(ValueError):
            await machine.download(bad, tmp_path / "x")
        with pytest.raises(ValueError):
            await machine.upload(tool, bad)
    assert not (tmp_path / "x").exists()


async def test_transfer_trees_links_and_escapes(machine, tmp_path):
    tree = tmp_path / "tree"
    (tree / "sub").mkdir(parents=True)
    (tree / "a.txt").write_text("A")
    (tree / "sub" / "run.sh").write_text("#!/bin/sh\necho ran\n")
    (tree / "sub" / "run.sh").chmod(0o755)
    (tree / "link").symlink_to("sub/run.sh")
    await machine.upload(tree, "/logs/artifacts")
    assert (await machine.run(sh("cd /logs/artifacts && ./link && readlink link"))).stdout == b"ran\nsub/run.sh\n"
    result = await machine.run(sh("cd /logs/artifacts && cat a.txt && sub/run.sh && stat -c %a sub/run.sh"))
    assert result.stdout == b"Aran\n755\n"
    back = tmp_path / "back"
    await machine.download("/logs/artifacts", back)
    assert (back / "a.txt").read_text() == "A" and os.readlink(back / "link") == "sub/run.sh"
    assert stat.S_IMODE((back / "sub" / "run.sh").stat().st_mode) == 0o755

    evil = tmp_path / "evil"
    evil.mkdir()
    (evil / "passwd").symlink_to("/etc/passwd")
    with pytest.raises(PermissionError):
        await machine.upload(evil, "/evil")
    assert (await machine.run(sh("test -e /evil || echo none"))).stdout == b"none\n"
    await machine.run(sh("mkdir -p /planted && echo fine > /planted/ok && ln -s /etc/passwd /planted/passwd"))
    with pytest.raises(PermissionError):
        await machine.download("/planted", tmp_path / "planted")
    assert not (tmp_path / "planted" / "passwd").is_symlink()


async def test_download_max_bytes(machine, tmp_path):
    await machine.run(sh("head -c 1000 /dev/zero > k; mkdir -p d/e && head -c 6 /dev/zero > d/a && head -c 5 /dev/zero > d/e/b"))
    target = tmp_path / "k"
    target.write_text("previous")
    with pytest.raises(DownloadLimitExceeded):
        await machine.download("/workspace/k", target, max_bytes=999)
    assert target.read_text() == "previous"
    await machine.download("/workspace/k", target, max_bytes=1000)
    assert target.read_bytes() == bytes(1000)
    with pytest.raises(DownloadLimitExceeded):
        await machine.download("/workspace/d", tmp_path / "d", max_bytes=10)
    assert not (tmp_path / "d").exists()
    await machine.download("/workspace/d", tmp_path / "d", max_bytes=11)
    assert (tmp_path / "d" / "e" / "b").read_bytes() == bytes(5)


async def test_open_process(machine):
    if machine.name in NO_PROCESSES:
        with pytest.raises(UnsupportedMachineSpec):
            await machine.open_process(sh("cat"))
        # The refusal leaves the machine usable.
        assert (await machine.run(sh("echo still"))).stdout == b"still\n"
        return
    process = await machine.open_process(sh("cat; echo bye >&2; exit 5", output_limit_bytes=100))
    payload = b"SHELLBOX_PGID:9\n\x00\x01\xff binary"
    await process.write(payload)
    got = b""
    if machine.name not in BATCH_PROCESSES:
        # Streamed: the echo arrives while stdin is still open.
        while len(got) < len(payload):
            chunk = await asyncio.wait_for(process.read(), 30)
            assert chunk, "EOF before the echo"
            got += chunk
        assert got == payload
    await process.close_stdin()
    while chunk := await asyncio.wait_for(process.read(), 30):
        got += chunk
    assert got == payload
    assert await asyncio.wait_for(process.wait(), 30) == 5
    assert process.stderr == b"bye\n" and not process.stderr_truncated
    await process.close()
    await process.close()
    with pytest.raises(MachineClosed):
        await process.read()


async def test_network_deny_and_allow(backend, backends):
    """"deny" leaves only loopback; "allow" is honoured or refused, as the backend declares."""
    factory, source = backends(backend)
    interfaces = sh("tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' | sort | tr '\\n' ' '")
    m = await factory.create(spec_of(backend, source(), network=NetworkPolicy.DENY))
    try:
        if backend in SIMULATED:
            # No route but the factory's virtual ones (none here).
            assert (await m.run(sh("curl -s -m 2 http://192.0.2.1/"))).exit_code != 0
        else:
            assert (await m.run(interfaces)).stdout == b"lo "
    finally:
        await m.close()
    allow = spec_of(backend, source(), network=NetworkPolicy.ALLOW)
    if backend in NETWORK_REFUSED:
        with pytest.raises(UnsupportedMachineSpec, match="network"):
            factory.check_environment(Requirements(), allow)
        with pytest.raises(UnsupportedMachineSpec, match="network"):
            await factory.create(allow)
        return
    factory.check_environment(Requirements(), allow)
    m = await factory.create(allow)
    try:
        assert set((await m.run(interfaces)).stdout.split()) - {b"lo"}, "network allow: no interface but loopback"
    finally:
        await m.close()


async def test_close_is_idempotent_and_final(backend, backends, tmp_path):
    factory, source = backends(backend)
    m = await factory.create(spec_of(backend, source()))
    assert (await m.run(Command(["true"]))).exit_code == 0
    await m.close()
    await m.close()
    (tmp_path / "f").write_text("x")
    for call in (
        lambda: m.run(Command(["true"])),
        lambda: m.upload(tmp_path / "f", "/workspace/f"),
        lambda: m.download("/workspace", tmp_path / "d"),
        lambda: m.open_process(Command(["true"])),
    ):
        with pytest.raises(MachineClosed):
            await call()
