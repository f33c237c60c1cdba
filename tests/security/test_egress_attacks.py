"""Hostile guests behind the egress allowlist (local, Docker, gVisor), through the public Python API.

The guest floods the filter with connections that never finish their handshake and with garbage, then checks
that an allowed fetch still works; it does the same again as a program that
ignores the proxy variables (connections the filter intercepts), and tries an unlisted name, an unlisted
address, an unlisted SNI on an allowed name's address and UDP to an arbitrary port; the parent checks that
the machine left nothing on the host: no processes, zombies, mounts or temp dirs (host_state), no containers
(the gVisor network gate included), no network interfaces and no firewall rules, and that every stalled
CONNECT was recorded as refused."""

from __future__ import annotations

import fcntl
import http.server
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import textwrap
import threading
from pathlib import Path

import pytest
from hoststate import temp_entries

ROOT = Path(__file__).resolve().parents[2]
FLOOD = 200


def host_ip() -> str:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("192.0.2.1", 9))  # picks the outgoing interface; sends nothing
        return s.getsockname()[0]


@pytest.fixture(scope="module")
def probe(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("probe") / "probe"
    go = shutil.which("go") or "/usr/local/go/bin/go"
    subprocess.run(
        [go, "build", "-o", str(out), "./lib/egress/egresstest/probe"],
        cwd=ROOT,
        env=dict(os.environ, CGO_ENABLED="0"),
        check=True,
    )
    return out


@pytest.fixture(scope="module")
def server():
    class Hello(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = b"hello"
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    srv = http.server.ThreadingHTTPServer((host_ip(), 0), Hello)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield srv.server_address
    srv.shutdown()


def firewall() -> str:
    """The host's firewall rules, as far as the tools here can list them."""
    out = []
    for argv in (["iptables-save"], ["ip6tables-save"], ["nft", "list", "ruleset"]):
        if shutil.which(argv[0]):
            done = subprocess.run(argv, capture_output=True, text=True)
            # Counters change with traffic, and dockerd rewrites its own chains when another user of it
            # restarts it; every other rule must stay.
            out.append(
                "\n".join(
                    line
                    for line in done.stdout.splitlines()
                    if not line.startswith(("#", ":")) and "DOCKER" not in line and "docker" not in line
                )
            )
    return "\n".join(out)


def locked_by_someone(path: Path) -> bool:
    """Whether a live process holds the flock of a machine directory (gone: nobody's)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return False
    except OSError:
        return True
    finally:
        os.close(fd)


def owned_containers(pid: int) -> list[str]:
    """Containers whose owner label (host/pid/start) names process pid."""
    done = subprocess.run(
        ["docker", "ps", "-a", "--filter", "label=dev.shellbox.owner"]
        + ["--format", '{{.ID}} {{.Label "dev.shellbox.owner"}}'],
        capture_output=True,
        text=True,
        check=True,
    )
    return [line.split()[0] for line in done.stdout.splitlines() if line.split()[1].split("/")[1] == str(pid)]


def our_links() -> list[str]:
    """Host interfaces the filter could have left (its veth end is named filter0 in its own namespace);
    other interfaces come and go with other users of the host's Docker."""
    return sorted(name for name in os.listdir("/sys/class/net") if name.startswith(("filter", "egress")))


SCENARIO = textwrap.dedent(
    """
    import asyncio, json, sys
    from pathlib import Path
    sys.path.insert(0, "tests")
    from shellbox.machine import Command, DockerImage, HostImage, MachineSpec, NetworkPolicy

    backend, ip, port, log, probe, flood = sys.argv[1:7]

    async def main():
        if backend == "local":
            from shellbox.backends.local.machine import LocalMachineFactory
            factory, source = LocalMachineFactory(egress_log=Path(log)), HostImage()
        else:
            from testimages import security_image
            if backend == "docker":
                from shellbox.backends.docker.machine import DockerMachineFactory as F
            else:
                from shellbox.backends.gvisor.machine import GvisorMachineFactory as F
            factory, source = F(egress_log=Path(log)), DockerImage(security_image())
        spec = MachineSpec(source, network=NetworkPolicy.ALLOWLIST, allowed_hosts=("allowed.test",))
        out = {}
        async with await factory.create(spec) as m:
            await m.upload(Path(probe), "/tmp/probe")
            proxy = (await m.run(Command(["sh", "-c", "echo $HTTPS_PROXY"]))).stdout.decode().strip()
            proxy = proxy.removeprefix("http://")
            r = await m.run(Command(["/tmp/probe", "flood", proxy, flood], timeout=300))
            out["flood"] = r.stdout.decode().strip()
            r = await m.run(Command(["/tmp/probe", "fetch", f"http://allowed.test:{port}/"], timeout=120))
            out["after"] = r.stdout.decode().strip()
            # The same, from a program that ignores the proxy variables (the filter intercepts it).
            async def probe_(*args):
                r = await m.run(Command(["/tmp/probe", *args], timeout=300))
                return r.stdout.decode().strip()
            synthetic = (await probe_("resolve", "allowed.test")).removeprefix("addrs [").removesuffix("]")
            out["direct flood"] = await probe_("flood", f"{synthetic}:{port}", flood)
            out["direct after"] = await probe_("direct", f"http://allowed.test:{port}/")
            out["direct unlisted name"] = await probe_("direct", f"http://other.test:{port}/")
            out["direct unlisted address"] = await probe_("tcp", "192.0.2.1:80")
            out["direct unlisted SNI"] = await probe_("tls", f"{synthetic}:{port}", "other.test")
            out["udp"] = await probe_("udp", f"{ip}:9999")
        print(json.dumps(out))

    asyncio.run(main())
    """
)


@pytest.mark.parametrize("backend", ["local", "docker", "gvisor"])
def test_flooded_filter_keeps_working_and_leaves_nothing(backend, probe, server, host_state, tmp_path):
    ip, port = server
    hosts = tmp_path / "hosts"
    hosts.write_text(f"{ip} allowed.test\n")
    log = tmp_path / "decisions.jsonl"
    before_links, before_rules = our_links(), firewall()
    proc = subprocess.Popen(
        [sys.executable, "-c", SCENARIO, backend, ip, str(port), str(log), str(probe), str(FLOOD)],
        cwd=ROOT,
        env=dict(os.environ, SHELLBOX_EGRESS_HOSTS=str(hosts), PYTHONPATH=str(ROOT / "python")),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        stdout, stderr = proc.communicate(timeout=600)
    except subprocess.TimeoutExpired:
        proc.kill()
        stdout, stderr = proc.communicate()
        pytest.fail(f"the child hung\n{stderr[-4000:]}")
    assert proc.returncode == 0, stderr[-4000:]
    out = json.loads(stdout.strip().splitlines()[-1])
    assert out["flood"] == f"held {2 * FLOOD}", out
    assert out["after"] == "status 200 hello", out
    records = [json.loads(line) for line in log.read_text().splitlines()]
    refused = [r for r in records if r["event"] == "decision" and r["verdict"] == "block"]
    stalled = [r for r in refused if r.get("name") == "allowed.test" and "sent nothing" in r["reason"]]
    garbage = [r for r in refused if "not an HTTP proxy request" in r["reason"]]
    assert len(stalled) == FLOOD, f"{len(stalled)} refusals of stalled handshakes recorded, want {FLOOD}"
    assert len(garbage) == FLOOD, f"{len(garbage)} refusals of garbage recorded, want {FLOOD}"
    assert out["direct flood"] == f"held {2 * FLOOD}", out
    assert out["direct after"] == "status 200 hello", out
    for k in ("direct unlisted name", "direct unlisted address", "direct unlisted SNI", "udp"):
        assert out[k].startswith("error"), (k, out)
    intercepted = [r for r in refused if r.get("via") == "intercept"]
    flooded = [r for r in intercepted if r.get("name") == "allowed.test"]
    assert len(flooded) == 2 * FLOOD, f"{len(flooded)} intercepted refusals recorded, want {2 * FLOOD}"
    assert any(r["protocol"] == "tls" and r.get("name") == "other.test" for r in intercepted), intercepted[-5:]
    assert any(r["protocol"] == "tcp" and r.get("address") == "192.0.2.1" for r in intercepted)
    assert any(r["protocol"] == "udp" and r.get("port") == 9999 for r in intercepted)
    assert our_links() == before_links, "the filter's interfaces left on the host"
    assert firewall() == before_rules, "firewall rules changed"
    if backend != "local":
        assert not owned_containers(proc.pid), "the machine's containers (or its network gate) outlived it"
    try:
        host_state.assert_unchanged()
    except AssertionError as error:
        # The temp-dir check comes last. Other users of this host run local machines all the time: a
        # machine directory whose lock a live process holds is theirs (our child has exited, so a
        # directory of its would be unlocked).
        if "temp dirs" not in str(error):
            raise
        left = [d for d in temp_entries() - host_state.temps if not locked_by_someone(Path(tempfile.gettempdir(), d))]
        assert not left, f"temp dirs left behind: {left}"
