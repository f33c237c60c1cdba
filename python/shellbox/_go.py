"""Python proxies for Go-backed factories, machines and process sessions.

Requests and replies are the generated wire types (shellbox._wire); errors
arrive as the typed error header and are raised as the package's
exceptions. A backend's Python module subclasses GoMachineFactory and passes
its keyword arguments as the Go factory's options; everything else happens
in Go, which checks every request once."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import weakref
from pathlib import Path
from typing import Any

from shellbox import _native, _wire
from shellbox._wire import ErrorKind
from shellbox.machine import (
    DEFAULT_MACHINE_OUTPUT_LIMIT_BYTES,
    Backend,
    Command,
    DownloadLimitExceeded,
    ExecutionRequirements,
    ExitReason,
    MachineClosed,
    MachineInfrastructureError,
    MachineSpec,
    MachineStartupError,
    MachineTerminated,
    PathNotFound,
    PathRefused,
    ResourceUsage,
    NetworkPolicy,
    Result,
    SandboxUnavailable,
    ShellUpdate,
    UnsupportedMachineSpec,
)

_SIMPLE_ERRORS: dict[str, type[Exception]] = {
    ErrorKind.VALUE_ERROR: ValueError,
    ErrorKind.MACHINE_STARTUP_ERROR: MachineStartupError,
    ErrorKind.MACHINE_INFRASTRUCTURE_ERROR: MachineInfrastructureError,
    ErrorKind.MACHINE_CLOSED: MachineClosed,
    ErrorKind.DOWNLOAD_LIMIT_EXCEEDED: DownloadLimitExceeded,
    # Also RuntimeErrors, as marin-shellbox raises for a missing source or a refused link.
    ErrorKind.FILE_NOT_FOUND_ERROR: PathNotFound,
    ErrorKind.PERMISSION_ERROR: PathRefused,
    ErrorKind.RUNTIME_ERROR: RuntimeError,
    # Failures of this process while it read a reply (shellbox._native).
    "MemoryError": MemoryError,
    "TimeoutError": TimeoutError,
}


def exception(head: _wire.Error) -> BaseException:
    """The Python exception for an error header: a ValueError carries the
    field Go named (``error.field``), MachineTerminated the ShellSim stop
    reason (``error.stop_reason``)."""
    kind, message = head.kind, head.message
    if kind == ErrorKind.UNSUPPORTED_MACHINE_SPEC:
        return UnsupportedMachineSpec(message, head.field)
    if kind == ErrorKind.SANDBOX_UNAVAILABLE:
        return SandboxUnavailable(message, {c.candidate: c.error for c in head.candidates})
    if kind == ErrorKind.MACHINE_TERMINATED:
        return MachineTerminated(message, head.stop_reason)
    if kind == ErrorKind.CANCELLED:
        return asyncio.CancelledError(message)
    error = _SIMPLE_ERRORS.get(kind, RuntimeError)(message)
    if kind == ErrorKind.VALUE_ERROR:
        error.field = head.field
    return error


def translate(error: _native.GoError) -> BaseException:
    """The Python exception for a failed call (anything with an error ``header``)."""
    return exception(_wire.Error.from_json(error.header))


def _request(method: _wire.Method | str, request: Any) -> Any:
    if isinstance(method, str) or request is None or method.encode is None:
        return request  # a raw call: request is the JSON itself
    return method.encode(request)


def _reply(method: _wire.Method | str, reply: _native.Reply) -> _native.Reply:
    if isinstance(method, str) or method.decode is None:
        return reply
    return _native.Reply(method.decode(reply.header), reply.segments)


async def call(handle: int, method: _wire.Method | str, request: Any = None, payload: bytes = b"") -> _native.Reply:
    """Call ``method`` on a handle. With a wire Method, request is encoded by
    it (from the wire type or any object with the same fields) and the reply
    header decoded; with a method name both are raw JSON."""
    name = method if isinstance(method, str) else method.name
    try:
        return _reply(method, await _native.call(handle, name, _request(method, request), payload))
    except _native.GoError as error:
        raise translate(error) from None


def call_sync(handle: int, method: _wire.Method | str, request: Any = None, payload: bytes = b"") -> _native.Reply:
    name = method if isinstance(method, str) else method.name
    try:
        return _reply(method, _native.call_sync(handle, name, _request(method, request), payload))
    except _native.GoError as error:
        raise translate(error) from None


class _Handle:
    """Owns one Go handle; dropping the last reference releases it."""

    def __init__(self, handle: int):
        self.id = handle
        self._finalizer = weakref.finalize(self, _native.release, handle)

    def detach(self) -> None:
        self._finalizer.detach()


class GoObject:
    """A Go object behind a handle: close once, then release the handle."""

    _closed_message = "closed"
    _close: _wire.Method = _wire.MACHINE_CLOSE

    def __init__(self, handle: int):
        self._handle = _Handle(handle)
        self._closed = False

    def _check(self) -> int:
        if self._closed:
            raise MachineClosed(self._closed_message)
        return self._handle.id

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            await call(self._handle.id, self._close)
        finally:
            self._handle.detach()
            await call(self._handle.id, _wire.ANY_RELEASE)

    async def __aenter__(self) -> Any:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


class GoProcessSession(GoObject):
    """A ProcessSession backed by a Go process handle."""

    _closed_message = "process session is closed"
    _close = _wire.PROCESS_CLOSE

    def __init__(self, handle: int):
        super().__init__(handle)
        self._stderr = b""
        self._stderr_truncated = False
        self._exit_code: int | None = None

    async def write(self, data: bytes) -> None:
        await call(self._check(), _wire.PROCESS_WRITE, None, bytes(data))

    async def close_stdin(self) -> None:
        await call(self._check(), _wire.PROCESS_CLOSE_STDIN)

    async def read(self, max_bytes: int = 65536) -> bytes:
        reply = await call(self._check(), _wire.PROCESS_READ, _wire.ReadRequest(max_bytes))
        return reply.segments[0]

    async def wait(self) -> int:
        if self._exit_code is None:
            reply = await call(self._check(), _wire.PROCESS_WAIT)
            self._stderr, self._stderr_truncated = reply.segments[0], reply.header.stderr_truncated
            self._exit_code = reply.header.exit_code
        return self._exit_code

    @property
    def exit_code(self) -> int | None:
        return self._exit_code

    @property
    def stderr(self) -> bytes:
        return self._stderr

    @property
    def stderr_truncated(self) -> bool:
        return self._stderr_truncated


# A run reply with only these fields and a known reason needs no RunReply.
_PLAIN_RUN = frozenset(("exit_code", "stdout_truncated", "stderr_truncated", "reason"))
_REASONS = {reason.value: reason for reason in ExitReason}


class GoMachine(GoObject):
    """A Machine backed by a Go machine handle."""

    _closed_message = "machine is closed"

    def __init__(self, handle: int, spec: MachineSpec, backend: Backend):
        super().__init__(handle)
        self.spec = spec
        self.backend = backend

    async def run(self, command: Command) -> Result:
        if not isinstance(command, Command):
            raise TypeError(f"run takes a Command, got {type(command).__name__}")
        try:
            reply = await _native.call(self._check(), "run", _wire.MACHINE_RUN.encode(command), command.stdin)
        except _native.GoError as error:
            raise translate(error) from None
        stdout, stderr = reply.segments
        plain = reply.header
        reason = _REASONS.get(plain.get("reason") or ExitReason.EXITED)
        if reason is not None and plain.keys() <= _PLAIN_RUN and type(self)._ran is GoMachine._ran:
            # Every command's path: a plain reply goes straight into the Result.
            return Result(plain.get("exit_code"), stdout, stderr, plain.get("stdout_truncated", False),
                          plain.get("stderr_truncated", False), reason)
        head = _wire.RunReply.from_json(plain)
        self._ran(head)
        usage = None if head.usage is None else ResourceUsage(head.usage.cpu_seconds, head.usage.peak_memory_bytes)
        return Result(head.exit_code, stdout, stderr, head.stdout_truncated, head.stderr_truncated, head.reason, usage)

    def _ran(self, head: _wire.RunReply) -> None:
        """Called with each run's reply header (ShellSim notes its stop reason)."""

    async def upload(self, source: Path, target: str) -> None:
        await call(self._check(), _wire.MACHINE_UPLOAD, _wire.UploadRequest(os.path.abspath(source), target))

    async def download(self, source: str, target: Path, *, max_bytes: int | None = None) -> None:
        request = _wire.DownloadRequest(source, os.path.abspath(target), max_bytes)
        await call(self._check(), _wire.MACHINE_DOWNLOAD, request)

    async def set_network_policy(
        self, policy: NetworkPolicy, allowed_hosts: tuple[str, ...] = (), *, phase: str | None = None
    ) -> None:
        """Change the network policy of the running machine; open connections the new policy would not
        admit end at once (see shellbox.egress). ``phase`` names the decision records from now on."""
        request = _wire.SetNetworkPolicyRequest(NetworkPolicy(policy), tuple(allowed_hosts), phase)
        await call(self._check(), _wire.MACHINE_SET_NETWORK_POLICY, request)

    async def open_process(self, command: Command) -> GoProcessSession:
        reply = await call(self._check(), _wire.MACHINE_OPEN_PROCESS, command)
        return GoProcessSession(reply.header.handle)


