"""Bad input gets one clear, typed answer on every backend (issue 10, section 4).

Go checks every command, spec and transfer path once (lib/machine), in the bridge, before any backend
sees it; so each hostile value must raise the same exception class naming the same field on local,
docker, gvisor and shellsim, and nothing may run. Each test also asserts that the host is unchanged."""

from __future__ import annotations

import asyncio
import os
import time

import pytest
import pytest_asyncio
from testimages import BACKENDS, factory_and_spec

from shellbox.machine import (
    Command,
    ExitReason,
    MachineSpec,
    ProcessMachine,
)

MARKER = "/tmp/shellbox-input-ran"
# Go's limits (lib/machine/validate.go).
MAX_ARG_BYTES = 1 << 20

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module", params=BACKENDS)
async def machine(request):
    factory, spec = factory_and_spec(request.param)
    m = await factory.create(spec)
    m.factory, m.base_spec = factory, spec
    yield m
    await m.close()


def marked(*argv: str) -> tuple[str, ...]:
    """A command that leaves MARKER behind if it runs at all."""
    return ("sh", "-c", f'echo ran > {MARKER}; echo "$@"', "sh", *argv)


async def assert_refused(machine, call, field: str, match: str = "") -> ValueError:
    """call() must raise ValueError (not a subclass) naming field, and run nothing."""
    with pytest.raises(ValueError) as caught:
        await call()
    error = caught.value
    assert type(error) is ValueError, f"{type(error).__name__}: {error}"
    assert getattr(error, "field", None) == field, f"field {getattr(error, 'field', None)!r}: {error}"
    assert match in str(error)
    result = await machine.run(Command(("sh", "-c", f"cat {MARKER} 2>/dev/null; rm -f {MARKER}; echo alive")))
    assert result.stdout == b"alive\n", f"the refused command ran: {result}"
    return error


HOSTILE_COMMANDS = [
    pytest.param(dict(argv=marked("a\0b")), "argv", "NUL", id="nul-argv"),
    pytest.param(dict(argv=marked(os.fsdecode(b"\xff\xfe"))), "argv", "UTF-8", id="surrogate-argv"),
    pytest.param(dict(argv=(b"sh", b"-c", b"echo ran > " + MARKER.encode(), b"\xff")), "argv", "UTF-8", id="bytes-argv"),
    pytest.param(dict(argv=marked(), env={"A": "1\0" + "2"}), "env", "NUL", id="nul-env-value"),
    pytest.param(dict(argv=marked(), env={"A\0B": "1"}), "env", "NUL", id="nul-env-name"),
    pytest.param(dict(argv=marked(), env={"A=B": "1"}), "env", "'='", id="equals-env-name"),
    pytest.param(dict(argv=marked(), env={"A": os.fsdecode(b"\xff")}), "env", "UTF-8", id="surrogate-env"),
    pytest.param(dict(argv=marked(), cwd="/tmp\0/x"), "cwd", "NUL", id="nul-cwd"),
    pytest.param(dict(argv=marked(), cwd="tmp"), "cwd", "absolute", id="relative-cwd"),
    pytest.param(dict(argv=marked(), cwd="/tmp/../etc"), "cwd", "..", id="dotdot-cwd"),
    pytest.param(dict(argv=marked(), user="ro\0ot"), "user", "NUL", id="nul-user"),
    pytest.param(dict(argv=marked(*["x" * 100_000] * 100)), "argv", str(MAX_ARG_BYTES), id="10MB-argv"),
    pytest.param(dict(argv=marked("x" * 200_000)), "argv", "131071", id="200KB-argument"),
    pytest.param(
        dict(argv=marked(), env={f"V{i}": "x" * 100_000 for i in range(100)}), "env", str(MAX_ARG_BYTES), id="10MB-env"
    ),
    pytest.param(dict(argv=marked(), timeout=float("nan")), "timeout", "finite", id="nan-timeout"),
    pytest.param(dict(argv=marked(), timeout=float("inf")), "timeout", "finite", id="inf-timeout"),
    pytest.param(dict(argv=marked(), timeout=-float("inf")), "timeout", "finite", id="-inf-timeout"),
    pytest.param(dict(argv=marked(), timeout=1e300), "timeout", "over the limit", id="1e300-timeout"),
    pytest.param(dict(argv=marked(), timeout=0), "timeout", "positive", id="zero-timeout"),
    pytest.param(dict(argv=marked(), timeout=-1), "timeout", "positive", id="negative-timeout"),
    pytest.param(dict(argv=marked(), output_limit_bytes=-1), "output_limit_bytes", "negative", id="negative-limit"),
    pytest.param(dict(argv="echo hi"), "argv", "", id="string-argv"),
    pytest.param(dict(argv=()), "argv", "at least one", id="empty-argv"),
]


@pytest.mark.parametrize("fields, field, match", HOSTILE_COMMANDS)
async def test_run_refuses_hostile_commands(machine, host_state, fields, field, match):
    await assert_refused(machine, lambda: machine.run(Command(**fields)), field, match)
    host_state.assert_unchanged()


