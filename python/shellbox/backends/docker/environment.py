"""DockerEnvironment: Harbor trials on Docker machines (one container each).

Use it from a Harbor job as
``shellbox.backends.docker.environment:DockerEnvironment``. Each trial gets
one fresh container made from the task's image:

- ``[environment] docker_image`` (unless ``force_build`` and the task has a
  Dockerfile): the daemon's local image of that name when it has one
  (``DockerImage``), else pulled from its registry (``RegistryImage``);
- otherwise ``environment/Dockerfile``, built by the daemon with
  ``environment/`` as context (``DockerfileSource``).

A task whose ``environment/`` holds a compose file (``docker-compose.yaml``
and its spellings) runs as a task group (shellbox.task, lib/task/compose):
each service a member built or pulled like the main image, Harbor's ``main``
the machine the agent and verifier drive, services reached by name on the
group's private network; healthchecks gate the start; keys a group cannot
honour (ports, volumes, other networks, ...) are refused naming the key. The
group has a route out (the daemon's bridge) only when every network policy
of the trial is public (Harbor's allow_internet); otherwise, allowlists
included, it has none. Under gVisor (``runtime="runsc"``) members are linked
by a private network instead of one loopback, so a service must listen on
0.0.0.0 (as compose services usually do) to be reached by name.

As with Harbor's own docker environment, the files of ``environment/`` are
copied into the workdir only for a prebuilt image without a Dockerfile
(a Dockerfile's COPY lines decide what goes where). Tasks marked
``network_mode = "no-network"`` get no network, ``"allowlist"`` only their
hosts through shellbox's egress filter (shellbox.harbor_egress),
and public ones the daemon's bridge. The task's cpus and memory_mb become container limits; storage_mb
is applied only where the daemon's storage driver can limit a container's
size (overlay2 on anything but xfs cannot), and is otherwise left unset
rather than failing the trial.

Keyword arguments (``--ek``): ``host`` (daemon address, default
$DOCKER_HOST, else the local socket), ``runtime`` (an OCI runtime
registered with the daemon: ``runsc`` runs the trial under gVisor) and
``shell_mode`` for the agent's shell (see
shellbox.harbor_support.open_shell; "auto" takes script(1) inside the
container when the image has it, else pipes). Commands run in Bash when
the image has it, else in its /bin/sh; without Bash, "auto" gives the agent
one-shot commands (our persistent shell sessions are Bash sessions)."""

from __future__ import annotations

import asyncio
import http.client
import os
import socket
import threading
import time
import urllib.parse
from pathlib import Path
from typing import Any

from harbor.environments.capabilities import EnvironmentCapabilities, EnvironmentResourceCapabilities
from harbor.environments.definition import should_upload_environment_dir

from shellbox.backends.docker.machine import DockerMachineFactory
from shellbox.harbor_egress import allowlist_capabilities, network_for
from shellbox.harbor_support import MachineEnvironment
from shellbox.image import DockerfileSource, RegistryImage
from shellbox.machine import Command, DockerImage, MachineSpec, NetworkPolicy, Requirements, UnsupportedMachineSpec
from shellbox.task import create_compose_task

__all__ = ["DockerEnvironment"]

_DEFAULT_SOCKET = "/var/run/docker.sock"
_COMPOSE_NAMES = ("docker-compose.yaml", "docker-compose.yml", "compose.yaml", "compose.yml")

_factories: dict[tuple[str | None, str | None], DockerMachineFactory] = {}
_factories_lock = threading.Lock()
# Whether a factory's daemon can limit a container's size, learnt once.
_storage_ok: dict[tuple[str | None, str | None], bool] = {}


def _factory_for(key: tuple[str | None, str | None]) -> DockerMachineFactory:
    """One factory per (host, runtime) and process: the daemon is checked
    once for every trial of a job."""
    with _factories_lock:
        factory = _factories.get(key)
        if factory is None:
            host, runtime = key
            factory = _factories[key] = DockerMachineFactory(host=host, runtime=runtime)
        return factory


class _UnixHTTPConnection(http.client.HTTPConnection):
    def __init__(self, path: str, timeout: float):
        super().__init__("localhost", timeout=timeout)
        self._path = path

    def connect(self) -> None:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(self.timeout)
        sock.connect(self._path)
        self.sock = sock


