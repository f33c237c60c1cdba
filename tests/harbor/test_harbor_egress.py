"""The real `harbor run` of a task with ``network_mode = "allowlist"`` on LocalEnvironment,
DockerEnvironment (runc and gVisor) and QemuEnvironment: Harbor's oracle fetches from the allowed
host (a real HTTP server on the host, named in the filter's hosts file) and is refused an unlisted
one; the verifier phase is ``no-network``, so Harbor switches the live machine's policy and the test
sees the allowed host gone. Reward 1.0 only if all of that held; the trial directory keeps the
filter's decisions and their summary."""

from __future__ import annotations

import http.server
import json
import os
import shutil
import socket
import subprocess
import threading
import uuid
from pathlib import Path

import pytest
from conftest import ROOT, run_harbor
from test_harbor_docker import BUSYBOX_IMAGE, containers, docker_environment, import_image
from test_harbor_qemu import qemu_environment

PAYLOAD = "egress-payload-" + uuid.uuid4().hex[:8]


def host_ip() -> str:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("192.0.2.1", 9))  # picks the outgoing interface; sends nothing
        return s.getsockname()[0]


@pytest.fixture(scope="module")
def mirror():
    """A real HTTP server on the host's address, counting requests by Host."""
    seen: dict[str, int] = {}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            host = (self.headers.get("Host") or "").split(":")[0]
            seen[host] = seen.get(host, 0) + 1
            body = PAYLOAD.encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer((host_ip(), 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address, seen
    server.shutdown()


@pytest.fixture(scope="module")
def probe(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("probe") / "probe"
    go = shutil.which("go") or "/usr/local/go/bin/go"
    env = dict(os.environ, CGO_ENABLED="0")
    subprocess.run([go, "build", "-o", str(out), "./lib/egress/egresstest/probe"], cwd=ROOT, env=env, check=True)
    return out


def make_task(root: Path, probe: Path, port: int, dockerfile: bool, intercepts: bool = False) -> Path:
    """The task; with `intercepts`, its solution also fetches ignoring the proxy variables (the filter
    intercepts such connections)."""
    direct_fetch = f"./probe direct http://mirror.test:{port}/data.txt > direct.txt\n" if intercepts else ""
    direct_check = f"grep -q '^status 200 {PAYLOAD}$' direct.txt || ok=0\n" if intercepts else ""
    task = root / "egress-allowlist"
    (task / "environment").mkdir(parents=True)
    (task / "solution").mkdir()
    (task / "tests").mkdir()
    shutil.copy(probe, task / "environment" / "probe")
    if dockerfile:
        (task / "environment" / "Dockerfile").write_text(
            f"FROM {BUSYBOX_IMAGE}\nCOPY probe /workspace/probe\nWORKDIR /workspace\n"
        )
    (task / "instruction.md").write_text("Fetch data.txt from the mirror.\n")
    (task / "task.toml").write_text(
        """schema_version = "1.4"

[verifier]
timeout_sec = 120.0
network_mode = "no-network"

[agent]
timeout_sec = 120.0

[environment]
build_timeout_sec = 600.0
workdir = "/workspace"
network_mode = "allowlist"
allowed_hosts = ["mirror.test"]
"""
    )
    (task / "solution" / "solve.sh").write_text(
        f"""#!/bin/sh
cd /workspace
./probe fetch http://mirror.test:{port}/data.txt > fetched.txt
./probe fetch http://blocked.test:{port}/data.txt > blocked.txt
./probe resolve blocked.test > blocked-dns.txt
{direct_fetch}"""
    )
    (task / "tests" / "test.sh").write_text(
        f"""#!/bin/sh
cd /workspace
mkdir -p /logs/verifier
ok=1
grep -q '^status 200 {PAYLOAD}$' fetched.txt || ok=0
grep -q '^status 403' blocked.txt || ok=0
grep -q 'no such host' blocked-dns.txt || ok=0
{direct_check}# The verifier phase has no network: the allowed host is gone too.
./probe fetch http://mirror.test:{port}/data.txt > verifier.txt
grep -q '^status 403' verifier.txt || ok=0
cp fetched.txt blocked.txt blocked-dns.txt verifier.txt /logs/verifier/ 2>/dev/null
echo $ok > /logs/verifier/reward.txt
"""
    )
    for script in (task / "solution" / "solve.sh", task / "tests" / "test.sh"):
        script.chmod(0o755)
    return task


def check_records(trial_dir: Path) -> None:
    records = [json.loads(line) for line in (trial_dir / "egress" / "decisions.jsonl").read_text().splitlines()]
    decisions = {
        (r["protocol"], r.get("name"), r["verdict"], r.get("phase", "")) for r in records if r["event"] == "decision"
    }
    assert ("http", "mirror.test", "allow", "") in decisions, records
    assert ("http", "blocked.test", "block", "") in decisions, records
    assert ("dns", "blocked.test", "block", "") in decisions, records
    assert ("http", "mirror.test", "block", "switch-1") in decisions, records  # the verifier phase
    summary = json.loads((trial_dir / "egress" / "summary.json").read_text())
    assert any(row["host"] == "mirror.test" for row in summary["allowed"]), summary
    assert any(row["host"] == "blocked.test" for row in summary["blocked"]), summary


@pytest.mark.parametrize("backend", ["local", "docker", "gvisor", "qemu"])
def test_allowlist_task_gets_reward_one(backend, harbor_ready: Path, mirror, probe: Path, tmp_path: Path) -> None:
    (ip, port), seen = mirror
    hosts = tmp_path / "hosts"
    hosts.write_text(f"{ip} mirror.test blocked.test\n")
    intercepts = True  # every backend intercepts programs that ignore the proxy
    task = make_task(tmp_path / "tasks", probe, port, dockerfile=backend != "local", intercepts=intercepts)
    marker = uuid.uuid4().hex
    if backend in ("docker", "gvisor"):
        import_image(BUSYBOX_IMAGE)
        environment = docker_environment(marker, **({"runtime": "runsc"} if backend == "gvisor" else {}))
    elif backend == "qemu":
        import_image(BUSYBOX_IMAGE)
        environment = qemu_environment(tmp_path / "qemu-cache")
    else:
        environment = {"import_path": "shellbox.backends.local.environment:LocalEnvironment"}
    before = seen.get("blocked.test", 0)
    job = run_harbor(
        harbor_ready,
        tmp_path,
        tasks=[str(task)],
        environment=environment,
        extra_env={"SHELLBOX_EGRESS_HOSTS": str(hosts)},
        timeout=1200,
    )
    trial = job.trials["egress-allowlist"]
    assert trial["exception_info"] is None, job.describe()
    assert job.reward("egress-allowlist") == 1.0, job.describe()
    assert seen.get("blocked.test", 0) == before  # the unlisted host never saw a request
    check_records(Path(trial["_dir"]))
    if intercepts:
        log = Path(trial["_dir"]) / "egress" / "decisions.jsonl"
        records = [json.loads(line) for line in log.read_text().splitlines()]
        assert any(
            (r["protocol"], r.get("name"), r["verdict"], r.get("via")) == ("http", "mirror.test", "allow", "intercept")
            for r in records
        ), records
    if backend in ("docker", "gvisor"):
        assert containers(marker) == []


def test_allowlist_task_on_shellsim_keeps_only_allowed_routes(harbor_ready: Path, tmp_path: Path) -> None:
    """ShellSim has virtual routes, not a network: an allowlist keeps the routes of its hosts, requests to
    any other host are unreachable, and each request is a decision record."""
    task = tmp_path / "tasks" / "egress-shellsim"
    for d in ("environment", "solution", "tests"):
        (task / d).mkdir(parents=True)
    (task / "instruction.md").write_text("Fetch the index.\n")
    (task / "task.toml").write_text(
        """schema_version = "1.4"

[verifier]
timeout_sec = 60.0

[agent]
timeout_sec = 60.0

[environment]
workdir = "/workspace"
network_mode = "allowlist"
allowed_hosts = ["pkg.example.test"]
"""
    )
    (task / "solution" / "solve.sh").write_text(
        """#!/bin/sh
cd /workspace
curl -s http://pkg.example.test/simple > index.txt
curl -s http://evil.example.net/x > evil.txt; echo $? > evil.rc
"""
    )
    (task / "tests" / "test.sh").write_text(
        """#!/bin/sh
cd /workspace
mkdir -p /logs/verifier
ok=1
[ "$(cat index.txt)" = "the index" ] || ok=0
[ "$(cat evil.rc)" != 0 ] || ok=0
[ ! -s evil.txt ] || ok=0
echo $ok > /logs/verifier/reward.txt
"""
    )
    routes = [
        {"pattern": "http://pkg.example.test/simple", "body": "the index"},
        {"pattern": "http://evil.example.net/x", "body": "a secret"},
    ]
    job = run_harbor(
        harbor_ready,
        tmp_path,
        tasks=[str(task)],
        environment={
            "import_path": "shellbox.backends.shellsim.environment:ShellSimEnvironment",
            "kwargs": {"routes": routes},
        },
    )
    trial = job.trials["egress-shellsim"]
    assert trial["exception_info"] is None, job.describe()
    assert job.reward("egress-shellsim") == 1.0, job.describe()
    egress = Path(trial["_dir"]) / "egress"
    records = [json.loads(line) for line in (egress / "decisions.jsonl").read_text().splitlines()]
    verdicts = {(r["name"], r["verdict"]) for r in records}
    assert ("pkg.example.test", "allow") in verdicts, records
    assert ("evil.example.net", "block") in verdicts, records
    summary = json.loads((egress / "summary.json").read_text())
    assert [row["host"] for row in summary["blocked"]] == ["evil.example.net"], summary
