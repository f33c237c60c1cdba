"""The Python machine contract: construction-time validation and errors
crossing the C ABI as their Python classes."""

from pathlib import Path

import pytest

from shellbox import _go, _native
from shellbox.image import DockerfileSource, PreparedImage, RegistryImage
from shellbox.machine import (
    Command,
    DockerImage,
    ExitReason,
    HostImage,
    MachineSpec,
    NetworkPolicy,
    PackageSpec,
    Result,
    ShellSimBuiltins,
    UnsupportedMachineSpec,
)


def test_spec_defaults_match_marin_shellbox():
    spec = MachineSpec(HostImage())
    assert spec.workdir == "/workspace"
    assert spec.env == {}
    assert spec.network is NetworkPolicy.DENY
    assert (spec.memory_mb, spec.cpus, spec.storage_mb, spec.gpus, spec.startup_timeout) == (None, None, None, 0, None)
    assert issubclass(UnsupportedMachineSpec, ValueError)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"cpus": 0}, "cpus must be positive"),
        ({"storage_mb": 0}, "storage_mb must be positive"),
        ({"gpus": -1}, "gpus must not be negative"),
        ({"workdir": "relative/dir"}, "absolute"),
        ({"network": "sometimes"}, "sometimes"),
    ],
)
def test_spec_rejects_invalid_values(kwargs, message):
    with pytest.raises(ValueError, match=message):
        MachineSpec(HostImage(), **kwargs)


def test_command_defaults_and_validation():
    command = Command(["echo", "hi"])
    assert command.argv == ("echo", "hi")
    assert (command.cwd, command.env, command.stdin, command.timeout) == (None, {}, b"", None)
    assert command.output_limit_bytes == 1_048_576 and command.user is None
    for bad in ([], (), "echo hi"):
        with pytest.raises(ValueError):
            Command(bad)
    with pytest.raises(ValueError, match="NUL"):
        Command(["a\0b"])
    with pytest.raises(ValueError):
        Command(["x"], cwd="rel")
    with pytest.raises(ValueError):
        Command(["x"], output_limit_bytes=-1)


def test_result_fields_are_positional():
    result = Result(0, b"o", b"e", False, True, ExitReason.EXITED)
    assert (result.exit_code, result.stdout, result.stderr, result.stderr_truncated) == (0, b"o", b"e", True)


def test_sources_serialize_with_their_type():
    assert _go.to_json(HostImage(read_only=(Path("/opt"),))) == {"read_only": ["/opt"], "bin_dirs": [], "type": "HostImage"}
    prepared = PreparedImage(Path("/l"), "sha256:" + "a" * 64, RegistryImage("busybox"))
    assert _go.to_json(prepared)["source"] == {"reference": "busybox", "type": "RegistryImage"}
    assert _go.to_json(ShellSimBuiltins()) == {"type": "ShellSimBuiltins"}
    assert _go.to_json(PackageSpec(pypi_packages=["six"]))["pypi_packages"] == ["six"]
    assert _go.to_json(DockerfileSource(Path("/c"), Path("/c/Dockerfile")))["dockerfile"] == "/c/Dockerfile"
    assert _go.to_json(DockerImage("x"))["type"] == "DockerImage"
    with pytest.raises(ValueError):
        RegistryImage("https://example.com/x")
    with pytest.raises(ValueError, match="sha256"):
        PreparedImage(Path("/l"), "md5:1", RegistryImage("x"))


def test_go_errors_arrive_as_python_exceptions():
    with pytest.raises(ValueError, match="unknown backend \"nope\""):
        _go.call_sync(0, "open_factory", {"backend": "nope", "options": {}})
    with pytest.raises(ValueError, match="has no method"):
        _go.call_sync(0, "no_such_method")
    # A released or never-issued handle reads as a closed machine.
    from shellbox.machine import MachineClosed

    with pytest.raises(MachineClosed):
        _go.call_sync(987654, "run", {"argv": ["true"]})


def test_backends_are_registered():
    names = _go.call_sync(0, "backends").header
    assert "local" in names


async def test_async_calls_do_not_block_the_loop():
    import asyncio

    ticks = 0

    async def ticker():
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0)

    task = asyncio.create_task(ticker())
    replies = await asyncio.gather(*(_native.call(0, "backends") for _ in range(200)))
    task.cancel()
    assert all("local" in r.header for r in replies)
    assert ticks > 0
