"""The real `harbor run` on our fixture tasks over DockerEnvironment: real
dockerd (``.ci/docker.sh`` starts one), real image builds from the tasks'
Dockerfiles (``FROM busybox:1.36``, imported here from the host's static
busybox since no registry is reachable)."""

from __future__ import annotations

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
from conftest import run_harbor

DOCKER_SOCKET = "/var/run/docker.sock"
BUSYBOX = "/bin/busybox"
IMAGE_REPO, IMAGE_TAG = "busybox", "1.36"
ENVIRONMENT = "shellbox.backends.docker.environment:DockerEnvironment"
LABEL = "dev.shellbox.machine"
SOLVABLE = ["count-errors", "sort-names", "render-config"]


class _UnixConnection(http.client.HTTPConnection):
    def __init__(self, timeout: float = 120):
        super().__init__("localhost", timeout=timeout)

    def connect(self) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(self.timeout)
        self.sock.connect(DOCKER_SOCKET)


def engine(method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    """One Engine API request over the daemon's unix socket."""
    conn = _UnixConnection()
    try:
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def busybox_rootfs() -> bytes:
    """A root filesystem tar: the static busybox, a link per applet in
    /bin, root in /etc/passwd and /etc/group, the usual directories."""
    applets = subprocess.run([BUSYBOX, "--list"], capture_output=True, text=True, check=True).stdout.split()
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.PAX_FORMAT) as tar:

        def add(name: str, kind: bytes, mode: int, data: bytes = b"", link: str = "") -> None:
            info = tarfile.TarInfo(name)
            info.type, info.mode, info.mtime, info.linkname = kind, mode, 1700000000, link
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data) if data else None)

        for name, mode in [("bin", 0o755), ("sbin", 0o755), ("usr", 0o755), ("usr/bin", 0o755), ("etc", 0o755),
                           ("root", 0o700), ("tmp", 0o1777), ("var", 0o755), ("proc", 0o755), ("sys", 0o755),
                           ("dev", 0o755)]:  # fmt: skip
            add(name, tarfile.DIRTYPE, mode)
        add("bin/busybox", tarfile.REGTYPE, 0o755, Path(BUSYBOX).read_bytes())
        for applet in applets:
            if applet != "busybox" and "/" not in applet:
                add(f"bin/{applet}", tarfile.SYMTYPE, 0o777, link="busybox")
        add("etc/passwd", tarfile.REGTYPE, 0o644, b"root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534::/:/bin/false\n")
        add("etc/group", tarfile.REGTYPE, 0o644, b"root:x:0:\nnogroup:x:65534:\n")
    return out.getvalue()


@pytest.fixture(scope="session")
def busybox_image() -> str:
    """busybox:1.36 in the daemon, imported unless it is there already."""
    reference = f"{IMAGE_REPO}:{IMAGE_TAG}"
    try:
        status, _ = engine("GET", "/_ping")
    except OSError as error:
        pytest.fail(f"no Docker daemon answers at {DOCKER_SOCKET} ({error}): run .ci/docker.sh", pytrace=False)
    assert status == 200
    status, _ = engine("GET", f"/images/{reference}/json")
    if status == 200:
        return reference
    if not os.path.exists(BUSYBOX):
        pytest.fail(f"{BUSYBOX} is missing: install busybox-static (.ci/docker.sh does)", pytrace=False)
    query = urllib.parse.urlencode(
        [
            ("fromSrc", "-"),
            ("repo", IMAGE_REPO),
            ("tag", IMAGE_TAG),
            ("changes", "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"),
            ("changes", 'CMD ["/bin/sh"]'),
        ]
    )
    status, body = engine(
        "POST", f"/images/create?{query}", busybox_rootfs(), {"Content-Type": "application/x-tar"}
    )
    assert status == 200 and b'"error"' not in body, body[-2000:]
    status, _ = engine("GET", f"/images/{reference}/json")
    assert status == 200, f"{reference} is not in the daemon after the import"
    return reference


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
