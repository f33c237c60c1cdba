"""The local (bubblewrap) backend through the Python API, on real bwrap."""

from __future__ import annotations

import asyncio
import os
import socket
import stat
import threading
from pathlib import Path

import pytest

from shellbox.backends.local.machine import LocalMachineFactory
from shellbox.machine import (
    Command,
    DockerImage,
    DownloadLimitExceeded,
    ExitReason,
    HostImage,
    MachineClosed,
    MachineSpec,
    NetworkPolicy,
    ProcessMachine,
    Requirements,
    Result,
    SandboxUnavailable,
    UnsupportedMachineSpec,
)

from leaks import descendants, mounts, temp_entries


@pytest.fixture(scope="module")
def factory() -> LocalMachineFactory:
    return LocalMachineFactory()


@pytest.fixture
async def machine(factory):
    m = await factory.create(MachineSpec(HostImage(), env={"SPEC": "from-spec", "ANSWER": "overridden"}))
    yield m
    await m.close()


def sh(script: str, **kwargs) -> Command:
    return Command(("sh", "-c", script), **kwargs)


async def test_result_carries_status_output_env_cwd_and_stdin(machine):
    result = await machine.run(
        sh(
            'pwd; printf "%s %s\\n" "$SPEC" "$ANSWER"; cat; echo diagnostic >&2; exit 3',
            cwd="/tmp",
            env={"ANSWER": "42"},
            stdin=b"input\n",
        )
    )
    assert result == Result(3, b"/tmp\nfrom-spec 42\ninput\n", b"diagnostic\n", False, False, ExitReason.EXITED)
    assert (await machine.run(Command(["pwd"]))).stdout == b"/workspace\n"


async def test_exit_statuses(machine):
    assert (await machine.run(Command(["/no/such/program"]))).exit_code == 127
    assert (await machine.run(sh("kill -KILL $$"))).exit_code == 137
    assert (await machine.run(Command(["true"]))).exit_code == 0


async def test_host_environment_is_not_inherited(machine, monkeypatch):
    os.environ["SHELLBOX_HOST_SECRET"] = "leak"
    try:
        result = await machine.run(Command(["env"]))
    finally:
        del os.environ["SHELLBOX_HOST_SECRET"]
    assert b"SHELLBOX_HOST_SECRET" not in result.stdout
    assert b"HOME=" in result.stdout


async def test_binary_stdin_and_stdout_round_trip(machine):
    payload = bytes(range(256)) * 1000
    result = await machine.run(Command(["cat"], stdin=payload))
    assert result.stdout == payload


async def test_files_and_background_processes_persist(machine):
    assert (await machine.run(sh("echo kept > state; sleep 300 & echo $! > pid; echo started"))).stdout == b"started\n"
    result = await machine.run(sh('cat state; kill -0 "$(cat pid)" && echo alive'))
    assert result.stdout == b"kept\nalive\n"


async def test_timeout_kills_the_group_and_keeps_the_machine(machine):
    result = await machine.run(sh("echo before; sleep 3600 & wait", timeout=1))
    assert result.reason is ExitReason.TIMED_OUT
    assert result.exit_code is None
    assert result.stdout == b"before\n"
    ps = await machine.run(sh("ps -eo comm= 2>/dev/null || ls /proc"))
    assert b"sleep" not in ps.stdout
    assert (await machine.run(Command(["echo", "still usable"]))).stdout == b"still usable\n"


async def test_truncation_keeps_memory_bounded(machine):
    def rss_kib() -> int:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise AssertionError("no VmRSS")

    before = rss_kib()
    result = await machine.run(
        sh("head -c 2147483648 /dev/zero; echo err >&2", output_limit_bytes=1 << 20, timeout=120)
    )
    grown = rss_kib() - before
    assert result.exit_code == 0
    assert len(result.stdout) == 1 << 20 and result.stdout_truncated
    assert result.stderr == b"err\n" and not result.stderr_truncated
    assert grown < 16 * 1024, f"RSS grew by {grown} KiB"


async def test_small_output_limits(machine):
    result = await machine.run(sh("yes | head -n 10; printf ab >&2", output_limit_bytes=4))
    assert (result.stdout, result.stdout_truncated) == (b"y\ny\n", True)
    assert (result.stderr, result.stderr_truncated) == (b"ab", False)


async def test_network_deny_leaves_only_loopback(factory):
    machine = await factory.create(MachineSpec(HostImage()))
    try:
        result = await machine.run(Command(["cat", "/proc/net/dev"]))
        interfaces = {line.split(":")[0].strip() for line in result.stdout.decode().splitlines()[2:]}
        assert interfaces == {"lo"}
    finally:
        await machine.close()