@pytest.mark.parametrize("fields, field, match", HOSTILE_COMMANDS[:4])
async def test_open_process_refuses_hostile_commands(machine, fields, field, match):
    if not isinstance(machine, ProcessMachine):
        pytest.fail(f"{type(machine).__name__} has no open_process")  # every backend here offers it

    async def call():
        session = await machine.open_process(Command(**fields))
        await session.close()

    await assert_refused(machine, call, field, match)


async def test_largest_allowed_command_runs_everywhere(machine):
    """The limit is one every backend can honour: just under it, the command runs (on a machine of
    its own, so that a backend that fails here does not take the shared machine with it)."""
    arg = "y" * (128 * 1024 - 1)
    args = [arg] * 7  # 7 x (131071 + 9) bytes, with "sh -c ..." under 1 MiB
    env = {"E": "z" * 50_000}
    own = await machine.factory.create(machine.base_spec)
    try:
        result = await own.run(Command(("sh", "-c", 'echo "$#" ${#1} ${#E}', "sh", *args), env=env, timeout=60))
    finally:
        await own.close()
    assert (result.exit_code, result.stdout) == (0, f"7 {len(arg)} 50000\n".encode())


async def test_tiny_timeout_times_out_at_once(machine):
    """1e-10 s once rounded to 0 ("no timeout") and let the command run."""
    started = time.monotonic()
    result = await machine.run(Command(("sh", "-c", "while :; do :; done"), timeout=1e-10))
    assert result.reason is ExitReason.TIMED_OUT and result.exit_code is None
    assert time.monotonic() - started < 10
    started = time.monotonic()
    result = await machine.run(Command(("sh", "-c", "sleep 3; echo late"), timeout=1e-10))
    assert result.reason is ExitReason.TIMED_OUT and b"late" not in result.stdout
    assert time.monotonic() - started < 2.5
    assert (await machine.run(Command(("echo", "usable")))).stdout == b"usable\n"


async def test_large_timeout_is_a_deadline(machine):
    result = await machine.run(Command(("echo", "ok"), timeout=1e9))
    assert (result.exit_code, result.stdout) == (0, b"ok\n")


@pytest.mark.parametrize(
    "target, match",
    [("/tmp/a\0b", "NUL"), ("tmp/a", "absolute"), ("/tmp/../../etc/x", ".."), ("", "empty")],
    ids=["nul", "relative", "dotdot", "empty"],
)
async def test_upload_refuses_bad_guest_paths(machine, host_state, tmp_path, target, match):
    """Docker panicked in net/http on a NUL target (and left its container running); gVisor hung."""
    payload = tmp_path / "payload"
    payload.write_bytes(b"x")
    await assert_refused(machine, lambda: machine.upload(payload, target), "target", match)
    host_state.assert_unchanged()


async def test_upload_refuses_nul_in_host_path(machine, tmp_path):
    await assert_refused(machine, lambda: machine.upload(tmp_path / "a\0b", "/tmp/x"), "source", "NUL")


@pytest.mark.parametrize(
    "source, match",
    [("/etc/hostname\0x", "NUL"), ("etc/hostname", "absolute"), ("/tmp/../etc/passwd", ".."), ("", "empty")],
    ids=["nul", "relative", "dotdot", "empty"],
)
async def test_download_refuses_bad_guest_paths(machine, host_state, tmp_path, source, match):
    target = tmp_path / "out"
    await assert_refused(machine, lambda: machine.download(source, target), "source", match)
    assert not target.exists()
    host_state.assert_unchanged()


async def test_download_refuses_bad_host_path_and_limit(machine, tmp_path):
    await machine.run(Command(("sh", "-c", "echo data > /tmp/f")))
    await assert_refused(machine, lambda: machine.download("/tmp/f", tmp_path / "a\0b"), "target", "NUL")
    await assert_refused(machine, lambda: machine.download("/tmp/f", tmp_path / "o", max_bytes=-1), "max_bytes")


@pytest.mark.parametrize(
    "fields, field, match",
    [
        ({"env": {"A": "\0"}}, "env", "NUL"),
        ({"env": {"A=B": "1"}}, "env", "'='"),
        ({"workdir": "/w\0"}, "workdir", "NUL"),
        ({"workdir": "/w/../x"}, "workdir", ".."),
        ({"workdir": "w"}, "workdir", "absolute"),
        ({"startup_timeout": float("nan")}, "startup_timeout", "finite"),
        ({"startup_timeout": 0.0}, "startup_timeout", "positive"),
    ],
)
async def test_create_refuses_hostile_specs(machine, fields, field, match):
    spec = MachineSpec(machine.base_spec.source, **fields)
    with pytest.raises(ValueError, match=match) as caught:
        await machine.factory.create(spec)
    assert type(caught.value) is ValueError and caught.value.field == field


async def test_process_read_needs_a_positive_size(machine):
    session = await machine.open_process(Command(("cat",)))
    try:
        for size in (0, -1):
            with pytest.raises(ValueError) as caught:
                await session.read(size)
            assert type(caught.value) is ValueError and caught.value.field == "max_bytes"
        await session.write(b"still works\n")
        await session.close_stdin()
        assert await session.read(100) == b"still works\n"
    finally:
        await session.close()


async def test_machine_survives_a_burst_of_refusals(machine):
    await asyncio.gather(*(assert_refused(machine, lambda: machine.run(Command(("x\0",))), "argv") for _ in range(20)))