class GoMachineFactory:
    """A MachineFactory backed by a Go factory. Subclasses set ``backend``
    and ``machine_class`` and pass their options to ``__init__`` (a JSON
    object, or a wire type such as _wire.ShellSimOptions)."""

    backend: Backend
    machine_class: type[GoMachine] = GoMachine

    def __init__(self, options: Any = None):
        _native.library()
        if hasattr(options, "to_json"):
            options = options.to_json()
        reply = call_sync(0, _wire.ROOT_OPEN_FACTORY, _wire.OpenFactoryRequest(self.backend.value, options or {}))
        self._handle = _Handle(reply.header.handle)

    def check_environment(self, requirements: ExecutionRequirements, spec: MachineSpec) -> None:
        if not isinstance(spec, MachineSpec):  # a shellbox.task.TaskSpec
            from shellbox.task import check_task_environment

            return check_task_environment(self, requirements, spec)
        call_sync(self._handle.id, _wire.FACTORY_CHECK_ENVIRONMENT, _wire.CheckEnvironmentRequest(requirements, spec))

    async def create(self, spec: MachineSpec) -> GoMachine:
        if not isinstance(spec, MachineSpec):
            raise TypeError(f"create takes a MachineSpec, got {type(spec).__name__}")
        return await self._create(spec, egress_log=getattr(self, "egress_log", None))

    async def _create(self, spec: MachineSpec, *, egress_log: Path | None) -> GoMachine:
        """create, with the egress decision log of this machine (Harbor environments keep one per trial)."""
        request: Any = spec
        if egress_log is not None:
            fields = {f.name: getattr(spec, f.name) for f in dataclasses.fields(spec)}
            request = _wire.Spec(**fields, egress_log=os.path.abspath(egress_log))
        reply = await call(self._handle.id, _wire.FACTORY_CREATE, request)
        return self.machine_class(reply.header.handle, spec, self.backend)

    async def create_task(self, spec):  # -> shellbox.task.Task
        from shellbox.task import create_task

        return await create_task(self, spec)


