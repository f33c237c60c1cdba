"""The Python machine contract: construction-time validation and errors
crossing the C ABI as their Python classes."""

from dataclasses import fields
from pathlib import Path

import pytest

from shellbox import _go, _native, _wire
from shellbox.backends.shellsim.machine import ShellSimMachineFactory
from shellbox.image import DockerfileSource, PreparedImage, RegistryImage
from shellbox.machine import (
    Command,
    DockerImage,
    ExitReason,
    HostImage,
    MachineSpec,
    NetworkPolicy,
    PackageSpec,
    Requirements,
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
    "kwargs, field",
    [({"cpus": 0}, "cpus"), ({"storage_mb": 0}, "storage_mb")],
)
def test_spec_checks_marin_shellbox_makes_at_construction(kwargs, field):
    # The message and field are Go's (lib/machine Spec.Validate).
    with pytest.raises(ValueError, match=f"invalid {field}: {field} must be positive") as caught:
        MachineSpec(HostImage(), **kwargs)
    assert caught.value.field == field


@pytest.mark.parametrize(
    "kwargs, field, message",
    [
        ({"cpus": 0}, "cpus", "cpus must be positive"),
        ({"gpus": -1}, "gpus", "gpus must not be negative"),
        ({"memory_mb": 0}, "memory_mb", "memory_mb must be positive"),
        ({"workdir": "relative/dir"}, "workdir", "absolute"),
        ({"workdir": "/w/../x"}, "workdir", ".."),
        ({"network": "sometimes"}, "network", "sometimes"),
        ({"startup_timeout": 0}, "startup_timeout", "positive"),
        ({"startup_timeout": float("nan")}, "startup_timeout", "finite"),
        ({"env": {"A=B": "1"}}, "env", "'='"),
        ({"env": {"A": "\0"}}, "env", "NUL"),
    ],
)
def test_go_checks_every_spec_field(kwargs, field, message):
    """Beyond construction, Go checks the spec when a factory sees it (the same for every backend)."""
    spec = object.__new__(MachineSpec)  # skip construction checks: Go must refuse on its own
    for f, value in {**{f.name: getattr(MachineSpec(HostImage()), f.name) for f in fields(MachineSpec)}, **kwargs}.items():
        object.__setattr__(spec, f, value)
    factory = ShellSimMachineFactory()
    with pytest.raises(ValueError, match=message) as caught:
        factory.check_environment(Requirements(), spec)
    assert type(caught.value) is ValueError and caught.value.field == field


def test_command_is_checked_by_go_not_at_construction():
    command = Command(["echo", "hi"])
    assert command.argv == ("echo", "hi")
    assert (command.cwd, command.env, command.stdin, command.timeout) == (None, {}, b"", None)
    assert command.output_limit_bytes == 1_048_576 and command.user is None
    # marin-shellbox's Command checks nothing at construction; Go checks at run (tests/security/test_inputs.py).
    assert Command(["a\0b"], cwd="rel", timeout=-1).argv == ("a\0b",)


def test_result_fields_are_positional():
    result = Result(0, b"o", b"e", False, True, ExitReason.EXITED)
    assert (result.exit_code, result.stdout, result.stderr, result.stderr_truncated) == (0, b"o", b"e", True)


def test_sources_serialize_with_their_type():
    """The generated codecs (shellbox._wire) write the public types as Go reads them."""

    def source(s):
        return _wire.Spec.encode(MachineSpec(s))["source"]

    assert source(HostImage(read_only=(Path("/opt"),))) == {
        "read_only": ["/opt"], "bin_dirs": [], "mounts": [], "type": "HostImage"
    }
    prepared = PreparedImage(Path("/l"), "sha256:" + "a" * 64, RegistryImage("busybox"))
    assert source(prepared)["source"] == {"reference": "busybox", "type": "RegistryImage"}
    assert source(ShellSimBuiltins()) == {"type": "ShellSimBuiltins"}
    assert source(PackageSpec(pypi_packages=["six"]))["pypi_packages"] == ["six"]
    assert source(PackageSpec())["pypi_packages"] is None
    assert source(DockerfileSource(Path("/c"), Path("/c/Dockerfile")))["dockerfile"] == "/c/Dockerfile"
    assert source(DockerImage("x"))["type"] == "DockerImage"
    assert _wire.Command.encode(Command([b"ab", b"\xff"]))["argv"] == ["ab", "\udcff"]
    assert _native.encode({"t": [float("nan"), float("inf"), -float("inf"), 1.5], "s": "\udcff"}) == (
        b'{"t":["NaN","Infinity","-Infinity",1.5],"s":"\xed\xb3\xbf"}'
    )


@pytest.mark.parametrize(
    "source, message",
    [
        (RegistryImage("https://example.com/x"), "without a URL scheme"),
        (RegistryImage(" "), "without a URL scheme"),
        (PreparedImage(Path("/l"), "md5:1", RegistryImage("x")), "sha256"),
    ],
)
def test_go_checks_sources(source, message):
    with pytest.raises(ValueError, match=message) as caught:
        ShellSimMachineFactory().check_environment(Requirements(), MachineSpec(source))
    assert caught.value.field == "source"


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
