"""Running the real ``harbor`` CLI against our environments and agents.

Harbor needs Python >= 3.12, so these tests drive it as a subprocess from a
venv made from ``SHELLBOX_HARBOR_PYTHON`` (cached in ``.venv-harbor`` at the
repository root, or ``SHELLBOX_HARBOR_VENV``), with our package taken from
``python/`` and its in-tree native build (``make native``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
TASKS = ROOT / "tests" / "fixtures" / "tasks"
HARBOR_VERSION = "0.26.0"


def _fail(message: str) -> None:
    pytest.fail(message, pytrace=False)


@pytest.fixture(scope="session")
def harbor_venv() -> Path:
    """A venv with Harbor installed; made once and kept."""
    base = os.environ.get("SHELLBOX_HARBOR_PYTHON")
    if not base:
        _fail(
            "SHELLBOX_HARBOR_PYTHON is not set: point it at a Python >= 3.12 interpreter "
            "(e.g. SHELLBOX_HARBOR_PYTHON=/root/.pyenv/versions/3.13.0/bin/python3); "
            "the Harbor tests need it to install and run harbor"
        )
    version = subprocess.run(
        [base, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"], capture_output=True, text=True
    )
    if version.returncode != 0:
        _fail(f"SHELLBOX_HARBOR_PYTHON={base} does not run: {version.stderr.strip()}")
    if tuple(int(x) for x in version.stdout.strip().split(".")) < (3, 12):
        _fail(f"SHELLBOX_HARBOR_PYTHON={base} is Python {version.stdout.strip()}; Harbor needs >= 3.12")
    venv = Path(os.environ.get("SHELLBOX_HARBOR_VENV") or ROOT / ".venv-harbor")
    python = venv / "bin" / "python"
    probe = [str(python), "-c", "import importlib.metadata as m; print(m.version('harbor'))"]
    if not python.exists() or subprocess.run(probe, capture_output=True).returncode != 0:
        subprocess.run([base, "-m", "venv", str(venv)], check=True)
        done = subprocess.run(
            [str(python), "-m", "pip", "install", "-q", f"harbor=={HARBOR_VERSION}"], capture_output=True, text=True
        )
        if done.returncode != 0:
            _fail(f"installing harbor=={HARBOR_VERSION} into {venv} failed:\n{done.stderr[-4000:]}")
    return venv


def harbor_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("OPENAI_", "ANTHROPIC_", "HARBOR_")) and k != "PYTHONPATH"
    }
    env.update(
        HARBOR_TELEMETRY="0",
        LITELLM_LOCAL_MODEL_COST_MAP="True",
        PYTHONPATH=str(ROOT / "python"),
        NO_COLOR="1",
        PYTHONUNBUFFERED="1",
    )
    env.update(extra or {})
    return env


@pytest.fixture(scope="session")
def harbor_ready(harbor_venv: Path) -> Path:
    """The venv, once our library proves it has the local backend."""
    check = subprocess.run(
        [
            str(harbor_venv / "bin" / "python"),
            "-c",
            "from shellbox import _go, _native; _native.library(); print(_go.call_sync(0, 'backends').header)",
        ],
        capture_output=True,
        text=True,
        env=harbor_env(),
    )
    if check.returncode != 0:
        _fail(f"loading libshellbox from {harbor_venv} failed (run `make native`):\n{check.stderr[-3000:]}")
    if "local" not in check.stdout:
        _fail(
            f"libshellbox has no local backend registered (backends: {check.stdout.strip()}); rebuild with `make native`"
        )
    return harbor_venv


class Job:
    """A finished `harbor run`: its directory and trial results."""

    def __init__(self, path: Path, process: subprocess.CompletedProcess, seconds: float):
        self.path = path
        self.process = process
        self.seconds = seconds
        self.marker = ""
        self.result = json.loads((path / "result.json").read_text())
        self.trials: dict[str, dict[str, Any]] = {}
        for trial in sorted(p for p in path.iterdir() if (p / "result.json").exists() and p.is_dir()):
            data = json.loads((trial / "result.json").read_text())
            self.trials[data["task_name"]] = data | {"_dir": str(trial)}

    def reward(self, task: str) -> float | None:
        verifier = self.trials[task].get("verifier_result") or {}
        return (verifier.get("rewards") or {}).get("reward")

    def describe(self) -> str:
        lines = [f"harbor exit {self.process.returncode}", self.process.stdout[-3000:], self.process.stderr[-3000:]]
        for name, trial in self.trials.items():
            exc = trial.get("exception_info") or {}
            lines.append(
                f"{name}: reward={self.reward(name)} exception={exc.get('exception_type')}: {exc.get('exception_message')}"
            )
            log = Path(trial["_dir"]) / "exception.txt"
            if log.exists():
                lines.append(log.read_text()[-3000:])
        return "\n".join(lines)


def run_harbor(
    venv: Path,
    workdir: Path,
    *,
    tasks: list[str],
    agent: dict[str, Any] | None = None,
    environment: dict[str, Any] | None = None,
    n_concurrent: int = 2,
    job_name: str = "job",
    extra_env: dict[str, str] | None = None,
    timeout: float = 600,
) -> Job:
    config = {
        "job_name": job_name,
        "jobs_dir": str(workdir / "jobs"),
        "n_concurrent_trials": n_concurrent,
        "environment": environment or {"import_path": "shellbox.backends.local.environment:LocalEnvironment"},
        "agents": [agent or {"name": "oracle"}],
        "tasks": [{"path": str(TASKS / t) if not os.path.isabs(t) else t} for t in tasks],
    }
    path = workdir / f"{job_name}.json"
    path.write_text(json.dumps(config, indent=1))
    marker = uuid.uuid4().hex
    began = time.perf_counter()
    process = subprocess.run(
        [str(venv / "bin" / "harbor"), "run", "-c", str(path), "-y", "-q"],
        cwd=workdir,
        env=harbor_env({**(extra_env or {}), "SHELLBOX_TEST_JOB": marker}),
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    seconds = time.perf_counter() - began
    time.sleep(0.2)  # let killed processes be reaped
    job_dir = workdir / "jobs" / job_name
    if not (job_dir / "result.json").exists():
        raise AssertionError(
            f"harbor wrote no job result (exit {process.returncode}):\n{process.stdout[-4000:]}\n{process.stderr[-4000:]}"
        )
    job = Job(job_dir, process, seconds)
    job.marker = marker
    return job


if sys.version_info < (3, 11):  # pragma: no cover - the repo's own test venv is 3.11+
    raise RuntimeError("the shellbox tests need Python 3.11 or newer")
