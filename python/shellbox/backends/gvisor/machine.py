"""gVisor machines: Docker containers run by runsc."""

from __future__ import annotations

from pathlib import Path

from shellbox.backends.docker.machine import DockerMachine, DockerMachineFactory
from shellbox.machine import Backend

__all__ = ["GvisorMachine", "GvisorMachineFactory"]


class GvisorMachine(DockerMachine):
    """A Docker container under the runsc runtime."""


class GvisorMachineFactory(DockerMachineFactory):
    """Checks at creation that the daemon has ``runtime`` (default "runsc") registered;
    raises SandboxUnavailable saying how to register it otherwise. ``pids_limit`` bounds the
    tasks of each sandbox (0: no limit), as for DockerMachineFactory; containers likewise
    die with the process that created them."""

    backend = Backend.GVISOR
    machine_class = GvisorMachine

    def __init__(
        self,
        *,
        runtime: str = "runsc",
        host: str | None = None,
        pids_limit: int = 4096,
        egress_log: Path | None = None,
    ):
        super().__init__(runtime=runtime, host=host, pids_limit=pids_limit, egress_log=egress_log)
