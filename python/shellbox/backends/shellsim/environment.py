"""ShellSimEnvironment: Harbor trials on ShellSim machines.

Use it from a Harbor job as
``shellbox.backends.shellsim.environment:ShellSimEnvironment``. Each trial
gets one simulated machine (private files and processes); the machines of
one worker process share one engine context (limits and routes). Task
images and Dockerfile instructions are not applied: the regular files under
the task's ``environment/`` are copied into the workdir. Setup and verifier
commands (``exec``) run with fresh shell state over the machine's files;
the agent's Bash session (``open_bash_session``) keeps its state across
actions.

Keyword arguments (``--ek``): ``cpu_limit`` (work units, default 10
billion), ``memory_mb`` (2048), ``disk_limit_bytes`` (512 MiB),
``output_limit_bytes`` (128 MiB), ``package_spec`` (``PackageSpec()`` or
its fields as a dict: only shell-only specs are accepted) and
``task_network_policy`` ("require-offline-task", the default, or "deny") and
``routes`` (virtual HTTP routes: dicts of ShellSimRoute's fields, ``body`` as
text).
A task that asks for the public internet is rejected unless the policy is
"deny", which runs it offline; an ``allowlist`` task keeps the virtual routes
of its hosts (requests to others are unreachable) and its requests are
recorded in ``<trial dir>/egress/decisions.jsonl`` as the egress filter
records them. (Harbor passes its own ``network_policy``
object to every environment, so a job cannot set ours under that name; a
direct constructor call may pass the string there.)

A command that exhausts a resource ends the trial: the reason (e.g.
``cpu_exhausted``) is logged and raised from the operation as a
RuntimeError naming it, so it lands in the trial's exception info."""

from __future__ import annotations

import json
import threading
from enum import StrEnum
from typing import Any

from harbor.environments.base import ExecResult
from harbor.environments.capabilities import EnvironmentCapabilities
from harbor.models.task.config import NetworkMode

from shellbox.backends.shellsim.machine import (
    DEFAULT_CPU_LIMIT,
    DEFAULT_DISK_LIMIT,
    DEFAULT_MEMORY_MB,
    DEFAULT_OUTPUT_LIMIT,
    ShellSimEngine,
    ShellSimMachineFactory,
    ShellSimRoute,
    ShellSimShellSession,
)
from shellbox.harbor_egress import allowlist_capabilities
from shellbox.harbor_support import MachineEnvironment
from shellbox.machine import MachineSpec, MachineTerminated, NetworkPolicy, PackageSpec, Requirements

__all__ = ["ShellSimEnvironment", "TaskNetworkPolicy"]


class TaskNetworkPolicy(StrEnum):
    REQUIRE_OFFLINE_TASK = "require-offline-task"
    DENY = "deny"


_factories: dict[str, ShellSimMachineFactory] = {}
_factories_lock = threading.Lock()


def shared_factory(engine: ShellSimEngine) -> ShellSimMachineFactory:
    """One factory (engine context) per option set and worker process."""
    key = json.dumps(engine.options().to_json(), sort_keys=True)  # routes hold dicts: not hashable
    with _factories_lock:
        factory = _factories.get(key)
        if factory is None:
            factory = _factories[key] = ShellSimMachineFactory(engine=engine)
        return factory


def _route(value: dict[str, Any]) -> ShellSimRoute:
    """A route from its fields (``body`` as text), as a job's kwargs give it."""
    fields = dict(value)
    if isinstance(fields.get("body"), str):
        fields["body"] = fields["body"].encode()
    return ShellSimRoute(**fields)


def _package_spec(value: Any) -> PackageSpec:
    if value is None:
        return PackageSpec()
    if isinstance(value, PackageSpec):
        return value
    if isinstance(value, dict):
        packages = value.get("pypi_packages")
        return PackageSpec(
            pypi_packages=None if packages is None else tuple(packages), tools=tuple(value.get("tools") or ())
        )
    raise ValueError(f"package_spec must be a PackageSpec or a dict of its fields, not {type(value).__name__}")