def machine_handle(machine: Any) -> int:
    """The Go handle of a Go-backed machine (GoMachine)."""
    handle = getattr(machine, "_handle", None)
    if handle is None or not isinstance(getattr(handle, "id", None), int):
        raise TypeError(f"{type(machine).__name__} is not a Go-backed machine")
    if getattr(machine, "_closed", False):
        raise MachineClosed("machine is closed")
    return handle.id


class GoShellSession(GoObject):
    """A ShellSession (see shellbox.machine) whose shell lives in Go, on a
    machine; its ``handle`` is what BashAgent hands to the Go agent loop."""

    _closed_message = "shell session is closed"
    _close = _wire.SHELL_CLOSE

    def __init__(self, handle: int, interactive: bool, mode: str):
        super().__init__(handle)
        self._interactive = interactive
        self.mode = mode

    @property
    def handle(self) -> int:
        return self._check()

    @property
    def interactive(self) -> bool:
        return self._interactive

    @staticmethod
    def _update(reply: _native.Reply) -> ShellUpdate:
        head: _wire.ShellUpdate = reply.header
        return ShellUpdate(reply.segments[0], head.status, head.exit_code, head.truncated)

    async def execute(
        self, command: str, *, wait: float = 120, output_limit_bytes: int = DEFAULT_MACHINE_OUTPUT_LIMIT_BYTES
    ) -> ShellUpdate:
        request = _wire.ShellExecuteRequest(command, wait, output_limit_bytes)
        return self._update(await call(self._check(), _wire.SHELL_EXECUTE, request))

    async def read(
        self, *, wait: float = 0, output_limit_bytes: int = DEFAULT_MACHINE_OUTPUT_LIMIT_BYTES
    ) -> ShellUpdate:
        return self._update(await call(self._check(), _wire.SHELL_READ, _wire.ShellReadRequest(wait, output_limit_bytes)))

    async def write(self, data: bytes) -> None:
        await call(self._check(), _wire.SHELL_WRITE, None, bytes(data))

    async def interrupt(self) -> None:
        await call(self._check(), _wire.SHELL_INTERRUPT)


async def open_shell(
    machine: Any,
    *,
    mode: str = "auto",
    env: dict[str, str] | None = None,
    cwd: str | None = None,
    bash: str | None = None,
    session: type[GoShellSession] = GoShellSession,
) -> GoShellSession:
    """Open a persistent shell on a Go-backed machine. ``mode`` "auto" takes
    the first that works of: the machine's own shell ("shellsim"), a
    terminal the backend provides ("terminal"), a terminal made by script(1)
    inside the machine ("script"), plain pipes ("pipe"), one complete
    command per call ("oneshot"); naming one forces it."""
    request = _wire.OpenShellRequest(machine_handle(machine), mode, dict(env or {}), cwd, bash)
    head: _wire.OpenShellReply = (await call(0, _wire.ROOT_OPEN_SHELL, request)).header
    return session(head.handle, head.interactive, head.mode)
