"""The real `harbor run` on our fixture tasks over DockerEnvironment: real
dockerd (``.ci/docker.sh`` starts one), real image builds from the tasks'
Dockerfiles (``FROM busybox:1.36``, imported here from the host's static
busybox since no registry is reachable)."""

from __future__ import annotations

import fcntl
import http.client
import io
import json
import os
import socket
import subprocess
import tarfile
import urllib.parse
import uuid
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, run_harbor
from fake_openai import FakeOpenAI, final, last_tool_result, tool_call

DOCKER_SOCKET = "/var/run/docker.sock"
LOCK_PATH = "/tmp/shellbox-docker-tests.lock"
BUSYBOX = "/bin/busybox"
BUSYBOX_IMAGE = "busybox:1.36"
BASH_IMAGE = "shellbox-harbor/bash:1"  # tests/fixtures/docker/bash-session names it
ENVIRONMENT = "shellbox.backends.docker.environment:DockerEnvironment"
LABEL = "dev.shellbox.machine"
SOLVABLE = ["count-errors", "sort-names", "render-config"]
DOCKER_TASKS = ROOT / "tests" / "fixtures" / "docker"


class _UnixConnection(http.client.HTTPConnection):
    def __init__(self, timeout: float = 120):
        super().__init__("localhost", timeout=timeout)

    def connect(self) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(self.timeout)
        self.sock.connect(DOCKER_SOCKET)


def engine(
    method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
) -> tuple[int, bytes]:
    """One Engine API request over the daemon's unix socket."""
    conn = _UnixConnection()
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def rootfs(programs: tuple[str, ...] = ()) -> bytes:
    """A root filesystem tar: the static busybox with a link per applet in
    /bin, root in /etc/passwd and /etc/group, the usual directories, and
    the host's ``programs`` (with the shared libraries ldd names) at their
    own paths."""
    applets = subprocess.run([BUSYBOX, "--list"], capture_output=True, text=True, check=True).stdout.split()
    files: dict[str, str] = {}
    for program in programs:
        files[program] = program
        for line in subprocess.run(["ldd", program], capture_output=True, text=True, check=True).stdout.splitlines():
            path = line.split("=>")[-1].split("(")[0].strip()
            if path.startswith("/"):
                files[path] = os.path.realpath(path)
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.PAX_FORMAT) as tar:
        made: set[str] = set()

        def add(name: str, kind: bytes, mode: int, data: bytes = b"", link: str = "") -> None:
            info = tarfile.TarInfo(name)
            info.type, info.mode, info.mtime, info.linkname = kind, mode, 1700000000, link
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data) if data else None)
            made.add(name)

        def directory(name: str, mode: int = 0o755) -> None:
            parent = os.path.dirname(name)
            if parent and parent not in made:
                directory(parent)
            if name not in made:
                add(name, tarfile.DIRTYPE, mode)

        for name in ("bin", "sbin", "usr/bin", "etc", "var", "proc", "sys", "dev"):
            directory(name)
        directory("root", 0o700)
        directory("tmp", 0o1777)
        add("bin/busybox", tarfile.REGTYPE, 0o755, Path(BUSYBOX).read_bytes())
        for target, source in sorted(files.items()):
            directory(os.path.dirname(target.lstrip("/")))
            add(target.lstrip("/"), tarfile.REGTYPE, 0o755, Path(source).read_bytes())
        for applet in applets:
            if applet != "busybox" and "/" not in applet and f"bin/{applet}" not in made:
                add(f"bin/{applet}", tarfile.SYMTYPE, 0o777, link="busybox")
        passwd = b"root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534::/:/bin/false\n"
        add("etc/passwd", tarfile.REGTYPE, 0o644, passwd)
        add("etc/group", tarfile.REGTYPE, 0o644, b"root:x:0:\nnogroup:x:65534:\n")
    return out.getvalue()


def import_image(reference: str, programs: tuple[str, ...] = ()) -> str:
    """``reference`` in the daemon, imported from rootfs(programs) unless
    it is there already."""
    try:
        status, _ = engine("GET", "/_ping")
    except OSError as error:
        pytest.fail(f"no Docker daemon answers at {DOCKER_SOCKET} ({error}): run .ci/docker.sh", pytrace=False)
    assert status == 200
    status, _ = engine("GET", f"/images/{reference}/json")
    if status == 200:
        return reference
    for program in (BUSYBOX, *programs):
        if not os.path.exists(program):
            pytest.fail(f"{program} is missing (.ci/docker.sh installs busybox-static)", pytrace=False)
    repo, tag = reference.rsplit(":", 1)
    query = urllib.parse.urlencode(
        [
            ("fromSrc", "-"),
            ("repo", repo),
            ("tag", tag),
            ("changes", "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"),
            ("changes", 'CMD ["/bin/sh"]'),
        ]
    )
    status, body = engine("POST", f"/images/create?{query}", rootfs(programs), {"Content-Type": "application/x-tar"})
    assert status == 200 and b'"error"' not in body, body[-2000:]
    status, _ = engine("GET", f"/images/{reference}/json")
    assert status == 200, f"{reference} is not in the daemon after the import"
    return reference


