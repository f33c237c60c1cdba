"""QemuEnvironment: Harbor trials on QEMU microVMs (one machine each).

Use it from a Harbor job as ``shellbox.backends.qemu.environment:QemuEnvironment``.
Each trial gets a fresh microVM booted (or restored from a saved state) from
the task's image:

- ``guest_bundle``: a staged bundle directory (``rootfs.ext4`` + ``image.json``);
- else ``environment/Dockerfile`` (a ``DockerfileSource``), built in Go by the
  local Docker daemon through its Engine API with ``environment/`` as context
  and exported from it;
- else ``[environment] docker_image``, taken from the local Docker daemon.

Networking follows marin-shellbox's task policy: ``network_policy`` is
``"require-offline-task"`` (default: a task that allows internet access is
refused; an ``"allowlist"`` task reaches its hosts through shellbox's egress
filter) or ``"deny"`` (every task runs without a network card); since Harbor
passes its own ``network_policy`` to environments, ``task_network_policy`` is
the same option under a name Harbor does not take.

Keyword arguments (``--ek``) with marin-shellbox's names: ``guest_bundle``,
``image_cache`` (the cache of staged disks and saved states), ``qemu_assets``
(a dict of QemuAssets fields), ``network_policy``, ``guest_memory_mb``
(default 512), ``acceleration`` ("auto", "kvm", "tcg"), ``registry_authfile``
(registry credentials for registry images), ``signature_policy`` (the
containers-policy.json registry images must satisfy; QemuMachineFactory's
``policy``); ``skopeo`` is accepted and unused (no skopeo); and
``shell_mode`` for the agent's shell (see shellbox.harbor_support.open_shell)."""

from __future__ import annotations

import asyncio
import threading
import time
from enum import StrEnum
from pathlib import Path
from typing import Any

from harbor.environments.capabilities import EnvironmentCapabilities
from harbor.environments.definition import should_upload_environment_dir

from shellbox.backends.qemu.image import QemuAssets
from shellbox.backends.qemu.machine import Acceleration, QemuMachineFactory
from shellbox.harbor_egress import allowlist_capabilities
from shellbox.harbor_support import MachineEnvironment
from shellbox.image import DockerfileSource
from shellbox.machine import Command, DockerImage, MachineSpec, NetworkPolicy as MachineNetworkPolicy, QemuBundle

__all__ = ["NetworkPolicy", "QemuEnvironment"]


class NetworkPolicy(StrEnum):
    REQUIRE_OFFLINE_TASK = "require-offline-task"
    DENY = "deny"


_factories: dict[tuple, QemuMachineFactory] = {}
_factories_lock = threading.Lock()


def _factory_for(key: tuple) -> QemuMachineFactory:
    """One factory per option set and process: the kernel, guest program and
    KVM probe are prepared once for every trial of a job."""
    with _factories_lock:
        factory = _factories.get(key)
        if factory is None:
            acceleration, assets, cache, authfile, policy = key
            factory = QemuMachineFactory(
                Acceleration(acceleration),
                assets=QemuAssets(**dict(assets)) if assets else None,
                bundle_cache=Path(cache) if cache else None,
                authfile=Path(authfile) if authfile else None,
                policy=Path(policy) if policy else None,
            )
            _factories[key] = factory
        return factory


