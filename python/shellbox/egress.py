"""Egress allowlists: what an ALLOWLIST machine may reach, and the records of
what it tried.

A machine created with ``MachineSpec(network=NetworkPolicy.ALLOWLIST,
allowed_hosts=(...))`` reaches the network only through shellbox's filter
(Go, ``lib/egress``): its DNS answers allowed names (with the host's
resolver, so ``/etc/hosts`` works) and NXDOMAIN for the rest, and its HTTP
proxy (``HTTP_PROXY``/``HTTPS_PROXY`` in every command's environment) admits
a connection only when the CONNECT or URL host is allowed and the TLS SNI or
HTTP Host names it. Programs that ignore the proxy reach allowed names too,
on every backend: the default route leads to a device the filter serves,
allowed names resolve to synthetic addresses (198.18.0.0/15) that lead to
their host with the same SNI/Host checks, and every other address, UDP (but
DNS, which the filter answers) and ICMP is refused. IPv6 has no route.

Entries follow Harbor's ``allowed_hosts``: ``example.com`` admits that name
alone (not ``www.example.com``); ``*.example.com`` admits every name below
``example.com``, at any depth, but not ``example.com`` itself; IPv4/IPv6
literals and CIDR ranges admit those addresses (an allowed name's address by
its literal is refused unless listed). Bare top-level names, wildcards over a
public suffix (``*.com``, ``*.github.io``) and malformed entries raise
ValueError at MachineSpec construction. An ALLOWLIST spec without hosts
behaves as DENY.

Each decision is one JSON line in the factory's ``egress_log`` file: time,
machine, phase, event ("decision", or "close" with bytes_up/bytes_down),
protocol (dns, tls, http, tcp, udp, icmp), name, address, port, via (proxy,
or intercept for a connection that ignored the proxy), verdict (allow/block)
and reason. ``SHELLBOX_EGRESS_HOSTS`` may name a hosts(5) file the filter
reads before the host's resolver.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from shellbox.machine import NetworkPolicy

__all__ = ["read_decisions", "summarize", "validate_allowed_hosts"]


def validate_allowed_hosts(network: NetworkPolicy | str, allowed_hosts: Iterable[str]) -> None:
    """Raise ValueError (``field == "allowed_hosts"``) unless Go's filter accepts the entries."""
    from shellbox import _go, _wire

    hosts = tuple(allowed_hosts)
    for host in hosts:
        if not isinstance(host, str):
            raise TypeError(f"allowed_hosts entries are strings, got {type(host).__name__}")
    request = _wire.ValidateAllowedHostsRequest(NetworkPolicy(network), hosts)
    _go.call_sync(0, _wire.ROOT_VALIDATE_ALLOWED_HOSTS, request)


def read_decisions(path: Path) -> list[dict[str, Any]]:
    """The records of a decision log, in order."""
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def summarize(records: Iterable[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Allowed and blocked hosts with their counts of decisions, most frequent first."""
    allowed: Counter[str] = Counter()
    blocked: Counter[str] = Counter()
    for r in records:
        if r.get("event") != "decision":
            continue
        host = r.get("name") or r.get("address") or ""
        (allowed if r.get("verdict") == "allow" else blocked)[host] += 1

    def rows(c: Counter[str]) -> list[dict[str, Any]]:
        return [{"host": h, "count": n} for h, n in sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))]

    return {"allowed": rows(allowed), "blocked": rows(blocked)}
