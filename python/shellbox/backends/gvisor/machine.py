"""gVisor machines: Docker containers run by runsc."""

from __future__ import annotations

from shellbox._go import GoMachine, GoMachineFactory
from shellbox.machine import Backend

__all__ = ["GvisorMachine", "GvisorMachineFactory"]


class GvisorMachine(GoMachine):
    """A Docker container under the runsc runtime."""


class GvisorMachineFactory(GoMachineFactory):
    """Checks at creation that the daemon has ``runtime`` (default "runsc") registered;
    raises SandboxUnavailable saying how to register it otherwise."""

    backend = Backend.GVISOR
    machine_class = GvisorMachine

    def __init__(self, *, host: str | None = None, runtime: str = "runsc"):
        options: dict[str, object] = {"runtime": runtime}
        if host:
            options["host"] = host
        super().__init__(options)
