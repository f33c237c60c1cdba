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
``machine.stop_reason`` says which (a StopReason, from Go's reply), and
later calls raise MachineTerminated with the same ``stop_reason``."""

from __future__ import annotations

import dataclasses

from shellbox import _wire
from shellbox._go import GoMachine, GoMachineFactory, GoShellSession, open_shell
from shellbox._wire import StopReason
from shellbox.machine import Backend, Command, MachineTerminated, Result

__all__ = [
    "DEFAULT_CPU_LIMIT",
    "DEFAULT_DISK_LIMIT",
    "DEFAULT_MEMORY_MB",
    "DEFAULT_OUTPUT_LIMIT",
    "ShellSimEngine",
    "ShellSimMachine",
    "ShellSimMachineFactory",
    "ShellSimRoute",
    "ShellSimShellSession",
]

DEFAULT_CPU_LIMIT = 10_000_000_000
DEFAULT_MEMORY_MB = 2048
DEFAULT_DISK_LIMIT = 512 * 1024 * 1024
DEFAULT_OUTPUT_LIMIT = 128 * 1024 * 1024


# A virtual HTTP route (curl/wget/net in every machine reach it): the wire's
# one route type, which shellbox.shellsim's route_http sends too.
ShellSimRoute = _wire.Route


@dataclasses.dataclass(frozen=True)
class ShellSimEngine:
    """What machines of a worker share: default limits and routes. One
    engine can back every factory (and every Harbor trial) of a process.
    Go checks the values when a factory opens (0: the backend's default)."""

    cpu: int = DEFAULT_CPU_LIMIT
    memory_mb: int = DEFAULT_MEMORY_MB
    disk: int = DEFAULT_DISK_LIMIT
    output: int = DEFAULT_OUTPUT_LIMIT
    routes: tuple[ShellSimRoute, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "routes", tuple(self.routes))

    def options(self) -> _wire.ShellSimOptions:
        """The Go factory's options (its routes as _wire.Route, the route type
        shellbox.shellsim's environments take too)."""
        return _wire.ShellSimOptions(self.cpu, self.memory_mb, self.disk, self.output, self.routes)


class ShellSimShellSession(GoShellSession):
    """The machine's persistent shell (non-interactive): cd, exports and
    functions carry over between ``execute`` calls."""


class ShellSimMachine(GoMachine):
    """One simulated environment. ``run`` gives each command a fresh shell
    over the machine's persistent files; ``open_shell`` is the one
    persistent shell an agent keeps its state in."""

    stop_reason: StopReason | None = None

    def _ran(self, head: _wire.RunReply) -> None:
        if head.stop_reason:
            self.stop_reason = head.stop_reason

    async def run(self, command: Command) -> Result:
        try:
            return await super().run(command)
        except MachineTerminated as error:
            self.stop_reason = self.stop_reason or error.stop_reason
            raise

    async def open_shell(self, *, env: dict[str, str] | None = None, cwd: str | None = None) -> ShellSimShellSession:
        return await open_shell(self, mode=_wire.ShellMode.OWN, env=env, cwd=cwd, session=ShellSimShellSession)


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
