"""Egress allowlists through the Python surface: MachineSpec's checks, and real local and Docker machines
whose guest reaches an allowed HTTP server on the host, fails on everything else, loses the network on a
live policy switch, and leaves a decision record of each attempt."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from shellbox.egress import summarize
from shellbox.machine import HostImage, MachineSpec, NetworkPolicy

REPO = Path(__file__).resolve().parent.parent


def test_spec_accepts_harbor_entries():
    spec = MachineSpec(
        HostImage(),
        network=NetworkPolicy.ALLOWLIST,
        allowed_hosts=["pypi.org", "*.pythonhosted.org", "192.0.2.7", "2001:db8::/32", "10.0.0.0/8"],
    )
    assert spec.allowed_hosts == ("pypi.org", "*.pythonhosted.org", "192.0.2.7", "2001:db8::/32", "10.0.0.0/8")
    # No hosts: the allowlist admits nothing (as DENY does).
    assert MachineSpec(HostImage(), network=NetworkPolicy.ALLOWLIST).allowed_hosts == ()


@pytest.mark.parametrize(
    "entry, words",
    [
        ("*.com", "public suffix"),
        ("*.github.io", "public suffix"),
        ("*.co.uk", "public suffix"),
        ("com", "bare top-level"),
        ("https://pypi.org", "no URLs"),
        ("pypi.org:443", "no URLs"),
        ("foo*.example.com", "leading"),
        ("10.0.0.1/8", "host bits"),
        ("", "empty"),
    ],
)
def test_spec_refuses_bad_entries(entry, words):
    with pytest.raises(ValueError, match=words) as info:
        MachineSpec(HostImage(), network=NetworkPolicy.ALLOWLIST, allowed_hosts=(entry,))
    assert info.value.field == "allowed_hosts"


def test_spec_refuses_hosts_without_the_allowlist():
    for policy in (NetworkPolicy.DENY, NetworkPolicy.ALLOW):
        with pytest.raises(ValueError, match="only meaningful") as info:
            MachineSpec(HostImage(), network=policy, allowed_hosts=("pypi.org",))
        assert info.value.field == "allowed_hosts"
    with pytest.raises(ValueError, match="not one string"):
        MachineSpec(HostImage(), network=NetworkPolicy.ALLOWLIST, allowed_hosts="pypi.org")


def host_ip() -> str:
    """A non-loopback address of the host: a machine's loopback is its own."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("192.0.2.1", 9))  # no packet is sent; this picks the outgoing interface's address
        return s.getsockname()[0]


# The scenario runs in a fresh interpreter: the Go library reads SHELLBOX_EGRESS_HOSTS (names for the test
# servers) from the environment it starts with.
SCENARIO = textwrap.dedent(
    """
    import asyncio, http.server, json, sys, threading
    from pathlib import Path
    sys.path.insert(0, "tests")
    from shellbox.egress import read_decisions
    from shellbox.machine import Command, DockerImage, HostImage, MachineSpec, NetworkPolicy

    backend, ip, log, probe = sys.argv[1], sys.argv[2], Path(sys.argv[3]), Path(sys.argv[4])

    class Hello(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = f"hello from {self.headers['Host']}".encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        def log_message(self, *a):
            pass

    server = http.server.ThreadingHTTPServer((ip, 0), Hello)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]

    async def main():
        if backend == "local":
            from shellbox.backends.local.machine import LocalMachineFactory
            factory, source = LocalMachineFactory(egress_log=log), HostImage()
        else:
            from testimages import security_image
            from shellbox.backends.docker.machine import DockerMachineFactory
            factory, source = DockerMachineFactory(egress_log=log), DockerImage(security_image())
        spec = MachineSpec(source, network=NetworkPolicy.ALLOWLIST, allowed_hosts=("allowed.test",))
        out = {}
        async with await factory.create(spec) as m:
            await m.upload(probe, "/tmp/probe")
            async def run(*args):
                r = await m.run(Command(["/tmp/probe", *args], timeout=60))
                return r.stdout.decode().strip()
            async def fetch(url):
                return await run("fetch", url)
            out["allowed"] = await fetch(f"http://allowed.test:{port}/")
            out["unlisted"] = await fetch(f"http://other.test:{port}/")
            out["literal"] = await fetch(f"http://{ip}:{port}/")
            out["direct"] = await run("tcp", f"{ip}:{port}")
            out["resolve other.test"] = await run("resolve", "other.test")
            out["resolve allowed.test"] = await run("resolve", "allowed.test")
            # Programs that ignore the proxy variables: the filter intercepts them.
            synthetic = out["resolve allowed.test"].removeprefix("addrs [").removesuffix("]")
            out["no proxy"] = await run("direct", f"http://allowed.test:{port}/")
            out["no proxy, unlisted name"] = await run("direct", f"http://other.test:{port}/")
            out["no proxy, unlisted address"] = await run("tcp", "192.0.2.1:80")
            out["no proxy, unlisted SNI"] = await run("tls", f"{synthetic}:{port}", "other.test")
            out["udp"] = await run("udp", f"{ip}:9999")
            if backend == "local":  # the host's Python; the Docker image has none
                code = (
                    "import http.client, sys; "
                    "c = http.client.HTTPConnection('allowed.test', int(sys.argv[1]), timeout=30); "
                    "c.request('GET', '/'); r = c.getresponse(); print(r.status, r.read().decode())"
                )
                r = await m.run(Command(["python3", "-c", code, str(port)], timeout=60))
                out["http.client"] = (r.stdout + r.stderr).decode().strip()
            await m.set_network_policy(NetworkPolicy.DENY, phase="verifier")
            out["after_deny"] = await fetch(f"http://allowed.test:{port}/")
            await m.set_network_policy(NetworkPolicy.ALLOWLIST, ("other.test",), phase="verifier")
            out["after_switch"] = await fetch(f"http://other.test:{port}/")
            try:
                await m.set_network_policy(NetworkPolicy.ALLOWLIST, ("*.com",))
                out["bad_switch"] = "accepted"
            except ValueError as e:
                out["bad_switch"] = getattr(e, "field", None)
        out["records"] = read_decisions(log)
        print(json.dumps(out))

    asyncio.run(main())
    """
)