@pytest.fixture(scope="session", autouse=True)
def daemon_lock() -> Any:
    """The shared side of the lock the Go docker tests take
    (tests/docker/dockertest.LockPath): a test that restarts dockerd takes
    it exclusively, so it waits for us and we for it."""
    with open(LOCK_PATH, "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_SH)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@pytest.fixture(scope="session")
def busybox_image() -> str:
    """busybox:1.36 (what the fixture tasks' Dockerfiles start FROM)."""
    return import_image(BUSYBOX_IMAGE)


@pytest.fixture(scope="session")
def bash_image() -> str:
    """busybox plus the host's Bash and script(1): the image of
    tests/fixtures/docker/bash-session."""
    return import_image(BASH_IMAGE, ("/bin/bash", "/usr/bin/script"))


def containers(marker: str | None = None) -> list[dict[str, Any]]:
    """Our backend's containers (running or not), optionally only those
    whose environment holds SHELLBOX_TEST_JOB=marker (other tests may be
    running machines on the same daemon)."""
    filters = urllib.parse.quote(json.dumps({"label": [LABEL]}))
    status, body = engine("GET", f"/containers/json?all=1&filters={filters}")
    assert status == 200, body
    found = json.loads(body)
    if marker is None:
        return found
    ours = []
    for entry in found:
        status, body = engine("GET", f"/containers/{entry['Id']}/json")
        if status == 200 and f"SHELLBOX_TEST_JOB={marker}" in (json.loads(body)["Config"].get("Env") or []):
            ours.append(entry)
    return ours


def docker_environment(marker: str, **kwargs: Any) -> dict[str, Any]:
    return {"import_path": ENVIRONMENT, "env": {"SHELLBOX_TEST_JOB": marker}, "kwargs": kwargs}


def test_oracle_solves_fixture_tasks_on_docker(harbor_ready: Path, busybox_image: str, tmp_path: Path) -> None:
    marker = uuid.uuid4().hex
    job = run_harbor(
        harbor_ready, tmp_path, tasks=SOLVABLE, n_concurrent=2, environment=docker_environment(marker)
    )
    assert set(job.trials) == set(SOLVABLE), job.describe()
    for task in SOLVABLE:
        assert job.trials[task]["exception_info"] is None, job.describe()
        assert job.reward(task) == 1.0, job.describe()
    assert job.result["stats"]["n_errored_trials"] == 0, job.describe()
    # The oracle's output came back from the container.
    assert (Path(job.trials["count-errors"]["_dir"]) / "agent" / "oracle.txt").exists()
    assert containers(marker) == []


def test_failing_oracle_gets_reward_zero_on_docker(harbor_ready: Path, busybox_image: str, tmp_path: Path) -> None:
    marker = uuid.uuid4().hex
    job = run_harbor(harbor_ready, tmp_path, tasks=["oracle-fails"], environment=docker_environment(marker))
    trial = job.trials["oracle-fails"]
    assert trial["exception_info"] is None, job.describe()
    assert job.reward("oracle-fails") == 0.0, job.describe()
    assert (Path(trial["_dir"]) / "verifier" / "reward.txt").read_text().strip() == "0"
    assert containers(marker) == []


def facts(job: Any, task: str) -> dict[str, str]:
    """What the fixture's test.sh recorded about its container."""
    text = (Path(job.trials[task]["_dir"]) / "verifier" / "facts.txt").read_text()
    return dict(line.split("=", 1) for line in text.splitlines())


def test_prebuilt_image_and_dockerfile_tasks(harbor_ready: Path, busybox_image: str, tmp_path: Path) -> None:
    marker = uuid.uuid4().hex
    tasks = [str(DOCKER_TASKS / "prebuilt-online"), str(DOCKER_TASKS / "dockerfile-offline")]
    job = run_harbor(harbor_ready, tmp_path, tasks=tasks, n_concurrent=2, environment=docker_environment(marker))
    for task in ("prebuilt-online", "dockerfile-offline"):
        assert job.trials[task]["exception_info"] is None, job.describe()
        assert job.reward(task) == 1.0, job.describe()
        # The job's env reached the container (so leak counting by marker sees it).
        assert facts(job, task)["marker"] == marker

    # docker_image: the local busybox:1.36, environment/ copied into the
    # task's workdir, the daemon's bridge network.
    online = facts(job, "prebuilt-online")
    assert online["pwd"] == "/workspace"
    assert online["net"].split() == ["eth0", "lo"]
    # Dockerfile: built image, its WORKDIR (the task names none), its COPY
    # lines only (environment/ itself is not copied), no network, the task's
    # cpus and memory as limits (storage_mb is dropped on overlay2).
    offline = facts(job, "dockerfile-offline")
    assert offline["pwd"] == "/srv/app"
    assert offline["net"].split() == ["lo"]
    assert offline["dockerfile"] == ""
    assert offline["memory"].split()[0] == str(256 << 20)
    assert offline["cpu"].split()[0] == "100000", offline  # 1 CPU: quota = period (100 ms)
    assert containers(marker) == []


def recorder(seen: list[dict[str, Any]]) -> Any:
    def after(answer: dict[str, Any]) -> Any:
        def step(request: dict[str, Any]) -> dict[str, Any]:
            seen.append(last_tool_result(request))
            return answer

        return step

    return after


def run_bash_agent(venv: Path, tmp_path: Path, task: str, marker: str, script: list[Any], **kwargs: Any) -> Any:
    with FakeOpenAI(script) as server:
        job = run_harbor(
            venv,
            tmp_path,
            tasks=[task],
            environment=docker_environment(marker, **kwargs),
            agent={
                "import_path": "shellbox.agent:BashAgent",
                "model_name": "openai/fake-model",
                "kwargs": {"base_url": server.base_url, "max_turns": 20},
            },
        )
    assert not server.errors, server.errors
    return job


def test_bash_agent_drives_an_interactive_shell_on_docker(
    harbor_ready: Path, bash_image: str, tmp_path: Path
) -> None:
    marker = uuid.uuid4().hex
    seen: list[dict[str, Any]] = []
    after = recorder(seen)
    script = [
        tool_call({"command": "export GREETING=hello"}),
        after(tool_call({"command": "mkdir -p /workspace/out && cd /workspace/out"})),
        after(tool_call({"command": 'echo begin; sleep 1; echo "$GREETING" > result.txt; echo wrote', "wait_ms": 100})),
        after(tool_call({"wait_ms": 10000})),
        after(tool_call({"command": "sleep 30", "wait_ms": 200})),
        after(tool_call({"signal": "interrupt", "wait_ms": 10000})),
        after(tool_call({"command": 'pwd; echo "$GREETING"; echo "$BASH_VERSION" | cut -c1'})),
        after(final("Done.")),
    ]
    job = run_bash_agent(harbor_ready, tmp_path, str(DOCKER_TASKS / "bash-session"), marker, script)
    trial = job.trials["bash-session"]
    assert trial["exception_info"] is None, job.describe()
    assert job.reward("bash-session") == 1.0, job.describe()
    # One Bash kept its variables and directory across actions, ran a
    # command in the background of the conversation and took a Ctrl-C.
    assert [r.get("status") for r in seen[:2]] == ["completed", "completed"], seen
    assert seen[2]["status"] == "running" and seen[2]["output"] == "begin\n", seen[2]
    assert seen[3] == {"output": "wrote\n", "status": "completed", "exit_code": 0, "truncated": False}
    assert seen[4]["status"] == "running"
    assert seen[5]["status"] == "completed" and seen[5]["exit_code"] == 130, seen[5]
    assert seen[6]["output"] == "/workspace/out\nhello\n5\n", seen[6]
    # On a terminal that script(1) made inside the container.
    assert trial["agent_result"]["metadata"]["shell_mode"] == "script"
    assert containers(marker) == []


def test_bash_agent_on_an_image_without_bash_gets_one_shot_commands(
    harbor_ready: Path, busybox_image: str, tmp_path: Path
) -> None:
    marker = uuid.uuid4().hex
    seen: list[dict[str, Any]] = []
    after = recorder(seen)
    script = [
        tool_call({"command": "export GREETING=hello; mkdir -p /workspace/out && cd /workspace/out && pwd"}),
        after(tool_call({"command": 'echo "[$GREETING]"; pwd'})),
        after(tool_call({"command": "echo hello > /workspace/out/result.txt"})),
        after(final("Done.")),
    ]
    job = run_bash_agent(harbor_ready, tmp_path, "bash-session", marker, script)
    trial = job.trials["bash-session"]
    assert trial["exception_info"] is None, job.describe()
    assert job.reward("bash-session") == 1.0, job.describe()
    assert seen[0] == {"output": "/workspace/out\n", "status": "completed", "exit_code": 0, "truncated": False}
    # Each command is a fresh sh -c in the workdir.
    assert seen[1]["output"] == "[]\n/workspace\n", seen[1]
    assert trial["agent_result"]["metadata"]["shell_mode"] == "oneshot"
    assert containers(marker) == []


def test_oracle_on_gvisor_through_the_runtime_kwarg(harbor_ready: Path, busybox_image: str, tmp_path: Path) -> None:
    status, body = engine("GET", "/info")
    assert status == 200
    if "runsc" not in json.loads(body).get("Runtimes", {}):
        pytest.fail("the Docker daemon has no runsc runtime: run .ci/docker.sh", pytrace=False)
    marker = uuid.uuid4().hex
    job = run_harbor(
        harbor_ready,
        tmp_path,
        tasks=["count-errors", str(DOCKER_TASKS / "dockerfile-offline")],
        environment=docker_environment(marker, runtime="runsc"),
    )
    for task in ("count-errors", "dockerfile-offline"):
        assert job.trials[task]["exception_info"] is None, job.describe()
        assert job.reward(task) == 1.0, job.describe()
    assert facts(job, "dockerfile-offline")["net"].split() == ["lo"]
    assert containers(marker) == []
