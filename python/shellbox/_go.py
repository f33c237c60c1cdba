"""Python proxies for Go-backed factories, machines and process sessions.

A backend's Python module subclasses GoMachineFactory and passes its
keyword arguments as the Go factory's JSON options; everything else happens
in Go."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import weakref
from enum import Enum
from pathlib import Path, PurePath
from typing import Any

from shellbox import _native
from shellbox.machine import (
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
    Result,
    SandboxUnavailable,
    UnsupportedMachineSpec,
)

_SIMPLE_ERRORS: dict[str, type[Exception]] = {
    "ValueError": ValueError,
    "MachineStartupError": MachineStartupError,
    "MachineTerminated": MachineTerminated,
    "MachineInfrastructureError": MachineInfrastructureError,
    "MachineClosed": MachineClosed,
    "DownloadLimitExceeded": DownloadLimitExceeded,
    "FileNotFoundError": FileNotFoundError,
    "PermissionError": PermissionError,
    "TimeoutError": TimeoutError,
    "RuntimeError": RuntimeError,
    "MemoryError": MemoryError,
}


def translate(error: _native.GoError) -> Exception:
    """The Python exception for a Go error header. A ValueError carries the
    field Go named (``error.field``), as UnsupportedMachineSpec does."""
    head = error.header
    kind, message = head.get("kind", "RuntimeError"), head.get("message", "")
    if kind == "UnsupportedMachineSpec":
        return UnsupportedMachineSpec(message, head.get("field"))
    if kind == "SandboxUnavailable":
        candidates = {c["candidate"]: c["error"] for c in head.get("candidates") or ()}
        return SandboxUnavailable(message, candidates)
    if kind == "Cancelled":
        return asyncio.CancelledError(message)
    exception = _SIMPLE_ERRORS.get(kind, RuntimeError)(message)
    if kind == "ValueError":
        exception.field = head.get("field")
    return exception


async def call(handle: int, method: str, request: Any = None, payload: bytes = b"") -> _native.Reply:
    try:
        return await _native.call(handle, method, request, payload)
    except _native.GoError as error:
        raise translate(error) from None


def call_sync(handle: int, method: str, request: Any = None) -> _native.Reply:
    try:
        return _native.call_sync(handle, method, request)
    except _native.GoError as error:
        raise translate(error) from None


def to_json(value: Any) -> Any:
    """Dataclasses (with their class name as "type"), enums and paths as JSON
    values. Bytes become strings (undecodable bytes as surrogates, which Go
    refuses naming their field; see _native.encode for non-finite floats)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out = {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
        out["type"] = type(value).__name__
        return out
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, PurePath):
        return str(value)
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).decode("utf-8", "surrogateescape")
    if isinstance(value, dict):
        return {to_json(k) if isinstance(k, (bytes, bytearray)) else str(k): to_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    return value


def spec_json(spec: MachineSpec) -> dict[str, Any]:
    out = to_json(spec)
    out.pop("type", None)
    return out


def command_json(command: Command) -> dict[str, Any]:
    """A Command as the run request; Go checks every field."""
    return to_json(
        {
            "argv": command.argv,
            "cwd": command.cwd or "",
            "env": command.env,
            "timeout": command.timeout,
            "output_limit_bytes": command.output_limit_bytes,
            "user": command.user or "",
        }
    )


def requirements_json(requirements: ExecutionRequirements) -> dict[str, Any]:
    semantics = getattr(requirements, "command_semantics", None)
    return {
        "command_semantics": str(semantics.value if isinstance(semantics, Enum) else semantics or ""),
        "capabilities": list(getattr(requirements, "capabilities", ()) or ()),
        "docker_image": getattr(requirements, "docker_image", None) or "",
    }


class _Handle:
    """Owns one Go handle; dropping the last reference releases it."""

    def __init__(self, handle: int):
        self.id = handle
        self._finalizer = weakref.finalize(self, _native.release, handle)

    def detach(self) -> None:
        self._finalizer.detach()


class GoProcessSession:
    """A ProcessSession backed by a Go process handle."""

    def __init__(self, handle: int):
        self._handle = _Handle(handle)
        self._stderr = b""
        self._stderr_truncated = False
        self._exit_code: int | None = None
        self._closed = False

    def _check(self) -> int:
        if self._closed:
            raise MachineClosed("process session is closed")
        return self._handle.id

    async def write(self, data: bytes) -> None:
        await call(self._check(), "write", None, bytes(data))

    async def close_stdin(self) -> None:
        await call(self._check(), "close_stdin")

    async def read(self, max_bytes: int = 65536) -> bytes:
        reply = await call(self._check(), "read", {"max_bytes": max_bytes})
        return reply.segments[0]

    async def wait(self) -> int:
        if self._exit_code is None:
            reply = await call(self._check(), "wait")
            self._exit_code = reply.header["exit_code"]
            self._stderr = reply.segments[0]
            self._stderr_truncated = reply.header["stderr_truncated"]
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

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            await call(self._handle.id, "close")
        finally:
            self._handle.detach()
            await call(self._handle.id, "release")

    async def __aenter__(self) -> GoProcessSession:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


class GoMachine:
    """A Machine backed by a Go machine handle."""

    def __init__(self, handle: int, spec: MachineSpec, backend: Backend):
        self._handle = _Handle(handle)
        self.spec = spec
        self.backend = backend
        self._closed = False

    def _check(self) -> int:
        if self._closed:
            raise MachineClosed("machine is closed")
        return self._handle.id

    async def run(self, command: Command) -> Result:
        if not isinstance(command, Command):
            raise TypeError(f"run takes a Command, got {type(command).__name__}")
        reply = await call(self._check(), "run", command_json(command), command.stdin)
        head = reply.header
        return Result(
            head["exit_code"],
            reply.segments[0],
            reply.segments[1],
            head["stdout_truncated"],
            head["stderr_truncated"],
            ExitReason(head["reason"]),
        )

    async def upload(self, source: Path, target: str) -> None:
        request = {"source": os.path.abspath(source), "target": target}
        await call(self._check(), "upload", to_json(request))

    async def download(self, source: str, target: Path, *, max_bytes: int | None = None) -> None:
        request = {"source": source, "target": os.path.abspath(target), "max_bytes": max_bytes}
        await call(self._check(), "download", to_json(request))

    async def open_process(self, command: Command) -> GoProcessSession:
        reply = await call(self._check(), "open_process", command_json(command))
        return GoProcessSession(reply.header["handle"])

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            await call(self._handle.id, "close")
        finally:
            self._handle.detach()
            await call(self._handle.id, "release")

    async def __aenter__(self) -> GoMachine:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


class GoMachineFactory:
    """A MachineFactory backed by a Go factory. Subclasses set ``backend``
    and ``machine_class`` and pass their options to ``__init__``."""

    backend: Backend
    machine_class: type[GoMachine] = GoMachine

    def __init__(self, options: dict[str, Any] | None = None):
        _native.library()
        reply = call_sync(0, "open_factory", {"backend": self.backend.value, "options": to_json(options or {})})
        self._handle = _Handle(reply.header["handle"])

    def check_environment(self, requirements: ExecutionRequirements, spec: MachineSpec) -> None:
        if not isinstance(spec, MachineSpec):  # a shellbox.task.TaskSpec
            from shellbox.task import check_task_environment

            return check_task_environment(self, requirements, spec)
        call_sync(
            self._handle.id,
            "check_environment",
            {"requirements": requirements_json(requirements), "spec": spec_json(spec)},
        )

    async def create(self, spec: MachineSpec) -> GoMachine:
        if not isinstance(spec, MachineSpec):
            raise TypeError(f"create takes a MachineSpec, got {type(spec).__name__}")
        reply = await call(self._handle.id, "create", spec_json(spec))
        return self.machine_class(reply.header["handle"], spec, self.backend)

    async def create_task(self, spec):  # -> shellbox.task.Task
        from shellbox.task import create_task

        return await create_task(self, spec)