@pytest.fixture(scope="module")
def probe(tmp_path_factory) -> Path:
    """The guest side: a static Go program that tries one way out per call (lib/egress/egresstest/probe)."""
    out = tmp_path_factory.mktemp("probe") / "probe"
    env = dict(os.environ, CGO_ENABLED="0")
    go = shutil.which("go") or "/usr/local/go/bin/go"
    subprocess.run([go, "build", "-o", str(out), "./lib/egress/egresstest/probe"], cwd=REPO, env=env, check=True)
    return out


@pytest.mark.parametrize("backend", ["local", "docker"])
def test_allowlisted_machine(backend, tmp_path, probe):
    ip = host_ip()
    hosts = tmp_path / "hosts"
    hosts.write_text(f"{ip} allowed.test other.test\n")
    log = tmp_path / "egress" / "decisions.jsonl"
    log.parent.mkdir()
    env = dict(os.environ, SHELLBOX_EGRESS_HOSTS=str(hosts), PYTHONPATH=str(REPO / "python"))
    done = subprocess.run(
        [sys.executable, "-c", SCENARIO, backend, ip, str(log), str(probe)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["allowed"].startswith("status 200 hello from allowed.test"), out
    assert out["unlisted"].startswith("status 403"), out
    assert out["literal"].startswith("status 403"), out
    assert out["direct"].startswith("error"), out  # the host's real address was never handed out
    assert out["resolve other.test"].startswith("error") and "no such host" in out["resolve other.test"], out
    # Allowed names resolve to synthetic addresses (198.18.0.0/15) that lead to the filter.
    assert out["resolve allowed.test"].startswith("addrs [198.18."), out
    assert out["no proxy"].startswith("status 200 hello from allowed.test"), out
    assert out["no proxy, unlisted name"].startswith("error"), out
    assert out["no proxy, unlisted address"].startswith("error"), out
    assert out["no proxy, unlisted SNI"].startswith("error"), out
    assert out["udp"].startswith("error"), out
    if backend == "local":
        assert out["http.client"].startswith("200 hello from allowed.test"), out
    assert out["after_deny"].startswith("status 403"), out
    assert out["after_switch"].startswith("status 200 hello from other.test"), out
    assert out["bad_switch"] == "allowed_hosts"

    records = out["records"]
    decisions = [
        (r["protocol"], r.get("name"), r["verdict"], r.get("phase", "")) for r in records if r["event"] == "decision"
    ]
    assert ("http", "allowed.test", "allow", "") in decisions
    assert ("http", "other.test", "block", "") in decisions
    assert ("dns", "other.test", "block", "") in decisions
    assert ("http", "allowed.test", "block", "verifier") in decisions
    assert ("http", "other.test", "allow", "verifier") in decisions
    assert any(r["protocol"] == "http" and r.get("address") == ip and r["verdict"] == "block" for r in records)
    intercepted = {
        (r["protocol"], r.get("name") or r.get("address"), r["verdict"])
        for r in records
        if r["event"] == "decision" and r.get("via") == "intercept"
    }
    assert ("http", "allowed.test", "allow") in intercepted, intercepted
    assert ("tls", "other.test", "block") in intercepted, intercepted
    assert ("tcp", "192.0.2.1", "block") in intercepted, intercepted
    assert ("udp", ip, "block") in intercepted, intercepted
    assert ("http", "allowed.test", "allow") in {
        (r["protocol"], r.get("name"), r["verdict"]) for r in records if r.get("via") == "proxy"
    }
    closes = [r for r in records if r["event"] == "close"]
    assert closes and all(r["bytes_down"] > 0 for r in closes)
    assert all(r["machine"] and r["time"] and r["reason"] for r in records)
    summary = summarize(records)
    assert any(row["host"] == "allowed.test" and row["count"] >= 2 for row in summary["allowed"])
    assert any(row["host"] == "other.test" for row in summary["blocked"])