async def test_network_policy_controls_host_loopback(factory):
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    threading.Thread(target=lambda: server.accept(), daemon=True).start()
    probe = f"exec 3<>/dev/tcp/127.0.0.1/{port} && echo connected"
    try:
        for policy, expected in ((NetworkPolicy.DENY, False), (NetworkPolicy.ALLOW, True)):
            machine = await factory.create(MachineSpec(HostImage(), network=policy))
            try:
                result = await machine.run(Command(["bash", "-c", probe], timeout=10))
                assert (result.stdout == b"connected\n") is expected, (policy, result)
            finally:
                await machine.close()
    finally:
        server.close()


async def test_upload_download_round_trip_keeps_modes(machine, tmp_path):
    tree = tmp_path / "tree"
    (tree / "sub").mkdir(parents=True)
    (tree / "sub" / "run.sh").write_text("#!/bin/sh\necho ran\n")
    (tree / "sub" / "run.sh").chmod(0o755)
    (tree / "data.bin").write_bytes(os.urandom(300_000))
    (tree / "private").write_text("p")
    (tree / "private").chmod(0o600)
    await machine.upload(tree, "/workspace/tree")
    assert (await machine.run(Command(["/workspace/tree/sub/run.sh"]))).stdout == b"ran\n"
    single = tmp_path / "single.txt"
    single.write_text("one")
    await machine.upload(single, "/tmp/inputs/single.txt")
    assert (await machine.run(Command(["cat", "inputs/single.txt"], cwd="/tmp"))).stdout == b"one"

    back = tmp_path / "back"
    await machine.download("/workspace/tree", back)
    assert (back / "data.bin").read_bytes() == (tree / "data.bin").read_bytes()
    assert stat.S_IMODE((back / "sub" / "run.sh").stat().st_mode) == 0o755
    assert stat.S_IMODE((back / "private").stat().st_mode) == 0o600
    await machine.download("/workspace/tree/sub/run.sh", tmp_path / "run.sh")
    assert (tmp_path / "run.sh").read_text() == "#!/bin/sh\necho ran\n"


async def test_transfers_refuse_escapes(machine, tmp_path):
    with pytest.raises(FileNotFoundError):
        await machine.download("/workspace/missing", tmp_path / "x")
    with pytest.raises(FileNotFoundError):
        await machine.upload(tmp_path / "missing", "/workspace/x")
    outside = tmp_path / "outside"
    outside.mkdir()
    await machine.run(sh(f"mkdir -p evil && ln -s {outside} evil/link && ln -s /etc/passwd evil/passwd"))
    with pytest.raises(PermissionError):
        await machine.download("/workspace/evil", tmp_path / "evil")
    payload = tmp_path / "payload.txt"
    payload.write_text("x")
    with pytest.raises(PermissionError):
        await machine.upload(payload, "/workspace/evil/link/stolen.txt")
    assert not (outside / "stolen.txt").exists()
    with pytest.raises((PermissionError, ValueError)):
        await machine.upload(payload, "/workspace/../../etc/x")


async def test_bounded_download(machine, tmp_path):
    await machine.run(sh("head -c 1000 /dev/zero > big; mkdir d"))
    target = tmp_path / "big"
    target.write_text("old")
    with pytest.raises(DownloadLimitExceeded):
        await machine.download("/workspace/big", target, max_bytes=999)
    assert target.read_text() == "old"
    await machine.download("/workspace/big", target, max_bytes=1000)
    assert target.read_bytes() == b"\0" * 1000
    # A directory is bounded by the total of its files (issue 10).
    await machine.run(sh("head -c 6 /dev/zero > d/a; head -c 6 /dev/zero > d/b"))
    with pytest.raises(DownloadLimitExceeded):
        await machine.download("/workspace/d", tmp_path / "d", max_bytes=11)
    assert not (tmp_path / "d").exists()
    await machine.download("/workspace/d", tmp_path / "d", max_bytes=12)
    assert sorted(p.name for p in (tmp_path / "d").iterdir()) == ["a", "b"]


async def test_system_directories_are_read_only(machine):
    # /etc is the machine's own copy (tests/security/test_local_escapes.py).
    result = await machine.run(sh("touch /usr/shellbox-probe || touch /bin/shellbox-probe || echo refused"))
    assert result.stdout.endswith(b"refused\n")
    assert not Path("/usr/shellbox-probe").exists() and not Path("/bin/shellbox-probe").exists()


