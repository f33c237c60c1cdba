"""LocalEnvironment: Harbor trials on local (bubblewrap) machines.

Use it from a Harbor job as ``shellbox.backends.local.environment:LocalEnvironment``
(``harbor run -e shellbox.backends.local.environment:LocalEnvironment``). Each
trial gets one fresh machine running the host's programs (``HostImage``); the
task's ``environment/`` files are copied into the workdir and its Dockerfile is
not built."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from harbor.environments.capabilities import EnvironmentCapabilities

from shellbox.backends.local.machine import LocalMachineFactory
from shellbox.harbor_egress import allowlist_capabilities
from shellbox.harbor_support import MachineEnvironment
from shellbox.machine import HostImage, MachineSpec

__all__ = ["LocalEnvironment"]

_factories: dict[tuple, LocalMachineFactory] = {}
_factories_lock = threading.Lock()


def _factory_for(key: tuple) -> LocalMachineFactory:
    """One factory per option set and process: checking bubblewrap once is
    enough for every trial of a job."""
    with _factories_lock:
        factory = _factories.get(key)
        if factory is None:
            read_only, bin_dirs, bwrap, cache_dir = key
            factory = LocalMachineFactory(
                read_only=tuple(Path(p) for p in read_only),
                bin_dirs=tuple(Path(p) for p in bin_dirs),
                bwrap=Path(bwrap) if bwrap else None,
                cache_dir=Path(cache_dir) if cache_dir else None,
            )
            _factories[key] = factory
        return factory


class LocalEnvironment(MachineEnvironment):
    """One local machine per trial. Keyword arguments (``--ek``):
    ``read_only`` and ``bin_dirs`` (host directories, as in HostImage),
    ``bwrap`` and ``cache_dir`` (as in LocalMachineFactory),
    and ``shell_mode`` for the agent's shell ("auto", "terminal", "script",
    "pipe", "oneshot"; see shellbox.harbor_support.open_shell)."""

    def __init__(
        self,
        *args: Any,
        read_only: list[str] | tuple[str, ...] = (),
        bin_dirs: list[str] | tuple[str, ...] = (),
        bwrap: str | None = None,
        cache_dir: str | None = None,
        **kwargs: Any,
    ):
        self._factory_key = (
            tuple(str(p) for p in read_only),
            tuple(str(p) for p in bin_dirs),
            str(bwrap) if bwrap else None,
            str(cache_dir) if cache_dir else None,
        )
        super().__init__(*args, **kwargs)

    @staticmethod
    def type() -> str:
        return "shellbox-local"

    @property
    def capabilities(self) -> EnvironmentCapabilities:
        # "no-network" and "allowlist" tasks get a private network namespace
        # whose only way out is shellbox's egress filter (shellbox.harbor_egress).
        return allowlist_capabilities()

    def _factory(self) -> LocalMachineFactory:
        return _factory_for(self._factory_key)

    def _machine_spec(self) -> MachineSpec:
        return MachineSpec(
            source=HostImage(
                read_only=tuple(Path(p) for p in self._factory_key[0]),
                bin_dirs=tuple(Path(p) for p in self._factory_key[1]),
            ),
            workdir=self.workdir,
            env=dict(self._startup_env() or {}),
            network=self._network(),
        )
