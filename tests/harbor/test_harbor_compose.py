"""The real `harbor run` with the oracle on two-service compose tasks over
DockerEnvironment (runc and gVisor): the task's services run as a task group
(shellbox.task) on the real dockerd, main reaches web by name, and nothing is
left after the trial. A no-network task's group reaches nothing else (its
verifier checks that a host server on the Docker bridge's gateway, standing for
the outside world, is out of reach); a public one's group reaches that server."""

from __future__ import annotations

import http.server
import json
import subprocess
import threading
import urllib.parse
import uuid
from pathlib import Path
from typing import Iterator

import pytest

from conftest import ROOT, run_harbor
from test_harbor_docker import ENVIRONMENT, busybox_image, daemon_lock, engine  # noqa: F401 (fixtures)

COMPOSE_TASK = str(ROOT / "tests" / "fixtures" / "docker" / "compose-service")
PUBLIC_COMPOSE_TASK = str(ROOT / "tests" / "fixtures" / "docker" / "compose-public")


def task_containers() -> int:
    filters = urllib.parse.quote(json.dumps({"label": ["dev.shellbox.task"]}))
    status, body = engine("GET", f"/containers/json?all=1&filters={filters}")
    assert status == 200, body
    return len(json.loads(body))


def bridge_gateway() -> str:
    out = subprocess.run(
        ["docker", "network", "inspect", "bridge", "--format", "{{range .IPAM.Config}}{{.Gateway}} {{end}}"],
        capture_output=True, text=True, check=True,
    )
    return next(a for a in out.stdout.split() if "." in a)


@pytest.fixture
def outside() -> Iterator[tuple[str, str]]:
    """An HTTP server on the bridge's gateway answering "outside-<marker>"; yields (url, marker)."""
    marker = uuid.uuid4().hex

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = f"outside-{marker}".encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args) -> None:
            pass

    server = http.server.ThreadingHTTPServer((bridge_gateway(), 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://{server.server_address[0]}:{server.server_address[1]}/", marker
    finally:
        server.shutdown()
        server.server_close()


def environment(marker: str, url: str, **kwargs) -> dict:
    return {"import_path": ENVIRONMENT, "env": {"SHELLBOX_TEST_JOB": marker, "OUTSIDE": url}, "kwargs": kwargs}


@pytest.mark.parametrize("runtime", [None, "runsc"])
@pytest.mark.parametrize("task", [COMPOSE_TASK, PUBLIC_COMPOSE_TASK])
def test_oracle_solves_a_compose_task_as_a_group(
    harbor_ready: Path, busybox_image: str, tmp_path: Path, outside: tuple[str, str], runtime: str | None, task: str  # noqa: F811
) -> None:
    before = task_containers()
    url, marker = outside
    kwargs = {"runtime": runtime} if runtime else {}
    job = run_harbor(harbor_ready, tmp_path, tasks=[task], n_concurrent=1, environment=environment(marker, url, **kwargs))
    (name,) = job.trials
    assert job.trials[name]["exception_info"] is None, job.describe()
    assert job.reward(name) == 1.0, job.describe()
    assert task_containers() == before
