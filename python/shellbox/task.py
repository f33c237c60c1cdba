"""Task groups: several machines that reach each other by name over a private
network and nothing else. One member is the primary that agents drive; the
others run their image's entrypoint and command (or ``command``) as services.

``await factory.create_task(TaskSpec(...))`` starts every member without
waiting for health; ``await task.wait_ready()`` runs the readiness probes;
closing the task, any member, or a member's main process ending tears the whole
group down. Every backend runs one-member tasks; local (as root), docker and
gvisor (as root) run groups; the others refuse them with UnsupportedMachineSpec
naming the reason.

A group's members share one network policy: all ``NetworkPolicy.DENY`` (the
group's private network and nothing else) or all ``NetworkPolicy.ALLOW`` (also
the backend's ordinary route out: Docker's bridge; local refuses it); mixed
policies raise ValueError, and a one-member task takes any policy its factory
takes. Under gVisor members are linked by a network rather than one shared
loopback: a service must listen on 0.0.0.0 (or its member's address) to be
reached by the others; ``Task.endpoint`` is ``"member:port"`` on every
backend."""

from __future__ import annotations

import math
import os
import re
from os import PathLike
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Mapping

from shellbox import _go, _wire
from shellbox.machine import Machine, MachineSpec, NetworkPolicy, _invalid

__all__ = [
    "ContainerSpec",
    "ReadinessProbe",
    "ServiceEndpoint",
    "Task",
    "TaskSpec",
    "check_task_environment",
    "create_compose_task",
    "create_task",
]

_HOSTNAME = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$")


def _positive(name: str, value: Any, *, zero: bool = False) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise _invalid(name, f"must be a finite number of seconds, got {value!r}")
    if value < 0 or (value == 0 and not zero):
        raise _invalid(name, f"must be {'non-negative' if zero else 'positive'}, got {value!r}")


def _argv(name: str, value: Any) -> tuple[str, ...]:
    if isinstance(value, (str, bytes)) or not all(isinstance(a, str) for a in value):
        raise _invalid(name, "must be a sequence of strings")
    argv = tuple(value)
    if not argv:
        raise _invalid(name, "must not be empty")
    return argv


@dataclass(frozen=True)
class ServiceEndpoint:
    """A port a member serves; other members reach it at ``member:port``."""

    name: str
    port: int
    protocol: str = "tcp"

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise _invalid("name", "an endpoint needs a name")
        if isinstance(self.port, bool) or not isinstance(self.port, int) or not 1 <= self.port <= 65535:
            raise _invalid("port", f"{self.port!r} is not in 1..65535")
        if self.protocol not in ("tcp", "udp"):
            raise _invalid("protocol", f"{self.protocol!r} is not tcp or udp")


@dataclass(frozen=True)
class ReadinessProbe:
    """``command`` exits 0 inside the member once it is ready. Each attempt has
    its own ``timeout`` (an overrunning attempt's process group is killed, the
    service is not); attempts are ``interval`` apart after ``start_period``;
    ``attempts`` bounds them (None: until wait_ready's timeout)."""

    command: tuple[str, ...]
    timeout: float
    interval: float
    start_period: float = 0
    attempts: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "command", _argv("command", self.command))
        _positive("timeout", self.timeout)
        _positive("interval", self.interval)
        _positive("start_period", self.start_period, zero=True)
        if self.attempts is not None and (
            isinstance(self.attempts, bool) or not isinstance(self.attempts, int) or self.attempts <= 0
        ):
            raise _invalid("attempts", f"must be a positive integer or None, got {self.attempts!r}")


@dataclass(frozen=True)
class ContainerSpec:
    """One member: its name (a host name inside the group), its machine, the
    endpoints it serves, its readiness probe and, for a service, the command that
    replaces its image's entrypoint and command."""

    name: str
    machine: MachineSpec
    endpoints: tuple[ServiceEndpoint, ...] = ()
    readiness: ReadinessProbe | None = None
    command: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not _HOSTNAME.match(self.name) or self.name == "localhost":
            raise _invalid("name", f"{self.name!r} is not a valid host name (letters, digits, inner hyphens, at most 63)")
        if not isinstance(self.machine, MachineSpec):
            raise _invalid("machine", f"must be a MachineSpec, got {type(self.machine).__name__}")
        object.__setattr__(self, "endpoints", tuple(self.endpoints))
        names = [e.name for e in self.endpoints]
        if len(set(names)) != len(names):
            raise _invalid("endpoints", f"endpoint names must be unique, got {names}")
        if self.readiness is not None and not isinstance(self.readiness, ReadinessProbe):
            raise _invalid("readiness", f"must be a ReadinessProbe, got {type(self.readiness).__name__}")
        if self.command is not None:
            object.__setattr__(self, "command", _argv("command", self.command))