class ShellSimEnvironment(MachineEnvironment):
    """One ShellSim machine per trial."""

    bash = "bash"
    # ShellSim builds nothing: a task's environment/, when present, only holds files to copy.
    requires_environment_dir = False

    def __init__(
        self,
        *args: Any,
        context: Any = None,
        cpu_limit: int = DEFAULT_CPU_LIMIT,
        memory_mb: int = DEFAULT_MEMORY_MB,
        disk_limit_bytes: int = DEFAULT_DISK_LIMIT,
        output_limit_bytes: int = DEFAULT_OUTPUT_LIMIT,
        package_spec: Any = PackageSpec(),
        task_network_policy: str | None = None,
        network_policy: Any = TaskNetworkPolicy.REQUIRE_OFFLINE_TASK,
        routes: list[dict[str, Any]] | tuple[dict[str, Any], ...] = (),
        **kwargs: Any,
    ):
        if context is not None:
            raise TypeError("context: this ShellSim runs in Go and takes no shellsim.Context; pass cpu_limit and the other limits")
        if isinstance(network_policy, str):
            task_network_policy, network_policy = task_network_policy or network_policy, None
        self._task_network_policy = TaskNetworkPolicy(task_network_policy or TaskNetworkPolicy.REQUIRE_OFFLINE_TASK)
        self._engine = ShellSimEngine(
            cpu=int(cpu_limit),
            memory_mb=DEFAULT_MEMORY_MB,
            disk=int(disk_limit_bytes),
            output=int(output_limit_bytes),
            routes=tuple(_route(r) for r in routes),
        )
        self._memory_mb = int(memory_mb)
        if self._memory_mb <= 0:
            raise ValueError("memory_mb must be positive")
        self._package_spec = _package_spec(package_spec)
        if network_policy is not None:
            kwargs["network_policy"] = network_policy
        super().__init__(*args, **kwargs)
        self._factory().check_environment(Requirements(), self._machine_spec())

    @staticmethod
    def type() -> str:
        return "shellsim"

    @property
    def capabilities(self) -> EnvironmentCapabilities:
        # An allowlist keeps the virtual routes of its hosts (others are
        # unreachable) and records each request as the egress filter would;
        # the routes are fixed when the machine is made, so the policy is too.
        caps = allowlist_capabilities()
        caps.dynamic_network_policy = False
        return caps

    def _validate_definition(self) -> None:
        super()._validate_definition()
        policies = [self.network_policy, *getattr(self, "_phase_network_policies", [])]
        online = [p for p in policies if p is not None and p.network_mode == NetworkMode.PUBLIC]
        if online and self._task_network_policy != TaskNetworkPolicy.DENY:
            modes = sorted({str(p.network_mode.value) for p in online})
            raise ValueError(
                f"this task asks for network access (network_mode {', '.join(modes)}) but ShellSim has no network; "
                "set the environment kwarg task_network_policy=deny to run it offline"
            )

    def _factory(self) -> ShellSimMachineFactory:
        return shared_factory(self._engine)

    def _network(self) -> NetworkPolicy:
        return NetworkPolicy.DENY

    def _machine_spec(self) -> MachineSpec:
        return MachineSpec(
            source=self._package_spec,
            workdir=self.workdir,
            env=dict(self._startup_env() or {}),
            network=NetworkPolicy.DENY,
            memory_mb=self._memory_mb,
        )

    @property
    def stop_reason(self) -> str | None:
        """The resource whose exhaustion ended this trial's machine, if any."""
        return getattr(self._machine, "stop_reason", None) or getattr(self, "_stopped", None)

    def _stopped_error(self) -> RuntimeError:
        reason = self.stop_reason
        self.logger.error("ShellSim stopped the trial: %s", reason)
        return RuntimeError(f"ShellSim stopped the trial: {reason}")

    async def exec(
        self,
        command: str,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
        timeout_sec: int | None = None,
        user: str | int | None = None,
    ) -> ExecResult:
        try:
            result = await super().exec(command, cwd=cwd, env=env, timeout_sec=timeout_sec, user=user)
        except MachineTerminated as error:
            self._stopped = str(error).rsplit(": ", 1)[-1]
            raise self._stopped_error() from error
        if self.stop_reason:
            raise self._stopped_error()
        return result

    async def open_bash_session(self) -> ShellSimShellSession:  # type: ignore[override]
        """The machine's persistent shell, in the workdir with the task's env."""
        session = await self._running().open_shell(env=self._merge_env(None) or {}, cwd=self.workdir)
        self._sessions.append(session)  # type: ignore[arg-type]
        return session
