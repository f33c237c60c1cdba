"""Harbor's network policies (``network_mode`` = public, no-network or allowlist) on shellbox machines.

A trial whose policies are all public gets the host's network as before. Any other trial gets a machine
behind shellbox's egress filter (``NetworkPolicy.ALLOWLIST``; see shellbox.egress), created with the
baseline policy's hosts (none for no-network); Harbor's ``set_network_policy`` then switches the live
filter between the agent and verifier phases (a public phase admits every host, through the filter). The
filter's decisions go to ``<trial dir>/egress/decisions.jsonl`` and, when the machine stops, a summary of
allowed and blocked hosts to ``<trial dir>/egress/summary.json``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from harbor.environments.capabilities import EnvironmentCapabilities

from shellbox.egress import read_decisions, summarize
from shellbox.machine import NetworkPolicy

__all__ = ["allowlist_capabilities", "egress_dir", "machine_network", "network_for", "write_summary"]


def allowlist_capabilities(**extra: Any) -> EnvironmentCapabilities:
    """Everything Harbor's allowlists can hold, switchable on a live machine."""
    return EnvironmentCapabilities(
        disable_internet=True,
        network_allowlist=True,
        network_allowlist_hostnames=True,
        network_allowlist_wildcard_hostnames=True,
        network_allowlist_ipv4_addresses=True,
        network_allowlist_ipv6_addresses=True,
        network_allowlist_ipv4_cidrs=True,
        network_allowlist_ipv6_cidrs=True,
        dynamic_network_policy=True,
        **extra,
    )


def network_for(policy: Any) -> tuple[NetworkPolicy, tuple[str, ...]]:
    """A Harbor NetworkPolicy as shellbox's policy and hosts."""
    mode = getattr(policy.network_mode, "value", policy.network_mode)
    if mode == "public":
        return NetworkPolicy.ALLOW, ()
    if mode == "no-network":
        return NetworkPolicy.DENY, ()
    return NetworkPolicy.ALLOWLIST, tuple(policy.allowed_hosts)


def machine_network(env: Any) -> tuple[NetworkPolicy, tuple[str, ...], bool] | None:
    """How to create the machine of a Harbor environment that declares allowlists: the policy, its
    hosts, and whether the baseline is public (to switch to after start); None when every policy is
    public (the host's network) or every one is no-network (none at all), as without allowlists."""
    policies = {network_for(p)[0] for p in [env.network_policy, *getattr(env, "_phase_network_policies", [])]}
    if policies == {NetworkPolicy.ALLOW} or policies == {NetworkPolicy.DENY}:
        return None  # one policy for the whole trial, and not an allowlist: no filter needed
    policy, hosts = network_for(env.network_policy)
    return NetworkPolicy.ALLOWLIST, hosts if policy == NetworkPolicy.ALLOWLIST else (), policy == NetworkPolicy.ALLOW


def egress_dir(env: Any) -> Path:
    return Path(env.trial_paths.trial_dir) / "egress"


def write_summary(env: Any) -> None:
    """<trial dir>/egress/summary.json from the decisions, when there are any."""
    log = egress_dir(env) / "decisions.jsonl"
    if log.exists():
        (egress_dir(env) / "summary.json").write_text(json.dumps(summarize(read_decisions(log)), indent=1) + "\n")
