"""Docker machines: one container each, driven through the Docker Engine API by Go."""

from __future__ import annotations

from shellbox import _wire
from shellbox._go import GoMachine, GoMachineFactory
from shellbox.machine import Backend

__all__ = ["DockerMachine", "DockerMachineFactory"]


class DockerMachine(GoMachine):
    """One container whose primary process only keeps it alive; commands run as execs."""


class DockerMachineFactory(GoMachineFactory):
    """Creates Docker machines from RegistryImage, DockerfileSource or DockerImage sources.

    ``host`` is the daemon address (default: $DOCKER_HOST, else the local socket);
    ``runtime`` an OCI runtime registered with the daemon (e.g. "runsc");
    ``pids_limit`` bounds the processes and threads of each container (0: no limit), so that
    a fork bomb is held in its container instead of taking every PID of the host.

    A container lives no longer than the process that created it: when that process ends
    without closing its machines (even by SIGKILL), their containers stop, and the next
    factory on the host removes them."""

    backend = Backend.DOCKER
    machine_class = DockerMachine

    def __init__(self, *, host: str | None = None, runtime: str | None = None, pids_limit: int = 4096):
        super().__init__(_wire.DockerOptions(host=host or "", runtime=runtime, pids_limit=pids_limit))