async def test_user_switch_as_root(machine):
    if os.geteuid() != 0:
        with pytest.raises(UnsupportedMachineSpec):
            await machine.run(Command(["id", "-u"], user="0"))
        return
    result = await machine.run(sh("id -u; grep CapEff /proc/self/status; touch /tmp/mine && echo wrote", user="65534"))
    assert result.stdout == b"65534\nCapEff:\t0000000000000000\nwrote\n", result
    with pytest.raises(UnsupportedMachineSpec):
        await machine.run(Command(["id"], user="no-such-user-here"))


async def test_process_sessions(machine):
    assert isinstance(machine, ProcessMachine)
    session = await machine.open_process(sh("read line; echo got:$line; cat; echo bye >&2; exit 5"))
    await session.write(b"one\n")
    assert await session.read() == b"got:one\n"
    await session.write(b"\x00\xff\n")
    assert await session.read() == b"\x00\xff\n"
    await session.close_stdin()
    rest = b""
    while chunk := await session.read():
        rest += chunk
    assert rest == b""
    assert await session.wait() == 5
    assert session.stderr == b"bye\n"
    await session.close()


async def test_cancelling_run_stops_the_command(machine):
    task = asyncio.create_task(machine.run(sh("echo $$ > /tmp/victim; exec sleep 3600")))
    await asyncio.sleep(0.5)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    result = await machine.run(sh('kill -0 "$(cat /tmp/victim)" 2>/dev/null && echo alive || echo gone'))
    assert result.stdout == b"gone\n"


async def test_twenty_machines_at_once(factory):
    machines = await asyncio.gather(*(factory.create(MachineSpec(HostImage())) for _ in range(20)))
    try:
        results = await asyncio.gather(
            *(m.run(sh(f"echo {i} > mine; sleep 0.2; cat mine")) for i, m in enumerate(machines))
        )
        assert [r.stdout for r in results] == [f"{i}\n".encode() for i in range(20)]
    finally:
        await asyncio.gather(*(m.close() for m in machines))


async def test_close_is_idempotent_and_final(factory):
    machine = await factory.create(MachineSpec(HostImage()))
    await machine.close()
    await machine.close()
    with pytest.raises(MachineClosed):
        await machine.run(Command(["true"]))


def test_unsupported_specs_are_refused_before_creation(factory):
    for spec, field in (
        (MachineSpec(DockerImage("busybox")), "source"),
        (MachineSpec(HostImage(), gpus=1), "gpus"),
        (MachineSpec(HostImage(), cpus=2), "cpus"),
        (MachineSpec(HostImage(), memory_mb=512), "memory_mb"),
        (MachineSpec(HostImage(), workdir="/usr/lib/x"), "workdir"),
    ):
        with pytest.raises(UnsupportedMachineSpec) as info:
            factory.check_environment(Requirements(), spec)
        assert info.value.field == field


async def test_workdir_root(factory):
    machine = await factory.create(MachineSpec(HostImage(), workdir="/"))
    try:
        assert (await machine.run(Command(["pwd"]))).stdout == b"/\n"
    finally:
        await machine.close()


def test_missing_bwrap_is_sandbox_unavailable(tmp_path):
    bogus = tmp_path / "bwrap"
    with pytest.raises(SandboxUnavailable) as info:
        LocalMachineFactory(bwrap=bogus)
    assert str(bogus) in info.value.candidates


async def test_no_leaks_after_200_cycles(factory):
    processes_before = descendants()
    mounts_before = mounts()
    temps_before = temp_entries()
    for i in range(200):
        machine = await factory.create(MachineSpec(HostImage()))
        if i % 10 == 3:
            await machine.run(sh("sleep 3600 & sleep 3600", timeout=0.2))
        elif i % 10 == 7:
            task = asyncio.create_task(machine.run(sh("sleep 3600")))
            await asyncio.sleep(0.05)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
        else:
            assert (await machine.run(sh("sleep 3600 & echo $i"))).exit_code == 0
        await machine.close()
    await asyncio.sleep(0.2)
    new = descendants() - processes_before
    assert new == set(), f"leaked processes: {new}"
    assert mounts() == mounts_before
    assert temp_entries() <= temps_before


def test_calls_from_many_threads_and_loops_at_once(factory):
    """Each thread runs its own event loop; the library serves them all at once."""
    from concurrent.futures import ThreadPoolExecutor

    async def own(i: int) -> bytes:
        machine = await factory.create(MachineSpec(HostImage()))
        try:
            return (await machine.run(Command(["echo", str(i)]))).stdout
        finally:
            await machine.close()

    with ThreadPoolExecutor(8) as pool:
        outputs = list(pool.map(lambda i: asyncio.run(own(i)), range(16)))
    assert outputs == [f"{i}\n".encode() for i in range(16)]
