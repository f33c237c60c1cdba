"""gVisor machines: Docker containers run by runsc."""

from __future__ import annotations

from shellbox import _wire
from shellbox._go import GoMachine, GoMachineFactory
from shellbox.machine import Backend

__all__ = ["GvisorMachine", "GvisorMachineFactory"]


class GvisorMachine(GoMachine):
    """A Docker container under the runsc runtime."""


class GvisorMachineFactory(GoMachineFactory):
    """Checks at creation that the daemon has ``runtime`` (default "runsc") registered;
    raises SandboxUnavailable saying how to register it otherwise. ``pids_limit`` bounds the
    tasks of each sandbox (0: no limit), as for DockerMachineFactory; containers likewise
    die with the process that created them."""

    backend = Backend.GVISOR
    machine_class = GvisorMachine

    def __init__(self, *, host: str | None = None, runtime: str = "runsc", pids_limit: int = 4096):
        super().__init__(_wire.DockerOptions(host=host or "", runtime=runtime, pids_limit=pids_limit))
