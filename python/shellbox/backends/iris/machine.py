"""Iris machines: one SANDBOX job each, whose task idles while commands run through ExecInContainer.

``IrisMachineFactory(controller_url=...)`` talks to a controller directly (``shellbox-iris-controller``
serves one on a host of your own). ``cluster=`` names a cluster config as marin-iris does (a YAML path, or
``<name>.yaml`` in ``~/.config/marin/clusters`` or the Marin checkout's ``lib/iris/config``); shellbox reads
a manual controller's address from it itself, and leaves a controller reached through a tunnel, IAP or a
local cluster to marin-iris's ``connect_controller`` when marin-iris is installed. Iris has no user switch and no process sessions: a command
runs as the container's user, and ``open_process`` raises UnsupportedMachineSpec."""

from __future__ import annotations

import dataclasses
import os
import weakref
from collections.abc import Mapping

from shellbox import _wire
from shellbox._go import GoMachine, GoMachineFactory
from shellbox.machine import Backend, UnsupportedMachineSpec

__all__ = [
    "DEFAULT_DISK_MB",
    "DEFAULT_JOB_TTL",
    "DEFAULT_SCHEDULING_TIMEOUT",
    "IrisMachine",
    "IrisMachineFactory",
    "SecretSpec",
    "resolve_secret_spec",
]

DEFAULT_SCHEDULING_TIMEOUT = 600
DEFAULT_JOB_TTL = 6 * 60 * 60
DEFAULT_DISK_MB = 10240

# Where a secret's value comes from: "env:NAME" (a variable of this process), or a tuple of such
# references tried in order.
SecretSpec = str | tuple[str, ...]


def resolve_secret_spec(spec: SecretSpec) -> str:
    """The value of a secret reference; ValueError when none of its references resolves."""
    refs = (spec,) if isinstance(spec, str) else tuple(spec)
    for ref in refs:
        kind, _, name = ref.partition(":")
        if kind != "env" or not name:
            raise ValueError(f"unknown secret reference {ref!r} (expected 'env:NAME')")
        value = os.environ.get(name)
        if value is not None:
            return value
    raise ValueError(f"no value for the secret {spec!r}")


class IrisMachine(GoMachine):
    """One Iris task; closing it terminates its job."""


def _marin_endpoint(cluster: str):
    """marin-iris's endpoint (its SSH tunnel or port-forward) for a cluster shellbox cannot reach
    itself; None without marin-iris, or behind IAP, whose per-call Google tokens shellbox cannot send."""
    try:
        from iris.cli.connect import connect_controller  # type: ignore[import-not-found]
    except ImportError:
        return None
    endpoint = connect_controller(cluster_name=cluster)
    if endpoint.credentials.iap_provider is not None:
        endpoint.close()
        return None
    return endpoint


class IrisMachineFactory(GoMachineFactory):
    """Launches each machine as an Iris job in the SANDBOX container profile (gVisor, CPU-only, no
    cluster credentials) with egress INTERNET for NetworkPolicy.ALLOW and NONE for DENY.

    Exactly one of ``cluster`` and ``controller_url``. ``token`` (default ``$IRIS_TOKEN``, else
    ``$MARIN_CLUSTER_TOKEN`` as marin-iris sends) is sent as a bearer token. ``secret_env`` maps
    variable names to secret references resolved once, here, and set in every job's environment:
    only for trusted graders, never for jobs that run an agent's code. Resources: ``cpus`` (default 1), ``memory_mb`` (default 2048), ``storage_mb`` (default
    ``disk_mb``); GPUs and sources other than RegistryImage are refused. A call the controller sheds
    (RESOURCE_EXHAUSTED) is retried with backoff; when a call fails and the task no longer runs,
    MachineTerminated is raised."""

    backend = Backend.IRIS
    machine_class = IrisMachine

    def __init__(
        self,
        *,
        cluster: str | None = None,
        controller_url: str | None = None,
        scheduling_timeout: float = DEFAULT_SCHEDULING_TIMEOUT,
        job_ttl: float = DEFAULT_JOB_TTL,
        disk_mb: int = DEFAULT_DISK_MB,
        secret_env: Mapping[str, SecretSpec] | None = None,
        token: str | None = None,
        user: str | None = None,
    ):
        if (cluster is None) == (controller_url is None):
            raise ValueError("IrisMachineFactory takes exactly one of cluster and controller_url")
        options = _wire.IrisOptions(
            cluster=cluster or "",
            controller_url=controller_url or "",
            token=token or "",
            user=user or "",
            scheduling_timeout=scheduling_timeout,
            job_ttl=job_ttl,
            disk_mb=disk_mb,
            secret_env={name: resolve_secret_spec(spec) for name, spec in (secret_env or {}).items()},
        )
        try:
            super().__init__(options)
        except UnsupportedMachineSpec as error:
            endpoint = _marin_endpoint(cluster) if error.field == "cluster" and cluster else None
            if endpoint is None:
                raise
            url = endpoint.url if "://" in endpoint.url else "http://" + endpoint.url
            try:
                super().__init__(dataclasses.replace(options, cluster="", controller_url=url))
            except BaseException:
                endpoint.close()
                raise
            # The tunnel lives as long as this factory.
            weakref.finalize(self, endpoint.close)
