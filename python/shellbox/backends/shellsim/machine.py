"""ShellSim machines: one simulated environment each (in-memory files, a
Bash-like shell, built-in commands, metered CPU/memory/disk/output in
virtual time), run by Go in-process; nothing runs on the host.

MachineSpec mapping: ``source`` is ``ShellSimBuiltins()`` or ``PackageSpec()``
(shell only; ``PackageSpec(pypi_packages=...)`` is refused: Python is not
available in ShellSim yet); ``memory_mb`` is the memory limit; ``storage_mb``
the disk limit (else the factory's ``disk``); ``cpus`` is refused (time is
virtual: CPU is the factory's ``cpu`` budget of work units); ``gpus``,
``NetworkPolicy.ALLOW`` and users other than root are refused. Budgets are
per machine and cumulative; exhausting one ends the machine: the command
exits 137 with ``shellsim: <reason>: the machine is stopped`` on stderr,
``machine.stop_reason`` says which, and later calls raise MachineTerminated."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from shellbox import _go
from shellbox._go import GoMachine, GoMachineFactory
from shellbox.machine import (
    DEFAULT_MACHINE_OUTPUT_LIMIT_BYTES,
    Backend,
    Command,
    MachineClosed,
    MachineTerminated,
    Result,
    ShellStatus,
    ShellUpdate,
)

__all__ = [
    "DEFAULT_CPU_LIMIT",
    "DEFAULT_DISK_LIMIT",
    "DEFAULT_MEMORY_MB",
    "DEFAULT_OUTPUT_LIMIT",
    "ShellSimEngine",
    "ShellSimMachine",
    "ShellSimMachineFactory",
    "ShellSimShellSession",
]

DEFAULT_CPU_LIMIT = 10_000_000_000
DEFAULT_MEMORY_MB = 2048
DEFAULT_DISK_LIMIT = 512 * 1024 * 1024
DEFAULT_OUTPUT_LIMIT = 128 * 1024 * 1024

_STOPPED = re.compile(rb"shellsim: ([a-z_]+): the machine is stopped")


@dataclasses.dataclass(frozen=True)
class ShellSimRoute:
    """A virtual HTTP route (curl/wget/net in every machine reach it)."""

    pattern: str
    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = dataclasses.field(default_factory=dict)
    method: str | None = None


@dataclasses.dataclass(frozen=True)
class ShellSimEngine:
    """What machines of a worker share: default limits and routes. One
    engine can back every factory (and every Harbor trial) of a process."""

    cpu: int = DEFAULT_CPU_LIMIT
    memory_mb: int = DEFAULT_MEMORY_MB
    disk: int = DEFAULT_DISK_LIMIT
    output: int = DEFAULT_OUTPUT_LIMIT
    routes: tuple[ShellSimRoute, ...] = ()

    def __post_init__(self) -> None:
        for name in ("cpu", "memory_mb", "disk", "output"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be positive")
        object.__setattr__(self, "routes", tuple(self.routes))

    def options(self) -> dict[str, Any]:
        import base64

        return {
            "cpu": self.cpu,
            "memory_mb": self.memory_mb,
            "disk": self.disk,
            "output": self.output,
            "routes": [
                {
                    "pattern": r.pattern,
                    "status": r.status,
                    "body": base64.b64encode(r.body).decode(),
                    "headers": dict(r.headers),
                    "method": r.method or "",
                }
                for r in self.routes
            ],
        }


class ShellSimShellSession:
    """The machine's persistent shell (non-interactive): cd, exports and
    functions carry over between ``execute`` calls."""

    interactive = False
    mode = "shellsim"

    def __init__(self, handle: int):
        self._handle = _go._Handle(handle)
        self._closed = False

    @property
    def handle(self) -> int:
        if self._closed:
            raise MachineClosed("shell session is closed")
        return self._handle.id

    @staticmethod
    def _update(reply: Any) -> ShellUpdate:
        head = reply.header
        return ShellUpdate(reply.segments[0], ShellStatus(head["status"]), head["exit_code"], head["truncated"])

    async def execute(
        self, command: str, *, wait: float = 120, output_limit_bytes: int = DEFAULT_MACHINE_OUTPUT_LIMIT_BYTES
    ) -> ShellUpdate:
        reply = await _go.call(
            self.handle, "execute", {"command": command, "wait": wait, "output_limit_bytes": output_limit_bytes}
        )
        return self._update(reply)

    async def read(self, *, wait: float = 0, output_limit_bytes: int = DEFAULT_MACHINE_OUTPUT_LIMIT_BYTES) -> ShellUpdate:
        reply = await _go.call(self.handle, "read", {"wait": wait, "output_limit_bytes": output_limit_bytes})
        return self._update(reply)

    async def write(self, data: bytes) -> None:
        await _go.call(self.handle, "write", None, bytes(data))

    async def interrupt(self) -> None:
        await _go.call(self.handle, "interrupt")

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            await _go.call(self._handle.id, "close")
        finally:
            self._handle.detach()
            await _go.call(self._handle.id, "release")


class ShellSimMachine(GoMachine):
    """One simulated environment. ``run`` gives each command a fresh shell
    over the machine's persistent files; ``open_shell`` is the one
    persistent shell an agent keeps its state in."""

    stop_reason: str | None = None

    def _note(self, stderr: bytes) -> None:
        found = _STOPPED.search(stderr[-4096:])
        if found:
            self.stop_reason = found.group(1).decode()

    async def run(self, command: Command) -> Result:
        try:
            result = await super().run(command)
        except MachineTerminated as error:
            self.stop_reason = self.stop_reason or str(error).rsplit(": ", 1)[-1]
            raise
        self._note(result.stderr)
        return result

    async def open_shell(self, *, env: dict[str, str] | None = None, cwd: str | None = None) -> ShellSimShellSession:
        reply = await _go.call(
            0, "open_shell", {"machine": self._check(), "mode": "shellsim", "env": dict(env or {}), "cwd": cwd or ""}
        )
        return ShellSimShellSession(reply.header["handle"])


class ShellSimMachineFactory(GoMachineFactory):
    """Creates ShellSim machines from ``ShellSimBuiltins()`` or ``PackageSpec()``.

    The keyword arguments are the machines' default limits: ``cpu`` work
    units, ``memory_mb`` (when the spec has none), ``disk`` and ``output``
    bytes, and virtual HTTP ``routes``; or pass a shared ``engine``."""

    backend = Backend.SHELLSIM
    machine_class = ShellSimMachine

    def __init__(
        self,
        *,
        context: object = None,
        cpu: int = DEFAULT_CPU_LIMIT,
        memory_mb: int = DEFAULT_MEMORY_MB,
        disk: int = DEFAULT_DISK_LIMIT,
        output: int = DEFAULT_OUTPUT_LIMIT,
        routes: tuple[ShellSimRoute, ...] = (),
        engine: ShellSimEngine | None = None,
    ):
        if context is not None:
            # marin-shellbox passes a Python shellsim.Context; ShellSim runs in Go here.
            raise TypeError("context: this ShellSim runs in Go and takes no shellsim.Context; pass cpu, disk, output or engine")
        if engine is None:
            engine = ShellSimEngine(cpu=cpu, memory_mb=memory_mb, disk=disk, output=output, routes=tuple(routes))
        self.engine = engine
        super().__init__(engine.options())
