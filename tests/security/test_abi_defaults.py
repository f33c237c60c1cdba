"""The raw C ABI applies the contract's defaults and refuses negative limits (issue 10, section 4):
a `run` request without `output_limit_bytes` once got a limit of 0 bytes instead of 1 MiB."""

from __future__ import annotations

import pytest

from shellbox import _go, _native
from shellbox.backends.local.machine import LocalMachineFactory
from shellbox.backends.shellsim.machine import ShellSimMachineFactory
from shellbox.machine import HostImage, MachineSpec, ShellSimBuiltins

MIB = 1 << 20


@pytest.fixture(params=["local", "shellsim"])
async def handle(request):
    if request.param == "local":
        machine = await LocalMachineFactory().create(MachineSpec(HostImage()))
    else:
        machine = await ShellSimMachineFactory().create(MachineSpec(ShellSimBuiltins()))
    yield machine._handle.id
    await machine.close()


async def test_run_without_a_limit_gets_one_mebibyte(handle):
    reply = await _native.call(handle, "run", {"argv": ["sh", "-c", "yes | head -c 3000000; yes | head -c 3000000 >&2"]})
    assert reply.header["exit_code"] == 0
    assert [len(s) for s in reply.segments] == [MIB, MIB]
    assert reply.header["stdout_truncated"] and reply.header["stderr_truncated"]


async def test_run_without_a_timeout_has_none(handle):
    reply = await _native.call(handle, "run", {"argv": ["sh", "-c", "sleep 1; echo done"]})
    assert (reply.header["reason"], reply.segments[0]) == ("exited", b"done\n")


@pytest.mark.parametrize(
    "method, request_, field",
    [
        ("run", {"argv": ["true"], "output_limit_bytes": -1}, "output_limit_bytes"),
        ("open_process", {"argv": ["true"], "output_limit_bytes": -5}, "output_limit_bytes"),
        ("download", {"source": "/etc/passwd", "target": "/tmp/x", "max_bytes": -1}, "max_bytes"),
        ("run", {"argv": ["true"], "timeout": -0.5}, "timeout"),
        ("run", {"argv": ["true"], "timeout": "Infinity"}, "timeout"),
        ("run", {"argv": ["true"], "output_limit_bytes": 1e300}, "output_limit_bytes"),
        ("run", {"argv": "true"}, "argv"),
    ],
)
async def test_negative_and_malformed_values_are_refused(handle, method, request_, field):
    with pytest.raises(_native.GoError) as caught:
        await _native.call(handle, method, request_)
    head = caught.value.header
    assert (head["kind"], head["field"]) == ("ValueError", field), head
    error = _go.translate(caught.value)
    assert type(error) is ValueError and error.field == field
