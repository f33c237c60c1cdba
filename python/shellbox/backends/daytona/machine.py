"""Daytona machines: one sandbox each, created from a snapshot named after the image and resources.

Credentials come from the arguments or, as the official SDK reads them, from ``DAYTONA_API_KEY``,
``DAYTONA_API_URL`` and ``DAYTONA_TARGET``. ``shellbox-daytona-server`` serves the same API on a host
of your own (its sandboxes are Docker or local machines)."""

from __future__ import annotations

import os
from dataclasses import dataclass

from shellbox import _wire
from shellbox._go import GoMachine, GoMachineFactory
from shellbox._wire import DaytonaNetworkMode
from shellbox.machine import Backend

__all__ = [
    "DEFAULT_SANDBOX_TTL_MINUTES",
    "DaytonaMachine",
    "DaytonaMachineFactory",
    "DaytonaNetworkMode",
    "DaytonaNetworkPolicy",
]

DEFAULT_SANDBOX_TTL_MINUTES = 360


_ALLOW_LISTS = (DaytonaNetworkMode.NETWORK_ALLOW_LIST, DaytonaNetworkMode.DOMAIN_ALLOW_LIST)


@dataclass(frozen=True)
class DaytonaNetworkPolicy:
    """A sandbox's egress as Daytona offers it; replaces MachineSpec.network when given. The
    allow-list modes take a comma-separated value (IPv4 CIDRs, or domains with an optional
    leading ``*.``); the other modes take none."""

    mode: DaytonaNetworkMode
    value: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "mode", DaytonaNetworkMode(self.mode))
        if self.mode in _ALLOW_LISTS and not (self.value and self.value.strip()):
            raise ValueError(f"network policy {self.mode.value} needs a value")
        if self.mode not in _ALLOW_LISTS and self.value is not None:
            raise ValueError(f"network policy {self.mode.value} takes no value")

    def parameters(self) -> dict[str, object]:
        """The SDK's create parameters for this policy."""
        if self.mode in _ALLOW_LISTS:
            return {self.mode.value: self.value}
        return {"network_block_all": self.mode is DaytonaNetworkMode.BLOCK_ALL}


class DaytonaMachine(GoMachine):
    """One Daytona sandbox; closing it deletes the sandbox and keeps its snapshot."""


class DaytonaMachineFactory(GoMachineFactory):
    """Creates Daytona sandboxes from RegistryImage or DockerfileSource sources (a Dockerfile in the
    root of its context, reading nothing from it: Daytona builds without the context).

    Resources round up to whole GiB; ``startup_timeout`` (else ``create_timeout``, seconds) bounds
    snapshot preparation and sandbox creation; ``ttl_minutes`` deletes a sandbox that long after
    creation even if this process dies (0: never). A command past its timeout has its process group
    stopped and the sandbox kept; a non-root ``Command.user`` runs through ``su``."""

    backend = Backend.DAYTONA
    machine_class = DaytonaMachine

    def __init__(
        self,
        *,
        api_key: str | None = None,
        api_url: str | None = None,
        target: str | None = None,
        ttl_minutes: int = DEFAULT_SANDBOX_TTL_MINUTES,
        create_timeout: float = 600,
        network_policy: DaytonaNetworkPolicy | None = None,
    ):
        if network_policy is not None and not isinstance(network_policy, DaytonaNetworkPolicy):
            raise TypeError(f"network_policy must be a DaytonaNetworkPolicy, got {type(network_policy).__name__}")
        # Read here, as the SDK reads them when constructed: the Go runtime keeps the
        # environment it started with.
        api_key = api_key or os.environ.get("DAYTONA_API_KEY")
        api_url = api_url or os.environ.get("DAYTONA_API_URL") or os.environ.get("DAYTONA_SERVER_URL")
        target = target or os.environ.get("DAYTONA_TARGET")
        policy = None
        if network_policy is not None:
            policy = _wire.DaytonaNetworkPolicyOptions(network_policy.mode, network_policy.value)
        super().__init__(
            _wire.DaytonaOptions(
                api_key=api_key or "",
                api_url=api_url or "",
                target=target or "",
                ttl_minutes=ttl_minutes,
                create_timeout=create_timeout,
                network_policy=policy,
            )
        )
