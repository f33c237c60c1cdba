"""The ShellSim machine backend through the Python API (the real engine,
in-process through the C ABI)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from shellbox.shellsim import StopReason

from shellbox.backends.shellsim.machine import ShellSimEngine, ShellSimMachineFactory
from shellbox.machine import (
    Command,
    DownloadLimitExceeded,
    ExitReason,
    HostImage,
    MachineClosed,
    MachineSpec,
    MachineTerminated,
    NetworkPolicy,
    PackageSpec,
    ShellSimBuiltins,
    ShellStatus,
    UnsupportedMachineSpec,
)
from shellbox.machine import Requirements

from leaks import descendants

SPEC = MachineSpec(source=ShellSimBuiltins(), env={"A": "spec"})


@pytest.fixture(scope="module")
def factory() -> ShellSimMachineFactory:
    return ShellSimMachineFactory()


@pytest.fixture
async def machine(factory):
    m = await factory.create(SPEC)
    yield m
    await m.close()


async def test_commands_get_fresh_shell_state_over_persistent_files(machine) -> None:
    r = await machine.run(Command(argv=("sh", "-c", "f() { echo fn; }; f; X=1; echo $A > file; pwd")))
    assert (r.exit_code, r.stdout, r.reason) == (0, b"fn\n/workspace\n", ExitReason.EXITED)
    r = await machine.run(Command(argv=("sh", "-c", "type f >/dev/null 2>&1 || echo nofn; echo x${X}x; cat file; echo $B"), env={"B": "b"}))
    assert r.stdout == b"nofn\nxx\nspec\nb\n"
    r = await machine.run(Command(argv=("cat", "file"), cwd="/workspace"))
    assert r.stdout == b"spec\n"
    r = await machine.run(Command(argv=("tr", "a-z", "A-Z"), stdin=b"abc"))
    assert r.stdout == b"ABC"
    r = await machine.run(Command(argv=("nosuch",)))
    assert r.exit_code == 127


async def test_output_limits_and_timeout(machine) -> None:
    r = await machine.run(Command(argv=("sh", "-c", "echo 0123456789; echo abcdef >&2"), output_limit_bytes=4))
    assert (r.stdout, r.stdout_truncated, r.stderr, r.stderr_truncated) == (b"0123", True, b"abcd", True)
    r = await machine.run(Command(argv=("sh", "-c", "echo x"), output_limit_bytes=0))
    assert (r.stdout, r.stdout_truncated) == (b"", True)
    r = await machine.run(Command(argv=("sh", "-c", "echo start; while :; do :; done"), timeout=0.3))
    assert (r.reason, r.exit_code, r.stdout) == (ExitReason.TIMED_OUT, None, b"start\n")
    r = await machine.run(Command(argv=("sh", "-c", "sleep 100 & echo started")))
    assert (r.exit_code, r.stdout) == (0, b"started\n")


async def test_refusals(factory) -> None:
    with pytest.raises(UnsupportedMachineSpec, match="Python is not available in ShellSim yet"):
        factory.check_environment(Requirements(), MachineSpec(source=PackageSpec(pypi_packages=("numpy",))))
    factory.check_environment(Requirements(), MachineSpec(source=PackageSpec()))
    for spec, field in [
        (MachineSpec(source=ShellSimBuiltins(), cpus=2), "cpus"),
        (MachineSpec(source=ShellSimBuiltins(), gpus=1), "gpus"),
        (MachineSpec(source=ShellSimBuiltins(), network=NetworkPolicy.ALLOW), "network"),
        (MachineSpec(source=HostImage()), "source"),
    ]:
        with pytest.raises(UnsupportedMachineSpec) as info:
            await factory.create(spec)
        assert info.value.field == field
    m = await factory.create(MachineSpec(source=PackageSpec(), memory_mb=64, storage_mb=1))
    try:
        with pytest.raises(UnsupportedMachineSpec):
            await m.run(Command(argv=("id",), user="nobody"))
        r = await m.run(Command(argv=("sh", "-c", "head -c 2000000 /dev/zero > big")))
        assert r.exit_code != 0
    finally:
        await m.close()


async def test_exhaustion_is_visible_and_ends_the_machine() -> None:
    factory = ShellSimMachineFactory(engine=ShellSimEngine(cpu=200_000))
    m = await factory.create(SPEC)
    r = await m.run(Command(argv=("sh", "-c", "while :; do :; done")))
    assert r.exit_code == 137 and b"cpu_exhausted" in r.stderr
    assert m.stop_reason == "cpu_exhausted" and m.stop_reason is StopReason.CPU_EXHAUSTED
    with pytest.raises(MachineTerminated, match="cpu_exhausted") as caught:
        await m.run(Command(argv=("true",)))
    assert caught.value.stop_reason is StopReason.CPU_EXHAUSTED
    await m.close()


async def test_upload_download(machine, tmp_path: Path) -> None:
    src = tmp_path / "src"
    (src / "sub").mkdir(parents=True)
    (src / "run.sh").write_text("echo hi\n")
    (src / "run.sh").chmod(0o755)
    (src / "sub" / "b").write_bytes(b"bee")
    await machine.upload(src, "/workspace/proj")
    await machine.upload(src / "sub" / "b", "/workspace/single")
    r = await machine.run(Command(argv=("sh", "-c", "./run.sh; cat ../single"), cwd="/workspace/proj"))
    assert r.stdout == b"hi\nbee"
    with pytest.raises(FileNotFoundError):
        await machine.upload(tmp_path / "nope", "/x")
    os.symlink("/etc/passwd", src / "escape")
    with pytest.raises(PermissionError):
        await machine.upload(src, "/workspace/other")
    out = tmp_path / "out"
    out.mkdir()
    await machine.download("/workspace/proj", out)
    assert (out / "sub" / "b").read_bytes() == b"bee"
    assert (out / "run.sh").stat().st_mode & 0o777 == 0o755
    target = tmp_path / "f"
    target.write_bytes(b"old")
    with pytest.raises(DownloadLimitExceeded):
        await machine.download("/workspace/single", target, max_bytes=2)
    assert target.read_bytes() == b"old"
    # Every backend extracts through lib/transfer: a tree never replaces a file.
    with pytest.raises(PermissionError, match="exists and is not a directory"):
        await machine.download("/workspace/proj", target, max_bytes=10)
    assert target.read_bytes() == b"old"
    await machine.download("/workspace/single", target, max_bytes=3)
    assert target.read_bytes() == b"bee"
    with pytest.raises(FileNotFoundError):
        await machine.download("/nope", target)


async def test_persistent_shell_session(machine) -> None:
    shell = await machine.open_shell(env={"G": "g"}, cwd="/workspace")
    assert not shell.interactive
    u = await shell.execute("export X=1; f() { echo fn$X$G; }; mkdir -p d; cd d")
    assert u.exit_code == 0
    u = await shell.execute("pwd; f; echo err >&2")
    assert (u.output, u.status, u.exit_code) == (b"/workspace/d\nfn1g\nerr\n", ShellStatus.COMPLETED, 0)
    u = await shell.execute("echo 123456", output_limit_bytes=3)
    assert (u.output, u.truncated) == (b"123", True)
    r = await machine.run(Command(argv=("sh", "-c", "echo x${X}x; pwd")))
    assert r.stdout == b"xx\n/workspace\n"
    u = await shell.execute("exit 5")
    assert (u.status, u.exit_code) == (ShellStatus.RESET, 5)
    u = await shell.execute("pwd")
    assert u.output == b"/workspace\n"
    await shell.close()


async def test_close_is_idempotent(factory) -> None:
    m = await factory.create(SPEC)
    await m.close()
    await m.close()
    with pytest.raises(MachineClosed):
        await m.run(Command(argv=("true",)))


async def test_thousand_machines_from_one_event_loop(factory) -> None:
    before = descendants()

    async def one(i: int) -> bytes:
        m = await factory.create(SPEC)
        try:
            r = await m.run(Command(argv=("sh", "-c", f"echo {i} > n; cat n; seq 3 | wc -l")))
            return r.stdout
        finally:
            await m.close()

    outs = await asyncio.gather(*(one(i) for i in range(1000)))
    assert outs == [f"{i}\n3\n".encode() for i in range(1000)]
    assert descendants() == before


async def test_engine_routes_reach_every_machine() -> None:
    from shellbox.backends.shellsim.machine import ShellSimRoute

    engine = ShellSimEngine(routes=(ShellSimRoute("http://api.test/*", body=b'{"v":1}'),))
    factory = ShellSimMachineFactory(engine=engine)
    machines = [await factory.create(SPEC) for _ in range(2)]
    try:
        for m in machines:
            r = await m.run(Command(argv=("curl", "-s", "http://api.test/x")))
            assert (r.exit_code, r.stdout) == (0, b'{"v":1}')
        r = await machines[0].run(Command(argv=("curl", "-s", "http://other.test/")))
        assert r.exit_code == 7
    finally:
        for m in machines:
            await m.close()
