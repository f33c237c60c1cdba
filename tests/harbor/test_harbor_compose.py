"""The real `harbor run` with the oracle on a two-service compose task over
DockerEnvironment: the task's services run as a task group (shellbox.task) on
the real dockerd, main reaches web by name, nothing else is reachable, and
nothing is left after the trial."""

from __future__ import annotations

import json
import urllib.parse
import uuid
from pathlib import Path

from conftest import ROOT, run_harbor
from test_harbor_docker import busybox_image, daemon_lock, docker_environment, engine  # noqa: F401 (fixtures)

COMPOSE_TASK = str(ROOT / "tests" / "fixtures" / "docker" / "compose-service")


def task_containers() -> int:
    filters = urllib.parse.quote(json.dumps({"label": ["dev.shellbox.task"]}))
    status, body = engine("GET", f"/containers/json?all=1&filters={filters}")
    assert status == 200, body
    return len(json.loads(body))


def test_oracle_solves_a_compose_task_as_a_group(harbor_ready: Path, busybox_image: str, tmp_path: Path) -> None:  # noqa: F811
    before = task_containers()
    marker = uuid.uuid4().hex
    job = run_harbor(harbor_ready, tmp_path, tasks=[COMPOSE_TASK], n_concurrent=1, environment=docker_environment(marker))
    (name,) = job.trials
    assert job.trials[name]["exception_info"] is None, job.describe()
    assert job.reward(name) == 1.0, job.describe()
    assert task_containers() == before