def _unix_socket(host: str | None) -> str | None:
    """The socket path of a unix:// daemon address (None for other schemes)."""
    address = host or os.environ.get("DOCKER_HOST") or f"unix://{_DEFAULT_SOCKET}"
    return address[len("unix://") :] if address.startswith("unix://") else None


def image_is_local(reference: str, host: str | None = None) -> bool | None:
    """Whether the daemon's local image store has ``reference`` (None when
    that cannot be asked: a daemon that is not on a unix socket, or no
    answer)."""
    path = _unix_socket(host)
    if path is None:
        return None
    conn = _UnixHTTPConnection(path, timeout=10)
    try:
        conn.request("GET", f"/images/{urllib.parse.quote(reference, safe='/:@')}/json")
        response = conn.getresponse()
        response.read()
    except OSError:
        return None
    finally:
        conn.close()
    if response.status == 200:
        return True
    if response.status == 404:
        return False
    return None


class DockerEnvironment(MachineEnvironment):
    """One Docker machine per trial (see the module docstring)."""

    def __init__(
        self,
        *args: Any,
        host: str | None = None,
        runtime: str | None = None,
        **kwargs: Any,
    ):
        self._factory_key = (host or None, runtime or None)
        self._force_build = False
        self._resolved_workdir: str | None = None
        self._task: Any = None  # a compose task's group (see _start_group)
        super().__init__(*args, **kwargs)

    @staticmethod
    def type() -> str:
        return "shellbox-docker"

    @property
    def capabilities(self) -> EnvironmentCapabilities:
        # "no-network" tasks get Docker's "none" network; "allowlist" ones
        # reach only shellbox's egress filter (shellbox.harbor_egress: on the
        # container's loopback under runc, through a network gate under
        # gVisor). GPUs are requested from the daemon; one without the NVIDIA
        # toolkit refuses the machine (UnsupportedMachineSpec naming gpus)
        # when it starts.
        return allowlist_capabilities(gpus=True)

    @classmethod
    def resource_capabilities(cls) -> EnvironmentResourceCapabilities:
        # MachineSpec.cpus is a whole number of CPUs.
        return EnvironmentResourceCapabilities(cpu_limit=True, memory_limit=True)

    def _compose_file(self) -> Path | None:
        """The task's compose file: the trial then runs as a task group."""
        for name in _COMPOSE_NAMES:
            if (self.environment_dir / name).is_file():
                return self.environment_dir / name
        return None

    def _validate_definition(self) -> None:
        if self._compose_file() is None:
            super()._validate_definition()
        elif not self.environment_dir.is_dir():
            raise FileNotFoundError(f"task environment directory not found: {self.environment_dir}")
        if not self.task_env_config.docker_image and not (self.environment_dir / "Dockerfile").is_file():
            raise FileNotFoundError(
                f"task has neither [environment] docker_image nor {self.environment_dir / 'Dockerfile'}"
            )

    @property
    def workdir(self) -> str:
        if self._resolved_workdir:
            return self._resolved_workdir
        return self.task_env_config.workdir or "/workspace"

    def _factory(self) -> DockerMachineFactory:
        return _factory_for(self._factory_key)

    def _uses_prebuilt_image(self) -> bool:
        image = self.task_env_config.docker_image
        if not image:
            return False
        return not (self._force_build and (self.environment_dir / "Dockerfile").is_file())

    def _source(self) -> DockerImage | RegistryImage | DockerfileSource:
        if self._uses_prebuilt_image():
            reference = str(self.task_env_config.docker_image)
            if image_is_local(reference, self._factory_key[0]):
                return DockerImage(reference)
            # The backend pulls it (and would also take a local copy that
            # appeared in the meantime).
            return RegistryImage(reference)
        return DockerfileSource(context=self.environment_dir, dockerfile=self.environment_dir / "Dockerfile")

    def _storage_mb(self) -> int | None:
        """The task's storage_mb when the daemon can apply it. Docker on
        overlay2 (unless backed by xfs with project quotas) cannot limit a
        container's size and the backend refuses the field: the trial then
        runs without a storage limit instead of failing."""
        storage = self.task_env_config.storage_mb
        if not storage:
            return None
        key = self._factory_key
        if key not in _storage_ok:
            probe = MachineSpec(source=DockerImage("probe"), storage_mb=int(storage))
            try:
                self._factory().check_environment(Requirements(), probe)
                _storage_ok[key] = True
            except UnsupportedMachineSpec as error:
                if error.field != "storage_mb":
                    raise
                self.logger.info("storage_mb=%s not applied: %s", storage, error)
                _storage_ok[key] = False
        return int(storage) if _storage_ok[key] else None

    def _machine_spec(self) -> MachineSpec:
        cpus = self._effective_cpus
        memory = self._effective_memory_mb
        timeout = self.task_env_config.build_timeout_sec
        return MachineSpec(
            source=self._source(),
            # Empty: the image's WORKDIR (learnt after start).
            workdir=self.task_env_config.workdir or "",
            env=dict(self._startup_env() or {}),
            network=self._network(),
            cpus=int(cpus) if cpus else None,
            memory_mb=int(memory) if memory else None,
            storage_mb=self._storage_mb(),
            gpus=self._effective_gpus,
            startup_timeout=float(timeout) if timeout else None,
        )

    async def _start_group(self, compose: Path) -> None:
        """A compose task as a task group (shellbox.task): each service a
        member, Harbor's ``main`` the machine agents drive, services reached by
        name on the group's private network; a route out only when every
        network policy of the trial is public (_group_network)."""
        prebuilt = self._uses_prebuilt_image()
        env = self._startup_env() or {}
        self._task = await create_compose_task(
            self._factory(),
            [compose],
            working_dir=self.environment_dir,
            env={**env, "CONTEXT_DIR": str(self.environment_dir)},
            workdir=self.task_env_config.workdir or "",
            primary_build=None if prebuilt else self.environment_dir,
            primary_image=str(self.task_env_config.docker_image) if prebuilt else None,
            primary_env=env,
            network=self._group_network(),
        )
        self._machine = self._task.containers[self._task.primary]
        timeout = self.task_env_config.build_timeout_sec
        await self._task.wait_ready(timeout=float(timeout) if timeout else 600.0)

    def _group_network(self) -> NetworkPolicy:
        """ALLOW (the daemon's bridge for the whole group) when every network
        policy of the trial, phases included, is public; else DENY: a group
        has no egress filter, so an allowlist gets no route out at all."""
        policies = [self.network_policy, *getattr(self, "_phase_network_policies", [])]
        if all(network_for(p)[0] == NetworkPolicy.ALLOW for p in policies):
            return NetworkPolicy.ALLOW
        return NetworkPolicy.DENY

    async def start(self, force_build: bool) -> None:
        began = time.perf_counter()
        self._force_build = force_build
        compose = self._compose_file()
        if compose is None:
            self._machine = await self._create_machine(self._machine_spec())
        try:
            if compose is not None:
                await self._start_group(compose)
            await self._probe_machine()
            steps = [self._make_log_dirs()]
            # As Harbor's docker environment: environment/ is copied in only
            # for a prebuilt image that has no Dockerfile beside it.
            if self._enable_environment_dir_upload and should_upload_environment_dir(
                self.environment_dir, docker_image=self.task_env_config.docker_image
            ):
                steps.append(self._machine.upload(self.environment_dir, self.workdir))
            await asyncio.gather(*steps)
        except BaseException:
            await self.stop(delete=True)
            raise
        self._record("start", time.perf_counter() - began)

    async def stop(self, delete: bool) -> None:
        try:
            await super().stop(delete)  # closing the primary closes its group
        finally:
            group, self._task = self._task, None
            if group is not None:
                await group.close()

    async def _probe_machine(self) -> None:
        """One command at start: the workdir (the image's WORKDIR when the
        task names none) and whether the image has Bash."""
        result = await self._machine.run(
            Command(
                argv=("/bin/sh", "-c", 'pwd; command -v bash >/dev/null 2>&1 && echo bash || echo sh'),
                output_limit_bytes=4096,
                timeout=60.0,
            )
        )
        lines = result.stdout.decode(errors="replace").splitlines()
        if result.exit_code != 0 or len(lines) != 2:
            raise RuntimeError(
                f"probing the container failed (exit {result.exit_code}): {result.stderr.decode(errors='replace')}"
            )
        self._resolved_workdir = self.task_env_config.workdir or lines[0]
        self.bash = lines[1]
        if self.bash != "bash" and self.shell_mode == "auto":
            # Our persistent shells (terminal, script, pipe) are Bash
            # sessions: without Bash the agent gets one complete sh -c
            # command per action.
            self.shell_mode = "oneshot"

