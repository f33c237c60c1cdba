"""ShellSim embedded in Python: a deterministic simulated machine (a
Bash-like shell, built-in commands, an in-memory filesystem, virtual time,
metered CPU/memory/disk/output) that never runs a host program.

    env = Environment(cpu=1_000_000)
    result = env.run("echo hi | tr a-z A-Z")
    result.stdout  # b"HI\\n"

Every call goes through the shellbox C ABI (the GIL is released while Go
works); an environment's actions are serialized."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Mapping

from shellbox import _go, _native, _wire
from shellbox._wire import StopReason

__all__ = [
    "CommandUsage",
    "Environment",
    "HttpRequest",
    "HttpResponse",
    "Invocation",
    "Limits",
    "MountResult",
    "RunResult",
    "SimulationError",
    "StopReason",
    "Usage",
    "run",
]

_MAX = 2**64 - 1


class SimulationError(RuntimeError):
    """A simulated action failed (check_returncode) or the engine refused an operation."""


def _check_int(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if not 0 <= value <= _MAX:
        raise ValueError(f"{name} must be in 0..2**64-1")
    return value


@dataclass(frozen=True)
class Limits:
    """Budgets: CPU work units and bytes of memory, disk and output."""

    cpu: int = 10_000_000
    memory: int = 64 * 1024 * 1024
    disk: int = 64 * 1024 * 1024
    output: int = 4 * 1024 * 1024

    def __post_init__(self) -> None:
        for name in ("cpu", "memory", "disk", "output"):
            _check_int(name, getattr(self, name))


# What an action used, as Go reports it (ShellSim's own types, on the wire).
Usage = _wire.Usage
CommandUsage = _wire.CommandUsage
Invocation = _wire.Invocation


@dataclass(frozen=True)
class HttpRequest:
    """A request a command made to the virtual network."""

    method: str
    url: str
    matched: bool
    response_status: int | None


@dataclass(frozen=True)
class HttpResponse:
    """What a route answers."""

    status: int = 200
    headers: Mapping[str, str] | tuple[tuple[str, str], ...] = ()
    body: bytes | str = b""

    def __post_init__(self) -> None:
        if isinstance(self.status, bool) or not isinstance(self.status, int) or not 0 <= self.status <= 65535:
            raise ValueError("status must be an int in 0..65535")
        headers = dict(self.headers.items() if isinstance(self.headers, Mapping) else self.headers)
        object.__setattr__(self, "headers", tuple(headers.items()))
        if isinstance(self.body, str):
            object.__setattr__(self, "body", self.body.encode())


# What a mount copied (files) and skipped (directory names).
MountResult = _wire.MountResult


@dataclass(frozen=True)
class RunResult:
    """Everything one action produced."""

    returncode: int
    stdout: bytes
    stderr: bytes
    stop_reason: StopReason | None
    limits: Limits
    usage: Usage
    command_usage: tuple[CommandUsage, ...]
    cost_model_version: int
    commands: tuple[str, ...] = ()
    unsupported: tuple[str, ...] = ()
    unsupported_commands: tuple[str, ...] = ()
    partial_commands: tuple[str, ...] = ()
    invocations: tuple[Invocation, ...] = ()
    network_requests: tuple[HttpRequest, ...] = ()
    dropped_network_requests: int = 0
    terminated: bool = field(default=False, repr=False)

    @property
    def stdout_text(self) -> str:
        return self.stdout.decode("utf-8", errors="replace")

    @property
    def stderr_text(self) -> str:
        return self.stderr.decode("utf-8", errors="replace")

    def check_returncode(self) -> None:
        if self.returncode != 0:
            reason = f" ({self.stop_reason})" if self.stop_reason else ""
            raise SimulationError(f"action exited with status {self.returncode}{reason}: {self.stderr_text[-500:]}")


def _result(reply: _native.Reply, known: Limits | None = None) -> RunResult:
    h: _wire.SimRunReply = reply.header
    lim = h.limits
    if known is None or (known.cpu, known.memory, known.disk, known.output) != (lim.cpu, lim.memory, lim.disk, lim.output):
        known = Limits(lim.cpu, lim.memory, lim.disk, lim.output)
    return RunResult(
        returncode=h.exit_status,
        stdout=reply.segments[0],
        stderr=reply.segments[1],
        stop_reason=h.stop_reason,
        limits=known,
        usage=h.usage,
        command_usage=h.command_usage,
        cost_model_version=h.cost_model_version,
        commands=h.commands,
        unsupported=h.unsupported,
        unsupported_commands=h.unsupported_commands,
        partial_commands=h.partial_commands,
        invocations=h.invocations,
        network_requests=tuple(
            HttpRequest(r.method, r.url, r.matched, r.status if r.matched else None) for r in h.network_requests
        ),
        dropped_network_requests=h.dropped_network_requests,
        terminated=h.terminated,
    )


def _limits(limits: Limits | None, cpu: int | None, memory: int | None, disk: int | None, output: int | None) -> Limits:
    overrides = {k: v for k, v in (("cpu", cpu), ("memory", memory), ("disk", disk), ("output", output)) if v is not None}
    if limits is not None and overrides:
        raise ValueError("pass either limits or per-field overrides (cpu, memory, disk, output), not both")
    if limits is None:
        return Limits(**overrides)
    if not isinstance(limits, Limits):
        raise TypeError(f"limits must be a Limits, not {type(limits).__name__}")
    return limits


def _call(handle: int, method: _wire.Method, request: Any = None, payload: bytes = b"") -> _native.Reply:
    try:
        return _go.call_sync(handle, method, request, payload)
    except RuntimeError as error:
        if type(error) is RuntimeError:
            raise SimulationError(str(error)) from None
        raise


class Environment:
    """One simulated machine; files, shell state and fuel persist across actions."""

    def __init__(
        self,
        limits: Limits | None = None,
        *,
        cpu: int | None = None,
        memory: int | None = None,
        disk: int | None = None,
        output: int | None = None,
        http: Mapping[str, HttpResponse] | None = None,
        _handle: int | None = None,
    ):
        if _handle is None:
            self.limits = _limits(limits, cpu, memory, disk, output)
            _native.library()
            reply = _call(0, _wire.ROOT_SHELLSIM_ENVIRONMENT, _wire.SimEnvironmentRequest(self.limits))
            _handle = reply.header.handle
        self._handle = _go._Handle(_handle)
        self._closed = False
        for pattern, response in (http or {}).items():
            self.route_http(pattern, response)

    @property
    def terminated(self) -> bool:
        """Whether the session is over (exit, set -e or a resource exhausted)."""
        return _call(self._handle.id, _wire.SIM_STATE).header.terminated

    @property
    def stop_reason(self) -> StopReason | None:
        return _call(self._handle.id, _wire.SIM_STATE).header.stop_reason

    def run(self, source: str, stdin: bytes | str = b"") -> RunResult:
        if not isinstance(source, str):
            raise TypeError("source must be a str")
        if isinstance(stdin, str):
            stdin = stdin.encode()
        return _result(_call(self._handle.id, _wire.SIM_RUN, _wire.SimRunRequest(source), bytes(stdin)), self.limits)

    def write_file(self, path: str, data: bytes | str, *, mode: int = 0o644) -> None:
        if isinstance(data, str):
            data = data.encode()
        _call(self._handle.id, _wire.SIM_WRITE_FILE, _wire.SimWriteFileRequest(path, mode), bytes(data))

    def read_file(self, path: str) -> bytes:
        return _call(self._handle.id, _wire.SIM_READ_FILE, _wire.SimPathRequest(path)).segments[0]

    def mkdir(self, path: str, *, parents: bool = False, mode: int = 0o755) -> None:
        _call(self._handle.id, _wire.SIM_MKDIR, _wire.SimMkdirRequest(path, parents, mode))

    def mount(self, host_root: str | os.PathLike[str], destination: str = "/work") -> MountResult:
        """Copy a host tree into the simulation (trusted import: regular files
        and directories only, modes kept, disk limit respected, all or
        nothing; .git, .venv, venv, target, node_modules, __pycache__ skipped)."""
        request = _wire.SimMountRequest(os.path.abspath(host_root), destination)
        return _call(self._handle.id, _wire.SIM_MOUNT, request).header

    def fork(self) -> Environment:
        """An independent deep copy: files, shell state, processes and background
        jobs with their timers and pipes, clocks, usage and routes."""
        reply = _call(self._handle.id, _wire.SIM_FORK)
        child = Environment(_handle=reply.header.handle)
        child.limits = self.limits
        return child

    def route_http(self, pattern: str, response: HttpResponse, *, method: str | None = None) -> None:
        if not isinstance(response, HttpResponse):
            raise TypeError("response must be an HttpResponse")
        route = _wire.Route(pattern, response.status, response.body, dict(response.headers), method)
        _call(self._handle.id, _wire.SIM_ROUTE_HTTP, route)

    def close(self) -> None:
        """Kill background jobs and release the environment (also done when it is collected)."""
        if self._closed:
            return
        self._closed = True
        handle = self._handle
        handle.detach()
        try:
            _call(handle.id, _wire.SIM_CLOSE)
        finally:
            _native.release(handle.id)

    def __enter__(self) -> Environment:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def run(
    source: str,
    stdin: bytes | str = b"",
    limits: Limits | None = None,
    *,
    cpu: int | None = None,
    memory: int | None = None,
    disk: int | None = None,
    output: int | None = None,
    http: Mapping[str, HttpResponse] | None = None,
) -> RunResult:
    """Run one action in a fresh environment."""
    with Environment(limits, cpu=cpu, memory=memory, disk=disk, output=output, http=http) as env:
        return env.run(source, stdin)
