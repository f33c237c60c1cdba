"""Harbor's own Daytona environment (``harbor run`` with environment type daytona, the official
daytona SDK underneath) runs an oracle trial against shellbox-daytona-server on loopback and gets
reward 1.0, and leaves no sandbox behind.

Harbor needs Python >= 3.12: the test makes (once, cached) a venv from ``SHELLBOX_HARBOR_PYTHON``
with ``harbor[daytona]`` at ``.venv-harbor-daytona`` (or ``SHELLBOX_HARBOR_DAYTONA_VENV``)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import urllib.request
from pathlib import Path

import pytest

from testimages import busybox_image

ROOT = Path(__file__).resolve().parents[1]
HARBOR = "harbor[daytona]==0.26.0"
SERVER = ROOT / "python" / "shellbox" / "_bin" / "shellbox-daytona-server"
KEY = "harbor-daytona-key"
BASE = "shellbox-daytona/busybox:1"
BASH_IMAGE = "shellbox-daytona/bash:1"  # Harbor's Daytona environment runs its commands with /bin/bash


def bash_image() -> str:
    """The busybox image plus the host's Bash and the libraries ldd names."""
    if subprocess.run(["docker", "image", "inspect", BASH_IMAGE], capture_output=True).returncode == 0:
        return BASH_IMAGE
    busybox_image(BASE)
    files = ["/bin/bash"]
    for line in subprocess.run(["ldd", "/bin/bash"], capture_output=True, text=True, check=True).stdout.splitlines():
        path = line.split("=>")[-1].split("(")[0].strip()
        if path.startswith("/"):
            files.append(path)
    context = Path(os.environ.get("TMPDIR", "/tmp")) / f"shellbox-bash-image-{os.getpid()}"
    shutil.rmtree(context, ignore_errors=True)
    context.mkdir(parents=True)
    try:
        lines = [f"FROM {BASE}"]
        for i, path in enumerate(files):
            shutil.copyfile(os.path.realpath(path), context / f"f{i}")
            (context / f"f{i}").chmod(0o755)
            lines.append(f"COPY f{i} {path}")
        (context / "Dockerfile").write_text("\n".join(lines) + "\n")
        done = subprocess.run(["docker", "build", "-q", "-t", BASH_IMAGE, str(context)], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    finally:
        shutil.rmtree(context, ignore_errors=True)
    return BASH_IMAGE


@pytest.fixture(scope="module")
def harbor() -> Path:
    base = os.environ.get("SHELLBOX_HARBOR_PYTHON")
    if not base:
        pytest.fail("SHELLBOX_HARBOR_PYTHON is not set: point it at a Python >= 3.12 (.ci/python312.sh prints one)")
    venv = Path(os.environ.get("SHELLBOX_HARBOR_DAYTONA_VENV") or ROOT / ".venv-harbor-daytona")
    python = venv / "bin" / "python"
    probe = [str(python), "-c", "import daytona, harbor"]
    if not python.exists() or subprocess.run(probe, capture_output=True).returncode != 0:
        subprocess.run([base, "-m", "venv", str(venv)], check=True)
        done = subprocess.run([str(python), "-m", "pip", "install", "-q", HARBOR], capture_output=True, text=True)
        assert done.returncode == 0, f"installing {HARBOR} failed:\n{done.stderr[-4000:]}"
    return venv


@pytest.fixture(scope="module")
def server():
    env = {**os.environ, "SHELLBOX_DAYTONA_SERVER_KEY": KEY}
    proc = subprocess.Popen([str(SERVER), "-listen", "127.0.0.1:0"], env=env, stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert "http://" in line, line
        yield line.split()[-1]
    finally:
        proc.terminate()
        assert proc.wait(timeout=60) == 0


def test_oracle_trial(harbor, server, tmp_path):
    image = bash_image()
    task = tmp_path / "answer"
    (task / "solution").mkdir(parents=True)
    (task / "tests").mkdir()
    (task / "instruction.md").write_text("Write 42 into /workspace/answer.txt.\n")
    (task / "task.toml").write_text(
        'schema_version = "1.4"\n\n[verifier]\ntimeout_sec = 60.0\n\n[agent]\ntimeout_sec = 120.0\n\n'
        f'[environment]\ndocker_image = "{image}"\nworkdir = "/workspace"\nnetwork_mode = "no-network"\n'
    )
    (task / "solution" / "solve.sh").write_text("#!/bin/sh\nmkdir -p /workspace\necho 42 > /workspace/answer.txt\n")
    (task / "tests" / "test.sh").write_text(
        '#!/bin/sh\nmkdir -p /logs/verifier\nif [ "$(cat /workspace/answer.txt)" = 42 ]; then echo 1; else echo 0; fi'
        " > /logs/verifier/reward.txt\n"
    )
    for script in (task / "solution" / "solve.sh", task / "tests" / "test.sh"):
        script.chmod(0o755)
    config = {
        "job_name": "daytona",
        "jobs_dir": str(tmp_path / "jobs"),
        "n_concurrent_trials": 1,
        "environment": {"type": "daytona"},
        "agents": [{"name": "oracle"}],
        "tasks": [{"path": str(task)}],
    }
    (tmp_path / "job.json").write_text(json.dumps(config))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DAYTONA_", "HARBOR_")) and k != "PYTHONPATH"}
    env.update(HARBOR_TELEMETRY="0", NO_COLOR="1", DAYTONA_API_KEY=KEY, DAYTONA_API_URL=server)
    done = subprocess.run(
        [str(harbor / "bin" / "harbor"), "run", "-c", str(tmp_path / "job.json"), "-y", "-q"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600,
    )
    trials = [json.loads(p.read_text()) for p in (tmp_path / "jobs" / "daytona").glob("*/result.json")]
    assert len(trials) == 1, (done.stdout[-3000:], done.stderr[-3000:])
    trial = trials[0]
    assert (trial.get("verifier_result") or {}).get("rewards", {}).get("reward") == 1.0, trial.get("exception_info")
    request = urllib.request.Request(server + "/sandbox", headers={"Authorization": f"Bearer {KEY}"})
    with urllib.request.urlopen(request) as reply:
        assert json.loads(reply.read()) == [], "Harbor's sandbox was not deleted"