class QemuEnvironment(MachineEnvironment):
    """One QEMU microVM per trial (see the module docstring)."""

    def __init__(
        self,
        *args: Any,
        guest_bundle: str | None = None,
        image_cache: str | None = None,
        skopeo: str | None = None,
        qemu_assets: dict[str, str | int] | None = None,
        registry_authfile: str | None = None,
        signature_policy: str | None = None,
        network_policy: Any = None,
        guest_memory_mb: int = 512,
        acceleration: Acceleration | str = Acceleration.AUTO,
        task_network_policy: str | None = None,
        **kwargs: Any,
    ):
        self.guest_bundle = Path(guest_bundle).absolute() if guest_bundle else None
        # Harbor passes its own network_policy (the task's) under the same
        # name as marin-shellbox's option: a string is ours, anything else
        # is Harbor's and goes on to Harbor.
        self.task_network_policy = NetworkPolicy.REQUIRE_OFFLINE_TASK
        if isinstance(network_policy, str):
            self.task_network_policy = NetworkPolicy(network_policy)
        elif network_policy is not None:
            kwargs["network_policy"] = network_policy
        if task_network_policy:  # the same option where Harbor takes the name
            self.task_network_policy = NetworkPolicy(task_network_policy)
        self.guest_memory_mb = int(guest_memory_mb)
        assets = tuple(sorted((qemu_assets or {}).items()))
        self._factory_key = (
            Acceleration(acceleration).value,
            assets,
            str(Path(image_cache).absolute()) if image_cache else None,
            str(Path(registry_authfile).absolute()) if registry_authfile else None,
            str(Path(signature_policy).absolute()) if signature_policy else None,
        )
        self._image: DockerImage | DockerfileSource | QemuBundle | None = None
        self._resolved_workdir: str | None = None
        super().__init__(*args, **kwargs)

    @staticmethod
    def type() -> str:
        return "qemu"

    @property
    def capabilities(self) -> EnvironmentCapabilities:
        # "allowlist" tasks reach their hosts through shellbox's egress filter
        # (shellbox.harbor_egress); "no-network" ones get no network card.
        return allowlist_capabilities()

    def _validate_definition(self) -> None:
        super()._validate_definition()
        restricted = getattr(self, "_network_disabled", False) or getattr(self, "_network_is_allowlist", False)
        if self.task_network_policy is NetworkPolicy.REQUIRE_OFFLINE_TASK and not restricted:
            raise ValueError(
                "the task allows internet access but QEMU machines run without a network; "
                "mark the task offline or pass network_policy='deny'"
            )
        if self.guest_bundle is None and not self.task_env_config.docker_image and not self._dockerfile().is_file():
            raise FileNotFoundError(f"{self.environment_dir} has no Dockerfile and the task names no docker_image")

    def _dockerfile(self) -> Path:
        return self.environment_dir / "Dockerfile"

    @property
    def workdir(self) -> str:
        return self._resolved_workdir or self.task_env_config.workdir or "/workspace"

    def _factory(self) -> QemuMachineFactory:
        return _factory_for(self._factory_key)

    async def _source(self) -> DockerImage | DockerfileSource | QemuBundle:
        if self.guest_bundle is not None:
            return QemuBundle(self.guest_bundle)
        if self._dockerfile().is_file():
            return DockerfileSource(context=self.environment_dir, dockerfile=self._dockerfile())
        return DockerImage(str(self.task_env_config.docker_image))

    def _machine_spec(self) -> MachineSpec:
        timeout = self.task_env_config.build_timeout_sec
        return MachineSpec(
            source=self._image,
            workdir=self.task_env_config.workdir or "",
            env=dict(self._startup_env() or {}),
            network=MachineNetworkPolicy.DENY,
            memory_mb=self.guest_memory_mb,
            startup_timeout=float(timeout) if timeout else None,
        )

    async def start(self, force_build: bool) -> None:
        if force_build and self.guest_bundle is not None:
            raise ValueError("force_build cannot rebuild a prebuilt guest bundle")
        began = time.perf_counter()
        self._image = await self._source()
        self._machine = await self._create_machine(self._machine_spec())
        try:
            result = await self._machine.run(
                Command(
                    argv=("/bin/sh", "-c", "pwd; command -v bash >/dev/null 2>&1 && echo bash || echo sh"),
                    output_limit_bytes=4096,
                    timeout=60.0,
                )
            )
            lines = result.stdout.decode(errors="replace").splitlines()
            if result.exit_code != 0 or len(lines) != 2:
                raise RuntimeError(f"probing the machine failed (exit {result.exit_code}): {result.stderr!r}")
            self._resolved_workdir = self.task_env_config.workdir or lines[0]
            self.bash = lines[1]
            if self.bash != "bash" and self.shell_mode == "auto":
                # Our persistent shells are Bash sessions: without Bash the
                # agent gets one complete sh -c command per action.
                self.shell_mode = "oneshot"
            steps = [self._make_log_dirs()]
            if self._enable_environment_dir_upload and should_upload_environment_dir(
                self.environment_dir, docker_image=self.task_env_config.docker_image
            ):
                steps.append(self._machine.upload(self.environment_dir, self.workdir))
            await asyncio.gather(*steps)
        except BaseException:
            await self.stop(delete=True)
            raise
        self._record("start", time.perf_counter() - began)
