"""Docker machines: one container each, driven through the Docker Engine API by Go."""

from __future__ import annotations

import asyncio
import weakref
from dataclasses import dataclass
from pathlib import Path

from shellbox import _go, _wire
from shellbox._go import GoMachine, GoMachineFactory
from shellbox.machine import Backend, Command, ExitReason

__all__ = ["DockerCommandResult", "DockerMachine", "DockerMachineFactory", "docker"]

# Live machines by container name, for docker().
_machines: weakref.WeakValueDictionary[str, DockerMachine] = weakref.WeakValueDictionary()


class DockerMachine(GoMachine):
    """One container whose primary process only keeps it alive; commands run as execs."""

    _name: str | None = None

    @property
    def name(self) -> str:
        """The container's name, as ``docker ps`` shows it."""
        if self._name is None:
            self._name = _go.call_sync(0, _wire.ROOT_MACHINE_INFO, _wire.MachineInfoRequest(self._check())).header.name
            _machines[self._name] = self
        return self._name

    @name.setter
    def name(self, value: str) -> None:
        # A plain attribute in marin-shellbox; docker() finds the machine under either name.
        self.name  # noqa: B018  (registers the container's own name first)
        self._name = value
        _machines[value] = self


@dataclass(frozen=True)
class DockerCommandResult:
    exit_code: int
    stdout: bytes
    stderr: bytes


async def docker(
    *args: str,
    stdin: bytes = b"",
    timeout: float | None = None,
    output_limit_bytes: int | None = None,
    process_group: asyncio.Future[int] | None = None,
) -> DockerCommandResult:
    """marin-shellbox's ``docker`` CLI helper, for the commands its callers give a machine of this
    process: ``exec [-i] [-w DIR] [-u USER] [-e K=V]... NAME ARGV...`` and ``rm -f NAME``, carried out
    by the machine through the Engine API (no docker CLI). Anything else raises ValueError naming it.
    A timeout raises TimeoutError, as the CLI's does. ``process_group`` is accepted for compatibility
    and left unresolved: the machine stops a timed-out command's whole group itself."""
    del process_group
    if not args:
        raise ValueError("args: a docker subcommand is required")
    if args[0] == "rm" and len(args) == 3 and args[1] == "-f":
        machine = _machines.get(args[2])
        if machine is not None:
            await machine.close()
        return DockerCommandResult(0, b"", b"")
    if args[0] != "exec":
        raise ValueError(f"args: docker {args[0]} is not supported here (only exec and rm -f)")
    rest, cwd, user, env = list(args[1:]), None, None, {}
    while rest and rest[0].startswith("-"):
        flag = rest.pop(0)
        if flag in ("-i", "--interactive"):
            continue
        if flag in ("-w", "--workdir", "-u", "--user", "-e", "--env") and rest:
            value = rest.pop(0)
            if flag in ("-w", "--workdir"):
                cwd = value
            elif flag in ("-u", "--user"):
                user = value
            else:
                key, _, val = value.partition("=")
                env[key] = val
            continue
        raise ValueError(f"args: docker exec option {flag} is not supported here")
    if len(rest) < 2:
        raise ValueError("args: docker exec needs a container name and a command")
    machine = _machines.get(rest[0])
    if machine is None:
        return DockerCommandResult(1, b"", f"Error response from daemon: No such container: {rest[0]}\n".encode())
    limit = output_limit_bytes if output_limit_bytes is not None else 1 << 62
    result = await machine.run(
        Command(tuple(rest[1:]), cwd=cwd, env=env, stdin=stdin, timeout=timeout, output_limit_bytes=limit, user=user)
    )
    if result.reason == ExitReason.TIMED_OUT:
        raise TimeoutError(f"docker exec timed out after {timeout} s")
    return DockerCommandResult(result.exit_code, result.stdout, result.stderr)


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

    def __init__(
        self,
        *,
        runtime: str | None = None,
        host: str | None = None,
        pids_limit: int = 4096,
        egress_log: Path | None = None,
    ):
        self.egress_log = egress_log
        super().__init__(_wire.DockerOptions(host=host or "", runtime=runtime, pids_limit=pids_limit))

    async def create(self, spec):  # type: ignore[override]
        machine = await super().create(spec)
        _ = machine.name  # registers it for docker()
        return machine