@dataclass(frozen=True)
class TaskSpec:
    """The members of a group and the name of its primary."""

    containers: tuple[ContainerSpec, ...]
    primary: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "containers", tuple(self.containers))
        if not self.containers:
            raise _invalid("containers", "a task needs at least one container")
        names = [c.name for c in self.containers]
        if len(set(names)) != len(names):
            raise _invalid("containers", f"container names must be unique, got {names}")
        if self.primary not in names:
            raise _invalid("primary", f"{self.primary!r} is not the name of a container")
        if len(self.containers) > 1:
            policies = {c.name: c.machine.network for c in self.containers}
            if len(set(policies.values())) > 1:
                raise _invalid("network", f"the members of a group share one network policy, got {policies}")
            if self.containers[0].machine.network not in (NetworkPolicy.DENY, NetworkPolicy.ALLOW):
                raise _invalid(
                    "network",
                    "a group's members all use NetworkPolicy.DENY (the private network only) or all NetworkPolicy.ALLOW "
                    f"(also a route out), not {self.containers[0].machine.network}",
                )


class Task(_go.GoObject):
    """A running group. ``containers`` maps member names to their machines
    (closing any of them closes the group); ``primary`` names the member agents
    drive. An async context manager that closes the group on exit."""

    _closed_message = "task is closed"
    _close = _wire.TASK_CLOSE

    def __init__(self, handle: int, spec: TaskSpec | None, containers: dict[str, Machine], primary: str):
        super().__init__(handle)
        self.spec = spec  # None for a compose project
        self.containers: Mapping[str, Machine] = MappingProxyType(containers)
        self.primary = primary

    def endpoint(self, member: str, endpoint: str) -> str:
        """``"member:port"``: how other members reach a member's endpoint."""
        for c in self.spec.containers if self.spec else ():
            if c.name == member:
                for e in c.endpoints:
                    if e.name == endpoint:
                        return f"{member}:{e.port}"
                raise _invalid("endpoint", f"member {member!r} has no endpoint {endpoint!r}")
        raise _invalid("member", f"no member {member!r}")

    async def wait_ready(self, timeout: float | None = None) -> None:
        """Run every readiness probe until each passed once. Exhausted attempts,
        the timeout or cancellation close the group; the error names the member
        and its last probe output."""
        await _go.call(self._check(), _wire.TASK_WAIT_READY, _wire.WaitReadyRequest(timeout))

    async def __aenter__(self) -> Task:
        return self


def _members(
    factory: _go.GoMachineFactory, head: _wire.CreateTaskReply, specs: Mapping[str, MachineSpec]
) -> dict[str, Machine]:
    return {name: factory.machine_class(m.handle, specs.get(name), factory.backend) for name, m in head.members.items()}


async def create_task(factory: _go.GoMachineFactory, spec: TaskSpec) -> Task:
    """Start every member of spec (the primary first) on factory's backend;
    ``factory.create_task(spec)`` is the same."""
    if not isinstance(spec, TaskSpec):
        raise TypeError(f"create_task takes a TaskSpec, got {type(spec).__name__}")
    reply = await _go.call(0, _wire.ROOT_CREATE_TASK, _wire.CreateTaskRequest(factory._handle.id, spec))
    head: _wire.CreateTaskReply = reply.header
    return Task(head.handle, spec, _members(factory, head, {c.name: c.machine for c in spec.containers}), head.primary)


async def create_compose_task(
    factory: _go.GoMachineFactory,
    files: list[str | PathLike[str]],
    *,
    working_dir: str | PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
    primary: str = "main",
    workdir: str = "",
    primary_build: str | PathLike[str] | None = None,
    primary_image: str | None = None,
    primary_env: Mapping[str, str] | None = None,
    network: NetworkPolicy = NetworkPolicy.DENY,
) -> Task:
    """A Docker Compose project as a task group (Harbor's multi-container
    tasks): each service a member, ``primary`` the one agents drive. ``env``
    interpolates ``${VAR}`` in the files; ``primary_build`` (a build context)
    or ``primary_image`` gives the primary its image unless the files do (as
    Harbor's base file); ``primary_env`` joins the primary's environment;
    ``network`` is every member's policy (DENY: the private network only; ALLOW:
    also a route out, for a task that allows internet). Keys a
    group cannot honour (ports, volumes, other networks, privileges, ...) raise
    UnsupportedMachineSpec naming the key."""
    request = _wire.ComposeTaskRequest(
        factory=factory._handle.id,
        files=tuple(os.path.abspath(f) for f in files),
        working_dir=os.path.abspath(working_dir) if working_dir else None,
        env=dict(env or {}),
        primary=primary,
        workdir=workdir or None,
        primary_build=os.path.abspath(primary_build) if primary_build else None,
        primary_image=primary_image,
        primary_env=dict(primary_env or {}),
        network=NetworkPolicy(network).value,
    )
    head: _wire.CreateTaskReply = (await _go.call(0, _wire.ROOT_CREATE_COMPOSE_TASK, request)).header
    return Task(head.handle, None, _members(factory, head, {}), head.primary)


def check_task_environment(factory: _go.GoMachineFactory, requirements: Any, spec: TaskSpec) -> None:
    """Refuse, without starting anything, a task factory cannot run (each member
    as check_environment sees it; several members on a backend without groups);
    ``factory.check_environment(requirements, task_spec)`` is the same."""
    if not isinstance(spec, TaskSpec):
        raise TypeError(f"check_environment takes a MachineSpec or a TaskSpec, got {type(spec).__name__}")
    _go.call_sync(0, _wire.ROOT_CHECK_TASK, _wire.CheckTaskRequest(factory._handle.id, requirements, spec))
